"""The action notation: canonical strings round-trip; malformed text is told apart from
an illegal action."""

from __future__ import annotations

import random

import pytest

from referee.games import IllegalAction, make
from referee.games.oddball_aeronauts.actions import Announce, Capture, Discard, Play, Prepare, Protect, parse

from .helpers import BF, CL, DH, GDC, HS, LO, RC, SA, TR, WD, game


@pytest.mark.parametrize(("text", "action"), [
    ("sailing", Announce(0)),
    ("guns", Announce(1)),
    ("boarding", Announce(2)),
    ("ready", Prepare()),
    ("limit", Prepare((), True)),
    ("rig 3,1,2", Prepare((3, 1, 2))),
    ("rig 4,2", Prepare((4, 2))),
    ("discard 2,1", Discard((2, 1))),
    ("discard 1,3,2,4", Discard((1, 3, 2, 4))),
    ("play 0", Play(())),
    ("play 1", Play((1,))),
    ("play 1+3", Play((1, 3))),
    ("play 1+2+3 trick 2", Play((1, 2, 3), 2)),
    ("play 1 trick 1", Play((1,), 1)),
    ("protect 3", Protect(3)),
    ("capture top", Capture("top")),
    ("capture deck", Capture("deck")),
])
def test_notation_round_trips(text: str, action: object) -> None:
    assert parse(text) == action
    assert str(action) == text
    assert str(parse(text)) == text


def test_parser_forgives_case_and_spaces() -> None:
    assert parse("  GUNS ") == Announce(1) and parse(" RIG 3, 1 ,2 ") == Prepare((3, 1, 2))
    assert parse("Discard 2 , 1") == Discard((2, 1))
    assert parse("Play 1 + 2  Trick 2") == Play((1, 2), 2)


@pytest.mark.parametrize(("text", "message"), [
    ("fly", "cannot read"),
    ("", "cannot read"),
    ("play 2", "play 1"),
    ("play 4", "play 1"),
    ("play 1+1", "play 1"),
    ("play 1+3+2", "play 1"),
    ("play 0 trick 1", "its own trick"),
    ("play 1 trick 2", "Magic trick is used only on a Played card"),
    ("rig 1,1", "each rigged position once"),
    ("rig", "rig A,B"),
    ("guns rig 3,1,2", "a skill is announced alone"),
    ("guns please", "a skill is announced alone"),
    ("discard 1,1", "each card going down once"),
    ("discard 1,3", "numbered 1 to 2"),
    ("discard", "discard 2,1"),
    ("protect 4", "protect N"),
    ("capture hand", "capture top"),
])
def test_malformed_text_is_explained(text: str, message: str) -> None:
    with pytest.raises(IllegalAction, match=message):
        parse(text)


def test_state_parser_separates_malformed_from_illegal() -> None:
    state = game([RC, HS, DH, GDC], [TR, WD, LO, BF])
    with pytest.raises(IllegalAction, match="cannot read"):
        state.parse_action(0, "gunz")
    with pytest.raises(IllegalAction, match="not a legal action for seat 0 now; legal: sailing, guns, boarding"):
        state.parse_action(0, "rig 3,1,2")         # well formed, but not now (and the Top Card cannot Rig)
    with pytest.raises(IllegalAction, match="not to move"):
        state.parse_action(1, "guns")
    assert state.parse_action(0, " Guns ") == Announce(1)


def test_rig_and_protect_actions_parse_back_in_real_positions() -> None:
    state = game([CL, RC, SA, DH], [TR, WD, LO, BF])
    for action in state.legal_actions(0):
        assert state.parse_action(0, str(action)) is action or state.parse_action(0, str(action)) == action


def test_every_legal_action_of_random_games_round_trips() -> None:
    rng = random.Random(3)
    for seed in range(30):
        state = make("oddball-aeronauts", 2, seed=seed)
        while not state.is_over():
            joint = {}
            for seat in state.to_move():
                legal = state.legal_actions(seat)
                texts = [str(a) for a in legal]
                assert len(set(texts)) == len(texts)
                for action in legal:
                    assert parse(str(action)) == action
                joint[seat] = rng.choice(legal)
            state.apply(joint)


def test_fallback_is_the_top_card_alone() -> None:
    """'If you delay or don't show any fingers you must Play your Top Card and only your Top
    Card': the referee's fallback (the first legal action) is exactly that."""
    state = game([RC, HS, DH, GDC], [TR, WD, LO, BF])
    state.apply({0: "guns"})
    state.apply({1: "sailing"})
    assert str(state.legal_actions(0)[0]) == "ready" and str(state.legal_actions(1)[0]) == "ready"
    state.apply({0: "ready", 1: "ready"})
    assert str(state.legal_actions(0)[0]) == "play 1" and str(state.legal_actions(1)[0]) == "play 1"
