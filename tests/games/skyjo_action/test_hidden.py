"""Hidden information: a seat sees face-up cards, what it looked at, its own held cards
and the public piles; resampling what it cannot see changes nothing it can."""

from __future__ import annotations

import json
import random

from referee.games import CounterRng, make
from referee.games.core.playout import random_joint_action
from referee.games.skyjo_action.data import TYPE_INDEX
from referee.games.skyjo_action.state import SkyjoActionState

from .helpers import fixed, mover, play

T = TYPE_INDEX


def test_face_down_cards_are_never_shown() -> None:
    state = make("skyjo-action", 4, seed=9)
    assert isinstance(state, SkyjoActionState)
    for viewer in range(4):
        for o, area in enumerate(state.observation(viewer)["areas"]):
            for p, (card, up) in enumerate(zip(area["cards"], area["face_up"])):
                assert (card is None) == (not up)
                if up:
                    assert (state.up[o] >> p) & 1
    text = json.dumps(state.observation(0))
    assert '"seed"' not in text and '"rng"' not in text and "deck_order" not in text


def test_the_public_view_has_no_private_card() -> None:
    state = fixed(2, setup={"held": [["look"], []], "action_row": ["meteor"] * 3 + ["swap-own"],
                            "action_deck": ["draw-three", "swap-other"]})
    play(state, "activate", "play look", "look 1 row 1")
    view = state.public_view()
    assert view["seat"] is None and view["areas"][1]["cards"][:4] == [None] * 4
    assert state.observation(0)["areas"][1]["cards"][:4] == [1, 2, 3, 4]
    assert "previous_grids" in view


def test_resampling_redraws_only_what_the_seat_cannot_see() -> None:
    state = fixed(3, setup={"held": [["look"], ["swap-own"], []], "action_row": ["meteor"] * 3 + ["swap-own"],
                            "action_deck": ["draw-three", "swap-other", "look", "look"]})
    play(state, "activate", "play look", "look 1 row 2")
    play(state, "take-action", "take deck")         # seat 1's hidden card
    changed = 0
    for k in range(30):
        other = state.resample_hidden(0, CounterRng(k))
        assert other.observation(0) == state.observation(0)
        assert other.legal_actions(0) == state.legal_actions(0) and other.to_move() == state.to_move()
        assert isinstance(other, SkyjoActionState)
        assert other.cards[1][4:8] == state.cards[1][4:8]           # what seat 0 looked at stays
        assert sorted(other.deck + [c for r in other.cards for c in r]) == sorted(
            state.deck + [c for r in state.cards for c in r])
        changed += other.held[1] != state.held[1]
    assert changed > 0                                             # seat 1's hidden card is redrawn for seat 0
    own = state.resample_hidden(1, CounterRng(3))
    assert isinstance(own, SkyjoActionState) and own.held[1] == state.held[1]


def test_resampling_keeps_the_observation_through_random_games() -> None:
    for players, options in ((2, {}), (5, {"defense": True, "thief": True, "double_move": True,
                                           "reactivation": True}), (3, {"single_deck": 8}), (9, {})):
        state = make("skyjo-action", players, seed=players, options=options)
        policy = random.Random(players)
        step = 0
        while not state.is_over() and step < 400:
            if step % 5 == 0:
                for seat in range(players):
                    other = state.resample_hidden(seat, CounterRng(step + seat))
                    assert other.observation(seat) == state.observation(seat)
                    assert [str(a) for a in other.legal_actions(seat)] == [str(a) for a in state.legal_actions(seat)]
            state.apply(random_joint_action(state, policy))
            step += 1


def test_single_deck_resampling_also_redraws_which_action_cards_are_in_play() -> None:
    state = make("skyjo-action", 2, seed=3, options={"single_deck": 5})
    assert isinstance(state, SkyjoActionState)
    kinds = set()
    for k in range(40):
        other = state.resample_hidden(0, CounterRng(k))
        assert isinstance(other, SkyjoActionState)
        kinds.add(tuple(sorted(c for c in other.deck + [c for r in other.cards for c in r] if c >= 20)))
    assert len(kinds) > 1


def test_defense_question_does_not_reveal_who_holds_defense() -> None:
    state = fixed(2, setup={"held": [["swap-other"], []], "action_row": ["look"] * 3 + ["meteor"],
                            "action_deck": ["defense"]}, defense=True)
    play(state, "draw", "discard", "reveal A1", "take-action", "take deck")   # seat 1 takes a hidden Defense
    play(state, "activate", "play swap-other", "between 0 1", "pick 0 A1", "pick 1 A1")
    assert mover(state) == 1 and state.observation(0)["decision"] == "defend"
    for k in range(10):
        other = state.resample_hidden(0, CounterRng(k))
        assert other.to_move() == (1,) and other.observation(0) == state.observation(0)
