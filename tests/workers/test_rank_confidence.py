"""Rank confidence: P(outranks the next), rank intervals, the settled verdict, information-seeking matches."""

from __future__ import annotations

import math
import random

import pytest

from workers.matchmaking import (
    LadderVersion,
    MatchmakingParameterError,
    MatchmakingParameters,
    open_pairs,
    plan_matches,
)
from workers.rank_confidence import (
    Contestant,
    adjacent_probabilities,
    outrank_probability,
    rank_intervals,
    settle_verdict,
)
from workers.ratings import Rating, RatingParameters, SeatResult, rate_free_for_all

PARAMS = RatingParameters()


def test_outrank_probability_is_the_normal_cdf_of_the_gap() -> None:
    a, b = Rating(27.0, 3.0), Rating(25.0, 4.0)
    assert outrank_probability(a, b) == pytest.approx(0.5 * (1 + math.erf(2 / 5 / math.sqrt(2))))
    assert outrank_probability(a, b) + outrank_probability(b, a) == pytest.approx(1.0)
    assert outrank_probability(a, a) == pytest.approx(0.5)
    assert adjacent_probabilities([a, b, Rating(0.0, 1.0)])[1] > 0.99


def test_rank_intervals_agree_with_the_exact_two_version_case() -> None:
    # Two versions: the better one is rank 1 with probability P; its 90 % interval is (1, 1) iff P >= 0.95.
    sure = [Rating(30.0, 1.0), Rating(25.0, 1.0)]      # P ≈ 0.9998
    coin = [Rating(25.0, 3.0), Rating(25.0, 3.0)]      # P = 0.5
    assert rank_intervals(sure) == [(1, 1), (2, 2)]
    assert rank_intervals(coin) == [(1, 2), (1, 2)]


def test_rank_intervals_are_seeded_and_widen_with_sigma() -> None:
    # Fifty versions 2 points apart and well known, but the middle one barely known (σ 10).
    ratings = [Rating(100.0 - 2 * i, 10.0 if i == 25 else 0.5) for i in range(50)]
    assert rank_intervals(ratings, seed=3) == rank_intervals(ratings, seed=3)
    intervals = rank_intervals(ratings)
    low, high = intervals[25]
    assert low < 26 < high and high - low >= 8
    assert all(b - a <= 1 and a <= i + 1 <= b for i, (a, b) in enumerate(intervals) if i != 25)


def placed(ratings: list[Rating], matches: int = 50) -> list[Contestant]:
    return [Contestant(i, r, matches) for i, r in enumerate(ratings)]


def test_a_well_separated_top_is_settled_and_a_newcomer_unsettles_it() -> None:
    ladder = placed([Rating(40.0, 1.0), Rating(35.0, 1.0), Rating(30.0, 1.0), Rating(25.0, 1.0), Rating(24.0, 1.0)])
    verdict = settle_verdict(ladder, PARAMS, top=3, probability=0.95, placement=5)
    assert verdict.settled and verdict.matches_needed == 0 and len(verdict.pairs) == 3
    assert verdict.text().startswith("settled: the top 3")
    newcomer = settle_verdict([*ladder, Contestant(9, Rating(25.0, 8.33), 2)], PARAMS, top=3, probability=0.95,
                              placement=5)
    assert not newcomer.settled and newcomer.in_placement == 1 and newcomer.matches_needed >= 2
    assert "1 version(s) still in placement" in newcomer.text()


def test_an_open_top_says_about_how_many_more_matches_and_more_for_wider_sigmas() -> None:
    close = placed([Rating(30.0, 2.0), Rating(28.0, 2.0), Rating(20.0, 2.0), Rating(10.0, 2.0)])
    vaguer = placed([Rating(30.0, 3.0), Rating(28.0, 3.0), Rating(20.0, 2.0), Rating(10.0, 2.0)])
    first = settle_verdict(close, PARAMS, top=3, probability=0.95)
    second = settle_verdict(vaguer, PARAMS, top=3, probability=0.95)
    assert not first.settled and first.open_pairs == 1
    assert 0 < first.matches_needed < second.matches_needed
    assert first.text(matches_per_hour=60).startswith(f"not yet: about {first.matches_needed:,} more matches")
    assert "min at the current rate" in first.text(matches_per_hour=60)


def test_the_estimate_is_roughly_what_direct_meetings_take() -> None:
    # Play the open pair against each other with TrueSkill's own model and count, over many seeds:
    # the estimate (which assumes the μ gap stays) is the right size on average.
    start = {0: Rating(30.0, 2.5), 1: Rating(27.0, 2.5)}
    estimate = settle_verdict([Contestant(v, r, 50) for v, r in start.items()], PARAMS, top=1,
                              probability=0.95).matches_needed
    runs = []
    for seed in range(30):
        rng, ratings, played = random.Random(seed), dict(start), 0
        while not settle_verdict([Contestant(v, r, 50) for v, r in ratings.items()], PARAMS, top=1,
                                 probability=0.95).settled and played < 20 * estimate:
            first = rng.gauss(30.0, PARAMS.beta) > rng.gauss(27.0, PARAMS.beta)
            seats = [SeatResult(0, 0 if first else 1), SeatResult(1, 1 if first else 0)]
            ratings.update(rate_free_for_all(PARAMS, seats, ratings).new_ratings())
            played += 1
        runs.append(played)
    mean = sum(runs) / len(runs)
    assert estimate / 3 <= mean <= estimate * 3, (estimate, mean)


@pytest.mark.parametrize("values, message", [
    ({"settle_probability": 0.5}, "settle_probability=0.5 must lie strictly between 0.5"),
    ({"settle_probability": 1.0}, "settle_probability=1 must lie strictly between 0.5"),
    ({"settle_probability": 0.3}, "settle_probability=0.3 is out of range: choose a value from 0.5 to 1"),
    ({"settle_top": 0}, "settle_top=0 is out of range"),
    ({"seek_share": 1.5}, "seek_share=1.5 is out of range"),
])
def test_bad_settling_parameters_are_refused_in_one_line(values: dict[str, float], message: str) -> None:
    with pytest.raises(MatchmakingParameterError, match=message):
        MatchmakingParameters.from_mapping(values)


def versions_with_an_open_top() -> list[LadderVersion]:
    """Ten placed versions: 1 and 2 close at the top and uncertain, the rest far apart and well known."""
    return [LadderVersion(1, Rating(40.0, 2.0), 30), LadderVersion(2, Rating(39.5, 2.0), 30),
            *(LadderVersion(v, Rating(40.0 - 4 * v, 0.8), 60) for v in range(3, 11))]


def test_open_pairs_are_the_unsettled_pairs_at_the_top_best_first() -> None:
    versions = versions_with_an_open_top()
    pairs = open_pairs([Contestant(v.version_id, v.rating, v.matches_played) for v in versions],
                       MatchmakingParameters(), PARAMS)
    assert pairs and pairs[0][1] == (1, 2)
    assert all(score > 0 for score, _ in pairs)


def test_seeking_matches_meet_the_open_pair_and_the_rest_keep_todays_seeding() -> None:
    versions = versions_with_an_open_top()
    seeking = plan_matches(versions, [], 2, 12, seed=2, params=MatchmakingParameters(seek_share=1.0, max_in_flight=6))
    met = [m.seats for m in seeking.matches if set(m.seats) == {1, 2}]
    assert len(met) >= 6
    assert abs(sum(1 for seats in met if seats[0] == 1) - len(met) / 2) <= 1   # the seats alternate
    today = plan_matches(versions, [], 2, 12, seed=2, params=MatchmakingParameters(seek_share=0.0, max_in_flight=6))
    assert sum(1 for m in today.matches if set(m.seats) == {1, 2}) < 6
    # Seeding first goes to versions in placement, seeking or not.
    newcomer = [*versions, LadderVersion(99, Rating(25.0, 8.33), 0)]
    plan = plan_matches(newcomer, [], 2, 3, seed=2, params=MatchmakingParameters(seek_share=1.0, max_in_flight=5))
    assert all(99 in m.seats for m in plan.matches)


def test_seeking_four_player_matches_put_the_pair_together() -> None:
    versions = versions_with_an_open_top()
    plan = plan_matches(versions, [], 4, 2, seed=5, params=MatchmakingParameters(seek_share=1.0))
    for match in plan.matches:
        assert {1, 2} <= set(match.seats) and len(set(match.seats)) == 4


def test_a_settled_ladder_plans_todays_matches() -> None:
    versions = [LadderVersion(v, Rating(50.0 - 5 * v, 0.5), 80) for v in range(1, 11)]
    assert open_pairs([Contestant(v.version_id, v.rating, 80) for v in versions], MatchmakingParameters(), PARAMS) == []
    for seed in range(3):
        assert plan_matches(versions, [], 2, 4, seed=seed) == \
            plan_matches(versions, [], 2, 4, seed=seed, params=MatchmakingParameters(seek_share=0.0))


def test_no_two_seeking_matches_of_a_plan_repeat_a_pair_while_another_waits() -> None:
    versions = [LadderVersion(v, Rating(30.0 - 0.5 * v, 2.0), 30) for v in range(1, 7)]
    plan = plan_matches(versions, [], 2, 3, seed=1, params=MatchmakingParameters(seek_share=1.0, max_in_flight=3))
    pairs = [frozenset(m.seats) for m in plan.matches]
    assert len(pairs) == 3 and len(set(pairs)) == 3


def test_a_whole_order_verdict_asks_the_product_of_the_pairs_to_reach_p() -> None:
    gap = 1.75 * math.hypot(0.8, 0.8)    # each adjacent pair ordered with probability ≈ 0.96
    ladder = [Contestant(v, Rating(40.0 - v * gap, 0.8), 50) for v in range(4)]
    per_pair = settle_verdict(ladder, PARAMS, top=3, probability=0.95)
    whole = settle_verdict(ladder, PARAMS, top=3, probability=0.95, whole_order=True)
    assert per_pair.settled and all(0.955 < q < 0.965 for q in per_pair.pairs)
    assert not whole.settled and whole.open_pairs == 3 and whole.matches_needed > 0   # 0.96³ < 0.95
    assert math.isclose(whole.pair_threshold, 0.95 ** (1 / 3))
    wider = [Contestant(v, Rating(40.0 - v * 2 * gap, 0.8), 50) for v in range(4)]
    assert settle_verdict(wider, PARAMS, top=3, probability=0.95, whole_order=True).text() == (
        "settled: the order of the top 3 holds with probability ≥ 0.95")
