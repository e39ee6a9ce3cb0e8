"""``skyarena db``: apply and check the store's schema migrations."""

from __future__ import annotations

import json
from pathlib import Path

import click

from skyarena.cli_support import UserError
from workers.commands.store_options import store_options
from workers.store import StoreError, connect, redact, resolve_url
from workers.store.schema import current_revision, head_revision, require_current, upgrade


@click.group("db")
def command() -> None:
    """The store's schema (DATABASE_URL, else the embedded Postgres under SKYARENA_DATA_DIR)."""


_json = click.option("--json", "as_json", is_flag=True, help="Print JSON.")


@command.command("upgrade")
@store_options
@_json
def upgrade_command(database_url: str | None, data_dir: Path | None, as_json: bool) -> None:
    """Apply every migration this installation has (safe to run again)."""
    try:
        url = resolve_url(database_url, data_dir)
        before, after = upgrade(url)
    except StoreError as exc:
        raise UserError(str(exc)) from None
    if as_json:
        click.echo(json.dumps({"database": redact(url), "before": before, "after": after}))
    elif before == after:
        click.echo(f"the schema at {redact(url)} is up to date ({after})")
    else:
        click.echo(f"migrated {redact(url)} from {before or 'empty'} to {after}")


@command.command("status")
@store_options
@_json
def status_command(database_url: str | None, data_dir: Path | None, as_json: bool) -> None:
    """Say whether the schema is current; exit 1 when it is not."""
    try:
        url = resolve_url(database_url, data_dir)
        with connect(url) as conn:
            current = current_revision(conn)
            try:
                require_current(conn)
                problem = None
            except StoreError as exc:
                problem = str(exc)
    except StoreError as exc:
        raise UserError(str(exc)) from None
    if as_json:
        click.echo(json.dumps({"database": redact(url), "current": current, "head": head_revision(),
                               "ok": problem is None, "problem": problem}))
    else:
        click.echo(problem or f"the schema at {redact(url)} is current ({current})")
    if problem is not None:
        raise SystemExit(1)
