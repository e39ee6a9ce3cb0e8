"""The action notation: canonical strings parse back; bad text gets a useful error."""

from __future__ import annotations

import random

import pytest

from referee.games import IllegalAction, make
from referee.games.core.playout import random_joint_action
from referee.games.fly_away.actions import DONE, Flip, Keep, Swap, Take, parse
from referee.games.fly_away.data import SCORING_INDEX
from referee.games.fly_away.geometry import GROUP_INDEX, SLOT_BY_NAME


def test_examples_read_as_documented() -> None:
    assert parse("take M2+M3+B3 @-1,0") == Take(GROUP_INDEX[(4, 5, 9)], -1, 0)
    assert parse("keep outside-3 center-1 top-5") == Keep(
        (SCORING_INDEX["outside-3"], SCORING_INDEX["center-1"], SCORING_INDEX["top-5"]))
    assert parse("swap M2 B5") == Swap(SLOT_BY_NAME["M2"], SLOT_BY_NAME["B5"])
    assert parse("flip T1") == Flip(0)
    assert parse("done") == DONE


def test_spacing_and_case_are_forgiven_and_keep_order_is_normalised() -> None:
    assert str(parse("  TAKE  m2 + m3  @ 0 , -1 ")) == "take M2+M3 @0,-1"
    assert str(parse("keep top-5 outside-3 center-1")) == "keep outside-3 center-1 top-5"
    assert str(parse("Swap m2   b5")) == "swap M2 B5"


def test_every_legal_action_round_trips_through_its_text() -> None:
    for players in (2, 5):
        state = make("fly-away", players, seed=11)
        policy = random.Random(11)
        while not state.is_over():
            for seat in state.to_move():
                for action in state.legal_actions(seat):
                    assert parse(str(action)) == action
                    assert state.parse_action(seat, str(action)) == action
            state.apply(random_joint_action(state, policy))


@pytest.mark.parametrize(("text", "hint"), [
    ("", "empty"),
    ("fly away", "unknown word"),
    ("take", "take <slots"),
    ("take T1", "take <slots"),
    ("take T1 @a,b", "take <slots"),
    ("take T9 @0,0", "not a slot"),
    ("take T1+T1 @0,0", "named twice"),
    ("take M2+T1 @0,0", "display order"),
    ("take T1+T3 @0,0", "adjacent"),
    ("take T1+T2+T3+M2 @0,0", "1 to 3"),
    ("keep", "ids of the scoring cards"),
    ("keep outside-9", "not a scoring card"),
    ("keep outside-1 outside-2 top-1", "different type"),
    ("swap T1", "swap <slot"),
    ("swap T1 T1", "itself"),
    ("swap T1 X2", "not a slot"),
    ("flip", "flip <slot>"),
    ("done now", "nothing after"),
])
def test_malformed_text_says_what_is_wrong(text: str, hint: str) -> None:
    with pytest.raises(IllegalAction, match="cannot read") as caught:
        parse(text)
    assert hint in str(caught.value)


def test_well_formed_but_illegal_actions_say_why() -> None:
    state = make("fly-away", 2, seed=1)
    with pytest.raises(IllegalAction, match="keep phase"):
        state.parse_action(0, "done")
    with pytest.raises(IllegalAction, match="keep 3"):
        state.parse_action(0, "keep " + " ".join(str(state.legal_actions(1)[0]).split()[1:]))
    state.apply({0: state.legal_actions(0)[0], 1: state.legal_actions(1)[0]})
    with pytest.raises(IllegalAction, match="not to move"):
        state.parse_action(1, "take T1 @0,0")
    play = state.legal_actions(0)[0]
    assert state.parse_action(0, str(play)) == play
    with pytest.raises(IllegalAction, match="cannot go there"):
        state.parse_action(0, "take T1 @3,3")
