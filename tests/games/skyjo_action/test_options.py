"""Options: player counts per variant, contradictory options and the setup option."""

from __future__ import annotations

from typing import Any

import pytest

from referee.games import GAMES, OptionError, PlayerCountError, make
from referee.games.skyjo_action.config import MAX_DECISIONS
from referee.games.skyjo_action.state import SkyjoActionState


def game(players: int, **options: Any) -> SkyjoActionState:
    state = make("skyjo-action", players, seed=1, options=options)
    assert isinstance(state, SkyjoActionState)
    return state


def test_spec() -> None:
    spec = GAMES["skyjo-action"]
    assert (spec.min_players, spec.max_players) == (2, 10) and not spec.cooperative
    assert spec.max_decisions == MAX_DECISIONS and spec.rulebook == "docs/rules/skyjo-action.md"
    defaults = {o.name: o.default for o in spec.all_options()}
    assert defaults["starter_actions"] is True and defaults["single_deck"] == 0
    assert not any(defaults[name] for name in ("double_move", "defense", "reactivation", "thief", "simple",
                                               "even_simpler"))


def test_nine_and_ten_players_use_the_large_group_variant() -> None:
    assert game(9).config.layout.cols == 3 and game(10).config.layout.cols == 3 and game(8).config.layout.cols == 4
    with pytest.raises(OptionError, match="9 players need the large-group variant.*set large_group=true"):
        make("skyjo-action", 9, options={"large_group": False})
    with pytest.raises(PlayerCountError, match="2 to 10 players, not 11"):
        make("skyjo-action", 11)
    with pytest.raises(PlayerCountError):
        make("skyjo-action", 1)


def test_simple_variants_have_their_own_player_limits() -> None:
    assert game(6, simple=True).config.layout.cols == 4 and game(8, simple=True).config.layout.cols == 3
    with pytest.raises(OptionError, match="simple variant is for at most 8 players"):
        make("skyjo-action", 9, options={"simple": True})
    with pytest.raises(OptionError, match="7 players need the large-group variant"):
        make("skyjo-action", 7, options={"simple": True, "large_group": False})
    assert game(6, even_simpler=True).config.layout.cols == 3
    with pytest.raises(OptionError, match="even_simpler variant is for at most 6 players"):
        make("skyjo-action", 7, options={"even_simpler": True})


def test_contradictory_options_name_the_fix() -> None:
    with pytest.raises(OptionError, match="set thief=false or simple=false"):
        make("skyjo-action", 2, options={"simple": True, "thief": True})
    with pytest.raises(OptionError, match="set single_deck=0 or even_simpler=false"):
        make("skyjo-action", 2, options={"even_simpler": True, "single_deck": 5})
    with pytest.raises(OptionError, match=r"use 0 \(two decks\) or 5..10"):
        make("skyjo-action", 2, options={"single_deck": 3})
    with pytest.raises(OptionError, match="only 3 are enabled"):
        make("skyjo-action", 2, options={"starter_actions": False, "thief": True, "single_deck": 5})
    with pytest.raises(OptionError, match="set simple=true to play without action cards"):
        make("skyjo-action", 2, options={"starter_actions": False})
    with pytest.raises(OptionError, match="'single_deck' cannot be 11"):
        make("skyjo-action", 2, options={"single_deck": 11})
    with pytest.raises(OptionError, match="unknown option 'meteor'"):
        make("skyjo-action", 2, options={"meteor": False})


@pytest.mark.parametrize(("setup", "message"), [
    ([1, 2], "setup must be an object"),
    ({"grid": []}, "unknown key 'grid'"),
    ({"grids": [[1] * 12]}, r"setup.grids must have 2 entries"),
    ({"grids": [[1] * 11, [1] * 12]}, r"grids\[0\] must list 12 cards"),
    ({"grids": [[1] * 11 + [13], [2] * 12]}, r"13 is not a card"),
    ({"deck": [1, "joker"]}, r"deck\[1\]: 'joker' is not a card"),
    ({"grids": [[5] * 12, [6] * 12]}, "setup uses 12 cards 5 but the deck has only 7"),
    ({"reveal": [["E1"], []]}, r"'E1' is not a position of a 3x4 grid"),
    ({"reveal": [["A1", "a1"], []]}, "names a position twice"),
    ({"first": 2}, "setup.first must be a seat from 0 to 1"),
    ({"action_row": ["thief"]}, "'thief' is not enabled"),
    ({"action_row": ["look"] * 5}, "holds at most 4 cards"),
    ({"held": [["look"] * 4, []]}, "uses 4 'look' cards but there are only 3"),
    ({"lock": ["diagonal", None]}, r"setup.lock\[0\] must be null"),
    ({"totals": [1.5, 0]}, "setup.totals must be integers"),
    ({"discard": []}, "must hold at least one card"),
    ({"deck": [1, 2, 3]}, "setup.deck has 3 cards but dealing needs at least 25"),
    ({"grids": [["look", *range(1, 12)], [*range(1, 13)]]}, "needs single_deck>0 or an explicit setup.deck"),
])
def test_bad_setup_says_what_is_wrong(setup: Any, message: str) -> None:
    with pytest.raises(OptionError, match=message):
        make("skyjo-action", 2, options={"setup": setup})


def test_setup_for_variants() -> None:
    with pytest.raises(OptionError, match="has no stars"):
        make("skyjo-action", 2, options={"even_simpler": True, "setup": {"deck": ["*"] * 30}})
    with pytest.raises(OptionError, match="no action deck/row"):
        make("skyjo-action", 2, options={"simple": True, "setup": {"action_row": ["look"]}})
    with pytest.raises(OptionError, match="is not a position of a 3x3 grid"):
        make("skyjo-action", 9, options={"setup": {"reveal": [["D1"]] + [[]] * 8}})


def test_setup_is_kept_in_the_replay_header() -> None:
    state = make("skyjo-action", 2, seed=1, options={"setup": {"first": 1, "totals": [5, 6]}})
    header = state.replay()[0]
    assert header["options"]["setup"] == {"first": 1, "totals": [5, 6]}
    assert state.observation(0)["areas"][1]["total"] == 6
