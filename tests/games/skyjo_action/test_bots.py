"""House bots: they answer legally, and the heuristic clearly beats random."""

from __future__ import annotations

from referee.games import Result, make
from skyarena.bot import Bot, MatchInfo, bot_seed
from skyarena.games import house_bots, observation_class
from skyarena.games.skyjo_action import HOUSE_BOTS, HeuristicBot, Observation, index_of, position_of


def play_match(players: int, seed: int, heuristic_seats: set[int], options: dict[str, object] | None = None
               ) -> Result:
    state = make("skyjo-action", players, seed=seed, options=options or {})
    bots: list[Bot] = []
    for seat in range(players):
        bot = HOUSE_BOTS["heuristic" if seat in heuristic_seats else "random"]()
        bot.start(MatchInfo("skyjo-action", seat, players, {}, bot_seed(seed, seat)))
        bots.append(bot)
    while not state.is_over():
        (seat,) = state.to_move()
        legal = state.legal_actions(seat)
        answer = bots[seat].act(Observation.from_json(state.observation(seat)), legal)
        state.apply({seat: legal[answer] if isinstance(answer, int) else answer})
    result = state.result()
    assert result is not None
    return result


def win_rate(players: int, games: int, options: dict[str, object] | None = None) -> float:
    """One heuristic seat (rotating) against random seats."""
    wins = 0
    for game in range(games):
        seat = game % players
        wins += play_match(players, 7000 + game, {seat}, options).ranks[seat] == 0
    return wins / games


def test_registered_and_typed() -> None:
    assert observation_class("skyjo-action") is Observation
    assert house_bots("skyjo-action")["heuristic"] is HeuristicBot
    assert index_of("B2", 4) == 5 and index_of("b2", 3) == 4 and position_of(11, 4) == "D3"


def test_heuristic_beats_random_two_players() -> None:
    assert win_rate(2, 200) >= 0.9


def test_heuristic_beats_random_six_players() -> None:
    assert win_rate(6, 60) >= 0.6          # one seat in six: 1/6 if it were no better


def test_heuristic_plays_every_variant_legally() -> None:
    extras = {"double_move": True, "defense": True, "reactivation": True, "thief": True}
    for players, options in ((4, extras), (3, {"single_deck": 8, **extras}), (9, {}), (4, {"simple": True}),
                             (2, {"even_simpler": True})):
        result = play_match(players, 11, set(range(players)), options)
        assert result.reason in ("score", "round-limit")


def test_fast_observation_parsing_matches_the_generic_converter() -> None:
    from skyarena.observation import _build

    state = make("skyjo-action", 3, seed=5, options={"defense": True})
    for _ in range(40):
        for seat in range(3):
            data = state.observation(seat)
            typed = Observation.from_json(data)
            assert typed == _build(Observation, data, keep_raw=True) and typed.to_json() == data
        (seat,) = state.to_move()
        state.apply({seat: state.legal_actions(seat)[-1]})
    public = Observation.from_json(state.public_view())
    assert public.seat is None and len(public.areas) == 3
