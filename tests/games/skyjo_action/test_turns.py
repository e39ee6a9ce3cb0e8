"""The three turn options: take a Number/Star card, take an action card, activate one."""

from __future__ import annotations

from referee.games.skyjo_action.data import TYPE_INDEX

from .helpers import FILLER, all_up, face_up, fixed, grid, legal, mover, play

T = TYPE_INDEX


def test_turn_offers_the_three_options() -> None:
    state = fixed(2, setup={"held": [["look"], []]})
    options = legal(state)
    assert options[0] == "draw" and options[-2:] == ["take-action", "activate"]
    assert options[1:-2] == [f"take-discard {p}" for p in all_up()]
    assert state.observation(0)["decision"] == "turn"


def test_draw_then_keep_replaces_a_card_which_goes_face_up_on_the_discard_pile() -> None:
    state = fixed(2, deck="-2 7", discard="9")
    play(state, "draw")
    assert legal(state) == ["discard", "keep"]
    # The drawn card is shown: the observation of both seats names it.
    assert state.observation(1)["pending"] == {"card": -2}
    play(state, "keep")
    assert len(legal(state)) == 12 and legal(state)[0] == "place A1"
    play(state, "place C2")            # a face-down 7 (FILLER row 2: 5 6 7 8)
    assert grid(state, 0)[6] == -2 and face_up(state, 0)[6]
    assert state.discard == [9, 7] and mover(state) == 1


def test_draw_then_discard_turns_a_face_down_card_over() -> None:
    state = fixed(2, reveal=[["A1"], []], deck="11")
    play(state, "draw", "discard")
    assert state.discard[-1] == 11
    options = legal(state)
    assert "reveal A1" not in options and len(options) == 11     # only face-down cards
    play(state, "reveal B3")
    assert face_up(state, 0)[9] and grid(state, 0)[9] == 10 and mover(state) == 1


def test_keep_a_drawn_card_over_a_face_up_card() -> None:
    state = fixed(2, reveal=[["D3"], []], deck="1")
    play(state, "draw", "keep", "place D3")
    assert grid(state, 0)[11] == 1 and state.discard[-1] == 12


def test_take_discard_exchanges_the_top_card_with_a_card_of_the_grid() -> None:
    state = fixed(2, discard="4 -1")
    play(state, "take-discard A1")
    assert grid(state, 0)[0] == -1 and face_up(state, 0)[0] and state.discard == [4, 1]
    assert mover(state) == 1


def test_take_action_from_the_row_restocks_it_and_everyone_sees_it() -> None:
    state = fixed(2, setup={"action_row": ["look", "meteor", "look", "swap-own"],
                            "action_deck": ["draw-three", "swap-other"]})
    play(state, "take-action")
    assert legal(state) == ["take deck", "take swap-own", "take look", "take meteor"]
    play(state, "take look")
    assert state.action_row == [T["draw-three"], T["meteor"], T["look"], T["swap-own"]]   # leftmost look replaced
    assert state.observation(1)["areas"][0]["held"] == ["look"]
    assert state.action_deck == [T["swap-other"]]


def test_take_action_from_the_deck_stays_hidden_from_the_others() -> None:
    state = fixed(2, setup={"action_row": ["look"] * 3 + ["meteor"], "action_deck": ["thief", "swap-own"]},
                  thief=True)
    play(state, "take-action", "take deck")
    assert state.observation(0)["areas"][0]["held"] == ["thief"]       # decks are listed top card first
    assert state.observation(1)["areas"][0]["held"] == [None]
    assert state.public_view()["areas"][0]["held"] == [None]
    opened = fixed(2, setup={"action_row": ["look"] * 3 + ["meteor"], "action_deck": ["thief", "swap-own"]},
                   thief=True, open_hands=True)
    play(opened, "take-action", "take deck")
    assert opened.observation(1)["areas"][0]["held"] == ["thief"]


def test_an_action_card_cannot_be_activated_on_the_turn_it_was_taken() -> None:
    state = fixed(2, setup={"held": [["double-move"], []], "action_row": ["look", "meteor", "look", "meteor"]},
                  double_move=True)
    play(state, "activate", "play double-move")           # two extra turns
    assert state.observation(0)["pending"] == {"extra": True}
    play(state, "take-action", "take look")                 # first extra turn
    assert "activate" not in legal(state)                  # taken this turn: not yet
    assert state.observation(0)["fresh"] == [True]
    play(state, "draw", "discard", "reveal A1")             # second extra turn
    play(state, "draw", "discard", "reveal A1")             # seat 1
    assert mover(state) == 0 and "activate" in legal(state)
    play(state, "activate")
    assert legal(state) == ["play look", "drop look"]


def test_drop_discards_an_action_card_without_its_effect() -> None:
    state = fixed(2, setup={"held": [["meteor"], []]})
    before = [list(r) for r in state.cards]
    play(state, "activate", "drop meteor")
    assert state.action_discard == [T["meteor"]] and state.held[0] == () and state.cards == before
    assert mover(state) == 1


def test_no_action_card_may_be_played_once_the_round_end_is_triggered() -> None:
    state = fixed(2, grids=[FILLER, FILLER], reveal=[[], ["A1", "B1", "C1", "D1", "A2", "B2", "C2", "D2", "A3",
                                                          "B3", "C3"]],
                  setup={"held": [["meteor"], ["look"]], "first": 1}, deck="0 3")
    play(state, "draw", "keep", "place D3")       # seat 1 turns its last card over
    assert state.ender == 1 and mover(state) == 0
    assert "activate" not in legal(state)
    assert "activate" not in legal(state) and "take-action" in legal(state)


def test_take_discard_after_a_reshuffled_main_deck() -> None:
    state = fixed(2, deck="5", discard="1 2 3")
    play(state, "draw", "discard", "reveal A1")      # the deck is empty now
    assert state.deck == []
    play(state, "draw")                                # seat 1: the discard pile but its top is shuffled in
    assert state.discard == [5] and sorted(state.deck + [state.stack[-1].card]) == [1, 2, 3]
    assert any(e[0] == "c" and e[1] == "reshuffle" for e in state.history())


def test_rule_1b_take_discard_is_not_offered_while_an_action_card_is_on_top() -> None:
    """Two decks (an explicit deck lets a grid hold an action card, as after a reshuffle of
    Meteor-buried cards): taking the 7 hands the face-down `look` to its owner, the buried
    `meteor` becomes the top, and rule 1b, which takes a Number/Star card, offers no take."""
    state = fixed(2, grids=["look 2 3 4 / 5 6 7 8 / 9 10 11 12", FILLER], deck="1 2 3 4 5 6",
                  setup={"discard": ["meteor", 7]})
    play(state, "take-discard A1", "hold")
    assert legal(state) == ["draw", "take-action"] and state.observation(1)["discard"] == "meteor"
