"""Challenges give way to rated matches: the release rule, and the store applying it on real Postgres.

A challenge is stored when asked for and handed to the workers only when the platform has room
(`workers.challenge_release`): freely while no rated match waits for a worker, within a small share
of the matches started while some do. The reaper never sends one that is still waiting.
"""

from __future__ import annotations

import pytest

from workers.challenge_release import PlatformLoad, ReleasePolicy, room_for_challenges
from workers.scheduling import schedule_season
from workers.store import Database, queue
from workers.store.accounts import account_id
from workers.store.challenges import ChallengeLimits, queue_challenges, release_waiting

from .services import house_league

POLICY = ReleasePolicy(share=0.1, idle_slots=3)
ROOMY = ChallengeLimits(per_day=100, in_flight=50)


@pytest.mark.parametrize(("load", "room"), [
    (PlatformLoad(others_waiting=0, challenges_out=0, others_started=0, challenges_started=0), 3),
    (PlatformLoad(others_waiting=0, challenges_out=2, others_started=500, challenges_started=9), 1),
    (PlatformLoad(others_waiting=0, challenges_out=3, others_started=0, challenges_started=0), 0),
    # Rated matches wait: 18 started buy 2 challenges (2 / 20 = the share), 17 only 1.
    (PlatformLoad(others_waiting=4, challenges_out=0, others_started=18, challenges_started=0), 2),
    (PlatformLoad(others_waiting=4, challenges_out=0, others_started=17, challenges_started=0), 1),
    (PlatformLoad(others_waiting=4, challenges_out=0, others_started=18, challenges_started=2), 0),
    (PlatformLoad(others_waiting=4, challenges_out=0, others_started=8, challenges_started=0), 0),
    # The cap out holds even when the share would allow more.
    (PlatformLoad(others_waiting=1, challenges_out=2, others_started=1000, challenges_started=0), 1),
])
def test_the_room_for_challenges(load: PlatformLoad, room: int) -> None:
    assert room_for_challenges(load, POLICY) == room


def test_a_zero_share_plays_challenges_only_on_spare_slots() -> None:
    policy = ReleasePolicy(share=0.0, idle_slots=2)
    assert room_for_challenges(PlatformLoad(1, 0, 10_000, 0), policy) == 0
    assert room_for_challenges(PlatformLoad(0, 0, 10_000, 0), policy) == 2


def _challenges(db: Database, account: str, seats: list[int], count: int) -> list[str]:
    with db.connection() as conn:
        return queue_challenges(conn, account_id(conn, account), "sky-team", [seats] * count,
                                list(range(count)), ROOMY)


def _released(db: Database) -> set[str]:
    with db.connection() as conn:
        return {r["id"] for r in conn.execute("SELECT id FROM matches WHERE kind = 'challenge'"
                                              " AND released_at IS NOT NULL")}


def _rated_round(db: Database, season_id: int) -> list[str]:
    """Finish the rated matches in flight and schedule a fresh eight, which wait for a worker."""
    with db.connection() as conn:
        conn.execute("UPDATE matches SET status = 'finished', finished_at = now() WHERE kind = 'rated'"
                     " AND status = 'queued'")
    ids = list(schedule_season(db, season_id, 8).match_ids)
    assert len(ids) == 8
    return ids


def test_challenges_wait_while_rated_matches_do_and_take_their_share(db: Database) -> None:
    season, versions = house_league(db, "s1", "sky-team", (2,), 16)
    waiting = _challenges(db, "ann", versions[:2], 5)
    _rated_round(db, season.id)
    with db.connection() as conn:
        assert release_waiting(conn, POLICY) == []               # 8 started buy no challenge at a share of 0.1
    _rated_round(db, season.id)
    with db.connection() as conn:
        first = release_waiting(conn, POLICY)                    # 16 started buy one (1 / 17 <= 0.1)
        assert release_waiting(conn, POLICY) == []               # and no more than the share
    assert len(first) == 1 and set(first) <= set(waiting)
    _rated_round(db, season.id)
    with db.connection() as conn:
        second = release_waiting(conn, POLICY)                   # 24 started buy two in all
    assert len(second) == 1 and _released(db) == {*first, *second}
    # The reaper resends a released challenge whose message is lost, never a waiting one.
    resent = set(queue.waiting_matches(db, older_than_s=0.0))
    assert {*first, *second} <= resent and not (set(waiting) - {*first, *second}) & resent


def test_spare_slots_release_challenges_up_to_the_cap_with_accounts_taking_turns(db: Database) -> None:
    _, (a, b) = house_league(db, "s1", "sky-team", (2,), 2)
    burst = _challenges(db, "ann", [a, b], 4)
    single = _challenges(db, "bea", [b, a], 1)
    with db.connection() as conn:
        released = release_waiting(conn, POLICY)                 # nothing rated waits: the cap of 3 out
    assert len(released) == 3 and released[1] == single[0]      # ann's first, then bea's, then ann's again
    assert set(released) - set(single) <= set(burst) and _released(db) == set(released)
    with db.connection() as conn:
        conn.execute("UPDATE matches SET status = 'finished', finished_at = now() WHERE id = %s", (released[0],))
    with db.connection() as conn:
        last = release_waiting(conn, POLICY)                     # one finished, one more goes
    assert len(last) == 1 and set(last) <= set(burst) - set(released)
