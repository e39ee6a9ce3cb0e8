"""The matchmaker: seeding, opponents near in μ with the best quality, seat rotation, limits, pauses."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tests.workers.league import league, outcome
from workers.matchmaking import (
    LadderVersion,
    MatchmakingParameterError,
    MatchmakingParameters,
    paused_versions,
    plan_matches,
)
from workers.ratings import Rating, RatingParameters, match_quality
from workers.store import Database
from workers.store.results import apply_outcome
from workers.store.scheduling import in_flight_seats, ladder_versions, pause_versions, schedule_matches, scheduling_lock


def ladder(n: int, seed: int = 0, played: int = 10) -> list[LadderVersion]:
    rng = random.Random(seed)
    return [LadderVersion(v, Rating(rng.uniform(10, 40), rng.uniform(1.0, 3.0)), played) for v in range(1, n + 1)]


def test_the_same_arguments_give_the_same_plan() -> None:
    versions = ladder(20)
    first = plan_matches(versions, [], 2, 5, seed=7)
    assert first == plan_matches(versions, [], 2, 5, seed=7)
    assert first != plan_matches(versions, [], 2, 5, seed=8)


def test_new_versions_play_their_placement_matches_first() -> None:
    versions = [*ladder(10), LadderVersion(99, Rating(25.0, 25 / 3), 0)]
    params = MatchmakingParameters(placement_matches=3, max_in_flight=5)
    plan = plan_matches(versions, [], 2, 3, seed=1, params=params)
    assert [m.seeded for m in plan.matches] == [99, 99, 99]
    assert all(99 in m.seats for m in plan.matches)


def test_the_least_played_then_the_most_uncertain_version_is_seeded() -> None:
    versions = [LadderVersion(1, Rating(25, 2.0), 12), LadderVersion(2, Rating(25, 2.0), 8),
                LadderVersion(3, Rating(25, 4.0), 8), LadderVersion(4, Rating(25, 1.0), 30)]
    # Today's seeding (the seeking share off: these four are level, every pair is open).
    plan = plan_matches(versions, [], 2, 1, seed=3, params=MatchmakingParameters(placement_matches=0, seek_share=0))
    assert plan.matches[0].seeded == 3


def test_opponents_come_from_near_the_seed_with_the_best_quality() -> None:
    versions = [LadderVersion(v, Rating(5.0 * v, 1.0), 20) for v in range(1, 21)]
    versions[9] = LadderVersion(10, Rating(50.0, 1.0), 0)  # the seed: fewest matches, in placement
    params = MatchmakingParameters(exploration=0.0, neighbourhood=4, candidate_sets=16)
    plan = plan_matches(versions, [], 2, 1, seed=5, params=params)
    (match,) = plan.matches
    assert match.seeded == 10 and set(match.seats) in ({10, 9}, {10, 11})
    rating = {v.version_id: v.rating for v in versions}
    assert match.quality == pytest.approx(match_quality(RatingParameters(), [rating[s] for s in match.seats]))
    worst = match_quality(RatingParameters(), [rating[10], rating[1]])
    assert match.quality > worst


def test_exploration_sometimes_reaches_across_the_ladder() -> None:
    versions = [LadderVersion(v, Rating(5.0 * v, 1.0), 20) for v in range(1, 21)]
    params = MatchmakingParameters(exploration=1.0, candidate_sets=1, placement_matches=0, max_in_flight=100)
    gaps = [abs(m.seats[0] - m.seats[1]) for seed in range(30)
            for m in plan_matches(versions, [], 2, 1, seed=seed, params=params).matches]
    assert max(gaps) > 8  # the nearest-μ neighbourhood (8 versions) alone never gets that far


def test_seats_rotate_so_every_version_plays_every_seat() -> None:
    versions = ladder(8)
    seat_counts = {v.version_id: [0, 0, 0, 0] for v in versions}
    played = {v.version_id: 0 for v in versions}
    for round_ in range(40):
        current = [LadderVersion(v.version_id, v.rating, played[v.version_id], tuple(seat_counts[v.version_id]))
                   for v in versions]
        # Today's seeding: with ratings that never move, seeking would meet the same open pair forever.
        for match in plan_matches(current, [], 4, 2, seed=round_, params=MatchmakingParameters(seek_share=0)).matches:
            for seat, version in enumerate(match.seats):
                seat_counts[version][seat] += 1
                played[version] += 1
    for counts in seat_counts.values():
        assert min(counts) >= 1 and max(counts) - min(counts) <= 2, counts


def test_the_concurrency_limit_counts_matches_in_flight() -> None:
    versions = ladder(6)
    in_flight = [(1, 2), (1, 3)]
    plan = plan_matches(versions, in_flight, 2, 10, seed=2, params=MatchmakingParameters(max_in_flight=2))
    load = Counter(v for seats in [*in_flight, *(m.seats for m in plan.matches)] for v in seats)
    assert all(n <= 2 for n in load.values())
    assert load[1] == 2 and all(1 not in m.seats for m in plan.matches)
    assert len(plan.matches) == 4  # 6 versions x 2 slots = 12 seats; 4 are taken; 8 seats = 4 matches


def test_too_few_free_versions_give_fewer_matches() -> None:
    assert plan_matches(ladder(3), [], 4, 5, seed=1).matches == ()


def test_a_version_whose_recent_matches_mostly_fault_is_paused_with_a_reason() -> None:
    versions = [*ladder(5), LadderVersion(42, Rating(25, 3), 10, recent_matches=5, recent_faults=4),
                LadderVersion(43, Rating(25, 3), 10, recent_matches=4, recent_faults=2)]
    plan = plan_matches(versions, [], 2, 3, seed=4)
    assert [p.version_id for p in plan.paused] == [42]
    assert "faulted in 4 of its last 5 matches" in plan.paused[0].reason
    assert "submit a new version" in plan.paused[0].reason
    assert all(42 not in m.seats for m in plan.matches)
    few = [LadderVersion(44, Rating(25, 3), 2, recent_matches=2, recent_faults=2)]
    assert paused_versions(few, MatchmakingParameters()) == []  # too few matches to judge


@pytest.mark.parametrize("values, message", [
    ({"max_in_flight": 0}, "max_in_flight=0 is out of range"),
    ({"exploration": 1.5}, "exploration=1.5 is out of range: choose a value from 0 to 1"),
    ({"placement_matches": 2.5}, "placement_matches=2.5 must be a whole number"),
    ({"speed": 3}, "unknown matchmaking parameter speed"),
])
def test_bad_matchmaking_parameters_say_what_to_choose(values: dict[str, object], message: str) -> None:
    with pytest.raises(MatchmakingParameterError, match=message):
        MatchmakingParameters.from_mapping(values)


def test_a_plan_needs_two_seats() -> None:
    with pytest.raises(ValueError, match="at least two seats"):
        plan_matches(ladder(4), [], 1, 1, seed=0)


def test_the_store_feeds_the_matchmaker_and_keeps_its_plan(db: Database) -> None:
    season, versions = league(db, players=(2,), versions=6)
    ladder, params = season.ladders[2], season.rating
    with db.connection() as conn:
        scheduling_lock(conn, ladder)
        known = ladder_versions(conn, ladder, params)
        assert [v.version_id for v in known] == versions
        assert all(v.rating == params.fresh() and v.matches_played == 0 for v in known)
        plan = plan_matches(known, in_flight_seats(conn, ladder), 2, 3, seed=11, params=season.matchmaking)
        ids = schedule_matches(conn, ladder, plan.matches, [1, 2, 3])
        assert sorted(in_flight_seats(conn, ladder)) == sorted(m.seats for m in plan.matches)
    faulty = plan.matches[0].seats[1]
    for match_id, match in zip(ids, plan.matches):
        seats = list(match.seats)
        forfeited = [seats.index(faulty)] if faulty in seats else []
        ranks = [1 if i in forfeited else 0 for i in range(2)] if forfeited else [0, 1]
        apply_outcome(db, outcome(match_id, seats, ranks, forfeited=forfeited))
    with db.connection() as conn:
        assert in_flight_seats(conn, ladder) == []
        after = {v.version_id: v for v in ladder_versions(conn, ladder, params)}
        assert after[faulty].recent_faults == after[faulty].recent_matches >= 1
        assert after[faulty].seat_counts[1] >= 1
        strict = MatchmakingParameters(pause_min_matches=1)
        paused = plan_matches(list(after.values()), [], 2, 1, seed=1, params=strict).paused
        assert [p.version_id for p in paused] == [faulty]
        pause_versions(conn, paused)
        status = conn.execute("SELECT status, status_message FROM bot_versions WHERE id = %s", (faulty,)).fetchone()
        assert status is not None and status["status"] == "paused" and "faulted in" in status["status_message"]
        assert faulty not in {v.version_id for v in ladder_versions(conn, ladder, params)}
