"""The options every store-backed command shares, and opening the store with errors as UserErrors."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from skyarena.cli_support import UserError
from workers.store import Database, StoreError, open_database

F = TypeVar("F", bound=Callable[..., Any])


def store_options(func: F) -> F:
    """``--database-url`` (env DATABASE_URL) and ``--data-dir`` (env SKYARENA_DATA_DIR)."""
    func = click.option("--data-dir", envvar="SKYARENA_DATA_DIR", type=click.Path(path_type=Path),
                        help="Where the embedded server keeps its data (env SKYARENA_DATA_DIR).")(func)
    func = click.option("--database-url", envvar="DATABASE_URL", metavar="URL",
                        help="Postgres URL (env DATABASE_URL; default: the embedded server).")(func)
    return func


def open_store(database_url: str | None, data_dir: Path | None) -> Database:
    """The store at its current schema, or a UserError that says what to run or check."""
    try:
        return open_database(database_url, data_dir=data_dir, max_size=2)
    except StoreError as exc:
        raise UserError(str(exc)) from None
