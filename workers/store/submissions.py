"""Authors' bots in the store: submitting versions, their smoke match, their life on the ladders.

The writes of a version's life; reading versions and matches is `versions.py` and `matches.py`.

A version moves ``smoke`` (stored, its smoke match queued) -> ``active`` | ``failed``;
``active`` <-> ``paused`` (an organiser, or the matchmaker for a version that keeps
faulting); ``active``/``paused`` -> ``superseded`` when a newer version of the same bot
passes its smoke match, and -> ``retired`` when its bot is retired; ``smoke`` -> ``held``
-> ``active`` when it passed while a season of its game played its finals with new versions
held (`workers.finals`), entering once no finals of the game play. Only ``active``
versions are scheduled (``scheduling.ladder_versions``), so every move here takes a
version in or out of the ladders without touching its history. The archive is a
content-addressed blob: the same bytes submitted twice for a bot are one version.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from psycopg.types.json import Jsonb

from .accounts import account_id
from .database import Conn
from .errors import Conflict, NotFound
from .versions import store_blob, version

SMOKE_ACCOUNT = "house"
SMOKE_OPPONENT_NOTE = "a house opponent of smoke matches and challenges; never scheduled on a ladder"


@dataclass(frozen=True)
class Submitted:
    version_id: int
    existing: bool      # the same archive was already a version of this bot


def submit_version(conn: Conn, account: str, bot: str, game: str, archive: bytes,
                   manifest: dict[str, Any]) -> Submitted:
    """Store a checked archive as the bot's next version, status ``smoke``; the same bytes again: that version."""
    bot_id = own_bot(conn, account, bot, game)
    sha = store_blob(conn, archive)
    same = conn.execute("SELECT id FROM bot_versions WHERE bot_id = %s AND archive_sha256 = %s",
                        (bot_id, sha)).fetchone()
    if same is not None:
        return Submitted(int(same["id"]), True)
    created = conn.execute(
        "INSERT INTO bot_versions (bot_id, number, archive_sha256, manifest, status, status_message)"
        " SELECT %s, coalesce(max(number), 0) + 1, %s, %s, 'smoke', 'waiting for its smoke match'"
        " FROM bot_versions WHERE bot_id = %s RETURNING id", (bot_id, sha, Jsonb(manifest), bot_id)).fetchone()
    assert created is not None
    return Submitted(int(created["id"]), False)


def own_bot(conn: Conn, account: str, bot: str, game: str) -> int:
    """The id of ``account``'s bot ``bot`` (created for ``game`` if new, the row locked): a new
    version, hosted or online, is refused for a retired bot or for a game it was not declared for."""
    owner = account_id(conn, account)
    row = conn.execute("SELECT id, game, retired_at FROM bots WHERE account_id = %s AND name = %s FOR UPDATE",
                       (owner, bot)).fetchone()
    if row is not None and row["retired_at"] is not None:
        raise Conflict(f"the bot {bot!r} is retired: submit under a new name")
    if row is not None and row["game"] != game:
        raise Conflict(f"the bot {bot!r} was declared for {row['game']}, not {game}: submit it for {row['game']}, "
                       f"or under a new name for {game}")
    if row is None:
        row = conn.execute("INSERT INTO bots (account_id, name, game) VALUES (%s, %s, %s) RETURNING id",
                           (owner, bot, game)).fetchone()
        assert row is not None
    return int(row["id"])


def smoke_opponent(conn: Conn, game: str, archive: bytes, manifest: dict[str, Any]) -> int:
    """The house version that plays every smoke match of ``game`` (paused: it never enters a ladder)."""
    return house_opponent(conn, game, f"{game}-smoke-opponent", archive, manifest)


def house_opponent(conn: Conn, game: str, name: str, archive: bytes, manifest: dict[str, Any]) -> int:
    """A paused house version (bot ``name``) that smoke matches and challenges seat, never a ladder."""
    owner = account_id(conn, SMOKE_ACCOUNT)
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
    """The version enters the ladders; the bot's older active or paused versions leave them (superseded).

    While a season of its game plays finals that hold new versions, it is held instead (nothing
    superseded: a finalist keeps its place) and enters when they end (`enter_held_versions`)."""
    row = version(conn, version_id, lock=True)
    if row["status"] != "smoke":
        raise Conflict(f"version {version_id} is {row['status']}, not waiting for its smoke match")
    if row["retired_at"] is not None:
        set_status(conn, version_id, "retired", "the bot was retired during the smoke match")
        return []
    holding = [name for name, policy in finals_in_play(conn, row["game"]) if policy == "hold"]
    if holding:
        set_status(conn, version_id, "held", f"{message.split(';')[0]}; held out of the ladders while season "
                   f"{holding[0]} plays its finals: it enters them when they end")
        return []
    return _enter_ladders(conn, version_id, row["bot_id"], row["number"], message)


def _enter_ladders(conn: Conn, version_id: int, bot_id: int, number: int, message: str) -> list[int]:
    old = conn.execute(
        "UPDATE bot_versions SET status = 'superseded', status_message = %s, status_changed_at = now()"
        " WHERE bot_id = %s AND id <> %s AND status IN ('active', 'paused', 'held') RETURNING id",
        (f"superseded by version {number}", bot_id, version_id)).fetchall()
    set_status(conn, version_id, "active", message)
    return [int(r["id"]) for r in old]


def finals_in_play(conn: Conn, game: str) -> list[tuple[str, str]]:
    """The active seasons of ``game`` playing their finals: (name, what they do with new versions)."""
    rows = conn.execute("SELECT name, coalesce(finals ->> 'new_versions', 'hold') AS policy FROM seasons"
                        " WHERE game = %s AND state = 'active' AND finals IS NOT NULL ORDER BY id", (game,))
    return [(r["name"], r["policy"]) for r in rows]


def refuse_during_finals(conn: Conn, game: str) -> None:
    """Refuse a new version of ``game`` while a season of it plays finals that take none."""
    refusing = [name for name, policy in finals_in_play(conn, game) if policy == "refuse"]
    if refusing:
        raise Conflict(f"season {refusing[0]} is playing its finals and takes no new {game} versions until they "
                       f"end: submit again once it closes (`skyarena standings {refusing[0]}` shows its finals)")


def enter_held_versions(conn: Conn, game: str) -> list[int]:
    """Once no season of ``game`` plays finals, its held versions enter the ladders (a bot's newest
    one; older ones of the same bot are superseded by it). Their ids."""
    if finals_in_play(conn, game):
        return []
    rows = conn.execute(
        """SELECT DISTINCT ON (v.bot_id) v.id, v.bot_id, v.number FROM bot_versions v JOIN bots b ON b.id = v.bot_id
           WHERE b.game = %s AND v.status = 'held' ORDER BY v.bot_id, v.number DESC""",
        (game,)).fetchall()
    for r in rows:
        _enter_ladders(conn, r["id"], r["bot_id"], r["number"], "its game's finals ended: now on the ladders")
    return [int(r["id"]) for r in rows]


def retire_bot(conn: Conn, owner_id: int, bot: str) -> int:
    """Retire the bot: every live version leaves the ladders; its history stays. Returns the bot id."""
    row = conn.execute("SELECT id, retired_at FROM bots WHERE account_id = %s AND name = %s FOR UPDATE",
                       (owner_id, bot)).fetchone()
    if row is None:
        raise NotFound(f"you have no bot called {bot!r}: `skyarena bots` lists yours")
    if row["retired_at"] is None:
        conn.execute("UPDATE bots SET retired_at = now() WHERE id = %s", (row["id"],))
        conn.execute("UPDATE bot_versions SET status = 'retired', status_message = 'the bot was retired',"
                     " status_changed_at = now() WHERE bot_id = %s AND status IN ('active', 'paused', 'held')",
                     (row["id"],))
    return int(row["id"])
