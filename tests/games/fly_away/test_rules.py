"""Scenario tests, one per rule of the rulebook and per ruling, on positions fixed by ``setup``."""

from __future__ import annotations

import random
from typing import Any

import pytest

from referee.games import IllegalAction
from referee.games.core.playout import random_playout
from referee.games.core.rng import CounterRng
from referee.games.fly_away.data import BIRDS, SCORING_INDEX, SCORING_SETS, TYPE_OF, deck_for
from referee.games.fly_away.geometry import SLOT_NAMES
from referee.games.fly_away.rules import Score, board, rank, score
from tests.games.fly_away.helpers import bird, birds, cells, full_formation, game, legal, play

KEPT2 = [["outside-1", "center-1", "top-1"], ["outside-2", "center-2", "top-2"]]
KEPT3 = KEPT2 + [["outside-3", "center-3", "top-3"]]
DECK2 = sorted(deck_for(2))      # swans 1-8, flamingos 14-21, geese 27-34, cranes 40-47, pelicans 53-60


def start2(**setup):  # type: ignore[no-untyped-def]
    setup.setdefault("deck", DECK2)
    setup.setdefault("kept", KEPT2)
    return game(2, **setup)


def wedge_minus(names: set[str], cards: list[int], anchor: tuple[int, int] = (0, 0)) -> list[list[int]]:
    """Setup entries of a wedge formation at ``anchor`` without the named slots."""
    slots = [n for n in SLOT_NAMES if n not in names]
    return full_formation(dict(zip(slots, cards)), anchor)


# ----- Setup -------------------------------------------------------------------------------

@pytest.mark.parametrize(("players", "size"), [(2, 40), (3, 50), (4, 60), (5, 65)])
def test_setup_removes_cards_with_a_player_icon_above_the_group(players: int, size: int) -> None:
    state = game(players)
    in_play = [c for c in state.display if c] + list(state.deck[state.deck_pos:])
    assert len(in_play) == size and len(set(in_play)) == size
    assert all((BIRDS[c].players or 0) <= players for c in in_play)


def test_each_seat_is_dealt_one_scoring_card_of_each_type_and_keeps_three_at_once() -> None:
    state = game(4)
    assert state.to_move() == (0, 1, 2, 3), "the keep choice is simultaneous"
    dealt = [c for d in state.dealt for c in d]
    assert len(set(dealt)) == 16
    assert all([TYPE_OF[c] for c in d] == [0, 1, 2, 3] for d in state.dealt)
    options = legal(state, 2)
    assert len(options) == 4 and all(len(o.split()) == 4 for o in options)   # 'keep' and three ids
    state.apply({s: state.legal_actions(s)[s] for s in range(4)})
    assert [len(k or ()) for k in state.kept] == [3, 3, 3, 3]
    assert state.kept[1] == tuple(c for i, c in enumerate(state.dealt[1]) if i != 2)   # combinations order
    assert state.to_move() == (0,), "the lead bird's holder starts"


def test_first_game_option_lets_a_seat_keep_two() -> None:
    state = game(2, options={"scoring_cards": "first-game"})
    sizes = sorted(len(a.cards) for a in state.legal_actions(0))
    assert sizes == [2] * 6 + [3] * 4
    two = next(a for a in state.legal_actions(0) if len(a.cards) == 2)
    state.apply({0: two, 1: state.legal_actions(1)[0]})
    assert len(state.kept[0] or ()) == 2 and len(state.kept[1] or ()) == 3


def test_all_four_variant_keeps_every_card_without_a_decision() -> None:
    state = game(3, options={"scoring_cards": "all-four"})
    assert state.to_move() == (0,)
    assert state.kept == state.dealt


def test_display_is_a_wedge_dealt_from_the_top_of_the_pile() -> None:
    state = start2()
    assert state.display == DECK2[:12]
    assert state.observation(0)["deck_size"] == 28
    assert [d["id"] for d in state.observation(1)["display"]] == DECK2[:12]


def test_the_lead_bird_holder_starts() -> None:
    state = game(3, lead=2, kept=KEPT3)
    assert state.to_move() == (2,)
    assert state.observation(0)["lead"] == 2


# ----- Turn --------------------------------------------------------------------------------

def test_first_turn_offers_every_group_once_and_keeps_its_arrangement() -> None:
    state = start2()
    options = legal(state)
    assert len(options) == 85 and all(o.endswith(" @0,0") for o in options)
    play(state, "take T1+M1+M2 @0,0")
    assert cells(state, 0) == {(0, 0): 1, (1, 0): 4, (1, 1): 5}
    # The gaps are refilled from the pile in slot order.
    assert [state.display[i] for i in (0, 3, 4)] == DECK2[12:15]
    assert state.to_move() == (1,), "play passes clockwise"


def test_cards_taken_must_be_adjacent_but_may_span_rows() -> None:
    state = start2()
    assert "take T1+M2+B3 @0,0" in legal(state)           # a diagonal across three rows
    with pytest.raises(IllegalAction, match="adjacent"):
        state.parse_action(0, "take T1+T3 @0,0")
    with pytest.raises(IllegalAction, match="1 to 3"):
        state.parse_action(0, "take T1+T2+T3+M3 @0,0")


def bottom_row_position():  # type: ignore[no-untyped-def]
    """Seat 0 has played a full bottom row: its place in the wedge is forced."""
    row = [[0, c, card] for c, card in enumerate(birds("crane", None, 5))]
    return start2(formations=[row, []], deck=DECK2[:12] + DECK2[12:20])


def test_placement_may_not_cover_a_card() -> None:
    state = bottom_row_position()
    assert "take T1 @0,0" not in legal(state)
    with pytest.raises(IllegalAction, match="cannot go there: they would cover a card you already played") as caught:
        state.parse_action(0, "take T1 @0,0")
    assert "touch" not in str(caught.value) and "wedge" not in str(caught.value), "only the condition broken"


def test_placement_must_touch_the_formation() -> None:
    state = bottom_row_position()
    assert "take T1 @-1,0" in legal(state)
    assert "take T1 @-2,0" not in legal(state)            # inside the wedge, but touching nothing
    with pytest.raises(IllegalAction, match="cannot go there: none of them would touch a card of your formation"):
        state.parse_action(0, "take T1 @-2,0")


def test_placement_may_never_break_the_wedge() -> None:
    state = bottom_row_position()
    options = legal(state)
    assert "take T1 @1,0" not in options, "nothing goes below the bottom row"
    assert "take T1 @0,5" not in options, "a row holds at most five cards"
    assert "take T1+T2+T3 @-1,1" in options and "take T1+T2+T3 @-1,2" not in options   # middle row: 4 cards
    assert "take T1+M2 @-2,0" in options                   # top row and middle row at once
    for text in ("take T1 @1,0", "take T1 @0,5", "take T1+T2+T3 @-1,2"):
        with pytest.raises(IllegalAction, match="cannot go there: your formation would no longer fit the 3/4/5 wedge"):
            state.parse_action(0, text)


def test_the_first_cards_of_a_formation_go_at_the_origin() -> None:
    state = start2()
    with pytest.raises(IllegalAction, match=r"formation is empty and its first cards go at @0,0.*legal cells"
                                            r" for the first listed card: @0,0\)"):
        state.parse_action(0, "take T1 @2,1")


def test_placement_keeps_the_shape_by_translation_only() -> None:
    state = bottom_row_position()
    assert "take T1+M2+B3 @-2,1" not in legal(state), "B3's card would fall on (0, 3), which is taken"
    play(state, "take T1+M2 @-2,1")
    added = {cell: card for cell, card in cells(state, 0).items() if cell[0] < 0}
    assert added == {(-2, 1): DECK2[0], (-1, 2): DECK2[4]}


def test_illegal_placement_leaves_the_state_unchanged() -> None:
    state = bottom_row_position()
    before = state.state_hash()
    with pytest.raises(IllegalAction):
        state.apply({0: "take T1 @1,0"})
    assert state.state_hash() == before


def test_a_formation_is_anchored_only_when_its_cards_force_it() -> None:
    state = start2()
    play(state, "take T1+T2+T3 @0,0")
    view = state.observation(0)["seats"][0]
    assert len(view["anchors"]) == 6 and all(card["slot"] is None for card in view["formation"])
    state = bottom_row_position()
    view = state.observation(1)["seats"][0]
    assert view["anchors"] == [[-2, 0]]
    assert [card["slot"] for card in view["formation"]] == ["B1", "B2", "B3", "B4", "B5"]


def test_display_gaps_stay_empty_when_the_pile_runs_out() -> None:
    state = start2(deck=DECK2[:13])
    play(state, "take T1+T2 @0,0")
    assert state.display[0] == DECK2[12] and state.display[1] == 0
    assert not any(a.startswith("take T2") or "+T2" in a for a in legal(state))
    assert state.observation(1)["display"][1] is None
    assert state.observation(1)["deck_size"] == 0


# ----- End of the game --------------------------------------------------------------------

def end_position(**extra):  # type: ignore[no-untyped-def]
    """3 players, lead 0. Seat 1 misses only B5 and is to move; seats 0 and 2 have one card."""
    deck = sorted(deck_for(3))
    seat1 = wedge_minus({"B5"}, deck[20:31])
    setup: dict[str, Any] = {"formations": [[[0, 0, deck[40]]], seat1, [[0, 0, deck[41]]]], "deck": deck[:20],
             "kept": KEPT3, "to_move": 1, "penalties": [-4, -2, -3, -2]}
    setup.update(extra)
    return game(3, **setup)


def test_twelfth_card_triggers_the_end_and_play_continues_to_the_lead() -> None:
    state = end_position()
    assert not state.end_triggered
    play(state, "take T1 @2,4")
    assert state.end_triggered and not state.penalty_turns
    assert state.to_move() == (2,) and state.penalties[2] == (), "seat 2 still has a normal turn"
    play(state, "take T1 @0,1")
    # Back at the lead bird's holder: the normal turns are over; late turns start with a penalty.
    assert state.penalty_turns and state.to_move() == (0,)
    assert state.penalties[0] == (-4,)
    play(state, "take T1 @0,1")
    assert state.to_move() == (2,), "seat 1 is complete and plays no more"
    assert state.penalties[2] == (-2,) and state.penalties[1] == ()


def test_late_players_keep_playing_until_complete_then_abilities_start() -> None:
    deck = sorted(deck_for(2))
    state = start2(formations=[wedge_minus(set(), deck[18:30]), wedge_minus({"B4", "B5"}, deck[30:40])],
                   to_move=1, deck=deck[:18], penalties=[-3, -4])
    assert state.end_triggered and not state.penalty_turns
    play(state, "take T1 @2,3")                       # seat 1's last normal turn (seat 0 holds the lead)
    assert state.penalty_turns and state.to_move() == (1,) and state.penalties[1] == (-3,)
    play(state, "take T1 @2,4")
    assert state.penalties[1] == (-3,), "a completed formation takes no more penalty cards"
    assert state.observation(0)["phase"] == "abilities" and state.to_move() == (0, 1)


def test_a_setup_at_the_lead_with_a_complete_formation_starts_with_a_penalty() -> None:
    deck = sorted(deck_for(2))
    state = start2(formations=[wedge_minus({"B5"}, deck[17:28]), wedge_minus(set(), deck[28:40])],
                   deck=deck[:17], penalties=[-2])
    assert state.penalty_turns and state.penalties[0] == (-2,)


def test_an_empty_penalty_pile_costs_nothing_by_default() -> None:
    state = end_position(penalties=[])
    play(state, "take T1 @2,4")
    play(state, "take T1 @0,1")
    assert state.to_move() == (0,) and state.penalties[0] == ()


def test_empty_penalty_pile_option_minus_4() -> None:
    deck = sorted(deck_for(3))
    seat1 = wedge_minus({"B5"}, deck[20:31])
    state = game(3, options={"empty_penalty_pile": "minus-4"},
                 formations=[[[0, 0, deck[40]]], seat1, [[0, 0, deck[41]]]], deck=deck[:20], kept=KEPT3,
                 to_move=1, penalties=[])
    play(state, "take T1 @2,4")
    play(state, "take T1 @0,1")
    assert state.penalties[0] == (-4,)


# ----- Special abilities -------------------------------------------------------------------

def ability_position(seat0: dict[str, int], seat1: dict[str, int] | None = None, **options):  # type: ignore[no-untyped-def]
    """2 players, both formations complete (plain cards besides those given): the abilities."""
    seat1 = seat1 or {}
    used = set(seat0.values()) | set(seat1.values())
    fill = [c for c in DECK2 if c not in used and BIRDS[c].ability is None]
    one = {n: seat0.get(n) or fill.pop(0) for n in SLOT_NAMES}
    two = {n: seat1.get(n) or fill.pop() for n in SLOT_NAMES}
    return game(2, options=options, formations=[full_formation(one), full_formation(two)], kept=KEPT2)


def test_swaps_come_first_and_each_swap_card_swaps_once() -> None:
    state = ability_position({"T1": bird("swan", "swap"), "B5": bird("goose", "flip")})
    assert state.to_move() == (0,)
    options = legal(state, 0)
    assert options[0] == "done" and len(options) == 12 and not any(o.startswith("flip") for o in options)
    state.apply({0: "swap T1 M3"})
    assert board(state, 0)[SLOT_NAMES.index("M3")] == bird("swan", "swap")
    assert legal(state, 0) == ["done", "flip B5"], "the swan's ability is spent; flips follow"
    state.apply({0: "flip B5"})
    assert state.is_over() and state.flipped[0] == frozenset({bird("goose", "flip")})


def test_done_moves_from_swaps_to_flips_and_then_ends() -> None:
    state = ability_position({"T1": bird("swan", "swap"), "B5": bird("goose", "flip")})
    state.apply({0: "done"})
    assert legal(state, 0) == ["done", "flip B5"]
    state.apply({0: "done"})
    assert state.is_over() and state.flipped[0] == frozenset()


def test_a_swapped_swap_card_keeps_its_own_ability() -> None:
    swan, goose = bird("swan", "swap"), bird("goose", "swap")
    state = ability_position({"T1": swan, "B5": goose})
    state.apply({0: "swap T1 B5"})
    assert "swap T1 M1" in legal(state, 0), "the goose, now at T1, may still swap"
    assert not any(o.startswith("swap B5") for o in legal(state, 0))


def test_ability_decisions_are_simultaneous() -> None:
    state = ability_position({"T1": bird("swan", "swap")}, {"T1": bird("goose", "swap")})
    assert state.to_move() == (0, 1)
    state.apply({0: "swap T1 T2", 1: "done"})
    assert state.is_over()


def test_any_order_option_offers_swaps_and_flips_together() -> None:
    state = ability_position({"T1": bird("swan", "swap"), "B5": bird("goose", "flip")},
                             ability_order="any-order")
    options = legal(state, 0)
    assert "flip B5" in options and "swap T1 B5" in options
    state.apply({0: "flip B5"})
    state.apply({0: "swap T1 B5"})     # the flipped goose moves, still face down
    assert state.is_over() and state.flipped[0] == frozenset({bird("goose", "flip")})


def test_a_game_without_abilities_ends_at_once() -> None:
    state = ability_position({})
    assert state.is_over() and state.result() is not None


# ----- Final scoring ----------------------------------------------------------------------

def ids(*names: str) -> list[int]:
    return [SCORING_INDEX[n] for n in names]


def board_of(layout: str) -> list[int]:
    """A formation from 12 species initials (s f g c p) in slot order, plain cards."""
    names = {"s": "swan", "f": "flamingo", "g": "goose", "c": "crane", "p": "pelican"}
    used: dict[str, int] = {}
    out = []
    for letter in layout.replace(" ", ""):
        out.append(birds(names[letter], None, 8)[used.get(letter, 0)])
        used[letter] = used.get(letter, 0) + 1
    return out


def test_each_scoring_card_counts_its_area_and_the_no_card_bonus() -> None:
    # T: s s s | M: f g g f | B: c c p c c
    cards = board_of("sss fggf ccpcc")
    # top-1: swan 4, flamingo 2, goose -2, crane 3, pelican 1; no pelican 7. Top row: 3 swans.
    (top,) = score(cards, set(), ids("top-1"), []).cards
    assert top.species == (12, 0, 0, 0, 0) and top.no_card == 7 and top.total == 19
    # center-1: swan 4, flamingo 1, goose 3, crane -2, pelican 2; no flamingo 7. M2, M3 geese, B3 pelican.
    (center,) = score(cards, set(), ids("center-1"), []).cards
    assert center.species == (0, 0, 6, 0, 2) and center.no_card == 7 and center.total == 15
    # outside-1: swan 4, flamingo 3, goose 2, crane 1, pelican -3; no swan 4 (swans are outside).
    (outside,) = score(cards, set(), ids("outside-1"), []).cards
    assert outside.species == (12, 6, 0, 4, -3) and outside.no_card == 0 and outside.total == 19
    # bottom-1: swan 4, flamingo -2, goose 1, crane 2, pelican 3; no goose 7.
    (bottom,) = score(cards, set(), ids("bottom-1"), []).cards
    assert bottom.species == (0, 0, 0, 8, 3) and bottom.no_card == 7 and bottom.total == 18


def test_the_balanced_scoring_data_scores_its_own_values() -> None:
    cards = board_of("sss fggf ccpcc")
    balanced = SCORING_SETS["balanced"]
    # outside-1 balanced: swan 2, flamingo 2, goose 1, crane 1, pelican -2; no swan 6.
    (outside,) = score(cards, set(), ids("outside-1"), [], table=balanced).cards
    assert outside.species == (6, 4, 0, 4, -2) and outside.no_card == 0 and outside.total == 12
    # bottom-1 balanced: swan 3, flamingo -2, goose 1, crane 2, pelican 2; no goose 5.
    (bottom,) = score(cards, set(), ids("bottom-1"), [], table=balanced).cards
    assert bottom.species == (0, 0, 0, 8, 2) and bottom.no_card == 5 and bottom.total == 15


@pytest.mark.parametrize("values", ["template", "balanced"])
def test_final_scores_use_the_scoring_data_option(values: str) -> None:
    state = game(2, options={"scoring_data": values})
    random_playout(state, random.Random(3))
    result = state.result()
    assert result is not None
    table = SCORING_SETS[values]
    for seat, breakdown in enumerate(result.details["scores"]):
        expected = score(board(state, seat), state.flipped[seat], state.kept[seat] or (), state.penalties[seat],
                         table=table)
        assert breakdown == expected.to_json()
    assert state.observation(0)["seats"][1]["kept"][0]["no_card"]["points"] == table[state.kept[1][0]].no_card_points


def test_species_set_bonus_10_for_each_once_20_for_each_twice() -> None:
    assert score(board_of("sss fggf ccpcc"), set(), [], []).species_bonus == 10
    assert score(board_of("ssf fggf ccppc"), set(), [], []).species_bonus == 20
    assert score(board_of("sss fggf ccccc"), set(), [], []).species_bonus == 0


def test_penalties_are_deducted() -> None:
    result = score(board_of("sss fggf ccpcc"), set(), [], [-2, -4])
    assert result.penalties == -6 and result.total == 10 - 6


def test_a_flipped_card_has_no_species_and_scores_nothing() -> None:
    cards = board_of("sss fggf ccpcc")
    pelican = cards[9]                                                 # B3
    plain = score(cards, set(), ids("center-1", "bottom-1"), [])
    flipped = score(cards, {pelican}, ids("center-1", "bottom-1"), [])
    assert [c.total for c in flipped.cards] == [15 - 2, 18 - 3]
    assert flipped.species_bonus == 0 and plain.species_bonus == 10
    # A flipped card also stops spoiling a "no card" bonus: center-3 gives 7 for no crane in the
    # center; with a crane at B3, flipping it earns the bonus.
    with_crane = board_of("sss fggf cccpc")
    assert score(with_crane, set(), ids("center-3"), []).cards[0].no_card == 0
    assert score(with_crane, {with_crane[9]}, ids("center-3"), []).cards[0].no_card == 7


def test_a_doubling_card_doubles_plus_and_minus_points_and_counts_once_for_the_set() -> None:
    cards = board_of("ssf fggf ccppc")
    double = bird("pelican", "double")
    cards[9] = double                                                  # B3 is outside, bottom and center
    result = score(cards, set(), ids("outside-1", "bottom-1", "center-1"), [])
    outside, bottom, center = result.cards
    assert outside.species[4] == -3 * 2 + -3     # doubled minus points, plus the plain pelican at B4
    assert bottom.species[4] == 3 * 2 + 3
    assert center.species[4] == 2 * 2
    assert result.species_bonus == 20
    single = cards[:10] + [board_of("c")[0]] + cards[11:]                # only the doubling pelican left
    assert score(single, set(), [], []).species_bonus == 10
    assert score(single, set(), [], [], double_counts_for_set=True).species_bonus == 20


def test_ties_go_to_the_best_single_card_then_are_shared() -> None:
    def s(total: int, best: int) -> Score:
        return Score(total, (), 0, 0, best)

    assert rank([s(50, 6), s(50, 8), s(49, 12)]) == (1, 0, 2)
    assert rank([s(50, 8), s(50, 8), s(40, 1)]) == (0, 0, 2)


def test_a_full_tie_is_a_shared_victory() -> None:
    """Seat 1's formation is seat 0's with every species moved on by one, and it keeps the
    next card of each type: within a type the cards rotate species, so both score alike."""
    order = ["swan", "flamingo", "goose", "crane", "pelican"]
    layout = "ssf fggf ccppc"
    names = {"s": 0, "f": 1, "g": 2, "c": 3, "p": 4}
    used: dict[str, int] = {}
    one, two = {}, {}
    for slot, letter in zip(SLOT_NAMES, layout.replace(" ", "")):
        a, b = order[names[letter]], order[(names[letter] + 1) % 5]
        one[slot] = birds(a, None, 8)[used.get(a, 0)]
        used[a] = used.get(a, 0) + 1
        two[slot] = birds(b, None, 8)[used.get(b, 0)]
        used[b] = used.get(b, 0) + 1
    state = game(5, formations=[full_formation(one), full_formation(two), [], [], []],
                 kept=[["outside-1", "center-1", "top-1"], ["outside-2", "center-2", "top-2"],
                       ["outside-3", "center-3", "top-3"], ["outside-4", "center-4", "top-4"],
                       ["outside-5", "center-5", "top-5"]], to_move=2)
    mine, theirs = (score(board(state, seat), set(), state.kept[seat] or (), []) for seat in (0, 1))
    assert (mine.total, mine.best_card) == (theirs.total, theirs.best_card)
    assert [c.total for c in mine.cards] == [c.total for c in theirs.cards]
    assert rank([mine, theirs]) == (0, 0)


def test_result_ranks_by_score_then_best_card() -> None:
    state = ability_position({})
    result = state.result()
    assert result is not None and result.reason == "score"
    details = result.details["scores"]
    keys = [(d["total"], d["best_card"]) for d in details]
    assert result.ranks == tuple(sum(1 for k in keys if k > mine) for mine in keys)
    assert result.scores == tuple(float(d["total"]) for d in details)


# ----- Hidden information -------------------------------------------------------------------

def test_kept_scoring_cards_are_private_until_the_end() -> None:
    state = game(3)
    assert state.observation(0)["dealt"] is not None and state.public_view()["dealt"] is None
    state.apply({s: state.legal_actions(s)[0] for s in range(3)})
    mine = state.observation(0)["seats"]
    assert mine[0]["kept"] is not None and mine[1]["kept"] is None and mine[1]["kept_count"] == 3
    assert all(seat["kept"] is None for seat in state.public_view()["seats"])
    random_playout(state, random.Random(2))
    assert all(seat["kept"] is not None for seat in state.public_view()["seats"])


def test_public_scoring_cards_option_shows_them_from_the_start() -> None:
    state = game(3, options={"public_scoring_cards": True})
    state.apply({s: state.legal_actions(s)[0] for s in range(3)})
    assert all(seat["kept"] is not None for seat in state.observation(2)["seats"])


def test_resample_redraws_only_what_the_seat_cannot_see() -> None:
    state = game(4, seed=9)
    state.apply({s: state.legal_actions(s)[s] for s in range(4)})
    play(state, legal(state)[0])
    changed_scoring = changed_deck = 0
    for i in range(20):
        other = state.resample_hidden(1, CounterRng(i))
        assert other.display == state.display and other.cells == state.cells
        assert other.dealt[1] == state.dealt[1] and other.kept[1] == state.kept[1]
        assert [len(k or ()) for k in other.kept] == [3, 3, 3, 3]
        assert all(set(k or ()) <= set(d) for k, d in zip(other.kept, other.dealt))
        assert len({c for d in other.dealt for c in d}) == 16
        assert sorted(other.deck[other.deck_pos:]) == sorted(state.deck[state.deck_pos:])
        changed_scoring += other.dealt != state.dealt
        changed_deck += other.deck != state.deck
    assert changed_scoring > 10 and changed_deck > 10


def test_revealed_kept_cards_are_not_redrawn() -> None:
    state = game(3, options={"public_scoring_cards": True})
    state.apply({s: state.legal_actions(s)[0] for s in range(3)})
    for i in range(10):
        other = state.resample_hidden(0, CounterRng(i))
        assert other.kept == state.kept
