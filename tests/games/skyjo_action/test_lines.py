"""Skyjo! lines: identical columns of 3 and rows of 4, stars wild, the rows-or-columns lock."""

from __future__ import annotations

from referee.games.skyjo_action.data import LINE_COL, LINE_ROW, STAR

from .helpers import FILLER, fixed, grid, legal, mover, play


def test_a_column_of_three_identical_cards_may_be_cleared() -> None:
    state = fixed(2, grids=["5 1 2 3 / 5 4 6 7 / 9 8 10 11", FILLER], reveal=[["A1", "A2"], []], deck="5")
    play(state, "draw", "keep", "place A3")
    assert legal(state) == ["clear col A", "clear none"]
    assert state.observation(0)["pending"] == {"lines": ["col A"]}
    play(state, "clear col A")
    assert grid(state, 0)[0:9:4] == [None, None, None]
    assert state.observation(0)["areas"][0]["face_up"][0] is None
    assert state.discard[-4:] == [9, 5, 5, 5] and state.lock[0] == LINE_COL
    assert state.observation(1)["areas"][0]["lock"] == "columns"
    assert mover(state) == 1


def test_clearing_is_optional_and_a_kept_line_is_not_asked_again() -> None:
    state = fixed(2, grids=["-1 1 2 3 / -1 4 6 7 / 9 8 10 11", FILLER], reveal=[["A1", "A2"], []], deck="-1 4 4")
    play(state, "draw", "keep", "place A3", "clear none")
    assert grid(state, 0)[0:9:4] == [-1, -1, -1] and state.lock[0] == 0
    play(state, "draw", "discard", "reveal A1")
    play(state, "draw", "keep", "place B1")          # seat 0 again: touches row 1 only
    assert mover(state) == 1


def test_a_row_of_four_with_a_wild_star_formed_by_an_opponent_swap() -> None:
    state = fixed(2, grids=["1 2 3 4 / 6 * 6 0 / 9 8 10 11", "6 2 3 4 / 5 6 7 8 / 9 10 11 12"],
                  reveal=[["A2", "B2", "C2"], ["A1"]], setup={"first": 1, "held": [[], ["swap-other"]]})
    play(state, legal(state)[0])                      # seat 0's setup star takes an action card
    play(state, "activate", "play swap-other", "between 0 1", "pick 0 D2", "pick 1 A1")
    assert mover(state) == 0 and legal(state) == ["clear row 2", "clear none"]   # the owner decides, out of turn
    play(state, "clear row 2")
    assert legal(state) == ["top 6", "top *"]         # which card ends on top of the discard pile
    play(state, "top *")
    assert state.discard[-1] == STAR and sorted(state.discard[-4:]) == [6, 6, 6, STAR]
    assert state.lock[0] == LINE_ROW and mover(state) == 0 and state.observation(0)["decision"] == "turn"


def test_stars_only_are_a_star_line_not_a_skyjo() -> None:
    state = fixed(2, grids=["* 1 2 3 / * 4 6 7 / 9 8 10 11", FILLER], reveal=[["A1", "A2"], []], deck="*",
                  setup={"action_row": ["look"] * 4, "action_deck": ["meteor"]})
    play(state, "star look", "star look")            # the two setup stars
    play(state, "draw", "keep", "place A3")
    assert legal(state)[0] == "star pass"            # a placed star, and no line to clear
    play(state, "star pass")
    assert mover(state) == 1 and grid(state, 0)[0:9:4] == ["*", "*", "*"]


def test_row_and_column_together_clear_one_and_lock_that_kind() -> None:
    state = fixed(2, grids=["7 7 7 1 / 2 3 4 7 / 5 6 8 7", FILLER], reveal=[["A1", "B1", "C1", "D2", "D3"], []],
                  deck="7")
    play(state, "draw", "keep", "place D1")
    assert legal(state) == ["clear col D", "clear row 1", "clear none"]
    play(state, "clear row 1")
    assert state.lock[0] == LINE_ROW and grid(state, 0)[:4] == [None] * 4
    assert mover(state) == 1                         # col D lost D1: nothing more to clear


def test_the_lock_forbids_the_other_kind_for_the_rest_of_the_round() -> None:
    state = fixed(2, grids=["7 7 7 1 / 2 3 4 7 / 5 6 8 7", FILLER], reveal=[["A1", "B1", "C1", "D2", "D3"], []],
                  deck="7", setup={"lock": ["columns", None]})
    play(state, "draw", "keep", "place D1")
    assert legal(state) == ["clear col D", "clear none"]
    rows = fixed(2, grids=["7 7 7 1 / 2 3 4 7 / 5 6 8 7", FILLER], reveal=[["A1", "B1", "C1", "D2", "D3"], []],
                 deck="7", setup={"lock": ["rows", "columns"]})
    play(rows, "draw", "keep", "place D1")
    assert legal(rows) == ["clear row 1", "clear none"]


def test_two_lines_formed_by_one_swap_are_offered_one_after_the_other() -> None:
    state = fixed(2, grids=["3 3 3 4 / 4 4 4 3 / 1 2 5 6", FILLER],
                  reveal=[["A1", "B1", "C1", "D1", "A2", "B2", "C2", "D2"], []], setup={"held": [["swap-own"], []]})
    play(state, "activate", "play swap-own", "pick 0 D1", "pick 0 D2")
    assert legal(state) == ["clear row 1", "clear row 2", "clear none"]
    play(state, "clear row 1")
    assert legal(state) == ["clear row 2", "clear none"]
    play(state, "clear row 2")
    assert grid(state, 0)[:8] == [None] * 8 and mover(state) == 1


def test_a_cleared_area_can_still_take_cards_elsewhere() -> None:
    state = fixed(2, grids=["5 1 2 3 / 5 4 6 7 / 9 8 10 11", FILLER], reveal=[["A1", "A2"], []], deck="5 0 3")
    play(state, "draw", "keep", "place A3", "clear col A")
    play(state, "draw", "discard", "reveal A1")
    play(state, "draw", "keep")
    assert "place A1" not in legal(state) and len(legal(state)) == 9
    assert not {"place A2", "place A3"} & set(legal(state))


def test_large_group_lines_are_three_long_and_star_lines_score() -> None:
    state = fixed(9, grids=["4 4 1 / 2 3 5 / 6 7 8"] + ["1 2 3 / 4 5 6 / 7 8 9"] * 8,
                  reveal=[["A1", "B1"]] + [[]] * 8, deck="4")
    play(state, "draw", "keep", "place C1")
    assert legal(state) == ["clear row 1", "clear none"]
    from referee.games.skyjo_action.rules import area_points
    lines = state.config.lines
    assert area_points([13, 13, 13, 1, 2, 3, 4, 5, 6], lines, -10, -15) == 21 - 15
    assert area_points([13, 1, 2, 13, 3, 4, 13, 5, 6], lines, -10, -15) == 21 - 10
