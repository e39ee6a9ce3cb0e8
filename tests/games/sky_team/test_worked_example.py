"""The rulebook's worked example, "A turn, played out" (round 4, 3000 ft), step by step.

The rulebook has the Pilot place first at 3000 ft; the published altitude track has the
Co-Pilot there (RULINGS), so the setup names the first placer explicitly.
"""

from __future__ import annotations

from .helpers import C, P, dice, game, play

SETUP = {
    "round": 4, "first_placer": "pilot", "axis": 1,           # tilted 1 toward the partner (Co-Pilot)
    "position": 3, "tokens": [0, 0, 0, 2, 1, 3, 2],           # current space empty, next holds 2
    "gear": [True, True, False], "flaps": 1, "coffee": 1,
    "dice": [dice([6, 4, 3, 1], [5, 4, 1, 2])],
}


def test_the_published_track_has_the_copilot_first_at_3000_ft() -> None:
    assert game({"round": 4}).to_move() == (C,)


def test_a_turn_played_out() -> None:
    s = game(SETUP)
    v = s.observation(P)
    assert (v["altitude"], v["round"], s.to_move()) == (3000, 4, (P,))
    assert (v["blue_marker"], v["orange_marker"], v["coffee"], v["axis"]) == (6, 9, 1, 1)
    assert v["my_dice"] == [1, 3, 4, 6] and v["other_dice_count"] == 4

    play(s, "P:1+1>radio")          # the 1 made a 2 with the coffee: the next space loses a plane
    assert s.coffee == 0 and s.tokens[3] == 1 and s.board[4] == 2
    play(s, "C:5>axis")
    assert s.tilt == 1              # the axis waits for the second die
    play(s, "P:6>axis")
    assert s.tilt == 0              # 1 toward the Pilot: level again
    play(s, "C:4>engines", "P:4>engines")
    assert s.speed == 8 and s.pos == 3          # above blue (6), at most orange (9): one space
    assert s.tokens[3] == 1 and s.result() is None   # the last plane slid into the current space: harmless
    play(s, "C:1>radio")            # a Co-Pilot radio 1 counts only the current space
    assert s.tokens[3] == 0
    play(s, "P:3>conc")
    assert s.coffee == 1
    play(s, "C:2>flap2")            # the partner places the last die
    v = s.public_view()
    assert s.result() is None and (v["round"], v["altitude"]) == (5, 2000)
    assert v["approach_tokens"] == [0, 0, 0, 0, 1, 3, 2] and v["position"] == 4 and v["axis"] == 0
    assert v["flaps"] == 2 and v["rerolls"] == 1       # the 2000 ft Reroll token is taken
