"""Authors' bots in the store: submitted versions, their smoke match, their life on the ladders.

A version moves ``smoke`` (stored, its smoke match queued) -> ``active`` | ``failed``;
``active`` <-> ``paused`` (an organiser, or the matchmaker for a version that keeps
faulting); ``active``/``paused`` -> ``superseded`` when a newer version of the same bot
passes its smoke match, and -> ``retired`` when its bot is retired. Only ``active``
versions are scheduled (``scheduling.ladder_versions``), so every move here takes a
version in or out of the ladders without touching its history. The archive is a
content-addressed blob: the same bytes submitted twice for a bot are one version.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from psycopg.types.json import Jsonb

from .accounts import token_hash
from .database import Conn
from .errors import Conflict, NotFound
from .queue import ActiveSeason
from .versions import account_id, store_blob

SMOKE_ACCOUNT = "house"
SMOKE_OPPONENT_NOTE = "the house opponent of smoke matches; never scheduled on a ladder"

VERSION_SQL = """
    SELECT v.id, v.number, v.status, v.status_message, v.archive_sha256, v.manifest, v.smoke_match_id,
           v.created_at, v.status_changed_at, b.id AS bot_id, b.name AS bot, b.game, b.retired_at,
           a.id AS account_id, a.name AS account
    FROM bot_versions v JOIN bots b ON b.id = v.bot_id JOIN accounts a ON a.id = b.account_id"""


@dataclass(frozen=True)
class Submitted:
    version_id: int
    existing: bool      # the same archive was already a version of this bot


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


def submit_version(conn: Conn, account: str, bot: str, game: str, archive: bytes,
                   manifest: dict[str, Any]) -> Submitted:
    """Store a checked archive as the bot's next version, status ``smoke``; the same bytes again: that version."""
    owner = account_id(conn, account)
    row = conn.execute("SELECT id, game, retired_at FROM bots WHERE account_id = %s AND name = %s FOR UPDATE",
                       (owner, bot)).fetchone()
    if row is not None and row["retired_at"] is not None:
        raise Conflict(f"the bot {bot!r} is retired: submit under a new name")
    if row is not None and row["game"] != game:
        raise Conflict(f"the bot {bot!r} plays {row['game']}, not {game}: submit under a new name for {game}")
    sha = store_blob(conn, archive)
    if row is None:
        row = conn.execute("INSERT INTO bots (account_id, name, game) VALUES (%s, %s, %s) RETURNING id",
                           (owner, bot, game)).fetchone()
        assert row is not None
    same = conn.execute("SELECT id FROM bot_versions WHERE bot_id = %s AND archive_sha256 = %s",
                        (row["id"], sha)).fetchone()
    if same is not None:
        return Submitted(int(same["id"]), True)
    created = conn.execute(
        "INSERT INTO bot_versions (bot_id, number, archive_sha256, manifest, status, status_message)"
        " SELECT %s, coalesce(max(number), 0) + 1, %s, %s, 'smoke', 'waiting for its smoke match'"
        " FROM bot_versions WHERE bot_id = %s RETURNING id", (row["id"], sha, Jsonb(manifest), row["id"])).fetchone()
    assert created is not None
    return Submitted(int(created["id"]), False)


def smoke_opponent(conn: Conn, game: str, archive: bytes, manifest: dict[str, Any]) -> int:
    """The house version that plays every smoke match of ``game`` (paused: it never enters a ladder)."""
    owner = account_id(conn, SMOKE_ACCOUNT)
    name = f"{game}-smoke-opponent"
    bot = conn.execute("INSERT INTO bots (account_id, name, game) VALUES (%s, %s, %s) ON CONFLICT (account_id, name)"
                       " DO UPDATE SET name = excluded.name RETURNING id", (owner, name, game)).fetchone()
    assert bot is not None
    sha = store_blob(conn, archive)
    row = conn.execute(
        "INSERT INTO bot_versions (bot_id, number, archive_sha256, manifest, status, status_message)"
        " SELECT %s, coalesce(max(number), 0) + 1, %s, %s, 'paused', %s FROM bot_versions WHERE bot_id = %s"
        " ON CONFLICT (bot_id, archive_sha256) DO UPDATE SET status_message = excluded.status_message RETURNING id",
        (bot["id"], sha, Jsonb(manifest), SMOKE_OPPONENT_NOTE, bot["id"])).fetchone()
    assert row is not None
    return int(row["id"])


def schedule_smoke(conn: Conn, match_id: str, version_id: int, seats: list[int], game: str, seed: int) -> None:
    """Queue the version's smoke match (seats: version ids, the version's own among them)."""
    conn.execute("INSERT INTO matches (id, kind, game, players, seed) VALUES (%s, 'smoke', %s, %s, %s)",
                 (match_id, game, len(seats), seed))
    with conn.cursor() as cur:
        cur.executemany("INSERT INTO participants (match_id, seat, version_id) VALUES (%s, %s, %s)",
                        [(match_id, seat, v) for seat, v in enumerate(seats)])
    conn.execute("UPDATE bot_versions SET smoke_match_id = %s, status_message = 'smoke match queued',"
                 " status_changed_at = now() WHERE id = %s", (match_id, version_id))


def set_status(conn: Conn, version_id: int, status: str, message: str, log: bytes | None = None) -> None:
    conn.execute("UPDATE bot_versions SET status = %s, status_message = %s, smoke_log = coalesce(%s, smoke_log),"
                 " status_changed_at = now() WHERE id = %s", (status, message, log, version_id))


def activate(conn: Conn, version_id: int, message: str) -> list[int]:
    """The version enters the ladders; the bot's older active or paused versions leave them (superseded)."""
    row = version(conn, version_id, lock=True)
    if row["status"] != "smoke":
        raise Conflict(f"version {version_id} is {row['status']}, not waiting for its smoke match")
    if row["retired_at"] is not None:
        set_status(conn, version_id, "retired", "the bot was retired during the smoke match")
        return []
    old = conn.execute(
        "UPDATE bot_versions SET status = 'superseded', status_message = %s, status_changed_at = now()"
        " WHERE bot_id = %s AND id <> %s AND status IN ('active', 'paused') RETURNING id",
        (f"superseded by version {row['number']}", row["bot_id"], version_id)).fetchall()
    set_status(conn, version_id, "active", message)
    return [int(r["id"]) for r in old]


def retire_bot(conn: Conn, owner_id: int, bot: str) -> int:
    """Retire the bot: every live version leaves the ladders; its history stays. Returns the bot id."""
    row = conn.execute("SELECT id, retired_at FROM bots WHERE account_id = %s AND name = %s FOR UPDATE",
                       (owner_id, bot)).fetchone()
    if row is None:
        raise NotFound(f"you have no bot called {bot!r}: `skyarena bots` lists yours")
    if row["retired_at"] is None:
        conn.execute("UPDATE bots SET retired_at = now() WHERE id = %s", (row["id"],))
        conn.execute("UPDATE bot_versions SET status = 'retired', status_message = 'the bot was retired',"
                     " status_changed_at = now() WHERE bot_id = %s AND status IN ('active', 'paused')", (row["id"],))
    return int(row["id"])


def account_by_name(conn: Conn, name: str) -> int:
    row = conn.execute("SELECT id FROM accounts WHERE name = %s", (name,)).fetchone()
    if row is None:
        raise NotFound(f"there is no account {name!r}")
    return int(row["id"])


MATCH_SQL = """
    SELECT m.id, m.kind, s.name AS season, m.game, m.players, m.status, m.end_reason, m.void_reason, m.finished_at,
           m.completed_seq,
           (SELECT jsonb_agg(jsonb_build_object('seat', p.seat, 'version_id', p.version_id, 'bot', b.name,
                   'version', v.number, 'rank', p.rank, 'score', p.score, 'strikes', p.strikes,
                   'forfeited', p.forfeited, 'account', a.name, 'account_id', a.id, 'faults', p.faults)
                   ORDER BY p.seat)
              FROM participants p JOIN bot_versions v ON v.id = p.version_id JOIN bots b ON b.id = v.bot_id
              JOIN accounts a ON a.id = b.account_id WHERE p.match_id = m.id) AS seats
    FROM matches m LEFT JOIN seasons s ON s.id = m.season_id"""


def match(conn: Conn, match_id: str) -> dict[str, Any]:
    row = conn.execute(MATCH_SQL + " WHERE m.id = %s", (match_id,)).fetchone()
    if row is None:
        raise NotFound(f"there is no match {match_id!r}: `skyarena matches VERSION` lists a version's matches")
    return dict(row)


def version_matches(conn: Conn, version_id: int, limit: int) -> list[dict[str, Any]]:
    """The version's matches, newest first (unfinished ones first of all)."""
    rows = conn.execute(MATCH_SQL + " WHERE m.id IN (SELECT match_id FROM participants WHERE version_id = %s)"
                        " ORDER BY m.completed_seq DESC NULLS FIRST, m.created_at DESC LIMIT %s",
                        (version_id, limit)).fetchall()
    return [dict(r) for r in rows]


def replay_data(conn: Conn, match_id: str) -> bytes | None:
    row = conn.execute("SELECT data FROM replays WHERE match_id = %s", (match_id,)).fetchone()
    return None if row is None else bytes(row["data"])


def bot_log(conn: Conn, match_id: str, seat: int) -> dict[str, Any] | None:
    row = conn.execute("SELECT seat, version_id, log, truncated FROM bot_logs WHERE match_id = %s AND seat = %s",
                       (match_id, seat)).fetchone()
    return None if row is None else dict(row)


def smoke_log(conn: Conn, version_id: int) -> bytes | None:
    row = conn.execute("SELECT smoke_log FROM bot_versions WHERE id = %s", (version_id,)).fetchone()
    return None if row is None or row["smoke_log"] is None else bytes(row["smoke_log"])


def version_ladders(conn: Conn, version_id: int, season_id: int) -> list[dict[str, Any]]:
    """The ladders of the season the version has a rating on."""
    rows = conn.execute("SELECT l.id, l.players FROM ladders l JOIN ratings r ON r.ladder_id = l.id"
                        " WHERE l.season_id = %s AND r.version_id = %s ORDER BY l.players",
                        (season_id, version_id)).fetchall()
    return [dict(r) for r in rows]


def active_seasons_of_game(conn: Conn, game: str) -> list[ActiveSeason]:
    """The game's active seasons: where a version that passed its smoke match plays next."""
    rows = conn.execute("SELECT id, name, matches_in_flight FROM seasons WHERE state = 'active' AND game = %s"
                        " ORDER BY id", (game,)).fetchall()
    return [ActiveSeason(r["id"], r["name"], r["matches_in_flight"]) for r in rows]


def token_expiry(conn: Conn, token: str) -> Any:
    """When the token expires (None: never)."""
    row = conn.execute("SELECT expires_at FROM api_tokens WHERE token_hash = %s", (token_hash(token),)).fetchone()
    return None if row is None else row["expires_at"]


def version_of_smoke_match(conn: Conn, match_id: str) -> int | None:
    """The version whose smoke match ``match_id`` is (None: a rated match, or an unknown one)."""
    row = conn.execute("SELECT id FROM bot_versions WHERE smoke_match_id = %s", (match_id,)).fetchone()
    return None if row is None else int(row["id"])
