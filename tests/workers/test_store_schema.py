"""The store's schema: migrations apply once, services refuse a schema they do not know,
and connection problems read as instructions."""

from __future__ import annotations

import json

import psycopg
import pytest
from click.testing import CliRunner

from skyarena.cli import main
from workers.store import DatabaseUnavailable, SchemaMismatch, connect, open_database, resolve_url
from workers.store.schema import current_revision, head_revision, require_current, upgrade


def test_upgrade_creates_every_table_and_is_idempotent(empty_database_url: str) -> None:
    before, after = upgrade(empty_database_url)
    assert (before, after) == (None, head_revision())
    with connect(empty_database_url) as conn:
        rows = conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
        tables = {row["tablename"] for row in rows}
    assert {"accounts", "api_tokens", "blobs", "bots", "bot_versions", "seasons", "ladders", "matches",
            "participants", "replays", "bot_logs", "ratings", "rating_history", "season_standings"} <= tables
    assert upgrade(empty_database_url) == (head_revision(), head_revision())


def test_a_service_refuses_an_unmigrated_database_and_names_the_command(empty_database_url: str) -> None:
    with pytest.raises(SchemaMismatch, match="run `skyarena db upgrade`"):
        open_database(empty_database_url)


def test_a_service_refuses_a_newer_schema(database_url: str) -> None:
    with connect(database_url) as conn:
        conn.execute("UPDATE alembic_version SET version_num = '9999'")
        conn.commit()
        with pytest.raises(SchemaMismatch, match="newer than this installation"):
            require_current(conn)
    with pytest.raises(SchemaMismatch, match="newer"):
        upgrade(database_url)
    with connect(database_url) as conn:
        assert current_revision(conn) == "9999"  # refused: nothing was touched


def test_the_pool_serves_transactions_that_roll_back_on_error(database_url: str) -> None:
    store = open_database(database_url)
    try:
        with pytest.raises(psycopg.errors.CheckViolation), store.connection() as conn:
            conn.execute("INSERT INTO accounts (name) VALUES ('ok-name')")
            conn.execute("INSERT INTO accounts (name) VALUES ('bad name with spaces')")
        with store.connection() as conn:
            assert conn.execute("SELECT count(*) AS n FROM accounts").fetchone() == {"n": 0}
    finally:
        store.close()


@pytest.mark.parametrize("url, message", [
    ("mysql://root@localhost/x", "must be a Postgres URL"),
    ("postgresql://nobody@127.0.0.1:1/none", "cannot connect to the database at"),
])
def test_bad_urls_say_what_to_check(url: str, message: str) -> None:
    with pytest.raises(DatabaseUnavailable, match=message):
        connect(resolve_url(url))


def test_passwords_never_appear_in_messages() -> None:
    with pytest.raises(DatabaseUnavailable) as caught:
        connect("postgresql://someone:s3cret-pw@127.0.0.1:1/none")
    assert "s3cret-pw" not in str(caught.value)


def test_db_commands(empty_database_url: str) -> None:
    runner = CliRunner()
    status = runner.invoke(main, ["db", "status", "--database-url", empty_database_url, "--json"])
    assert status.exit_code == 1 and json.loads(status.output)["ok"] is False
    applied = runner.invoke(main, ["db", "upgrade", "--database-url", empty_database_url, "--json"])
    assert applied.exit_code == 0, applied.output
    assert json.loads(applied.output)["after"] == head_revision()
    status = runner.invoke(main, ["db", "status", "--database-url", empty_database_url])
    assert status.exit_code == 0 and "current" in status.output
    broken = runner.invoke(main, ["db", "upgrade", "--database-url", "postgresql://x@127.0.0.1:1/y"])
    assert broken.exit_code == 2 and "cannot connect" in broken.output


def test_the_embedded_server_starts_when_no_url_is_set(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("SKYARENA_DATA_DIR", str(tmp_path))
    url = resolve_url()
    with connect(url) as conn:
        assert conn.execute("SELECT 41 + 1 AS answer").fetchone() == {"answer": 42}
    assert (tmp_path / "postgres" / "PG_VERSION").is_file()
    # A second resolution (another service on this machine) joins the same server.
    assert resolve_url() == url
