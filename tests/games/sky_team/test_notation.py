"""The action notation: canonical strings, parsing, and errors that say what is wrong."""

from __future__ import annotations

import pytest

from referee.games import IllegalAction, MalformedAction
from referee.games.sky_team import Place, Reroll, SpendReroll
from referee.games.sky_team.actions import parse

from .helpers import C, P, dice, game, legal, play


@pytest.mark.parametrize(("text", "action"), [
    ("4>axis", Place(4, 0, "axis")),
    ("1+1>radio", Place(1, 1, "radio")),
    ("6-2>engines", Place(6, -2, "engines")),
    ("2>gear1", Place(2, 0, "gear1")),
    ("5>flap4", Place(5, 0, "flap4")),
    ("6>brake3", Place(6, 0, "brake3")),
    ("3>conc", Place(3, 0, "conc")),
    ("reroll", SpendReroll()),
    ("roll none", Reroll(())),
    ("roll 1,3,3", Reroll((1, 3, 3))),
])
def test_canonical_strings_round_trip(text: str, action: object) -> None:
    assert parse(text) == action and str(action) == text


def test_roll_lists_are_read_in_any_order_and_printed_sorted() -> None:
    assert str(parse("roll 3,1")) == "roll 1,3"


@pytest.mark.parametrize(("text", "hint"), [
    ("", "cannot read"),
    ("axis", "cannot read"),
    ("7>axis", "cannot read"),
    ("4 > axis", "cannot read"),
    ("4>wing", "names no space 'wing'"),
    ("4+0>axis", "no adjustment"),
    ("roll 1,2,3,4,5", "at most 4"),
    ("roll", "cannot read"),
    ("roll 7", "cannot read"),
])
def test_malformed_text_is_a_malformed_action(text: str, hint: str) -> None:
    with pytest.raises(MalformedAction, match=hint):
        parse(text)
    with pytest.raises(MalformedAction):
        game().parse_action(P, text)


def test_every_legal_action_parses_back() -> None:
    s = game({"dice": [dice([1, 2, 5, 6], [2, 3, 4, 6])], "coffee": 2})
    for seat in (P,):
        for action in s.legal_actions(seat):
            assert s.parse_action(seat, str(action)) == action
    play(s, "P:reroll")
    for seat in (P, C):
        texts = legal(s, seat)
        assert len(texts) == len(set(texts))
        for action in s.legal_actions(seat):
            assert s.parse_action(seat, str(action)) == action


@pytest.mark.parametrize(("seat", "text", "why"), [
    (C, "4>axis", "not to move"),
    (P, "5>axis", "no unplaced 5"),
    (P, "1+3>radio", "needs 3 coffee"),
    (P, "6>gear1", "takes only 1 or 2"),
    (P, "4>brake2", "brakes go in order"),
    (P, "1>flap1", "not a pilot space"),
    (P, "roll 1", "no Reroll token has been spent"),
])
def test_illegal_but_well_formed_actions_say_why(seat: int, text: str, why: str) -> None:
    s = game({"dice": [dice([1, 4, 6, 6], [1, 2, 3, 4])], "coffee": 1})
    before = s.state_hash()
    with pytest.raises(IllegalAction, match=why):
        s.parse_action(seat, text)
    if seat in s.to_move():
        with pytest.raises(IllegalAction, match=why):
            s.apply({seat: text})
    assert s.state_hash() == before


def test_a_taken_space_and_coffee_on_concentration_are_explained() -> None:
    s = game({"dice": [dice([1, 4, 6, 6], [1, 2, 3, 4])], "coffee": 1})
    play(s, "P:6>radio", "C:1>conc")
    with pytest.raises(IllegalAction, match="already taken"):
        s.parse_action(P, "4>radio")
    with pytest.raises(IllegalAction, match="never spent on Concentration"):
        s.parse_action(P, "4+1>conc")
    play(s, "P:reroll")
    with pytest.raises(IllegalAction, match="choose which dice to reroll"):
        s.parse_action(P, "4>axis")
    with pytest.raises(IllegalAction, match="unplaced dice"):
        s.parse_action(P, "roll 6,6")
