"""Setup: the decks, the deal, the random reveals, the first player and setup stars."""

from __future__ import annotations

from collections import Counter

from referee.games import make
from referee.games.skyjo_action.data import ACTION0, STAR, TYPE_INDEX, number_deck
from referee.games.skyjo_action.state import SkyjoActionState

from .helpers import FILLER, cards, except_, face_up, fixed, legal, mover, play


def test_number_star_deck_is_the_ruled_120_cards() -> None:
    deck = Counter(number_deck(stars=True))
    assert sum(deck.values()) == 120
    assert deck[-2] == 3 and deck[-1] == 7 and deck[0] == 11 and deck[STAR] == 15
    assert all(deck[v] == 7 for v in range(1, 13))
    assert sum(Counter(number_deck(stars=False)).values()) == 105


def test_deal_two_players_standard() -> None:
    state = make("skyjo-action", 2, seed=5)
    assert isinstance(state, SkyjoActionState)
    assert [len(r) for r in state.cards] == [12, 12]
    assert [sum(face_up(state, s)) for s in (0, 1)] == [2, 2]       # two random reveals each
    assert len(state.discard) == 1
    assert len([t for t in state.action_row if t >= 0]) == 4
    # 120 cards: 24 dealt, 1 on the discard pile, the rest in the main deck.
    assert len(state.deck) == 120 - 24 - 1
    # Starter action deck: 5 types x 3, four of them face up in the row.
    assert len(state.action_deck) + 4 == 15
    assert set(state.action_deck) | set(state.action_row) <= {0, 1, 2, 3, 4}


def test_extra_action_cards_join_the_action_deck() -> None:
    state = make("skyjo-action", 2, seed=5, options={"double_move": True, "defense": True, "reactivation": True,
                                                      "thief": True})
    assert isinstance(state, SkyjoActionState)
    everything = Counter(state.action_deck + [t for t in state.action_row if t >= 0])
    assert sum(everything.values()) == 27 and all(n == 3 for n in everything.values())
    only_thief = make("skyjo-action", 2, seed=5, options={"starter_actions": False, "thief": True})
    assert isinstance(only_thief, SkyjoActionState)
    assert set(only_thief.action_deck) | {t for t in only_thief.action_row if t >= 0} == {TYPE_INDEX["thief"]}


def test_large_group_deals_three_by_three_with_one_reveal() -> None:
    state = make("skyjo-action", 10, seed=2)
    assert isinstance(state, SkyjoActionState)
    assert all(len(r) == 9 for r in state.cards)
    assert all(sum(face_up(state, s)) == 1 for s in range(10))
    obs = state.observation(0)
    assert (obs["rows"], obs["cols"]) == (3, 3)
    small = make("skyjo-action", 3, seed=2, options={"large_group": True})
    assert isinstance(small, SkyjoActionState) and len(small.cards[0]) == 9


def test_first_player_has_the_highest_revealed_sum() -> None:
    state = fixed(3, grids=["9 2 3 4 / 5 6 7 8 / 9 10 11 12", "12 12 3 4 / 5 6 7 8 / 9 10 11 12",
                            "-2 0 3 4 / 5 6 7 8 / 9 10 11 12"],
                  reveal=[["A1", "B1"], ["A1", "B1"], ["A1", "B1"]], setup={"first": None})
    assert mover(state) == 1 and state.current == 1


def test_first_player_tie_goes_to_the_highest_single_card_and_a_star_counts_zero() -> None:
    # Sums 10 (5+5), 10 (12-2) and 10 (10+*): the 12 wins the tie.
    state = fixed(3, grids=["5 5 3 4 / " + FILLER[8:], "12 -2 3 4 / " + FILLER[8:], "10 * 3 4 / " + FILLER[8:]],
                  reveal=[["A1", "B1"]] * 3, setup={"first": None})
    # Seat 2 revealed a star: it takes an action card first (setup stars, in turn order from the first player).
    assert state.current == 1
    assert mover(state) == 2 and all(a.startswith("star ") for a in legal(state))
    assert "star pass" not in legal(state)          # at setup the take is not optional


def test_first_player_exact_tie_is_a_seeded_draw() -> None:
    firsts = set()
    for seed in range(12):
        state = fixed(2, grids=["5 5 3 4 / " + FILLER[8:]] * 2, reveal=[["A1", "B1"]] * 2,
                      setup={"first": None}, seed=seed)
        firsts.add(state.current)
        assert any(e[0] == "c" and e[1] == "first-player" for e in state.history())
    assert firsts == {0, 1}


def test_setup_star_takes_an_action_card_and_restocks_the_row() -> None:
    state = fixed(2, grids=["* 1 2 3 / 4 5 6 7 / 8 9 10 11", FILLER], reveal=[["A1"], []],
                  setup={"action_row": ["look", "meteor", "swap-own", "draw-three"],
                         "action_deck": ["swap-other", "look"]})
    assert mover(state) == 0 and legal(state) == ["star swap-own", "star draw-three", "star look", "star meteor"]
    play(state, "star meteor")
    assert state.action_row == [TYPE_INDEX["look"], TYPE_INDEX["swap-other"], TYPE_INDEX["swap-own"],
                          TYPE_INDEX["draw-three"]]
    assert [t for t, _, _ in state.held[0]] == [TYPE_INDEX["meteor"]]
    # The card taken at setup may be activated on the first turn.
    assert "activate" in legal(state)


def test_no_action_row_in_simple_and_single_deck_so_stars_take_nothing() -> None:
    simple = fixed(2, grids=["* 1 2 3 / 4 5 6 7 / 8 9 10 11", FILLER], reveal=[["A1"], []], simple=True)
    assert "take-action" not in legal(simple) and "activate" not in legal(simple)
    single = fixed(2, grids=["* 1 2 3 / 4 5 6 7 / 8 9 10 11", FILLER], reveal=[["A1"], []], single_deck=5)
    assert "take-action" not in legal(single)
    assert single.observation(0)["action_row"] == [None] * 4


def test_even_simpler_has_no_stars() -> None:
    state = make("skyjo-action", 4, seed=3, options={"even_simpler": True})
    assert isinstance(state, SkyjoActionState)
    everywhere = state.deck + state.discard + [c for row in state.cards for c in row]
    assert STAR not in everywhere and len(everywhere) == 105 and not state.config.types


def test_single_deck_shuffles_action_cards_into_the_main_deck() -> None:
    state = make("skyjo-action", 2, seed=8, options={"single_deck": 7})
    assert isinstance(state, SkyjoActionState)
    everywhere = state.deck + state.discard + [c for row in state.cards for c in row]
    in_main = [c for c in everywhere if c >= ACTION0]
    assert len(in_main) + len(state.action_discard) == 7          # a flipped first discard goes to the action pile
    assert len(everywhere) - len(in_main) == 120
    assert len(state.box) == 15 - 7 and state.action_deck == [] and state.action_row == [-1] * 4


def test_later_rounds_start_with_the_player_who_ended_the_previous_one() -> None:
    # Seat 1 ends round 1 (its last face-down card), seat 0 takes its last turn.
    state = fixed(2, grids=[FILLER, "1 1 1 2 / 2 2 3 3 / 3 4 4 4"], reveal=[[], except_("D3")], deck="5 6 7 8",
                  setup={"first": 1})
    play(state, "draw", "keep", "place D3")
    assert state.ender == 1 and mover(state) == 0 and state.finals == ()   # its last turn has begun
    play(state, "draw", "discard", "reveal A1")
    assert state.round_no == 2 and state.current == 1
    assert state.rounds[0][2] == 1


def test_setup_reveal_and_random_reveal_are_recorded_chance() -> None:
    state = make("skyjo-action", 3, seed=11)
    labels = Counter(e[1] for e in state.history() if e[0] == "c")
    assert labels["reveal"] == 6 and labels["deck"] == 1 and labels["action-deck"] == 1


def test_setup_cards_come_out_of_the_composition() -> None:
    state = fixed(2, grids=["-2 -2 -2 0 / 0 0 0 0 / 0 0 0 0", FILLER])
    remaining = Counter(state.deck)
    assert remaining[-2] == 0 and remaining[0] == 11 - 10 and sum(remaining.values()) == 120 - 24 - 1
    assert cards("* -1 5") == ["*", -1, 5]
