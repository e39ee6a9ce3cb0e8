"""Challenges: unrated matches an account asks for, queued like every other match (issue 24).

A challenge is a ``matches`` row of kind ``challenge``: no season, no ladder, ``requested_by`` the
account that asked. Workers claim and play it through the same queue, sandbox and referees as a
rated match; applying its result moves no rating (only a rated match has a ladder to move:
``results.apply_in_transaction``), so ``skyarena ratings recompute --check`` never sees one.

Each account may ask ``per_day`` challenges in any 24 hours and have ``in_flight`` queued or
running at once. Both are counted here, in the transaction that queues them, under the account's
row lock: two requests of one account at once are counted one after the other, never both let in.

A queued challenge waits (``released_at`` NULL, no message sent) until `release_waiting` hands it
to the workers under `workers.challenge_release`'s rule, so challenges give way to rated matches.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from psycopg.types.json import Jsonb

from workers.challenge_release import PlatformLoad, ReleasePolicy, room_for_challenges

from .database import Conn
from .errors import StoreError
from .quotas import QUOTA_WINDOW_S
from .scheduling import new_match_id


@dataclass(frozen=True)
class ChallengeLimits:
    per_day: int = 30     # challenges an account may ask in any 24 hours
    in_flight: int = 4    # its challenges queued or running at once


class ChallengeRefused(StoreError):
    """Over the quota or the cap in flight; ``retry_after_s`` says when one more fits."""

    def __init__(self, message: str, retry_after_s: float) -> None:
        super().__init__(message)
        self.retry_after_s = retry_after_s


# When the oldest challenge that keeps the account at its quota leaves the window (None: room left).
_FREES_IN_SQL = """
    SELECT extract(epoch FROM created_at + make_interval(secs => %(window)s) - now())::float8 AS frees_in
    FROM matches
    WHERE kind = 'challenge' AND requested_by = %(account)s AND created_at > now() - make_interval(secs => %(window)s)
    ORDER BY created_at DESC
    OFFSET %(offset)s LIMIT 1"""


def check_room(conn: Conn, account_id: int, wanted: int, limits: ChallengeLimits) -> None:
    """Refuse ``wanted`` more challenges past the account's quota or its cap in flight (locks the account)."""
    conn.execute("SELECT id FROM accounts WHERE id = %s FOR UPDATE", (account_id,))
    if wanted > limits.per_day:
        raise ChallengeRefused(f"{wanted} challenges at once is more than the daily quota of {limits.per_day}: ask "
                               f"for at most {limits.per_day}", 0.0)
    row = conn.execute(_FREES_IN_SQL, {"window": QUOTA_WINDOW_S, "account": account_id,
                                       "offset": limits.per_day - wanted}).fetchone()
    if row is not None:
        raise ChallengeRefused(f"this account asked for {limits.per_day} challenges in the last "
                               f"{QUOTA_WINDOW_S // 3600} hours, the quota", max(0.0, float(row["frees_in"])))
    live = conn.execute("SELECT count(*) AS n FROM matches WHERE kind = 'challenge' AND requested_by = %s"
                        " AND status IN ('queued', 'running')", (account_id,)).fetchone()
    assert live is not None
    if live["n"] + wanted > limits.in_flight:
        raise ChallengeRefused(f"this account has {live['n']} challenges queued or running and may have "
                               f"{limits.in_flight} at once: wait for them to finish", 0.0)


def queue_challenges(conn: Conn, account_id: int, game: str, seat_lists: Sequence[Sequence[int]],
                     seeds: Sequence[int], limits: ChallengeLimits) -> list[str]:
    """Queue one challenge per seat list (version ids in seat order) within the account's limits; their ids."""
    check_room(conn, account_id, len(seat_lists), limits)
    ids = [new_match_id() for _ in seat_lists]
    with conn.cursor() as cur:
        cur.executemany(
            """INSERT INTO matches (id, kind, game, players, options, seed, requested_by)
               VALUES (%s, 'challenge', %s, %s, %s, %s, %s)""",
            [(match_id, game, len(seats), Jsonb({}), seed, account_id)
             for match_id, seats, seed in zip(ids, seat_lists, seeds)])
        cur.executemany("INSERT INTO participants (match_id, seat, version_id) VALUES (%s, %s, %s)",
                        [(match_id, seat, version) for match_id, seats in zip(ids, seat_lists)
                         for seat, version in enumerate(seats)])
    return ids


# One releaser at a time platform-wide (beat, workers and the Arena all call it), so two never
# both see the same room. A transaction-scoped advisory lock: released with the commit.
_RELEASE_LOCK = 0x5C_A11E
_LOAD_SQL = """
    SELECT
      (SELECT count(*) FROM matches WHERE kind <> 'challenge' AND status = 'queued') AS others_waiting,
      (SELECT count(*) FROM matches WHERE kind = 'challenge' AND status IN ('queued', 'running')
         AND released_at IS NOT NULL) AS challenges_out,
      (SELECT count(*) FROM matches WHERE kind <> 'challenge'
         AND created_at > now() - make_interval(secs => %(window)s)) AS others_started,
      (SELECT count(*) FROM matches WHERE kind = 'challenge'
         AND released_at > now() - make_interval(secs => %(window)s)) AS challenges_started"""
# The waiting challenges in release order: each account's oldest first, accounts taking turns.
_WAITING_SQL = """
    SELECT id FROM (
        SELECT id, created_at, row_number() OVER (PARTITION BY requested_by ORDER BY created_at, id) AS turn
        FROM matches WHERE kind = 'challenge' AND status = 'queued' AND released_at IS NULL) waiting
    ORDER BY turn, created_at, id LIMIT %s"""


def release_waiting(conn: Conn, policy: ReleasePolicy) -> list[str]:
    """Release as many waiting challenges as the platform has room for; their ids, to enqueue after
    the commit (a lost message is sent again by the reaper, which sees a released row)."""
    if conn.execute("SELECT 1 FROM matches WHERE kind = 'challenge' AND status = 'queued'"
                    " AND released_at IS NULL LIMIT 1").fetchone() is None:
        return []   # the common case, without the lock
    conn.execute("SELECT pg_advisory_xact_lock(%s)", (_RELEASE_LOCK,))
    row = conn.execute(_LOAD_SQL, {"window": policy.window_s}).fetchone()
    assert row is not None
    room = room_for_challenges(PlatformLoad(**row), policy)
    if room == 0:
        return []
    ids = [r["id"] for r in conn.execute(_WAITING_SQL, (room,))]
    conn.execute("UPDATE matches SET released_at = now() WHERE id = ANY(%s)", (ids,))
    return ids
