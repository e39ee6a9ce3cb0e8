"""The worker layer's errors: its own root, apart from the engines' and the store's.

Each layer of the platform has one root, so a caller can tell whose problem an error is:
``referee.games.SkyarenaError`` (an engine: bad options, an illegal move, a bad replay),
``workers.store.StoreError`` (the store: unreachable, wrong schema, not found, conflict) and
``WorkerError`` here (a worker's configuration and services: the broker, the referees, a
version's archive, a season's settings). The Arena adds its own (`workers.arena.errors`).
"""

from __future__ import annotations

from referee.games import SkyarenaError
from workers.store.errors import StoreError


class WorkerError(Exception):
    """A worker cannot do what was asked; the message says what to do."""


# What a platform command reports in one line instead of a traceback: any layer's own error.
PLATFORM_ERRORS: tuple[type[Exception], ...] = (SkyarenaError, StoreError, WorkerError)
