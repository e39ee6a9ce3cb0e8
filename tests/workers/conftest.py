"""A fresh, migrated database for every test that asks for one.

The server is the machine's real Postgres (127.0.0.1:5432, or SKYARENA_TEST_DATABASE_URL)
when it answers, else an embedded pgserver shared by every xdist worker of the run. The
schema is migrated once into a template database named after the migrations' content;
each test gets its own copy (CREATE DATABASE ... TEMPLATE, ~0.1 s), dropped afterwards,
so tests run in parallel under `pytest -n` without seeing each other's rows.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import tempfile
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psutil
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


@contextmanager
def _server_lock(server_url: str) -> Iterator[psycopg.Connection[Any]]:
    """An autocommit connection holding the advisory lock that serialises template builds and copies."""
    with psycopg.connect(server_url, autocommit=True) as admin:
        admin.execute("SELECT pg_advisory_lock(%s)", (LOCK_KEY,))
        try:
            yield admin
        finally:
            admin.execute("SELECT pg_advisory_unlock(%s)", (LOCK_KEY,))


def build_template_once(server_url: str, name: str, build: Callable[[psycopg.Connection[Any], str], object],
                        template: str | None = None) -> None:
    """Create database ``name`` unless it exists: built as ``<name>_building`` (from ``template``,
    or empty) by ``build(admin, url)``, then renamed, so a half-built one is never used."""
    with _server_lock(server_url) as admin:
        if admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone() is not None:
            return
        building = f"{name}_building"
        admin.execute(f'DROP DATABASE IF EXISTS "{building}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{building}"' + (f' TEMPLATE "{template}"' if template else ""))
        build(admin, _with_dbname(server_url, building))
        admin.execute(f'ALTER DATABASE "{building}" RENAME TO "{name}"')


@contextmanager
def database_copy(server_url: str, template: str | None, prefix: str = "skyarena_t") -> Iterator[str]:
    """A URL to a database of the caller's own (a copy of ``template``, or empty), dropped afterwards."""
    name = f"{prefix}_{uuid.uuid4().hex[:16]}"
    with _server_lock(server_url) as admin:
        admin.execute(f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template else ""))
    try:
        yield _with_dbname(server_url, name)
    finally:
        with psycopg.connect(server_url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="session")
def template_database(postgres_server_url: str) -> str:
    """The name of a database migrated to head, built once per server and migrations digest."""
    name = f"skyarena_tmpl_{_migrations_digest()}"
    build_template_once(postgres_server_url, name, lambda _admin, url: upgrade(url))
    return name


@pytest.fixture
def database_url(postgres_server_url: str, template_database: str) -> Iterator[str]:
    """A URL to a database of this test's own, at the current schema."""
    with database_copy(postgres_server_url, template_database) as url:
        yield url


@pytest.fixture
def empty_database_url(postgres_server_url: str) -> Iterator[str]:
    """A URL to an empty database of this test's own (no schema), for migration tests."""
    with database_copy(postgres_server_url, None, prefix="skyarena_e") as url:
        yield url


@pytest.fixture
def db(database_url: str) -> Iterator[Database]:
    """The store's pool on this test's database."""
    database = Database(database_url, max_size=4)
    try:
        yield database
    finally:
        database.close()



EMBEDDED_SERVERS = ("redis-server", "postgres")  # what a data folder's embedded broker and store run as


def stop_embedded_servers(folder: Path, timeout: float = 10.0) -> list[int]:
    """Stop every embedded Redis or Postgres still serving from ``folder``: a test that SIGKILLs
    its processes leaves them no chance to stop the servers they shared (they outlive their
    folder otherwise, one orphan per test run). Returns the pids stopped."""
    inside = str(folder.resolve())
    found = []
    for proc in psutil.process_iter(["name", "cwd", "cmdline"]):
        info = proc.info
        if info["name"] not in EMBEDDED_SERVERS:
            continue
        places = [info["cwd"] or "", *(info["cmdline"] or [])]
        if any(place == inside or place.startswith(inside + os.sep) for place in places):
            found.append(proc)
    for proc in found:
        with contextlib.suppress(psutil.NoSuchProcess):
            proc.terminate()
    _, alive = psutil.wait_procs(found, timeout=timeout)
    for proc in alive:
        with contextlib.suppress(psutil.NoSuchProcess):
            proc.kill()
    return [proc.pid for proc in found]


@pytest.fixture
def short_dir() -> Iterator[Path]:
    """A folder with a short path (unix socket paths are limited to about 100 bytes), for the
    data of processes under test; their embedded servers are stopped before it is removed."""
    folder = Path(tempfile.mkdtemp(prefix="sk-", dir="/tmp"))
    try:
        yield folder
    finally:
        stop_embedded_servers(folder)
        shutil.rmtree(folder, ignore_errors=True)
