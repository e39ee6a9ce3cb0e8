"""Synthetic leagues for tests and benchmarks: accounts, bots and active versions in bulk.

Real submissions arrive through the Arena (archive checks, smoke match); these rows skip
all of that and exist so the store's own tests and ``bench/ratings.py`` have versions to
rate. Every bot shares one tiny placeholder archive.
"""

from __future__ import annotations

import hashlib

from psycopg.types.json import Jsonb

from .database import Conn

PLACEHOLDER_ARCHIVE = b"synthetic bot: no code"


def register_versions(conn: Conn, game: str, count: int, account: str = "synthetic") -> list[int]:
    """``count`` new active versions of ``game`` (one bot each), returned in creation order."""
    sha = hashlib.sha256(PLACEHOLDER_ARCHIVE).hexdigest()
    conn.execute("INSERT INTO blobs (sha256, data, size) VALUES (%s, %s, %s) ON CONFLICT DO NOTHING",
                 (sha, PLACEHOLDER_ARCHIVE, len(PLACEHOLDER_ARCHIVE)))
    row = conn.execute("INSERT INTO accounts (name) VALUES (%s) ON CONFLICT (name) DO UPDATE SET name = excluded.name "
                       "RETURNING id", (account,)).fetchone()
    assert row is not None
    first = conn.execute("SELECT count(*) AS n FROM bots WHERE account_id = %s", (row["id"],)).fetchone()
    assert first is not None
    bots = conn.execute(
        """INSERT INTO bots (account_id, name, game)
           SELECT %s, %s || '-' || n, %s FROM generate_series(%s::int, %s::int) AS n RETURNING id""",
        (row["id"], game, game, first["n"], first["n"] + count - 1)).fetchall()
    versions = conn.execute(
        """INSERT INTO bot_versions (bot_id, number, archive_sha256, manifest, status)
           SELECT id, 1, %s, %s, 'active' FROM unnest(%s::bigint[]) AS id ORDER BY id RETURNING id""",
        (sha, Jsonb({"game": game, "entry": "bot.py"}), [b["id"] for b in bots])).fetchall()
    return sorted(v["id"] for v in versions)
