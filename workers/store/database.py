"""Connections to the store: which server, one pool per process, errors a person can act on.

The URL comes from the caller, else ``DATABASE_URL``, else the embedded server
(`embedded.py`). Every connection runs in UTC with a statement timeout, so a stuck query
fails instead of holding a worker or a dashboard page forever.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psycopg
from psycopg.rows import dict_row
from psycopg_pool import ConnectionPool, PoolTimeout

from workers.config import PlatformSettings

from .embedded import embedded_database_url
from .errors import DatabaseUnavailable

DATABASE_URL_ENV = PlatformSettings.env_name("database_url")
CONNECT_TIMEOUT_S = 5          # a wrong host fails in seconds, not after the OS's TCP timeout
STATEMENT_TIMEOUT_MS = 30_000  # no query of the platform needs longer; a runaway one is cut off

Row = dict[str, Any]
Conn = psycopg.Connection[Row]  # every store connection returns rows as dicts


def resolve_url(url: str | None = None, data_dir: Path | None = None) -> str:
    """The server to use: the explicit URL, ``DATABASE_URL``, or the embedded server."""
    chosen = url or PlatformSettings.from_env().database_url
    if chosen:
        if not chosen.startswith(("postgresql://", "postgres://")) and "=" not in chosen:
            raise DatabaseUnavailable(f"{DATABASE_URL_ENV} must be a Postgres URL like "
                                      f"postgresql://user@host:5432/dbname, not {redact(chosen)!r}")
        return chosen
    return embedded_database_url(data_dir)


def redact(url: str) -> str:
    """The URL without its password, for messages and logs."""
    try:
        info = psycopg.conninfo.conninfo_to_dict(url)
    except psycopg.ProgrammingError:
        return "<an unparseable URL>"
    if "password" in info:
        info["password"] = "***"
    return psycopg.conninfo.make_conninfo(**{k: str(v) for k, v in info.items() if v is not None})


def _connect_kwargs() -> dict[str, Any]:
    return {"connect_timeout": CONNECT_TIMEOUT_S,
            "options": f"-c statement_timeout={STATEMENT_TIMEOUT_MS} -c TimeZone=UTC",
            "application_name": f"skyarena-{os.getpid()}"}


def connect(url: str, *, autocommit: bool = False) -> Conn:
    """One connection (rows as dicts), or a DatabaseUnavailable that says what to check."""
    try:
        return psycopg.connect(url, autocommit=autocommit, row_factory=dict_row, **_connect_kwargs())
    except psycopg.ProgrammingError as exc:
        raise DatabaseUnavailable(f"{DATABASE_URL_ENV} is not a valid Postgres URL ({exc}); "
                                  "expected postgresql://user[:password]@host[:port]/dbname") from None
    except psycopg.OperationalError as exc:
        reason = str(exc).strip().splitlines()[-1] if str(exc).strip() else type(exc).__name__
        raise DatabaseUnavailable(f"cannot connect to the database at {redact(url)}: {reason}. Is the server "
                                  f"running and the URL right? (unset {DATABASE_URL_ENV}: embedded)") from None


class Database:
    """A process's pool of connections to one store; safe to share between threads.

    Opened lazily and re-opened after a fork (Celery's prefork children must not share
    the parent's sockets).
    """

    def __init__(self, url: str, *, min_size: int = 1, max_size: int = 8) -> None:
        self.url = url
        self._sizes = (min_size, max_size)
        self._pool: ConnectionPool[Conn] | None = None
        self._pid = 0
        self._lock = threading.Lock()

    def _get_pool(self) -> ConnectionPool[Conn]:
        with self._lock:
            if self._pool is None or self._pid != os.getpid():
                connect(self.url).close()  # fail now with a clear message, not inside the pool's thread
                self._pool = ConnectionPool(self.url, min_size=self._sizes[0], max_size=self._sizes[1],
                                            kwargs={"row_factory": dict_row, **_connect_kwargs()},
                                            open=True, name="skyarena-store")
                self._pid = os.getpid()
            return self._pool

    @contextmanager
    def connection(self, timeout_s: float = 30.0) -> Iterator[Conn]:
        """A pooled connection inside a transaction: committed on success, rolled back on error."""
        try:
            with self._get_pool().connection(timeout=timeout_s) as conn:
                yield conn
        except PoolTimeout:
            raise DatabaseUnavailable(f"no database connection within {timeout_s:.0f} s from {redact(self.url)}; "
                                      "the server is overloaded or unreachable") from None

    def close(self) -> None:
        with self._lock:
            if self._pool is not None and self._pid == os.getpid():
                self._pool.close()
            self._pool = None


def open_database(url: str | None = None, *, data_dir: Path | None = None, check_schema: bool = True,
                  max_size: int = 8) -> Database:
    """The store for a service: resolves the URL and (by default) refuses a schema it does not know."""
    resolved = resolve_url(url, data_dir)
    if check_schema:
        from .schema import require_current

        with connect(resolved) as conn:
            require_current(conn)
    return Database(resolved, max_size=max_size)
