"""Options and the ``setup`` format: every mistake is an OptionError that names the fix."""

from __future__ import annotations

from typing import Any

import pytest

from referee.games import GAMES, OptionError, PlayerCountError, make
from referee.games.fly_away.data import deck_for
from referee.games.fly_away.state import FlyAwayState
from tests.games.fly_away.helpers import bird

KEPT = [["outside-1", "center-1", "top-1"], ["outside-2", "center-2", "top-2"]]


def test_spec_declares_every_option_with_the_rulings_as_defaults() -> None:
    spec = GAMES["fly-away"]
    defaults = {o.name: o.default for o in spec.all_options()}
    assert defaults == {
        "scoring_cards": "keep-three", "scoring_data": "template", "public_scoring_cards": False,
        "ability_order": "swaps-then-flips", "double_counts_for_set": False, "empty_penalty_pile": "no-penalty",
        "setup": None,
    }
    assert (spec.min_players, spec.max_players) == (2, 5)
    assert spec.rulebook == "docs/rules/fly-away.md"


@pytest.mark.parametrize(("name", "value", "hint"), [
    ("scoring_cards", "keep-five", "'keep-three', 'first-game', 'all-four'"),
    ("ability_order", "flips-first", "'swaps-then-flips', 'any-order'"),
    ("scoring_data", "fair", "'template', 'balanced'"),
    ("public_scoring_cards", "maybe", "true/false"),
    ("empty_penalty_pile", -4, "'no-penalty', 'minus-4'"),
    ("colour", "red", "known options"),
])
def test_bad_option_values_name_what_is_allowed(name: str, value: Any, hint: str) -> None:
    with pytest.raises(OptionError, match=name) as caught:
        make("fly-away", 2, options={name: value})
    assert hint in str(caught.value)


@pytest.mark.parametrize("players", [1, 6])
def test_player_count_is_two_to_five(players: int) -> None:
    with pytest.raises(PlayerCountError, match="2 to 5"):
        make("fly-away", players)


def test_kept_cards_contradicting_the_all_four_variant_name_the_fix() -> None:
    with pytest.raises(OptionError, match="drop 'kept' or choose 'keep-three'"):
        make("fly-away", 2, options={"scoring_cards": "all-four", "setup": {"kept": KEPT}})


def row(cards: list[int]) -> list[list[int]]:
    return [[0, c, card] for c, card in enumerate(cards)]


@pytest.mark.parametrize(("setup", "hint"), [
    ("deal", "JSON object"),
    ({"hand": []}, "unknown key 'hand'"),
    ({"deck": [bird("swan", None, skip=7)]}, "not used with 2 players"),     # the swan with the 5 icon
    ({"deck": [1, 1]}, "appears twice"),
    ({"deck": "1,2"}, "list of bird card ids"),
    ({"display": [1, 2, 3]}, "12 entries"),
    ({"formations": [[[0, 0, 1], [0, 2, 2]], []]}, "not connected"),
    ({"formations": [row([1, 2, 3, 4, 5, 14]), []]}, "does not fit"),
    ({"formations": [[[0, 0, 1], [0, 0, 2]], []]}, "two cards at"),
    ({"formations": [[[0, 0]], []]}, "[row, col, card id]"),
    ({"formations": [[]]}, "list of 2 lists"),
    ({"scoring": [["outside-1"], ["outside-2"]]}, "one of each type"),
    ({"scoring": [["outside-1", "center-1", "top-1", "bottom-1"], []]}, "must be dealt 4"),
    ({"kept": [["outside-1", "outside-2", "top-1"], KEPT[1]]}, "two outside scoring cards"),
    ({"kept": [["outside-1", "center-1", "top-1"], ["outside-1", "center-2", "top-2"]]}, "dealt twice"),
    ({"kept": [["outside-1", "center-1"], KEPT[1]]}, "keeps 3"),
    ({"kept": [["outside-0", "center-1", "top-1"], KEPT[1]]}, "not a scoring card id"),
    ({"penalties": [-4, -4, -4, -4]}, "only 3 penalty cards of -4"),
    ({"penalties": -2}, "list of penalty values"),
    ({"lead": 2}, "seat from 0 to 1"),
    ({"to_move": True}, "must be a seat from 0 to"),
])
def test_bad_setup_is_explained(setup: Any, hint: str) -> None:
    with pytest.raises(OptionError, match="setup") as caught:
        make("fly-away", 2, options={"setup": setup})
    assert hint in str(caught.value)
    assert "README" in str(caught.value)


@pytest.mark.parametrize("scoring_cards", ["keep-three", "all-four"])
def test_each_scoring_card_is_kept_once_so_a_setup_naming_one_twice_is_refused(scoring_cards: str) -> None:
    """Setup: "choose 3 cards you want to keep": three different cards, one of each type. A
    card named twice would score twice (and, with all four kept, leave a type to chance)."""
    four = scoring_cards == "all-four"
    kept = ["outside-1", "outside-1", "top-1"] + (["bottom-1"] if four else [])
    other = ["outside-2", "center-2", "top-2", "bottom-2"] if four else KEPT[1]
    for key in ("kept", "scoring"):
        ids = kept if key == "kept" else ["outside-1", "outside-1", "top-1", "bottom-1"]
        with pytest.raises(OptionError, match=rf"seat 0's '{key}' names outside-1 twice.*README"):
            make("fly-away", 2, options={"scoring_cards": scoring_cards, "setup": {key: [ids, other]}})


@pytest.mark.parametrize("setup", [[], 0, "", False, {"kept"}])
def test_only_null_means_no_setup(setup: Any) -> None:
    with pytest.raises(OptionError, match=r"option 'setup': must be a JSON object \(or null for a random deal\)"):
        make("fly-away", 2, options={"setup": setup})


def test_seat_to_move_must_still_miss_cards() -> None:
    deck = sorted(deck_for(2))
    full = [[r, c, deck[i]] for i, (r, c) in enumerate((r, c) for r in range(3) for c in range(r + 3))]
    with pytest.raises(OptionError, match="formation is complete"):
        make("fly-away", 2, options={"setup": {"formations": [full, [[0, 0, deck[20]]]], "kept": KEPT}})


def test_a_partial_setup_deals_the_rest_at_random() -> None:
    kept = KEPT + [["outside-3", "center-3", "top-3"]]
    a, b = (make("fly-away", 3, seed=seed, options={"setup": {"kept": kept}}) for seed in (1, 2))
    assert isinstance(a, FlyAwayState) and isinstance(b, FlyAwayState)
    assert a.to_move() == (0,) and a.display != b.display
    assert [len(d) for d in a.dealt] == [4, 4, 4]          # the missing bottom cards were dealt
