"""House bots: legal answers, sensible single decisions, and the heuristic lands far more often."""

from __future__ import annotations

from collections import Counter

from skyarena.bot import MatchInfo
from skyarena.games import house_bots, observation_class
from skyarena.games.sky_team import HOUSE_BOTS, HeuristicBot, Observation
from skyarena.local import play_unclocked

from .helpers import C, P, dice, game, play

GAMES = 100


def play_game(kind: str, seed: int) -> str:
    """One seeded game between two house bots of a kind; the result's reason."""
    result = play_unclocked("sky-team", [HOUSE_BOTS[kind]() for _ in range(2)], seed).result()
    assert result is not None
    return result.reason


def test_registered_for_the_sdk() -> None:
    assert observation_class("sky-team") is Observation
    assert house_bots("sky-team")["heuristic"] is HeuristicBot


def test_heuristic_lands_clearly_more_often_than_random() -> None:
    heuristic = Counter(play_game("heuristic", 10_000 + i) for i in range(GAMES))
    random = Counter(play_game("random", 10_000 + i) for i in range(GAMES))
    assert random["landed"] <= 2
    assert heuristic["landed"] >= 15, heuristic
    assert heuristic["landed"] - random["landed"] >= 12
    assert heuristic["spin"] < random["spin"] / 3


def _decide(state_seat_obs: tuple[object, int]) -> str:
    state, seat = state_seat_obs
    bot = HeuristicBot()
    bot.start(MatchInfo("sky-team", seat, 2, {}, 1))
    legal = state.legal_actions(seat)          # type: ignore[attr-defined]
    answer = bot.act(Observation.from_json(state.observation(seat)), legal)  # type: ignore[attr-defined]
    return str(legal[answer])


def test_heuristic_levels_the_axis_instead_of_spinning() -> None:
    s = game({"dice": [dice([6, 1, 1, 1], [3, 6, 1, 1])], "axis": 2})
    play(s, "P:1>radio", "C:1>radio", "P:1>conc", "C:1>conc", "P:6>axis")
    # The Co-Pilot holds 3 and 6 and a coffee: 3+1 levels the axis (2 + 4 - 6 = 0); 6 would leave it at 2.
    choice = _decide((s, C))
    assert choice in {"3>axis", "3+1>axis"}
    play(s, "C:" + choice)
    assert s.result() is None and s.tilt in (-1, 0)


def test_heuristic_clears_the_current_space_before_the_engines() -> None:
    s = game({"round": 3, "position": 3, "dice": [dice([1, 3, 4, 5], [2, 2, 5, 6])]})
    assert s.tokens[2] == 1
    # A 1 on the radio clears the plane in the current space, which must be gone before advancing.
    assert _decide((s, P)) == "1>radio"


def test_heuristic_keeps_a_die_for_its_last_flap_in_the_landing_round() -> None:
    s = game({"round": 7, "position": 7, "tokens": [0] * 7, "gear": [True, True, True], "flaps": 3, "brakes": 3,
              "dice": [dice([3, 3, 1, 2], [5, 3, 3, 1])]})
    play(s, "P:3>axis")
    choice = _decide((s, C))
    assert choice == "5>flap4" or not choice.startswith("5")
