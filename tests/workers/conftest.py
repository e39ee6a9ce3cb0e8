"""A fresh, migrated database for every test that asks for one.

The server is the machine's real Postgres (127.0.0.1:5432, or SKYARENA_TEST_DATABASE_URL)
when it answers, else an embedded pgserver shared by every xdist worker of the run. The
schema is migrated once into a template database named after the migrations' content;
each test gets its own copy (CREATE DATABASE ... TEMPLATE, ~0.1 s), dropped afterwards,
so tests run in parallel under `pytest -n` without seeing each other's rows.
"""

from __future__ import annotations

import hashlib
import os
import uuid
from collections.abc import Iterator

import psycopg
import pytest

from workers.store import Database
from workers.store.schema import MIGRATIONS, upgrade

LOCAL_SERVER = "postgresql://postgres@127.0.0.1:5432/postgres"
LOCK_KEY = 0x5C1A  # an advisory lock serialising template builds and copies on the server


def _answers(url: str) -> bool:
    try:
        psycopg.connect(url, connect_timeout=2).close()
    except psycopg.OperationalError:
        return False
    return True


def _with_dbname(url: str, dbname: str) -> str:
    info = psycopg.conninfo.conninfo_to_dict(url)
    info["dbname"] = dbname
    return psycopg.conninfo.make_conninfo(**{k: str(v) for k, v in info.items() if v is not None})


def _migrations_digest() -> str:
    digest = hashlib.sha256()
    for path in sorted(MIGRATIONS.rglob("*.py")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


@pytest.fixture(scope="session")
def postgres_server_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    """An administrative URL on the server the tests use."""
    configured = os.environ.get("SKYARENA_TEST_DATABASE_URL")
    if configured:
        return configured
    if _answers(LOCAL_SERVER):
        return LOCAL_SERVER
    from workers.store.embedded import embedded_database_url

    # The base temp folder's parent is shared by all xdist workers of this run: one server.
    return embedded_database_url(tmp_path_factory.getbasetemp().parent / "embedded")


@pytest.fixture(scope="session")
def template_database(postgres_server_url: str) -> str:
    """The name of a database migrated to head, built once per server and migrations digest."""
    name = f"skyarena_tmpl_{_migrations_digest()}"
    with psycopg.connect(postgres_server_url, autocommit=True) as admin:
        admin.execute("SELECT pg_advisory_lock(%s)", (LOCK_KEY,))
        try:
            if admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone() is None:
                building = f"{name}_building"
                admin.execute(f'DROP DATABASE IF EXISTS "{building}" WITH (FORCE)')
                admin.execute(f'CREATE DATABASE "{building}"')
                upgrade(_with_dbname(postgres_server_url, building))
                admin.execute(f'ALTER DATABASE "{building}" RENAME TO "{name}"')
        finally:
            admin.execute("SELECT pg_advisory_unlock(%s)", (LOCK_KEY,))
    return name


@pytest.fixture
def database_url(postgres_server_url: str, template_database: str) -> Iterator[str]:
    """A URL to a database of this test's own, at the current schema."""
    name = f"skyarena_t_{uuid.uuid4().hex[:16]}"
    with psycopg.connect(postgres_server_url, autocommit=True) as admin:
        admin.execute("SELECT pg_advisory_lock(%s)", (LOCK_KEY,))
        try:
            admin.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template_database}"')
        finally:
            admin.execute("SELECT pg_advisory_unlock(%s)", (LOCK_KEY,))
    try:
        yield _with_dbname(postgres_server_url, name)
    finally:
        with psycopg.connect(postgres_server_url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def empty_database_url(postgres_server_url: str) -> Iterator[str]:
    """A URL to an empty database of this test's own (no schema), for migration tests."""
    name = f"skyarena_e_{uuid.uuid4().hex[:16]}"
    with psycopg.connect(postgres_server_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield _with_dbname(postgres_server_url, name)
    finally:
        with psycopg.connect(postgres_server_url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def db(database_url: str) -> Iterator[Database]:
    """The store's pool on this test's database."""
    database = Database(database_url, max_size=4)
    try:
        yield database
    finally:
        database.close()

