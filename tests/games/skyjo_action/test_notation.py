"""The action notation: every action's text parses back; malformed text says what is wrong."""

from __future__ import annotations

import pytest

from referee.games import IllegalAction, MalformedAction
from referee.games.skyjo_action import actions as A

from .helpers import fixed, legal


def test_every_action_text_round_trips() -> None:
    assert len(A.TEXT) > 600
    for text, move in A.TEXT.items():
        assert str(move) == move.text and move.text.lower() == text
        assert A.parse_move(move.text) is move
        assert hash(move) == hash(A.parse_move(str(move)))


def test_case_and_spacing_are_forgiven() -> None:
    assert A.parse_move("  place   b2 ") is A.PLACE[5]
    assert A.parse_move("TAKE-DISCARD c3") is A.TAKE_DISCARD[10]
    assert A.parse_move("look 1 COL d") is A.LOOK[1][13]
    assert str(A.parse_move("remove 3 held hidden")) == "remove 3 held hidden"


def test_examples() -> None:
    assert str(A.KEEP[-2]) == "keep -2" and str(A.KEEP[13]) == "keep *" and str(A.TOP[13]) == "top *"
    assert str(A.BETWEEN[(0, 2)]) == "between 0 2"
    assert str(A.PICK[2][11]) == "pick 2 D3"
    assert str(A.CLEAR[11]) == "clear col B" and str(A.CLEAR[2]) == "clear row 3"
    assert str(A.REMOVE_HELD[1][8]) == "remove 1 held thief"
    assert repr(A.DRAW) == "Move('draw')"


@pytest.mark.parametrize(("text", "message"), [
    ("", "empty action"),
    ("fly away", "unknown verb 'fly'"),
    ("place", "expected a position: column A-D and row 1-3, like B2, got 'nothing'"),
    ("place E5", "got 'e5'"),
    ("place B2 now", "expected nothing more, got 'now'"),
    ("take-discard", "expected a position"),
    ("take meteors", "expected 'deck'"),
    ("between 2 1", "list the lower seat first"),
    ("look 1 row 4", "expected a line"),
    ("look x row 1", "expected a seat number"),
    ("remove 1 held", "expected an action card type .* or 'hidden', got 'nothing'"),
    ("steal 1", "expected an action card type"),
    ("keep 13", "expected nothing more or 'none' or a card: -2..12 or \\* for a star, got '13'"),
    ("top joker", "expected a card: -2..12 or \\* for a star"),
])
def test_malformed_text_is_rejected_with_a_reason(text: str, message: str) -> None:
    with pytest.raises(MalformedAction, match=message):
        A.parse_move(text)


def test_well_formed_but_illegal_is_illegal_not_malformed() -> None:
    state = fixed(2)
    before = state.state_hash()
    with pytest.raises(IllegalAction) as info:
        state.apply({0: "play meteor"})
    assert not isinstance(info.value, MalformedAction)
    assert "legal: draw, take-discard A1" in str(info.value)
    with pytest.raises(MalformedAction):
        state.apply({0: "play meteor now"})
    with pytest.raises(IllegalAction, match="seat 1 is not to move"):
        state.parse_action(1, "draw")
    assert state.state_hash() == before and legal(state)[0] == "draw"


def test_actions_are_accepted_as_objects_strings_or_parsed() -> None:
    state = fixed(2)
    state.apply({0: A.DRAW})
    state.apply({0: state.parse_action(0, "keep")})
    state.apply({0: "place b1"})
    assert state.to_move() == (1,)
