"""Every registered game has a typed observation class and house bots in the SDK."""

from __future__ import annotations

import dataclasses
import random

import pytest

from referee.games import GAMES, make
from referee.games.core.playout import random_joint_action
from skyarena.bot import MatchInfo, bot_seed
from skyarena.games import house_bots, observation_class
from skyarena.observation import GenericObservation, Observation

CASES = [(name, n) for name, spec in sorted(GAMES.items()) for n in (spec.min_players, spec.max_players)]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_game_has_typed_observation_and_house_bots(game: str) -> None:
    cls = observation_class(game)
    assert cls is not GenericObservation and issubclass(cls, Observation)
    assert dataclasses.is_dataclass(cls) and cls.__doc__
    bots = house_bots(game)
    assert {"random", "heuristic"} <= set(bots)


@pytest.mark.parametrize(("game", "players"), CASES)
def test_observations_convert_both_ways_and_house_bots_answer_legally(game: str, players: int) -> None:
    cls = observation_class(game)
    bots = [house_bots(game)["heuristic" if s % 2 == 0 else "random"]() for s in range(players)]
    for seat, bot in enumerate(bots):
        bot.start(MatchInfo(game, seat, players, {}, bot_seed(3, seat)))
    state = make(game, players, seed=3)
    policy = random.Random(3)
    while not state.is_over():
        for seat in range(players):
            data = state.observation(seat)
            typed = cls.from_json(data)
            assert typed.to_json() == data
        joint = random_joint_action(state, policy)
        for seat in state.to_move():
            legal = state.legal_actions(seat)
            answer = bots[seat].act(cls.from_json(state.observation(seat)), legal)
            if isinstance(answer, int) and not isinstance(answer, bool):
                assert 0 <= answer < len(legal)
            elif isinstance(answer, str):
                state.parse_action(seat, answer)
            else:
                assert answer in legal
        state.apply(joint)
