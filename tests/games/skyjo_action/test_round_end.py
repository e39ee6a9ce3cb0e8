"""Round end, last turns, the final reveal, scoring, and the end of the game."""

from __future__ import annotations

import random

from referee.games import make
from referee.games.core.playout import random_joint_action
from referee.games.skyjo_action.data import TYPE_INDEX
from referee.games.skyjo_action.state import SkyjoActionState

from .helpers import FILLER, except_, face_up, fixed, grid, legal, mover, play

T = TYPE_INDEX
ENDER = "1 2 3 4 / 2 3 4 1 / 3 4 1 9"          # 30 points once D3 (a 9) is replaced by a 2


def finish(seat0: str, held: list[list[str]] | None = None, totals: list[int] | None = None,
           reveal0: list[str] | None = None, lock: list[str | None] | None = None, **options: object
           ) -> SkyjoActionState:
    """Seat 1 turns its last card over (placing a 2 at D3), seat 0 takes its last turn
    (draws a 9, discards it, turns A1 over), and the round is scored."""
    setup: dict[str, object] = {"first": 1, "held": held or [[], []]}
    if totals is not None:
        setup["totals"] = totals
    if lock is not None:
        setup["lock"] = lock
    options.setdefault("max_rounds", 1)
    state = fixed(2, grids=[seat0, ENDER], reveal=[reveal0 or [], except_("D3")], deck="2 9", setup=setup,
                  **options)
    play(state, "draw", "keep", "place D3")
    assert state.ender == 1 and mover(state) == 0
    play(state, "draw", "discard", "reveal A1" if "A1" not in (reveal0 or []) else legal(state)[0])
    if not state.is_over() and state.round_no == 1:
        play(state, "star pass")           # seat 0 turned a star over
    return state


def scores(state: SkyjoActionState) -> list[int]:
    return list(state.rounds[0][1])


def test_the_round_ends_after_one_more_turn_for_every_other_player() -> None:
    state = fixed(3, grids=[FILLER, ENDER, FILLER], reveal=[[], except_("D3"), []], deck="2 5 6 7",
                  setup={"first": 1})
    play(state, "draw", "keep", "place D3")
    assert state.ender == 1 and mover(state) == 2 and state.finals == (0,)
    assert state.observation(0)["ender"] == 1 and state.observation(0)["last_turns"] == [0]
    play(state, "draw", "discard", "reveal A1")
    assert mover(state) == 0
    play(state, "draw", "discard", "reveal A1")
    assert state.round_no == 2 and len(state.rounds) == 1


def test_all_cards_are_revealed_and_scored() -> None:
    state = finish("5 6 7 8 / 6 7 8 5 / 7 8 5 6")
    assert state.is_over() and scores(state) == [78, 30]           # seat 1 strictly lowest: not doubled
    assert state.rounds[0][2:] == (1, False, False)
    assert all(face_up(state, 0))
    result = state.result()
    assert result is not None and result.ranks == (1, 0) and result.reason == "round-limit"


def test_the_ender_doubles_unless_strictly_lowest() -> None:
    state = finish("0 1 0 1 / 1 0 1 0 / 2 2 -1 -1")                # 6 points against the ender's 30
    assert scores(state) == [6, 60] and state.rounds[0][3] is True


def test_a_tie_for_lowest_still_doubles_and_a_score_of_zero_or_less_never_does() -> None:
    tie = finish("1 2 3 4 / 2 3 4 1 / 3 4 1 2")
    assert scores(tie) == [30, 60]
    assert finish("0 1 0 1 / 1 0 1 0 / 2 2 -1 -1", double_ender=False).rounds[0][1] == (6, 30)


def test_held_action_cards_add_ten_points_each_and_count_for_doubling() -> None:
    state = finish("0 1 0 1 / 1 0 1 0 / 2 2 -1 -1", held=[["look", "look"], ["meteor"]])
    assert scores(state) == [26, 80]


def test_star_lines_score_minus_ten_and_minus_fifteen_and_overlap() -> None:
    column = finish("* 1 2 3 / * 4 5 6 / * 7 8 9")
    assert scores(column)[0] == 45 - 10
    row = finish("* * * * / 1 2 3 4 / 5 6 7 8")
    assert scores(row)[0] == 36 - 15
    both = finish("* * * * / * 1 2 3 / * 4 5 6")
    assert scores(both)[0] == 21 - 15 - 10
    lone = finish("* 1 2 3 / 4 5 6 7 / 8 9 10 11")
    assert scores(lone)[0] == 66


def test_lines_completed_by_the_final_reveal_clear_when_that_lowers_the_score() -> None:
    state = finish("1 9 2 3 / 4 9 5 6 / 7 9 8 10")
    assert grid(state, 0)[1:10:4] == [None, None, None] and scores(state)[0] == 46
    assert state.lock[0] == 2                                        # a cleared column sets the lock
    negative = finish("1 -1 2 3 / 4 -1 5 6 / 7 -1 8 10")
    assert grid(negative, 0)[1:10:4] == [-1, -1, -1] and scores(negative)[0] == 43


def test_final_reveal_clears_within_the_lock_and_columns_first() -> None:
    locked = finish("1 9 2 3 / 4 9 5 6 / 7 9 8 10", lock=["rows", None])
    assert grid(locked, 0)[1:10:4] == [9, 9, 9]
    both = finish("8 8 8 8 / 8 1 2 3 / 8 4 5 6")                    # row 1 and column A share A1
    assert grid(both, 0)[0:9:4] == [None, None, None] and grid(both, 0)[1:4] == [8, 8, 8]


def test_the_game_ends_at_one_hundred_and_the_fewest_points_win() -> None:
    state = finish("5 6 7 8 / 6 7 8 5 / 7 8 5 6", totals=[10, 70], max_rounds=50)
    assert state.is_over()
    result = state.result()
    assert result is not None and result.reason == "score"
    assert result.scores == (88, 100) and result.ranks == (0, 1) and result.winners() == [0]
    assert result.details["round_scores"] == [[78, 30]]


def test_ties_share_a_rank() -> None:
    state = finish("1 2 3 4 / 2 3 4 1 / 3 4 1 2", totals=[80, 50], double_ender=False, max_rounds=50)
    result = state.result()
    assert result is not None and result.scores == (110, 80) and result.ranks == (1, 0)
    tie = finish("1 2 3 4 / 2 3 4 1 / 3 4 1 2", totals=[70, 70], double_ender=False, max_rounds=50)
    assert tie.result() is not None and tie.result().ranks == (0, 0)   # type: ignore[union-attr]


def test_the_game_continues_below_one_hundred() -> None:
    state = finish("5 6 7 8 / 6 7 8 5 / 7 8 5 6", max_rounds=50)
    assert not state.is_over() and state.round_no == 2 and state.totals == [78, 30]
    assert len(state.deck) == 120 - 24 - 1                              # every card comes back for the new deal


def test_the_round_end_cancels_pending_extra_turns() -> None:
    state = fixed(2, grids=[ENDER, FILLER], reveal=[except_("D3"), []], deck="2 5",
                  setup={"held": [["double-move"], []]}, double_move=True)
    play(state, "activate", "play double-move", "draw", "keep", "place D3")
    assert state.ender == 0 and mover(state) == 1                  # the second extra turn is gone


def test_a_swap_can_end_the_round_for_another_player() -> None:
    # Seat 0 gives its face-up 4 to seat 1's only face-down position: seat 1 ends the round,
    # and everyone else, seat 0 included, still takes one turn.
    state = fixed(3, grids=[FILLER, ENDER, FILLER], reveal=[["D1"], except_("D3"), []],
                  setup={"held": [["swap-other"], [], []]})
    play(state, "activate", "play swap-other", "between 0 1", "pick 0 D1", "pick 1 D3")
    assert state.ender == 1 and mover(state) == 2 and state.finals == (0,)


def test_max_rounds_is_a_safety_stop() -> None:
    state = make("skyjo-action", 3, seed=4, options={"max_rounds": 1, "end_score": 1000})
    random_playout = random.Random(4)
    while not state.is_over():
        state.apply(random_joint_action(state, random_playout))
    result = state.result()
    assert result is not None and result.reason == "round-limit" and "max_rounds=1" in result.details["why"]


def test_max_round_decisions_scores_a_stalled_round_without_doubling() -> None:
    state = fixed(2, max_round_decisions=100, max_rounds=1)
    assert isinstance(state, SkyjoActionState)
    turns = 0
    while not state.is_over():          # both seats only ever swap the discard with a face-up card
        seat = mover(state)
        state.apply({seat: "take-discard A1"})
        turns += 1
    assert turns == 100 and state.rounds[0][4] is True and state.rounds[0][3] is False
    assert state.rounds[0][2] == -1
