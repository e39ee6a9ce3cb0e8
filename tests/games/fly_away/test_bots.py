"""House bots and the typed observation."""

from __future__ import annotations

import pytest

from referee.games import make
from referee.games.fly_away.state import FlyAwayState
from skyarena.bot import Bot, MatchInfo, RandomBot
from skyarena.games import house_bots, observation_class
from skyarena.games.fly_away import HOUSE_BOTS, BirdCard, HeuristicBot, Observation, PlacedBird, ScoringCard
from skyarena.local import play_unclocked
from tests.games.fly_away.test_scoring_example import NICK, nick_game


def play_game(players: int, seed: int, bots: list[Bot], options: dict | None = None) -> FlyAwayState:  # type: ignore[type-arg]
    state = play_unclocked("fly-away", bots, seed, options)
    assert isinstance(state, FlyAwayState)
    return state


def heuristic_win_rate(players: int, games: int) -> float:
    """One heuristic seat (rotating) against random seats; a shared win counts its share."""
    wins = 0.0
    for game in range(games):
        seat = game % players
        bots: list[Bot] = [HeuristicBot() if s == seat else RandomBot() for s in range(players)]
        result = play_game(players, 500 + game, bots).result()
        assert result is not None
        if result.ranks[seat] == 0:
            wins += 1 / result.ranks.count(0)
    return wins / games


@pytest.mark.parametrize(("players", "games", "floor"), [(2, 120, 0.9), (5, 60, 0.8)])
def test_heuristic_beats_random_clearly(players: int, games: int, floor: float) -> None:
    assert heuristic_win_rate(players, games) >= floor


def test_house_bots_are_registered_with_the_typed_observation() -> None:
    assert HOUSE_BOTS["heuristic"] is HeuristicBot and HOUSE_BOTS["random"] is RandomBot
    assert house_bots("fly-away")["heuristic"] is HeuristicBot
    assert observation_class("fly-away") is Observation


def test_observation_is_typed_and_converts_back() -> None:
    state = make("fly-away", 3, seed=4)
    state.apply({s: state.legal_actions(s)[0] for s in range(3)})
    state.apply({0: state.legal_actions(0)[5]})
    data = state.observation(1)
    obs = Observation.from_json(data)
    assert obs.to_json() == data
    assert obs.seat == 1 and obs.phase == "play" and obs.to_move == (1,)
    assert all(isinstance(card, BirdCard) for card in obs.display if card is not None)
    assert all(isinstance(p, PlacedBird) for p in obs.seats[0].formation) and obs.seats[0].formation
    assert obs.me.kept is not None and all(isinstance(k, ScoringCard) for k in obs.me.kept)
    assert obs.seats[0].kept is None and obs.seats[0].kept_count == 3
    assert obs.dealt is not None and len(obs.dealt) == 4
    assert set(obs.areas) == {"outside", "center", "top", "bottom"}
    public = Observation.from_json(state.public_view())
    assert public.seat is None and public.dealt is None


def test_heuristic_uses_nicks_abilities_at_least_as_well_as_nick() -> None:
    state = nick_game()
    bot = HeuristicBot()
    bot.start(MatchInfo("fly-away", NICK, 3, {}, 1))
    while not state.is_over():
        legal = state.legal_actions(NICK)
        state.apply({NICK: legal[bot.act(Observation.from_json(state.observation(NICK)), legal)]})
    result = state.result()
    assert result is not None and result.scores[NICK] >= 51


def test_bots_accept_legal_actions_as_strings() -> None:
    state = make("fly-away", 2, seed=8)
    bot = HeuristicBot()
    bot.start(MatchInfo("fly-away", 0, 2, {}, 1))
    while not state.is_over():
        joint = {}
        for seat in state.to_move():
            texts = [str(a) for a in state.legal_actions(seat)]
            answer = bot.act(Observation.from_json(state.observation(seat)), texts)
            assert isinstance(answer, int) and 0 <= answer < len(texts)
            joint[seat] = texts[answer]
        state.apply(joint)


@pytest.mark.parametrize("options", [{"scoring_cards": "first-game"}, {"scoring_cards": "all-four"},
                                     {"ability_order": "any-order"}])
def test_heuristic_plays_every_variant(options: dict) -> None:  # type: ignore[type-arg]
    state = play_game(3, 3, [HeuristicBot(), HeuristicBot(), RandomBot()], options)
    assert state.result() is not None
