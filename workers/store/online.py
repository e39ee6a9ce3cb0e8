"""Online versions in the store: registering them, their Connect sessions, their invitations, no-shows.

An online version (``bot_versions.hosting = 'online'``) has no archive: its author's own
process keeps a Connect stream open on the Arena (a row of ``online_sessions``, refreshed
while the stream lives, deleted when it ends) and is handed each seat as an invitation
(``invitations``: the seat token and the referee, a deadline to accept). The worker that
plays the match writes the invitation and waits; the Arena's stream reads it and hands it
on; the bot's AcceptInvitation marks it accepted. An invitation not taken up (not accepted
by its deadline, or accepted and never joined) is a *no-show*: the match is void, nothing
is rated, and the version's ``no_shows`` count grows; at ``NO_SHOW_LIMIT`` in a row it is
paused (connecting again reinstates it: ``reinstate_after_no_shows``).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from psycopg.types.json import Jsonb

from .database import Conn, Row
from .errors import Conflict, NotFound, StoreError
from .queue import SMOKE_CLOCK
from .submissions import Submitted, own_bot, set_status

HEARTBEAT_S = 2.0          # how often the Arena tells a connected bot (and the store) the stream lives
OFFLINE_AFTER_S = 6.0      # three heartbeats missed: the version is offline even if its stream never said so
NO_SHOW_LIMIT = 3          # no-shows in a row before the version is paused
NO_SHOW_PAUSE = "paused: missed its last {n} invitations in a row (not accepted in time, or accepted and never " \
                "joined); connect again with `skyarena connect` to be reinstated"
NO_SHOW_MARK = "paused: missed its last"   # how a no-show pause is told from an organiser's or a fault pause
LIVE_STATUSES = ("smoke", "held", "active", "paused")
OPEN_STATES = ("pending", "accepted", "joined")
SMOKE_CLOCKS = dict(zip(("move_s", "bank_s", "first_move_s", "strike_limit"), SMOKE_CLOCK))  # a smoke match's


class NotOnline(Conflict):
    """The version cannot connect: it is hosted, or no longer live (gRPC: FAILED_PRECONDITION)."""


class NotYours(StoreError):
    """The version or invitation is another account's (gRPC: PERMISSION_DENIED)."""


class InvitationClosed(Conflict):
    """An answer to an invitation that is no longer open: too late, or its match is void."""


def register_online(conn: Conn, account: str, bot: str, game: str) -> Submitted:
    """The bot's online version in ``smoke`` (its smoke match waits for its first connection);
    the bot's newest live online version again (``existing``) when it has one."""
    bot_id = own_bot(conn, account, bot, game)
    live = conn.execute("SELECT id FROM bot_versions WHERE bot_id = %s AND hosting = 'online' AND status = ANY(%s)"
                        " ORDER BY number DESC LIMIT 1", (bot_id, list(LIVE_STATUSES))).fetchone()
    if live is not None:
        return Submitted(int(live["id"]), True)
    created = conn.execute(
        "INSERT INTO bot_versions (bot_id, number, archive_sha256, manifest, status, status_message, hosting)"
        " SELECT %s, coalesce(max(number), 0) + 1, NULL, %s, 'smoke', %s, 'online' FROM bot_versions"
        " WHERE bot_id = %s RETURNING id",
        (bot_id, Jsonb({"game": game, "name": bot, "hosting": "online"}),
         f"waiting for its first connection: run `skyarena connect {bot}`; its smoke match is played then",
         bot_id)).fetchone()
    assert created is not None
    return Submitted(int(created["id"]), False)


def connectable_version(conn: Conn, owner_id: int, bot: str, version_id: int) -> Row:
    """The online version a Connect names (by bot, by id, or both), checked: the caller's, online, live."""
    if version_id:
        row = conn.execute(
            "SELECT v.id, v.number, v.status, v.status_message, v.hosting, v.smoke_match_id, b.name AS bot, b.game,"
            " b.account_id FROM bot_versions v JOIN bots b ON b.id = v.bot_id WHERE v.id = %s",
            (version_id,)).fetchone()
        if row is None:
            raise NotFound(f"there is no version {version_id}: `skyarena bots` lists yours")
        if bot and row["bot"] != bot:
            raise NotFound(f"version {version_id} is a version of {row['bot']!r}, not {bot!r}")
    else:
        row = conn.execute(
            "SELECT v.id, v.number, v.status, v.status_message, v.hosting, v.smoke_match_id, b.name AS bot, b.game,"
            " b.account_id FROM bot_versions v JOIN bots b ON b.id = v.bot_id"
            " WHERE b.account_id = %s AND b.name = %s ORDER BY (v.hosting = 'online' AND v.status = ANY(%s)) DESC,"
            " v.number DESC LIMIT 1", (owner_id, bot, list(LIVE_STATUSES))).fetchone()
        if row is None:
            raise NotFound(f"you have no bot called {bot!r}: register it with `skyarena submit --online {bot} "
                           "--game GAME`")
    return dict(row)


def check_connectable(row: Row) -> None:
    """Refuse a hosted version, or an online one that left the ladders for good."""
    if row["hosting"] != "online":
        raise NotOnline(f"version {row['id']} ({row['bot']} v{row['number']}) is hosted: the platform runs it in "
                        f"its sandbox. Register an online version with `skyarena submit --online {row['bot']}`")
    if row["status"] not in LIVE_STATUSES:
        raise NotOnline(f"version {row['id']} ({row['bot']} v{row['number']}) is {row['status']}: it plays no more "
                        f"matches; register a new one with `skyarena submit --online {row['bot']}`")


def reinstate_after_no_shows(conn: Conn, version_id: int) -> bool:
    """A version paused for no-shows is active again when it connects (True when it was)."""
    row = conn.execute("UPDATE bot_versions SET status = 'active', no_shows = 0, status_changed_at = now(),"
                       " status_message = 'reinstated: it connected again after its no-show pause'"
                       " WHERE id = %s AND status = 'paused' AND starts_with(status_message, %s) RETURNING id",
                       (version_id, NO_SHOW_MARK)).fetchone()
    return row is not None


def open_session(conn: Conn, version_id: int, max_games: int, client: str) -> str:
    """The version is online under a new session, replacing any earlier one (whose stream then ends)."""
    session = secrets.token_hex(8)
    conn.execute("INSERT INTO online_sessions (version_id, session, max_games, client) VALUES (%s, %s, %s, %s)"
                 " ON CONFLICT (version_id) DO UPDATE SET session = excluded.session, max_games = excluded.max_games,"
                 " client = excluded.client, connected_at = now(), seen_at = now()",
                 (version_id, session, max_games, client[:200]))
    return session


def beat_session(conn: Conn, version_id: int, session: str) -> bool:
    """The stream is alive: refresh it; False when another connection replaced this session."""
    row = conn.execute("UPDATE online_sessions SET seen_at = now() WHERE version_id = %s AND session = %s"
                       " RETURNING version_id", (version_id, session)).fetchone()
    return row is not None


def close_session(conn: Conn, version_id: int, session: str) -> None:
    """The stream ended: the version is offline (unless a newer session replaced this one)."""
    conn.execute("DELETE FROM online_sessions WHERE version_id = %s AND session = %s", (version_id, session))


def online_versions(conn: Conn) -> list[Row]:
    """The connected versions (fresh sessions), for operators and tests."""
    return list(conn.execute(
        "SELECT s.version_id, s.max_games, s.client, s.connected_at, s.seen_at FROM online_sessions s"
        " WHERE s.seen_at > now() - make_interval(secs => %s) ORDER BY s.version_id", (OFFLINE_AFTER_S,)))


def in_flight(conn: Conn, version_id: int) -> int:
    """The version's matches not over yet (queued or running), every ladder and its smoke match."""
    row = conn.execute("SELECT count(DISTINCT m.id) AS n FROM participants p JOIN matches m ON m.id = p.match_id"
                       " WHERE p.version_id = %s AND m.status IN ('queued', 'running')", (version_id,)).fetchone()
    return int(row["n"]) if row else 0


INVITATION_SQL = """
    SELECT i.id, i.match_id, i.attempt, i.seat, i.version_id, i.seat_token, i.referee, i.referee_match_id, i.state,
           i.reason, greatest(0, extract(epoch FROM i.accept_by - now()))::float8 AS accept_within_s,
           i.join_within_s, i.accept_by > now() AS in_time, m.status AS match_status,
           m.attempts AS match_attempts, m.kind, m.game, m.players, m.options, coalesce(s.name, '') AS season,
           coalesce(s.move_s, %(move_s)s) AS move_s, coalesce(s.bank_s, %(bank_s)s) AS bank_s,
           coalesce(s.first_move_s, %(first_move_s)s) AS first_move_s,
           coalesce(s.strike_limit, %(strike_limit)s) AS strike_limit, b.account_id
    FROM invitations i JOIN matches m ON m.id = i.match_id LEFT JOIN seasons s ON s.id = m.season_id
    JOIN bot_versions v ON v.id = i.version_id JOIN bots b ON b.id = v.bot_id"""


def open_invitations(conn: Conn, version_ids: list[int]) -> list[Row]:
    """What connected versions are to be told: pending invitations still in time, and accepted
    ones of their matches in progress (to rejoin), oldest first."""
    return list(conn.execute(
        INVITATION_SQL + " WHERE i.version_id = ANY(%(ids)s) AND i.state IN ('pending', 'accepted', 'joined')"
        " AND m.status = 'running' AND m.attempts = i.attempt AND (i.state <> 'pending' OR i.accept_by > now())"
        " ORDER BY i.id", {**SMOKE_CLOCKS, "ids": version_ids}))


def invitation(conn: Conn, invitation_id: int, *, lock: bool = False) -> Row:
    row = conn.execute(INVITATION_SQL + " WHERE i.id = %(id)s" + (" FOR UPDATE OF i" if lock else ""),
                       {**SMOKE_CLOCKS, "id": invitation_id}).fetchone()
    if row is None:
        raise NotFound(f"there is no invitation {invitation_id}: answer the ids your Connect stream sent")
    return dict(row)


@dataclass(frozen=True)
class NewInvitation:
    match_id: str
    attempt: int
    seat: int
    version_id: int
    seat_token: str
    referee: str
    referee_match_id: str


def invite(conn: Conn, new: NewInvitation, accept_within_s: float, join_within_s: float) -> int:
    """Offer the seat to its online version; returns the invitation's id."""
    row = conn.execute(
        "INSERT INTO invitations (match_id, attempt, seat, version_id, seat_token, referee, referee_match_id,"
        " accept_by, join_within_s) VALUES (%s, %s, %s, %s, %s, %s, %s, now() + make_interval(secs => %s), %s)"
        " ON CONFLICT (match_id, attempt, seat) DO UPDATE SET seat_token = excluded.seat_token RETURNING id",
        (new.match_id, new.attempt, new.seat, new.version_id, new.seat_token, new.referee, new.referee_match_id,
         accept_within_s, join_within_s)).fetchone()
    assert row is not None
    return int(row["id"])


def accept(conn: Conn, invitation_id: int, owner_id: int) -> Row:
    """The bot takes the seat up: pending -> accepted, if in time and the match still wants it."""
    row = invitation(conn, invitation_id, lock=True)
    if row["account_id"] != owner_id:
        raise NotYours(f"invitation {invitation_id} is for another account's bot: answer only your own")
    stale = row["match_status"] != "running" or row["match_attempts"] != row["attempt"]
    if row["state"] in ("accepted", "joined") and not stale:
        return row
    if row["state"] == "expired" or (row["state"] == "pending" and not row["in_time"]):
        raise InvitationClosed(f"invitation {invitation_id} (match {row['match_id']}) expired before it was accepted:"
                               " its match is void and counts as a no-show; accept invitations as they arrive")
    if row["state"] == "void" or (stale and row["match_status"] == "void"):
        raise InvitationClosed(f"match {row['match_id']} was voided ({row['reason'] or 'it will not be played'}): "
                               "there is nothing to join; wait for your next invitation")
    if stale or row["state"] != "pending":
        raise InvitationClosed(f"invitation {invitation_id} (match {row['match_id']}) is over ({row['state']}): "
                               "wait for your next invitation")
    conn.execute("UPDATE invitations SET state = 'accepted', accepted_at = now() WHERE id = %s", (invitation_id,))
    row["state"] = "accepted"
    return row


def invitation_state(conn: Conn, invitation_id: int) -> str:
    row = conn.execute("SELECT state FROM invitations WHERE id = %s", (invitation_id,)).fetchone()
    return str(row["state"]) if row else "void"


def expire_if_pending(conn: Conn, invitation_id: int, reason: str) -> bool:
    """Close a pending invitation at its deadline (False: it was accepted just in time)."""
    row = conn.execute("UPDATE invitations SET state = 'expired', reason = %s, seat_token = NULL"
                       " WHERE id = %s AND state = 'pending' RETURNING id", (reason, invitation_id)).fetchone()
    return row is not None


def mark_joined(conn: Conn, invitation_id: int) -> None:
    """The bot joined the referee: the invitation was taken up, and the no-show run ends."""
    row = conn.execute("UPDATE invitations SET state = 'joined', joined_at = now() WHERE id = %s"
                       " AND state = 'accepted' RETURNING version_id", (invitation_id,)).fetchone()
    if row is not None:
        conn.execute("UPDATE bot_versions SET no_shows = 0 WHERE id = %s", (row["version_id"],))


def close_invitations(conn: Conn, match_id: str, attempt: int, state: str, reason: str = "") -> None:
    """The attempt is over (``done``) or void: its open invitations close and their seat tokens go."""
    conn.execute("UPDATE invitations SET state = %s, reason = CASE WHEN reason = '' THEN %s ELSE reason END,"
                 " seat_token = NULL WHERE match_id = %s AND attempt = %s AND state = ANY(%s)",
                 (state, reason, match_id, attempt, list(OPEN_STATES)))


def record_no_show(conn: Conn, version_id: int) -> bool:
    """One more no-show in a row for the version; True when it is paused for it now."""
    row = conn.execute("UPDATE bot_versions SET no_shows = no_shows + 1 WHERE id = %s RETURNING no_shows, status",
                       (version_id,)).fetchone()
    if row is None or row["no_shows"] < NO_SHOW_LIMIT or row["status"] != "active":
        return False
    set_status(conn, version_id, "paused", NO_SHOW_PAUSE.format(n=row["no_shows"]))
    return True


def no_shows(conn: Conn, version_id: int) -> int:
    row = conn.execute("SELECT no_shows FROM bot_versions WHERE id = %s", (version_id,)).fetchone()
    return int(row["no_shows"]) if row else 0


def invitations_of_match(conn: Conn, match_id: str) -> list[Row]:
    """Every invitation of the match's attempts, oldest first (tests, operators)."""
    return list(conn.execute("SELECT id, attempt, seat, version_id, state, reason FROM invitations"
                             " WHERE match_id = %s ORDER BY id", (match_id,)))


def options_without_setup(options: dict[str, Any]) -> dict[str, Any]:
    """What a bot may know of the options: not ``setup`` (it would reveal the deal)."""
    return {k: v for k, v in options.items() if k != "setup"}
