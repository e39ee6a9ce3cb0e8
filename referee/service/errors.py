"""A request the referee refuses, and how a status code travels inside a message."""

from __future__ import annotations

import grpc


class RequestError(Exception):
    """A request the referee refuses; becomes a gRPC status with this code and message."""

    def __init__(self, code: grpc.StatusCode, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def status_number(code: grpc.StatusCode) -> int:
    """The number of a gRPC status code, as a ``Notice`` carries it (a Notice is no status)."""
    return int(code.value[0])

