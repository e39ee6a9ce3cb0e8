"""The Arena's own errors: its root, and the refusals that carry their gRPC status themselves.

The Arena's handlers also let the other layers' errors through (an engine's bad option, the
store's not-found, a worker's broker outage); `statuses.py` turns each class into its status.
"""

from __future__ import annotations

from serving.status import StatusError


class ArenaError(Exception):
    """Something the Arena refuses or cannot do; the message says what to do next."""


class CallRefused(ArenaError, StatusError):
    """A call that cannot go on, with its own status code (a missing token, another author's bot)."""


class BadRequest(ArenaError, ValueError):
    """A request field the Arena cannot use as sent (gRPC: INVALID_ARGUMENT)."""
