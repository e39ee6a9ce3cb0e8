"""Challenges: unrated matches an account asks for, queued like every other match (issue 24).

A challenge is a ``matches`` row of kind ``challenge``: no season, no ladder, ``requested_by`` the
account that asked. Workers claim and play it through the same queue, sandbox and referees as a
rated match; applying its result moves no rating (only a rated match has a ladder to move:
``results.apply_in_transaction``), so ``skyarena ratings recompute --check`` never sees one.

Each account may ask ``per_day`` challenges in any 24 hours and have ``in_flight`` queued or
running at once. Both are counted here, in the transaction that queues them, under the account's
row lock: two requests of one account at once are counted one after the other, never both let in.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from psycopg.types.json import Jsonb

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
