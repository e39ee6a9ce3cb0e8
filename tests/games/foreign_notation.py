"""Trying text the game would accept elsewhere: shared by the invariant suite and the
games' own tests of cross-kind text."""

from __future__ import annotations

import random

import pytest

from referee.games import IllegalAction, State
from referee.games.core.playout import random_joint_action


def refused_unless_legal(state: State, seat: int, text: str, rng: random.Random) -> bool:
    """False when ``text`` is a legal action of ``seat`` here (and parses to that action's
    class); otherwise checks that both ``parse_action`` and ``apply`` refuse it with
    IllegalAction and returns True. The caller compares the state before and after."""
    legal = state.legal_actions(seat)
    if text in [str(a) for a in legal]:
        assert type(state.parse_action(seat, text)) in {type(a) for a in legal}, f"{text!r} parses to another kind"
        return False
    with pytest.raises(IllegalAction):
        state.parse_action(seat, text)
    joint = random_joint_action(state, rng)
    joint[seat] = text
    with pytest.raises(IllegalAction):
        state.apply(joint)
    return True
