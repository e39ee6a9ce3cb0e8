"""Bots and their versions in the store: reading them, and storing the platform's own.

Authors' versions arrive through the Arena's intake (archive checks, smoke match:
`submissions.py`); the platform's house bots are trusted code and go straight to ``active``
(``add_active_version``). The archive is a content-addressed blob, stored once however many
versions share it. The reads serve the Arena and the dashboard alike.
"""

from __future__ import annotations

import hashlib
from typing import Any

from psycopg.types.json import Jsonb

from .accounts import account_id
from .database import Conn, Row
from .errors import NotFound

VERSION_SQL = """
    SELECT v.id, v.number, v.status, v.status_message, v.archive_sha256, v.manifest, v.smoke_match_id,
           v.created_at, v.status_changed_at, v.hosting, b.id AS bot_id, b.name AS bot, b.game, b.retired_at,
           a.id AS account_id, a.name AS account
    FROM bot_versions v JOIN bots b ON b.id = v.bot_id JOIN accounts a ON a.id = b.account_id"""


def store_blob(conn: Conn, data: bytes) -> str:
    """Keep ``data`` once by its SHA-256 (a second copy of the same bytes is the same blob); returns the hash."""
    sha = hashlib.sha256(data).hexdigest()
    conn.execute("INSERT INTO blobs (sha256, data, size) VALUES (%s, %s, %s) ON CONFLICT DO NOTHING",
                 (sha, data, len(data)))
    return sha


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


def newest_live_version(conn: Conn, account: str, bot: str) -> int | None:
    """The newest version of ``account``'s bot ``bot`` that is active or on its way there (received or in
    its smoke match: a house bot submitted a moment ago), or None."""
    row = conn.execute("""SELECT v.id FROM bot_versions v JOIN bots b ON b.id = v.bot_id
                          JOIN accounts a ON a.id = b.account_id
                          WHERE a.name = %s AND b.name = %s AND v.status IN ('active', 'smoke', 'received')
                          ORDER BY v.number DESC LIMIT 1""",
                       (account, bot)).fetchone()
    return None if row is None else int(row["id"])


def version(conn: Conn, version_id: int, *, lock: bool = False) -> dict[str, Any]:
    row = conn.execute(VERSION_SQL + " WHERE v.id = %s" + (" FOR UPDATE OF v" if lock else ""),
                       (version_id,)).fetchone()
    if row is None:
        raise NotFound(f"there is no version {version_id}: `skyarena bots` lists yours")
    return dict(row)


def bots(conn: Conn, owner_id: int | None, game: str = "") -> list[dict[str, Any]]:
    """Bots (of ``owner_id``, or everyone's) with their versions, oldest first."""
    rows = conn.execute(VERSION_SQL + " WHERE (%s::bigint IS NULL OR a.id = %s) AND (%s = '' OR b.game = %s)"
                        " ORDER BY a.name, b.name, v.number", (owner_id, owner_id, game, game)).fetchall()
    return [dict(r) for r in rows]


def find_bots(conn: Conn, name: str | None, *, limit: int, offset: int = 0) -> list[Row]:
    """Bots whose name or author contains ``name``, by name (bots: one row per author's bot, a small table)."""
    return list(conn.execute(
        """SELECT b.id, b.name, b.game, a.name AS author, b.retired_at
           FROM bots b JOIN accounts a ON a.id = b.account_id
           WHERE %(name)s::text IS NULL OR b.name ILIKE '%%' || %(name)s || '%%'
                 OR a.name ILIKE '%%' || %(name)s || '%%'
           ORDER BY b.name, b.id LIMIT %(limit)s OFFSET %(offset)s""",
        {"name": name or None, "limit": limit, "offset": offset}))


def bot(conn: Conn, bot_id: int) -> Row | None:
    return conn.execute(
        """SELECT b.id, b.name, b.game, b.account_id, a.name AS author, b.created_at, b.retired_at
           FROM bots b JOIN accounts a ON a.id = b.account_id WHERE b.id = %s""", (bot_id,)).fetchone()


def bot_versions(conn: Conn, bot_id: int) -> list[Row]:
    """The bot's versions, newest first, with their status and its reason."""
    return list(conn.execute(
        """SELECT id, number, status, status_message, created_at, status_changed_at
           FROM bot_versions WHERE bot_id = %s ORDER BY number DESC""", (bot_id,)))


def versions_by_status(conn: Conn, status: str, *, bot: str | None = None, limit: int, offset: int = 0
                       ) -> list[Row]:
    """Versions in one status (``bot_versions_status``), by bot name, for the organiser's pause and
    reinstate lists."""
    return list(conn.execute(
        """SELECT v.id, b.name AS bot, v.number, b.game, a.name AS author, v.status, v.status_message,
                  v.status_changed_at
           FROM bot_versions v JOIN bots b ON b.id = v.bot_id JOIN accounts a ON a.id = b.account_id
           WHERE v.status = %(status)s AND (%(bot)s::text IS NULL OR b.name ILIKE '%%' || %(bot)s || '%%')
           ORDER BY b.name, v.number LIMIT %(limit)s OFFSET %(offset)s""",
        {"status": status, "bot": bot or None, "limit": limit, "offset": offset}))


def faults_by_kind(conn: Conn, version_id: int) -> list[Row]:
    """The version's faults over all its matches, by kind (``participants_faulty``: faulty seats only)."""
    return list(conn.execute(
        """SELECT f ->> 'kind' AS kind, count(*) AS faults, count(DISTINCT p.match_id) AS matches,
                  max(p.match_id) AS example_match
           FROM participants p, jsonb_array_elements(p.faults) AS f
           WHERE p.version_id = %s AND p.faults <> '[]'::jsonb
           GROUP BY 1 ORDER BY count(*) DESC, 1""", (version_id,)))


def answer_latency(conn: Conn, version_id: int, window: int = 100) -> Row:
    """The version's median answer time over its latest ``window`` finished matches (the median of
    each match's median, as the referee measured them, network included) and how many counted."""
    row = conn.execute(
        """SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY answer_median_s) AS median_s, count(*) AS matches
           FROM (SELECT p.answer_median_s FROM participants p JOIN matches m ON m.id = p.match_id
                 WHERE p.version_id = %s AND m.status = 'finished' AND p.answer_median_s IS NOT NULL
                 ORDER BY m.completed_seq DESC NULLS LAST LIMIT %s) latest""", (version_id, window)).fetchone()
    assert row is not None
    return dict(row)


def version_of_smoke_match(conn: Conn, match_id: str) -> int | None:
    """The version whose smoke match ``match_id`` is (None: a rated match, or an unknown one)."""
    row = conn.execute("SELECT id FROM bot_versions WHERE smoke_match_id = %s", (match_id,)).fetchone()
    return None if row is None else int(row["id"])
