"""Database fixtures for the dashboard's tests: the store's own (tests/workers/conftest.py),
and a copy per test of a league seeded once per run (`league_seed.py`: real games, so a
few seconds to build, milliseconds to copy)."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from tests.dashboard.league_seed import Seeded, seed_league
from tests.workers.conftest import (  # noqa: F401  (fixtures, found by name)
    _migrations_digest,
    build_template_once,
    database_copy,
    database_url,
    db,
    empty_database_url,
    postgres_server_url,
    template_database,
)
from workers.store import Database

SEED_SOURCE = Path(__file__).with_name("league_seed.py")


@dataclasses.dataclass(frozen=True)
class SeededDatabase:
    url: str
    league: Seeded


@pytest.fixture(scope="session")
def seeded_template(postgres_server_url: str, template_database: str) -> tuple[str, Seeded]:  # noqa: F811
    """A database holding the seeded league, built once per migrations and seed code; the league's ids
    ride along as the database's comment, so every xdist worker reads the same ones."""
    digest = hashlib.sha256(_migrations_digest().encode() + SEED_SOURCE.read_bytes()).hexdigest()[:12]
    name = f"skyarena_seed_{digest}"

    def build(admin: psycopg.Connection[Any], url: str) -> None:
        store = Database(url, max_size=2)
        try:
            league = seed_league(store)
        finally:
            store.close()
        ids = psycopg.sql.quote(json.dumps(dataclasses.asdict(league)))
        admin.execute(f'COMMENT ON DATABASE "{name}_building" IS {ids}')

    build_template_once(postgres_server_url, name, build, template=template_database)
    with psycopg.connect(postgres_server_url) as conn:
        row = conn.execute("SELECT shobj_description(oid, 'pg_database') FROM pg_database WHERE datname = %s",
                           (name,)).fetchone()
    assert row is not None and row[0], f"the seeded database {name} has lost its comment: drop it to rebuild"
    return name, Seeded(**json.loads(row[0]))


@pytest.fixture
def seeded(postgres_server_url: str, seeded_template: tuple[str, Seeded]) -> Iterator[SeededDatabase]:  # noqa: F811
    """This test's own copy of the seeded league."""
    template, league = seeded_template
    with database_copy(postgres_server_url, template) as url:
        yield SeededDatabase(url, league)
