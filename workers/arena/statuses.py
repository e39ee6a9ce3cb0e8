"""Which gRPC status each error becomes, class by class: one table for every Arena call.

The first row whose class the error is an instance of decides, so subclasses come before
their parents. A bad request is the caller's to fix (INVALID_ARGUMENT, with the message of
whoever refused it: the engine, the season rules, the archive check); a store or broker
that cannot be reached is the operator's (UNAVAILABLE, "try again later"); an error no row
names is a bug (INTERNAL, logged with its traceback by the caller).
"""

from __future__ import annotations

import grpc

from referee.games import ArgumentError, OptionError, PlayerCountError, UnknownGame
from referee.match.participant import EngineVersionMismatch
from serving.status import StatusError
from workers.errors import WorkerError
from workers.seasons import SeasonError
from workers.store.accounts import ScopeRefused, TokenRefused
from workers.store.errors import Conflict, NotFound, StoreError
from workers.store.online import NotYours
from workers.store.replay_document import ReplayDocumentError

from .archive import ArchiveRefused
from .errors import BadRequest
from .intake import UploadTooLarge

Code = grpc.StatusCode
OUTAGE = "the Arena cannot serve this now (try again later; tell the organisers if it lasts): {}"

# (error class, status, message: "{}" is the error's own message)
STATUS_TABLE: tuple[tuple[type[Exception], grpc.StatusCode, str], ...] = (
    (UploadTooLarge, Code.RESOURCE_EXHAUSTED, "{}"),
    (ArchiveRefused, Code.INVALID_ARGUMENT, "{}"),
    (BadRequest, Code.INVALID_ARGUMENT, "{}"),
    (SeasonError, Code.INVALID_ARGUMENT, "{}"),
    (UnknownGame, Code.INVALID_ARGUMENT, "{}"),
    (OptionError, Code.INVALID_ARGUMENT, "{}"),
    (PlayerCountError, Code.INVALID_ARGUMENT, "{}"),
    (ArgumentError, Code.INVALID_ARGUMENT, "{}"),
    (ScopeRefused, Code.PERMISSION_DENIED, "{}"),
    (NotYours, Code.PERMISSION_DENIED, "{}"),
    (TokenRefused, Code.UNAUTHENTICATED, "{}"),
    (NotFound, Code.NOT_FOUND, "{}"),
    (Conflict, Code.FAILED_PRECONDITION, "{}"),
    (ReplayDocumentError, Code.DATA_LOSS, "the stored replay cannot be read ({}): tell the organisers"),
    (EngineVersionMismatch, Code.FAILED_PRECONDITION, "{}"),  # a stored match this engine no longer re-plays
    (StoreError, Code.UNAVAILABLE, OUTAGE),   # the database down, its schema not migrated
    (WorkerError, Code.UNAVAILABLE, OUTAGE),  # the broker or the referees down or misconfigured
    (ValueError, Code.INVALID_ARGUMENT, "{}"),  # a store or parameter check of a request's value
)


def status_of(exc: BaseException) -> tuple[grpc.StatusCode, str] | None:
    """The status and message ``exc`` becomes, or None when no row names it (a bug: INTERNAL)."""
    if isinstance(exc, StatusError):
        return exc.code, exc.message
    for cls, code, message in STATUS_TABLE:
        if isinstance(exc, cls):
            return code, message.format(exc)
    return None
