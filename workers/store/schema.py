"""The store's schema version: applying migrations and refusing a database that does not match.

Migrations are alembic revisions of plain SQL (`migrations/versions/`). Alembic is the
maintained standard for Postgres migrations in Python; we use only its revision graph,
its version table and `op.execute`, with SQLAlchemy as the connection layer it needs,
not as an ORM. Every service calls `require_current` at start-up, so a worker never
writes into a schema it was not written for.
"""

from __future__ import annotations

from pathlib import Path

from alembic.config import Config

from .database import Conn, connect
from .errors import SchemaMismatch

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
UPGRADE_COMMAND = "skyarena db upgrade"


def _alembic_config(url: str) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["database_url"] = url
    return config


def head_revision() -> str:
    """The newest revision this code knows."""
    from alembic.script import ScriptDirectory

    script = ScriptDirectory(str(MIGRATIONS))
    heads = script.get_heads()
    if len(heads) != 1:
        raise SchemaMismatch(f"the migrations have {len(heads)} heads ({', '.join(heads)}); merge them")
    return heads[0]


def known_revisions() -> set[str]:
    from alembic.script import ScriptDirectory

    return {rev.revision for rev in ScriptDirectory(str(MIGRATIONS)).walk_revisions()}


def current_revision(conn: Conn) -> str | None:
    """The database's revision, or None when it was never migrated."""
    exists = conn.execute("SELECT to_regclass('alembic_version') IS NOT NULL AS present").fetchone()
    if exists is None or not exists["present"]:
        return None
    row = conn.execute("SELECT version_num FROM alembic_version").fetchone()
    if row is None:
        return None
    return str(row["version_num"])


def require_current(conn: Conn) -> None:
    """Raise SchemaMismatch, saying which command to run, unless the schema is this code's head."""
    current = current_revision(conn)
    head = head_revision()
    if current == head:
        return
    if current is None:
        raise SchemaMismatch(f"the database has no Skyarena schema yet: run `{UPGRADE_COMMAND}` first")
    if current not in known_revisions():
        raise SchemaMismatch(f"the database's schema ({current}) is newer than this installation knows "
                             f"(up to {head}): upgrade Skyarena on this machine to the version that migrated it")
    raise SchemaMismatch(f"the database's schema is at {current}, this code needs {head}: run `{UPGRADE_COMMAND}`")


def upgrade(url: str, revision: str = "head") -> tuple[str | None, str]:
    """Apply migrations up to ``revision``; returns (before, after)."""
    from alembic import command

    with connect(url) as conn:
        before = current_revision(conn)
        if before is not None and before not in known_revisions():
            raise SchemaMismatch(f"the database's schema ({before}) is newer than this installation knows: "
                                 "upgrade Skyarena before migrating")
    command.upgrade(_alembic_config(url), revision)
    with connect(url) as conn:
        after = current_revision(conn)
    return before, after or ""
