"""A refusal that becomes a gRPC status: its code and a one-line message that says what to do."""

from __future__ import annotations

import grpc


class StatusError(Exception):
    """Raised by a handler (or what it calls) that cannot go on; the server aborts the call with
    ``code`` and ``message``."""

    def __init__(self, code: grpc.StatusCode, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
