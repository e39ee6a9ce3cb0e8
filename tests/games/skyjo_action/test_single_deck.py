"""The single-deck variant: action cards shuffled into the main deck."""

from __future__ import annotations

from referee.games.skyjo_action.data import ACTION0, TYPE_INDEX

from .helpers import FILLER, except_, face_up, fixed, grid, legal, mover, play

T = TYPE_INDEX


def test_drawing_an_action_card_keep_or_discard_then_draw_a_replacement() -> None:
    state = fixed(2, deck="meteor 4", single_deck=5)
    play(state, "draw")
    assert legal(state) == ["discard", "hold"]
    assert state.observation(1)["decision"] == "hold" and state.observation(1)["pending"] == {"card": "meteor"}
    play(state, "hold")
    assert state.observation(0)["pending"] == {"card": 4}       # the replacement
    play(state, "keep", "place A1")
    assert [t for t, public, _ in state.held[0]] == [T["meteor"]] and state.held[0][0][1]
    assert state.observation(1)["areas"][0]["held"] == ["meteor"]


def test_a_discarded_action_card_goes_to_the_action_discard_pile() -> None:
    state = fixed(2, deck="look 4", single_deck=5)
    play(state, "draw", "discard")
    assert state.action_discard == [T["look"]] and state.observation(0)["pending"] == {"card": 4}


def test_draw_three_skips_action_cards_after_the_choice() -> None:
    state = fixed(2, deck="1 swap-own 2 3", single_deck=5, setup={"held": [["draw-three"], []]})
    play(state, "activate", "play draw-three", "discard")
    assert state.observation(0)["pending"] == {"cards": [1, 2, 3]}


def test_turning_over_an_action_card_in_the_grid() -> None:
    state = fixed(2, grids=["look 2 3 4 / 5 6 7 8 / 9 10 11 12", FILLER], deck="5 -2", single_deck=5)
    play(state, "draw", "discard", "reveal A1")
    assert legal(state) == ["discard", "hold"]
    play(state, "hold")
    assert grid(state, 0)[0] == -2 and face_up(state, 0)[0]    # replaced face up from the main deck
    assert mover(state) == 1


def test_an_action_card_revealed_at_setup_is_kept_or_discarded_then_replaced() -> None:
    state = fixed(2, grids=["look 2 3 4 / 5 6 7 8 / 9 10 11 12", FILLER], reveal=[["A1"], []], deck="9",
                  single_deck=5, setup={"first": None})
    assert mover(state) == 0 and legal(state) == ["discard", "hold"]
    play(state, "discard")
    assert grid(state, 0)[0] == 9 and face_up(state, 0)[0]
    assert state.current == 0                                     # its 9 makes it first


def test_the_final_reveal_discards_action_cards_and_replaces_them() -> None:
    state = fixed(2, grids=["look 2 3 4 / 5 6 7 8 / 9 10 11 12", "1 2 3 4 / 2 3 4 1 / 3 4 1 9"],
                  reveal=[[], except_("D3")],
                  deck="2 0 6", single_deck=5, max_rounds=1, setup={"first": 1})
    play(state, "draw", "keep", "place D3", "draw", "discard", "reveal B1")
    assert state.is_over()
    assert T["look"] in state.action_discard and grid(state, 0)[0] == 6


def test_the_first_discard_is_never_an_action_card() -> None:
    state = fixed(2, deck="thief 7 1", single_deck=5, thief=True, setup={"discard": None})
    assert state.discard == [7] and state.action_discard == [T["thief"]]


def test_no_action_row_nor_deck_in_single_deck() -> None:
    state = fixed(2, single_deck=6)
    assert "take-action" not in legal(state)
    assert state.observation(0)["action_deck"] == 0


def test_a_held_card_removed_by_meteor_comes_back_through_the_main_deck() -> None:
    # Two decks: the removed action card goes under the main discard pile; when the main
    # deck is rebuilt from that pile, drawing it works as in the single-deck variant.
    state = fixed(2, grids=[FILLER, FILLER], deck="5", discard="3",
                  setup={"held": [["meteor"], ["look"]]})
    play(state, "activate", "play meteor", "remove 1 held look")
    assert state.discard == [ACTION0 + T["look"], 3]
    play(state, "draw", "discard", "reveal A1")           # seat 1 draws the last card: 5
    assert state.deck == [] and state.discard == [ACTION0 + T["look"], 3, 5]
    seen = []
    for _ in range(8):                                    # the look is drawn again within two draws
        decision = state.observation(mover(state))["decision"]
        seen.append(decision)
        if decision == "hold":
            break
        play(state, "draw" if decision == "turn" else legal(state)[0])
    assert seen[-1] == "hold" and state.observation(0)["pending"] == {"card": "look"}


def test_rule_1b_an_action_card_on_top_of_the_discard_pile_cannot_be_taken() -> None:
    """Rule 1b takes a Number/Star card. Taking the 7 over a face-down action card hands that
    card to its owner, so the Meteor-buried action card beneath becomes the top: it stays
    there, shown, and is not offered until a discard covers it."""
    state = fixed(2, grids=["look 2 3 4 / 5 6 7 8 / 9 10 11 12", FILLER], single_deck=5,
                  setup={"discard": ["meteor", 7]})
    play(state, "take-discard A1", "hold")
    assert state.observation(1)["discard"] == "meteor" and state.observation(1)["discard_size"] == 1
    assert mover(state) == 1 and not any(move.startswith("take-discard") for move in legal(state))
    play(state, "draw", "discard", "reveal A1")
    assert state.observation(0)["discard"] != "meteor" and "take-discard B2" in legal(state)
