"""Every action card's effect, its targets, and Defense as a reaction."""

from __future__ import annotations

from referee.games.skyjo_action.data import ACTION0, STAR, TYPE_INDEX

from .helpers import FILLER, face_up, fixed, grid, legal, mover, play

T = TYPE_INDEX
ALL = {"double_move": True, "defense": True, "reactivation": True, "thief": True}
G0 = "1 2 3 4 / 5 6 7 8 / 9 10 11 12"
G1 = "-2 -1 0 1 / 2 3 4 5 / 6 7 8 9"
G2 = "12 12 12 11 / 11 11 10 10 / 10 9 9 9"


def test_swap_with_another_player_exchanges_cards_and_keeps_their_faces() -> None:
    state = fixed(2, grids=[G0, G1], reveal=[["D3"], []], setup={"held": [["swap-other"], []]})
    play(state, "activate", "play swap-other")
    assert legal(state) == ["between 0 1"]
    play(state, "between 0 1")
    assert state.observation(1)["pending"]["players"] == [0, 1]
    play(state, "pick 0 D3", "pick 1 A1")
    assert grid(state, 0)[11] == -2 and not face_up(state, 0)[11]      # their face-down -2, still face down
    assert grid(state, 1)[0] == 12 and face_up(state, 1)[0]            # my face-up 12, still face up
    assert state.observation(0)["areas"][0]["cards"][11] is None       # a face-down card stays unseen
    assert state.action_discard == [T["swap-other"]] and mover(state) == 1


def test_swap_between_two_opponents_and_face_down_cards_stay_down() -> None:
    state = fixed(3, grids=[G0, G1, G2], reveal=[[], ["A1"], []], setup={"held": [["swap-other"], [], []]})
    play(state, "activate", "play swap-other")
    assert legal(state) == ["between 0 1", "between 0 2", "between 1 2"]
    play(state, "between 1 2", "pick 1 A1", "pick 2 B2")
    assert grid(state, 1)[0] == 11 and not face_up(state, 1)[0]
    assert grid(state, 2)[5] == -2 and face_up(state, 2)[5]


def test_swap_your_own_cards() -> None:
    state = fixed(2, grids=[G0, G1], reveal=[["A1"], []], setup={"held": [["swap-own"], []]})
    play(state, "activate", "play swap-own", "pick 0 A1")
    assert "pick 0 A1" not in legal(state) and len(legal(state)) == 11
    play(state, "pick 0 D3")
    assert grid(state, 0)[0] == 12 and not face_up(state, 0)[0]
    assert grid(state, 0)[11] == 1 and face_up(state, 0)[11]


def test_draw_three_keep_one_place_it_and_choose_the_top_of_the_rest() -> None:
    state = fixed(2, grids=[G0, G1], deck="4 -2 9 7", discard="6", setup={"held": [["draw-three"], []]})
    play(state, "activate", "play draw-three")
    assert state.observation(0)["pending"] == {"cards": [4, -2, 9]}      # in the order drawn
    assert legal(state) == ["keep none", "keep -2", "keep 4", "keep 9"]
    play(state, "keep -2", "place D3")
    assert grid(state, 0)[11] == -2
    assert legal(state) == ["top 4", "top 9"]
    play(state, "top 9")
    assert state.discard == [6, 12, 4, 9] and state.deck == [7] and mover(state) == 1


def test_draw_three_keep_none_discards_all_then_turns_a_card_over() -> None:
    state = fixed(2, grids=[G0, G1], deck="3 3 3", setup={"held": [["draw-three"], []]})
    play(state, "activate", "play draw-three", "keep none")
    assert state.discard[-3:] == [3, 3, 3]                   # identical cards: no order to choose
    assert all(a.startswith("reveal ") for a in legal(state))
    play(state, "reveal B1")
    assert face_up(state, 0)[1] and mover(state) == 1


def test_look_at_a_row_of_your_own_or_a_column_of_an_opponent() -> None:
    state = fixed(2, grids=[G0, G1], reveal=[["A1"], []], setup={"held": [["look", "look"], []]})
    play(state, "activate", "play look")
    options = legal(state)
    assert "look 0 row 1" in options and "look 1 col D" in options and len(options) == 14
    play(state, "look 0 row 1")
    mine = state.observation(0)["areas"][0]
    assert mine["cards"][:4] == [1, 2, 3, 4] and mine["face_up"][:4] == [True, False, False, False]
    assert state.observation(1)["areas"][0]["cards"][:4] == [1, None, None, None]
    play(state, "draw", "discard", "reveal A1")
    play(state, "activate", "play look", "look 1 col B")
    seen = state.observation(0)["areas"][1]["cards"]
    assert [seen[1], seen[5], seen[9]] == [-1, 3, 7]
    assert state.observation(1)["areas"][1]["cards"][5] is None


def test_what_was_seen_follows_a_card_that_moves() -> None:
    state = fixed(2, grids=[G0, G1], setup={"held": [["look", "swap-own"], []]})
    play(state, "activate", "play look", "look 0 col A")
    play(state, "draw", "discard", "reveal D3")
    play(state, "activate", "play swap-own", "pick 0 A2", "pick 0 D1")
    cards = state.observation(0)["areas"][0]["cards"]
    assert cards[3] == 5 and cards[4] is None                # the seen 5 moved to D1; D1's 4 is unseen


def test_meteor_shower_removes_one_card_from_each_opponent() -> None:
    state = fixed(3, grids=[G0, G1, G2], reveal=[[], ["A1"], []], deck="8 4", discard="6",
                  setup={"held": [["meteor"], [], ["swap-own"]]})
    play(state, "activate", "play meteor")
    assert state.observation(0)["pending"] == {"card": "meteor", "target": 1}
    assert legal(state)[-1] == "remove 1 D3"
    play(state, "remove 1 A1")
    assert grid(state, 1)[0] == 8 and not face_up(state, 1)[0]     # replaced face down from the main deck
    assert state.discard == [-2, 6]                                 # under the main discard pile
    assert "remove 2 held swap-own" in legal(state)
    play(state, "remove 2 held swap-own")
    assert state.held[2] == () and state.discard[0] == ACTION0 + T["swap-own"]
    assert state.deck == [4]                                          # held cards are not replaced
    assert mover(state) == 1


def test_double_move_gives_two_more_turns() -> None:
    state = fixed(2, setup={"held": [["double-move"], []]}, **ALL)
    play(state, "activate", "play double-move")
    play(state, "draw", "discard", "reveal A1")
    assert mover(state) == 0
    assert state.observation(0)["pending"] == {"extra": True}
    play(state, "draw", "discard", "reveal B1")
    assert mover(state) == 1


def test_defense_played_gives_one_more_turn() -> None:
    state = fixed(2, setup={"held": [["defense"], []]}, **ALL)
    play(state, "activate", "play defense")
    assert mover(state) == 0 and state.observation(0)["pending"] == {"extra": True}
    play(state, "draw", "discard", "reveal A1")
    assert mover(state) == 1


def test_defense_cancels_a_swap_that_targets_you() -> None:
    state = fixed(2, grids=[G0, G1], setup={"held": [["swap-other"], ["defense"]]}, **ALL)
    play(state, "activate", "play swap-other", "between 0 1", "pick 0 D3", "pick 1 A1")
    assert mover(state) == 1 and legal(state) == ["allow", "defend"]
    pending = state.observation(1)["pending"]
    assert pending == {"by": 0, "card": "swap-other", "swap": [[0, "D3"], [1, "A1"]]}
    play(state, "defend")
    assert grid(state, 0)[11] == 12 and grid(state, 1)[0] == -2            # nothing swapped
    assert state.held[1] == () and state.action_discard == [T["swap-other"], T["defense"]]
    assert mover(state) == 1 and state.observation(1)["decision"] == "turn"   # seat 0's turn is over


def test_allowing_lets_the_effect_happen() -> None:
    state = fixed(2, grids=[G0, G1], setup={"held": [["swap-other"], ["defense"]]}, **ALL)
    play(state, "activate", "play swap-other", "between 0 1", "pick 0 D3", "pick 1 A1", "allow")
    assert grid(state, 0)[11] == -2 and [t for t, _, _ in state.held[1]] == [T["defense"]]


def test_defense_answers_meteor_shower_and_thief_per_target() -> None:
    state = fixed(3, grids=[G0, G1, G2], setup={"held": [["meteor"], ["defense"], ["defense"]]}, deck="5 5", **ALL)
    play(state, "activate", "play meteor", "remove 1 A1", "defend")
    assert grid(state, 1)[0] == -2
    play(state, "remove 2 A1")
    assert mover(state) == 2
    play(state, "allow")
    assert grid(state, 2)[0] == 5 and not face_up(state, 2)[0]


def test_a_target_with_a_hidden_card_is_asked_even_without_defense() -> None:
    # Asking only real Defense holders would tell everyone who holds one.
    state = fixed(2, grids=[G0, G1], setup={"held": [["swap-other"], []], "action_row": ["look"] * 4,
                                             "action_deck": ["meteor"]}, **ALL)
    state.held[1] = ((T["meteor"], False, 0),)
    state._run()
    play(state, "activate", "play swap-other", "between 0 1", "pick 0 D3", "pick 1 A1")
    assert mover(state) == 1 and legal(state) == ["allow"]
    no_cards = fixed(2, grids=[G0, G1], setup={"held": [["swap-other"], []]}, **ALL)
    play(no_cards, "activate", "play swap-other", "between 0 1", "pick 0 D3", "pick 1 A1")
    assert grid(no_cards, 0)[11] == -2 and mover(no_cards) == 1


def test_your_own_cards_are_not_targeted_by_your_look() -> None:
    state = fixed(2, grids=[G0, G1], setup={"held": [["look"], ["defense"]]}, **ALL)
    play(state, "activate", "play look", "look 0 row 2")
    assert mover(state) == 1 and state.observation(1)["decision"] == "turn"
    state2 = fixed(2, grids=[G0, G1], setup={"held": [["look"], ["defense"]]}, **ALL)
    play(state2, "activate", "play look", "look 1 row 2")
    assert state2.observation(1)["pending"] == {"by": 0, "card": "look", "look": [1, "row 2"]}
    play(state2, "allow")
    assert state2.observation(0)["areas"][1]["cards"][4:8] == [2, 3, 4, 5]


def test_reactivation_plays_a_card_from_the_action_discard_pile() -> None:
    state = fixed(2, grids=[G0, G1], setup={"held": [["reactivation"], []],
                                             "action_discard": ["swap-own", "reactivation", "draw-three"]},
                  deck="1 1 1", **ALL)
    play(state, "activate", "play reactivation")
    assert legal(state) == ["replay swap-own", "replay draw-three"]      # never a Reactivation
    play(state, "replay swap-own", "pick 0 A1", "pick 0 B1")
    assert grid(state, 0)[:2] == [2, 1]
    assert state.action_discard == [T["reactivation"], T["draw-three"], T["reactivation"], T["swap-own"]]


def test_thief_steals_a_card_and_plays_it_at_once() -> None:
    state = fixed(3, grids=[G0, G1, G2], setup={"held": [["thief"], ["swap-own", "double-move"], []]}, **ALL)
    play(state, "activate", "play thief")
    assert legal(state) == ["steal 1 swap-own", "steal 1 double-move"]
    play(state, "steal 1 double-move")
    assert [t for t, _, _ in state.held[1]] == [T["swap-own"]]
    play(state, "draw", "discard", "reveal A1")         # the stolen Double move: two more turns
    assert mover(state) == 0
    play(state, "draw", "discard", "reveal B1")
    assert mover(state) == 1
    assert state.action_discard == [T["thief"], T["double-move"]]


def test_thief_on_a_hidden_card_takes_one_at_random() -> None:
    taken = set()
    for seed in range(10):
        state = fixed(2, grids=[G0, G1], setup={"held": [["thief"], []]}, seed=seed, **ALL)
        state.held[1] = ((T["swap-own"], False, 0), (T["look"], False, 0))
        state._run()
        play(state, "activate", "play thief")
        assert legal(state) == ["steal 1 hidden"]
        play(state, "steal 1 hidden")
        if mover(state) == 1:
            play(state, "allow")
        taken.add(T["swap-own"] if state.held[1][0][0] == T["look"] else T["look"])
    assert taken == {T["swap-own"], T["look"]}


def test_a_card_with_no_possible_effect_does_nothing() -> None:
    state = fixed(2, setup={"held": [["thief"], []]}, **ALL)
    play(state, "activate", "play thief")
    assert mover(state) == 1 and state.action_discard == [T["thief"]]


def test_star_placed_lets_you_take_an_action_card_optionally() -> None:
    state = fixed(2, deck="*", setup={"action_row": ["look", "meteor", "look", "swap-own"],
                                      "action_deck": ["draw-three"]})
    play(state, "draw", "keep", "place A1")
    assert legal(state) == ["star pass", "star swap-own", "star look", "star meteor"]
    assert state.observation(0)["pending"] == {"optional": True}
    play(state, "star swap-own")
    assert [t for t, _, _ in state.held[0]] == [T["swap-own"]] and state.action_row[3] == T["draw-three"]
    assert grid(state, 0)[0] == "*"


def test_star_revealed_lets_you_take_an_action_card() -> None:
    state = fixed(2, grids=["1 * 3 4 / " + FILLER[8:], FILLER])
    play(state, "draw", "discard", "reveal B1")
    assert legal(state)[0] == "star pass"
    play(state, "star pass")
    assert state.held[0] == () and mover(state) == 1


def test_swapping_a_star_is_not_placing_it() -> None:
    state = fixed(2, grids=["1 * 3 4 / " + FILLER[8:], FILLER], reveal=[["B1"], []],
                  setup={"held": [["swap-own"], []], "action_row": ["look"] * 3 + ["meteor"]})
    play(state, "star meteor")                               # the setup star
    play(state, "activate", "play swap-own", "pick 0 B1", "pick 0 A1")
    assert mover(state) == 1 and state.cards[0][0] == STAR


def test_meteor_on_a_hidden_card_removes_one_at_random() -> None:
    removed = set()
    for seed in range(8):
        state = fixed(2, grids=[G0, G1], setup={"held": [["meteor"], []]}, seed=seed)
        state.held[1] = ((T["look"], False, 0), (T["swap-own"], False, 0))
        state._run()
        play(state, "activate", "play meteor")
        assert legal(state)[-1] == "remove 1 held hidden"
        play(state, "remove 1 held hidden")
        assert len(state.held[1]) == 1 and state.discard[0] >= ACTION0
        removed.add(state.discard[0] - ACTION0)
    assert removed == {T["look"], T["swap-own"]}


def test_defense_answers_thief() -> None:
    state = fixed(2, grids=[G0, G1], setup={"held": [["thief"], ["defense", "swap-own"]]}, **ALL)
    play(state, "activate", "play thief", "steal 1 swap-own")
    assert state.observation(1)["pending"] == {"by": 0, "card": "thief", "steal": [1, "held 1"]}
    play(state, "defend")
    assert [t for t, _, _ in state.held[1]] == [T["swap-own"]] and mover(state) == 1


def test_either_opponent_can_cancel_a_swap_between_opponents() -> None:
    state = fixed(3, grids=[G0, G1, G2], setup={"held": [["swap-other"], ["defense"], ["defense"]]}, **ALL)
    play(state, "activate", "play swap-other", "between 1 2", "pick 1 A1", "pick 2 A1")
    assert mover(state) == 1
    play(state, "allow")
    assert mover(state) == 2
    play(state, "defend")
    assert grid(state, 1)[0] == -2 and grid(state, 2)[0] == 12
    assert [t for t, _, _ in state.held[1]] == [T["defense"]] and state.held[2] == ()


def test_an_empty_action_deck_is_rebuilt_from_the_action_discard_pile() -> None:
    state = fixed(2, setup={"action_row": ["look", "meteor", "look", "meteor"], "action_deck": [],
                            "action_discard": ["swap-own", "draw-three"]})
    play(state, "take-action", "take look")
    assert state.action_row[0] in (T["swap-own"], T["draw-three"])
    assert len(state.action_deck) == 1 and state.action_discard == []
    assert any(e[0] == "c" and e[1] == "action-reshuffle" for e in state.history())
    play(state, "take-action", "take deck")
    play(state, "take-action", "take meteor")                     # nothing left: the row keeps a gap
    assert state.action_row[1] == -1 and state.observation(0)["action_row"][1] is None
    play(state, "take-action")
    assert "take deck" not in legal(state)

