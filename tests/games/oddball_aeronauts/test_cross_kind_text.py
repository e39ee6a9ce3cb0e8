"""Text written for one kind of decision is refused at another, and the state is untouched.

Oddball's actions are NamedTuples, which compare as plain tuples: ``Protect(1) ==
Announce(1)``, ``ready == play 0`` (``False == 0``), ``rig 1,2 == play 1+2``. A parser that
only asked ``action in legal`` let such text through, and ``apply`` then crashed half-way
with the move already recorded.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from referee.games import IllegalAction, State, make
from referee.games.core.playout import random_joint_action
from referee.games.oddball_aeronauts.actions import parse
from tests.games.foreign_notation import refused_unless_legal

from .helpers import GAME, GDC, RC, SG, TUCK

# Text for every kind of decision, among them each pair that compares equal across kinds.
TEXTS = ("sailing", "guns", "boarding", "ready", "limit", "rig 1,2", "rig 1,3", "rig 2,1", "rig 3,1,2",
         "play 0", "play 1", "play 1+2", "play 1+3", "play 1+2+3", "protect 1", "protect 2", "protect 3",
         "capture top", "capture deck", "discard 2,1", "discard 1,2")


def _fingerprint(state: State) -> tuple[Any, ...]:
    return (state.state_hash(), state.decisions, state.history(),
            [state.observation(seat) for seat in range(state.players)], state.public_view())


def test_protect_text_at_the_announce_is_refused_and_changes_nothing() -> None:
    """The reproduction of the report, exactly."""
    state = make(GAME, 2, seed=0, options={"setup": {
        "seats": [{"up": [RC, GDC]}, {"up": [SG, SG]}], "lead": 0}})
    assert [str(a) for a in state.legal_actions(0)] == ["sailing", "guns", "boarding"]
    before = _fingerprint(state)
    with pytest.raises(IllegalAction, match=r"'protect 1' is not a legal action for seat 0 now; "
                                            r"legal: sailing, guns, boarding"):
        state.parse_action(0, "protect 1")
    with pytest.raises(IllegalAction, match="'protect 1' is not a legal action"):
        state.apply({0: "protect 1"})
    assert state.decisions == 0 and state.history() == []
    assert _fingerprint(state) == before


def _refused_or_legal(state: State, seat: int, text: str, before: tuple[Any, ...], rng: random.Random) -> bool:
    """True when ``text`` was refused with the state as ``before``, False when it is legal here."""
    refused = refused_unless_legal(state, seat, text, rng)
    assert not refused or _fingerprint(state) == before, f"refused {text!r} changed the state"
    return refused


def test_ready_is_refused_where_play_0_is_legal() -> None:
    """``ready`` (``Prepare((), False)``) equals ``play 0`` (``Play((), 0)``): Brother Tuck
    on top lets seat 0 Play 0 cards, and its Step 3 must not take ``ready``."""
    state = make(GAME, 2, seed=0, options={"setup": {"seats": [{"up": [TUCK, RC, GDC]}, {"up": [SG, SG, SG]}],
                                                     "lead": 0}})
    for joint in ({0: "guns"}, {1: "guns"}, {0: "ready", 1: "ready"}):
        state.apply(joint)
    assert "play 0" in [str(a) for a in state.legal_actions(0)]
    assert _refused_or_legal(state, 0, "ready", _fingerprint(state), random.Random(1))


def test_text_of_every_kind_is_refused_where_another_kind_is_asked() -> None:
    """Random games visit every phase; at each position every kind's text is tried. The
    walk must meet text that equals a legal action of another kind, as in the report:
    ``protect 2`` in Step 2, ``play 0`` at the start of Step 3, ``rig 1,3`` in Step 3 and
    ``boarding`` at a Protect question."""
    rng = random.Random(7)
    refused: set[tuple[str, str]] = set()
    for seed in range(12):
        state = make(GAME, 2, seed=seed)
        while not state.is_over():
            before = _fingerprint(state)
            for seat in state.to_move():
                legal = state.legal_actions(seat)
                for text in TEXTS:
                    # The legal actions of another kind this text compares equal to.
                    lookalikes = {type(a).__name__ for a in legal if a == parse(text)}
                    if _refused_or_legal(state, seat, text, before, rng):
                        refused |= {(text, kind) for kind in lookalikes}
            state.apply(random_joint_action(state, rng))
    for text, kind in (("protect 2", "Announce"), ("play 0", "Prepare"), ("rig 1,3", "Play"),
                       ("boarding", "Protect")):
        assert (text, kind) in refused, f"{text!r} never met an equal {kind} action: the walk missed a case"
