"""The match queue: the rows that make a season run itself and survive dying processes.

A match row is the truth; broker messages only say "look at this row". Scheduling inserts
the rows with their seats (`scheduling.py`) before anything is enqueued; a worker claims a row with a
lease it renews while the match runs; a finished match is written by the exactly-once
apply path (``results.py``); a row whose lease expired (its worker vanished) goes back to
``queued`` with the same seed, and after ``max_attempts`` it is void with the reason.
Every function here is safe to call twice with the same arguments.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .database import Conn, Database

# A smoke match has no season: it is played with these clocks (move, bank, first move) and strike
# limit, generous enough that only a bot that is broken (not one that is slow on a busy machine) fails.
SMOKE_CLOCK = (5.0, 30.0, 30.0, 3)


@dataclass(frozen=True)
class HostedSeat:
    """What a worker needs to start one seat's bot (or, for an online version, to invite it)."""

    seat: int
    version_id: int
    name: str                # "bot v3", for the referee's seat names and logs
    archive_sha256: str      # empty for an online version
    entry: str               # the manifest's entry point ("bot.py" or "bot.py:ClassName")
    online: bool = False     # the version plays from its author's machine: invited, not run here


@dataclass(frozen=True)
class ClaimedMatch:
    """A match row this worker now holds the lease of, for one attempt."""

    match_id: str
    attempt: int
    game: str
    players: int
    options: dict[str, Any]
    seed: int
    move_s: float
    bank_s: float
    first_move_s: float
    strike_limit: int
    seats: tuple[HostedSeat, ...]
    cpu_clock: bool = True        # the season's: hosted seats charged their CPU time
    wall_backstop: float = 4.0    # the season's: wall deadline = this × CPU deadline

    @property
    def referee_match_id(self) -> str:
        """The id the referee knows this attempt by: a retry must not collide with a lost attempt."""
        return f"{self.match_id}.a{self.attempt}"


@dataclass(frozen=True)
class Skipped:
    """Why a claim did nothing: the match is done, held by a live lease, or was just voided."""

    match_id: str
    reason: str


def claim(db: Database, match_id: str, owner: str, lease_s: float, max_attempts: int) -> ClaimedMatch | Skipped:
    """Take the match for one attempt, or say why not.

    A queued match, or a running one whose lease has expired (its worker vanished and the
    reaper has not looked yet), becomes running with a fresh lease and the next attempt
    number. A match that already used ``max_attempts`` is void instead.
    """
    with db.connection() as conn:
        row = conn.execute(
            "SELECT m.status, m.attempts, m.lease_expires_at < now() AS expired, m.game, m.players, m.options,"
            " m.seed, coalesce(s.move_s, %s) AS move_s, coalesce(s.bank_s, %s) AS bank_s,"
            " coalesce(s.first_move_s, %s) AS first_move_s, coalesce(s.strike_limit, %s) AS strike_limit,"
            " coalesce(s.cpu_clock, true) AS cpu_clock, coalesce(s.wall_backstop, 4) AS wall_backstop"
            " FROM matches m LEFT JOIN seasons s ON s.id = m.season_id WHERE m.id = %s FOR UPDATE OF m",
            (*SMOKE_CLOCK, match_id)).fetchone()
        if row is None:
            return Skipped(match_id, "no such match")
        if row["status"] in ("finished", "void"):
            return Skipped(match_id, f"already {row['status']}")
        if row["status"] == "running" and not row["expired"]:
            return Skipped(match_id, "another worker holds its lease")
        if row["attempts"] >= max_attempts:
            _void(conn, match_id, f"void after {row['attempts']} attempts without a result; the last one's "
                                  "worker or referee stopped before the match ended")
            return Skipped(match_id, "voided: attempts exhausted")
        attempt = row["attempts"] + 1
        conn.execute(
            "UPDATE matches SET status = 'running', attempts = %s, lease_owner = %s,"
            " lease_expires_at = now() + make_interval(secs => %s), started_at = now(), referee = NULL,"
            " referee_match_id = NULL WHERE id = %s",
            (attempt, owner, lease_s, match_id))
        seats = conn.execute(
            "SELECT p.seat, p.version_id, b.name || ' v' || v.number AS name, v.archive_sha256,"
            " v.manifest ->> 'entry' AS entry, v.hosting = 'online' AS online"
            " FROM participants p JOIN bot_versions v ON v.id = p.version_id JOIN bots b ON b.id = v.bot_id"
            " WHERE p.match_id = %s ORDER BY p.seat", (match_id,)).fetchall()
    return ClaimedMatch(
        match_id=match_id, attempt=attempt, game=row["game"], players=row["players"], options=row["options"],
        seed=row["seed"], move_s=row["move_s"], bank_s=row["bank_s"], first_move_s=row["first_move_s"],
        strike_limit=row["strike_limit"], cpu_clock=row["cpu_clock"], wall_backstop=row["wall_backstop"],
        seats=tuple(HostedSeat(r["seat"], r["version_id"], r["name"], r["archive_sha256"] or "", r["entry"] or "",
                               r["online"]) for r in seats))


_HELD = "id = %s AND status = 'running' AND lease_owner = %s AND attempts = %s"


def heartbeat(db: Database, match_id: str, owner: str, attempt: int, lease_s: float) -> bool:
    """Renew the lease; False when this attempt lost it (reaped, or the match ended elsewhere)."""
    with db.connection() as conn:
        row = conn.execute(f"UPDATE matches SET lease_expires_at = now() + make_interval(secs => %s) WHERE {_HELD}"
                           " RETURNING id", (lease_s, match_id, owner, attempt)).fetchone()
    return row is not None


def record_referee(db: Database, match_id: str, owner: str, attempt: int, referee: str,
                   referee_match_id: str) -> bool:
    """Note which referee runs this attempt (operators look there first when a match hangs)."""
    with db.connection() as conn:
        row = conn.execute(f"UPDATE matches SET referee = %s, referee_match_id = %s WHERE {_HELD} RETURNING id",
                           (referee, referee_match_id, match_id, owner, attempt)).fetchone()
    return row is not None


def release(db: Database, match_id: str, owner: str, attempt: int, reason: str, max_attempts: int, *,
            started: bool = True) -> str | None:
    """Give the attempt up: back to ``queued`` (same seed), or void once attempts are exhausted.

    An attempt that never started a match (``started=False``: no referee would take it) does
    not count against the match: a referee outage delays matches, it does not void them.
    Returns the new status, or None when this attempt no longer held the match.
    """
    with db.connection() as conn:
        row = conn.execute(f"SELECT attempts FROM matches WHERE {_HELD} FOR UPDATE",
                           (match_id, owner, attempt)).fetchone()
        if row is None:
            return None
        if started and row["attempts"] >= max_attempts:
            _void(conn, match_id, f"void after {row['attempts']} attempts; the last: {reason}")
            return "void"
        conn.execute("UPDATE matches SET status = 'queued', lease_owner = NULL, lease_expires_at = NULL,"
                     " attempts = attempts - %s WHERE id = %s", (0 if started else 1, match_id))
        return "queued"


def void(db: Database, match_id: str, reason: str, owner: str | None = None, attempt: int | None = None) -> bool:
    """Void a match that cannot be played (a version's archive is missing, a bad season setting).

    With ``owner`` and ``attempt``, only while that attempt holds the lease.
    """
    with db.connection() as conn:
        if owner is None:
            held = conn.execute("SELECT 1 FROM matches WHERE id = %s AND status IN ('queued', 'running') FOR UPDATE",
                                (match_id,)).fetchone()
        else:
            held = conn.execute(f"SELECT 1 FROM matches WHERE {_HELD} FOR UPDATE",
                                (match_id, owner, attempt)).fetchone()
        if held is None:
            return False
        _void(conn, match_id, reason)
        return True


def _void(conn: Conn, match_id: str, reason: str) -> None:
    conn.execute("UPDATE matches SET status = 'void', void_reason = %s, lease_owner = NULL, lease_expires_at = NULL,"
                 " finished_at = now() WHERE id = %s", (reason, match_id))


@dataclass(frozen=True)
class Reaped:
    requeued: tuple[str, ...]
    voided: tuple[str, ...]


def reap_expired(db: Database, max_attempts: int) -> Reaped:
    """Running matches whose lease expired: back to queued (same seed), or void after the limit."""
    with db.connection() as conn:
        rows = conn.execute(
            "SELECT id, attempts, lease_owner FROM matches WHERE status = 'running' AND lease_expires_at < now()"
            " ORDER BY id FOR UPDATE SKIP LOCKED").fetchall()
        requeued, voided = [], []
        for row in rows:
            if row["attempts"] >= max_attempts:
                _void(conn, row["id"], f"void after {row['attempts']} attempts; the last one's worker "
                                       f"({row['lease_owner']}) vanished mid-match")
                voided.append(row["id"])
            else:
                conn.execute("UPDATE matches SET status = 'queued', lease_owner = NULL, lease_expires_at = NULL"
                             " WHERE id = %s", (row["id"],))
                requeued.append(row["id"])
    return Reaped(tuple(requeued), tuple(voided))


def waiting_matches(db: Database, older_than_s: float, limit: int = 1000) -> list[str]:
    """Queued matches that waited longer than a worker takes to pick a message up.

    Their message may be lost (a broker restarted without its queue): enqueueing them again
    is safe because a claim of a match that is no longer queued does nothing. A challenge not
    yet released has no message to lose: it waits for room (`challenges.release_waiting`).
    """
    with db.connection() as conn:
        rows = conn.execute(
            "SELECT id FROM matches WHERE status = 'queued' AND coalesce(started_at, released_at, created_at)"
            " < now() - make_interval(secs => %s) AND (kind <> 'challenge' OR released_at IS NOT NULL)"
            " ORDER BY created_at, id LIMIT %s", (older_than_s, limit)).fetchall()
    return [r["id"] for r in rows]


def mark_waiting(db: Database, match_ids: Sequence[str]) -> None:
    """Restart the waiting clock of re-enqueued matches (``started_at`` of a queued row is its last enqueue)."""
    with db.connection() as conn:
        conn.execute("UPDATE matches SET started_at = now() WHERE status = 'queued' AND id = ANY(%s)",
                     (list(match_ids),))


def archive(db: Database, sha256: str) -> bytes | None:
    """A version archive's bytes, or None when the blob is missing."""
    with db.connection() as conn:
        row = conn.execute("SELECT data FROM blobs WHERE sha256 = %s", (sha256,)).fetchone()
    return None if row is None else bytes(row["data"])


def match_status(db: Database, match_id: str) -> dict[str, Any] | None:
    """A match row's status fields (for tests, commands and the task's log lines)."""
    with db.connection() as conn:
        row: dict[str, Any] | None = conn.execute(
            "SELECT id, status, attempts, lease_owner, referee, referee_match_id, void_reason, end_reason"
            " FROM matches WHERE id = %s", (match_id,)).fetchone()
    return row


def running_matches(db: Database) -> list[dict[str, Any]]:
    """The matches running now, with their lease owner and referee (operators' view, tests)."""
    with db.connection() as conn:
        rows = conn.execute("SELECT id, attempts, lease_owner, referee FROM matches WHERE status = 'running'"
                            " ORDER BY id").fetchall()
    return [dict(r) for r in rows]
