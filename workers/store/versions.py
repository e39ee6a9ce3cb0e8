"""Storing a bot version with its archive, for the platform's own bots (house bots, demos, tests).

Authors' versions arrive through the Arena's intake (archive checks, smoke match); the
platform's house bots are trusted code and go straight to ``active``. The archive is a
content-addressed blob, stored once however many versions share it.
"""

from __future__ import annotations

import hashlib
from typing import Any

from psycopg.types.json import Jsonb

from .database import Conn


def store_blob(conn: Conn, data: bytes) -> str:
    """Keep ``data`` once by its SHA-256 (a second copy of the same bytes is the same blob); returns the hash."""
    sha = hashlib.sha256(data).hexdigest()
    conn.execute("INSERT INTO blobs (sha256, data, size) VALUES (%s, %s, %s) ON CONFLICT DO NOTHING",
                 (sha, data, len(data)))
    return sha


def account_id(conn: Conn, name: str) -> int:
    """The id of the account called ``name``, created if it does not exist."""
    row = conn.execute("INSERT INTO accounts (name) VALUES (%s) ON CONFLICT (name) DO UPDATE"
                       " SET name = excluded.name RETURNING id", (name,)).fetchone()
    assert row is not None
    return int(row["id"])


def add_active_version(conn: Conn, account: str, bot: str, game: str, archive: bytes,
                       manifest: dict[str, Any]) -> int:
    """A new active version of ``account``'s bot ``bot`` (created if needed); returns its id."""
    sha = store_blob(conn, archive)
    bot_row = conn.execute("INSERT INTO bots (account_id, name, game) VALUES (%s, %s, %s) ON CONFLICT"
                           " (account_id, name) DO UPDATE SET name = excluded.name RETURNING id",
                           (account_id(conn, account), bot, game)).fetchone()
    assert bot_row is not None
    version = conn.execute(
        "INSERT INTO bot_versions (bot_id, number, archive_sha256, manifest, status)"
        " SELECT %s, coalesce(max(number), 0) + 1, %s, %s, 'active' FROM bot_versions WHERE bot_id = %s"
        " RETURNING id", (bot_row["id"], sha, Jsonb(manifest), bot_row["id"])).fetchone()
    assert version is not None
    return int(version["id"])
