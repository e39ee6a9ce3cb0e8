"""Co-operative ladders that mean something: self-play scheduled, rated once per version, and a
Sky Team ladder of the two house bots that ends with the heuristic clearly above random."""

from __future__ import annotations

from collections import Counter

import pytest

from skyarena.games import house_bots
from skyarena.local import play_unclocked
from workers.matchmaking import LadderVersion, MatchmakingParameters, plan_matches
from workers.rank_confidence import outrank_probability
from workers.ratings import Rating, RatingParameters, SeatResult, rate_cooperative

PARAMS = RatingParameters()
HEURISTIC, RANDOM = 1, 2


def test_self_play_is_one_member_rated_alone_against_the_game() -> None:
    ratings = {HEURISTIC: Rating(25.0, 5.0)}
    landed = rate_cooperative(PARAMS, [SeatResult(HEURISTIC, 0, 1.0), SeatResult(HEURISTIC, 0, 1.0)], ratings, None)
    assert len(landed.changes) == 1 and landed.changes[0].weight == 1.0 and landed.changes[0].seat == 0
    assert landed.new_ratings()[HEURISTIC].mu > 25.0
    lone = rate_cooperative(PARAMS, [SeatResult(HEURISTIC, 0, 1.0), SeatResult(RANDOM, 1, 0.0, "excused")],
                            ratings, None)
    assert landed.changes[0].after == lone.changes[0].after   # the same as a lone partner, the other excused


def test_a_cooperative_ladder_schedules_self_play_at_its_share() -> None:
    versions = [LadderVersion(v, Rating(25.0, 3.0), 30) for v in range(1, 5)]
    params = MatchmakingParameters(self_play_share=0.3, max_in_flight=1000)
    seats = [m.seats for seed in range(20) for m in plan_matches(versions, [], 2, 10, seed, params,
                                                                  cooperative=True).matches]
    share = sum(1 for s in seats if s[0] == s[1]) / len(seats)
    assert 0.2 < share < 0.4
    assert not any(s[0] == s[1] for seed in range(5)
                   for s in (m.seats for m in plan_matches(versions, [], 2, 10, seed, params).matches))
    with pytest.raises(ValueError, match="self_play_share=2 is out of range"):
        MatchmakingParameters(self_play_share=2)


def test_a_sky_team_ladder_of_the_house_bots_ranks_the_heuristic_clearly_above_random() -> None:
    bots = {HEURISTIC: house_bots("sky-team")["heuristic"], RANDOM: house_bots("sky-team")["random"]}
    ratings = {v: PARAMS.fresh() for v in bots}
    played: Counter[int] = Counter()
    game = None
    landings: Counter[tuple[int, ...]] = Counter()
    flights: Counter[tuple[int, ...]] = Counter()
    for batch in range(40):
        versions = [LadderVersion(v, ratings[v], played[v]) for v in bots]
        plan = plan_matches(versions, [], 2, 2, seed=batch, params=MatchmakingParameters(max_in_flight=4),
                            cooperative=True)
        for n, match in enumerate(plan.matches):
            state = play_unclocked("sky-team", [bots[v]() for v in match.seats], seed=batch * 10 + n)
            result = state.result()
            assert result is not None
            seats = [SeatResult(v, result.ranks[i], result.scores[i]) for i, v in enumerate(match.seats)]
            rated = rate_cooperative(PARAMS, seats, ratings, game)
            ratings.update(rated.new_ratings())
            game = rated.game.after if rated.game is not None else game
            for v in set(match.seats):
                played[v] += 1
            key = tuple(sorted(match.seats))
            flights[key] += 1
            landings[key] += seats[0].beat_the_game
    assert flights[(HEURISTIC, HEURISTIC)] >= 5 and flights[(RANDOM, RANDOM)] >= 5   # self-play was scheduled
    assert landings[(HEURISTIC, HEURISTIC)] > 0 and landings[(RANDOM, RANDOM)] == 0
    assert ratings[HEURISTIC].leaderboard_score > ratings[RANDOM].leaderboard_score + 3
    assert outrank_probability(ratings[HEURISTIC], ratings[RANDOM]) > 0.95
