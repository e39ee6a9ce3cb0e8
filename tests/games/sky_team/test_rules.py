"""Scenario tests, one (or a few) per rule of the Sky Team rulebook and RULINGS.md."""

from __future__ import annotations

import pytest

from referee.games import IllegalAction
from referee.games.core import replay as replay_io
from referee.games.sky_team.state import SkyTeamState

from .helpers import C, P, dice, game, legal, outcome, play, spaces

QUIET = ("P:3>axis", "C:3>axis", "P:2>engines", "C:2>engines", "P:1>radio", "C:1>radio", "P:3>conc", "C:3>conc")
QUIET_DICE = dice([1, 2, 3, 3], [1, 2, 3, 3])


# ----- setup and the altitude track ----------------------------------------------------
def test_initial_position_is_the_published_setup() -> None:
    s = game()
    v = s.public_view()
    assert (v["round"], v["altitude"], v["final_round"]) == (1, 6000, False)
    assert v["approach_tokens"] == [0, 0, 1, 2, 1, 3, 2]
    assert (v["position"], v["airport"]) == (1, 7)
    assert (v["blue_marker"], v["orange_marker"], v["brake_marker"]) == (4, 8, 0)
    assert (v["axis"], v["coffee"], v["flaps"], v["brakes"]) == (0, 0, 0, 0)
    assert v["gear"] == [False, False, False]
    # The 6000 ft Reroll token is taken at the start of round 1; 2000 ft still holds one.
    assert (v["rerolls"], v["reroll_rounds"]) == (1, [5])
    assert v["dice_count"] == [4, 4] and v["phase"] == "place"
    assert s.to_move() == (P,) and v["first_placer"] == P


@pytest.mark.parametrize("round_number", range(1, 8))
def test_first_placer_alternates_from_the_pilot_at_6000(round_number: int) -> None:
    setup = {"round": round_number, "position": 7, "tokens": [0] * 7} if round_number == 7 else {
        "round": round_number}
    s = game(setup)
    expected = P if round_number % 2 == 1 else C
    assert s.public_view()["first_placer"] == expected and s.to_move() == (expected,)
    assert s.public_view()["altitude"] == (7 - round_number) * 1000


def test_first_placer_option_starts_with_the_copilot() -> None:
    s = game({"dice": [QUIET_DICE]}, first_placer="copilot")
    assert s.to_move() == (C,)
    play(s, "C:3>axis", "P:3>axis", "C:2>engines", "P:2>engines", "C:1>radio", "P:1>radio", "C:3>conc",
         "P:3>conc")
    assert s.round == 1 and s.to_move() == (P,)


def test_placements_alternate_and_the_round_ends_after_eight_dice() -> None:
    s = game({"dice": [QUIET_DICE, dice([6, 5, 4, 3], [2, 2, 2, 2])]})
    seen = []
    for move in QUIET:
        seen.append(s.to_move())
        play(s, move)
    assert seen == [(P,), (C,)] * 4
    v = s.public_view()
    assert (v["round"], v["altitude"], v["first_placer"]) == (2, 5000, C)
    assert all(value is None for value in v["board"].values())
    assert s.observation(P)["my_dice"] == [3, 4, 5, 6] and s.observation(C)["my_dice"] == [2, 2, 2, 2]
    assert s.to_move() == (C,)


# ----- spaces and colours -----------------------------------------------------------------
def test_each_seat_has_its_own_spaces() -> None:
    s = game({"dice": [dice([1, 2, 4, 6], [1, 2, 3, 5])]})
    assert spaces(s, P) == {"axis", "engines", "radio", "gear1", "gear2", "gear3", "brake1", "conc"}
    play(s, "P:4>conc")
    assert spaces(s, C) == {"axis", "engines", "radio", "flap1", "conc"}
    with pytest.raises(IllegalAction, match="not a copilot space"):
        s.apply({C: "1>gear1"})


def test_a_die_is_named_by_its_value() -> None:
    s = game({"dice": [dice([3, 3, 3, 3], [1, 1, 1, 1])]})
    assert legal(s, P).count("3>axis") == 1
    with pytest.raises(IllegalAction, match="no unplaced 5"):
        s.apply({P: "5>axis"})


# ----- axis ------------------------------------------------------------------------------
def test_axis_turns_toward_the_higher_die_by_the_difference() -> None:
    s = play(game({"dice": [QUIET_DICE]}), "P:3>axis", "C:1>axis")
    assert s.tilt == -2                       # toward the Pilot, who played higher
    s = play(game({"dice": [dice([1, 2, 3, 3], [1, 2, 3, 3])], "axis": -1}), "P:1>axis", "C:3>axis")
    assert s.tilt == 1                        # +2 toward the Co-Pilot
    s = play(game({"dice": [QUIET_DICE], "axis": 2}), "P:3>axis", "C:3>axis")
    assert s.tilt == 2                        # equal dice: nothing moves


def test_axis_resolves_only_with_the_second_die_and_persists() -> None:
    s = game({"dice": [dice([1, 2, 3, 3], [1, 2, 1, 3]), QUIET_DICE], "axis": 1})
    play(s, "P:3>axis")
    assert s.tilt == 1
    play(s, "C:2>axis", "P:2>engines", "C:3>engines", "P:1>radio", "C:1>radio", "P:3>conc", "C:1>conc")
    assert s.round == 1 and s.tilt == 0 and s.public_view()["axis"] == 0


@pytest.mark.parametrize(("start", "pilot", "copilot", "tilt"), [(-2, 4, 3, -3), (1, 1, 3, 3), (0, 6, 1, -5)])
def test_spin_when_the_axis_reaches_an_x(start: int, pilot: int, copilot: int, tilt: int) -> None:
    s = game({"dice": [dice([pilot, 2, 2, 2], [copilot, 2, 2, 2])], "axis": start})
    play(s, f"P:{pilot}>axis", f"C:{copilot}>axis")
    result = s.result()
    assert result is not None and result.reason == "spin" and result.details["axis"] == tilt
    assert result.ranks == (0, 0) and result.scores == (0.0, 0.0)
    assert s.to_move() == () and s.legal_actions(P) == [] and s.legal_actions(C) == []


# ----- engines and the approach track ---------------------------------------------------
@pytest.mark.parametrize(("pilot", "copilot", "moved"), [(2, 2, 0), (1, 3, 0), (2, 3, 1), (4, 4, 1), (4, 5, 2),
                                                          (6, 6, 2)])
def test_speed_against_the_aerodynamics_markers(pilot: int, copilot: int, moved: int) -> None:
    s = game({"dice": [dice([pilot, 1, 1, 1], [copilot, 1, 1, 1])]})
    play(s, f"P:{pilot}>engines", f"C:{copilot}>engines")
    assert s.pos == moved and s.speed == pilot + copilot


def test_landing_gear_and_flaps_move_the_markers() -> None:
    s = game({"dice": [dice([3, 1, 1, 1], [3, 1, 1, 1])], "gear": [True, True, False], "flaps": 1})
    assert (s.public_view()["blue_marker"], s.public_view()["orange_marker"]) == (6, 9)
    play(s, "P:3>engines", "C:3>engines")
    assert s.pos == 0                           # 6 is at most blue (6): no advance
    s = game({"dice": [dice([5, 1, 1, 1], [4, 1, 1, 1])], "flaps": 1})
    play(s, "P:5>engines", "C:4>engines")
    assert s.pos == 1                           # 9 is at most orange (9): one space


def test_airplanes_arriving_in_the_current_space_are_harmless() -> None:
    s = game({"dice": [dice([3, 1, 1, 1], [3, 1, 1, 1])], "position": 2})
    play(s, "P:3>engines", "C:3>engines")
    assert s.result() is None and s.pos == 2 and s.tokens[2] == 1


def test_collision_when_leaving_a_space_with_airplanes() -> None:
    s = game({"dice": [dice([3, 1, 1, 1], [3, 1, 1, 1])], "position": 3})
    play(s, "P:3>engines", "C:3>engines")
    result = s.result()
    assert result is not None and result.reason == "collision"
    assert result.details["space"] == 3 and result.details["airplanes"] == 1


def test_a_two_space_advance_collides_with_airplanes_it_passes() -> None:
    s = game({"dice": [dice([6, 1, 1, 1], [6, 1, 1, 1])], "position": 2})
    play(s, "P:6>engines", "C:6>engines")
    result = s.result()
    assert result is not None and result.reason == "collision" and result.details["space"] == 3


def test_overshoot_when_the_airport_is_current_and_the_plane_must_advance() -> None:
    s = game({"round": 5, "dice": [dice([3, 1, 1, 1], [3, 1, 1, 1])], "position": 7, "tokens": [0] * 7})
    play(s, "P:3>engines", "C:3>engines")
    result = s.result()
    assert result is not None and result.reason == "overshoot"
    s = game({"round": 5, "dice": [dice([6, 1, 1, 1], [6, 1, 1, 1])], "position": 6, "tokens": [0] * 7})
    play(s, "P:6>engines", "C:6>engines")
    result = s.result()
    assert result is not None and result.reason == "overshoot" and s.pos == 6


def test_collision_is_reported_before_overshoot() -> None:
    s = game({"round": 5, "dice": [dice([3, 1, 1, 1], [3, 1, 1, 1])], "position": 7,
              "tokens": [0, 0, 0, 0, 0, 0, 2]})
    play(s, "P:3>engines", "C:3>engines")
    result = s.result()
    assert result is not None and result.reason == "collision"


def test_holding_pattern_at_the_airport_is_safe_when_slow() -> None:
    s = game({"round": 5, "dice": [QUIET_DICE], "position": 7, "tokens": [0] * 7})
    play(s, *QUIET)
    assert s.result() is None and s.round == 5 and s.pos == 6


# ----- radio -----------------------------------------------------------------------------
@pytest.mark.parametrize(("value", "space"), [(3, 3), (4, 4), (6, 6)])
def test_radio_removes_one_airplane_value_minus_one_spaces_ahead(value: int, space: int) -> None:
    s = game({"dice": [dice([value, 1, 1, 1], [1, 1, 1, 1])]})
    before = list(s.tokens)
    play(s, f"P:{value}>radio")
    after = list(s.tokens)
    before[space - 1] -= 1
    assert after == before


def test_radio_one_counts_the_current_space_and_empty_or_far_spaces_do_nothing() -> None:
    s = game({"dice": [dice([1, 2, 2, 2], [1, 6, 2, 2])], "position": 4})
    play(s, "P:1>radio")
    assert s.tokens[3] == 1
    play(s, "C:6>radio")                   # space 9: past the airport
    assert s.tokens == (0, 0, 0, 1, 1, 3, 2)
    play(s, "P:2>axis", "C:1>radio")
    assert s.tokens[3] == 0


def test_pilot_has_one_radio_copilot_two() -> None:
    s = game({"dice": [dice([3, 3, 1, 1], [3, 3, 1, 1])]})
    play(s, "P:3>radio")
    assert "radio" in spaces(s, C)
    play(s, "C:3>radio", "P:1>axis")
    assert "radio" in spaces(s, C)
    play(s, "C:1>radio")
    assert "radio" not in spaces(s, P) and "radio" not in spaces(s, C)
    assert s.tokens[2] == 0 and s.tokens[0] == 0


# ----- switches --------------------------------------------------------------------------
def test_landing_gear_in_any_order_with_their_constraints() -> None:
    s = game({"dice": [dice([6, 2, 3, 3], [1, 1, 1, 1])]})
    assert {t for t in legal(s, P) if "gear" in t} == {"2>gear1", "3>gear2", "6>gear3"}
    play(s, "P:6>gear3", "C:1>radio", "P:2>gear1")
    assert s.public_view()["gear"] == [True, False, True] and s.public_view()["blue_marker"] == 6


def test_a_green_switch_still_takes_a_die_and_does_nothing() -> None:
    s = game({"dice": [dice([2, 2, 3, 3], [1, 1, 5, 5])], "gear": [True, False, False], "flaps": 1, "brakes": 1})
    assert "2>gear1" in legal(s, P) and "2>brake1" in legal(s, P)
    play(s, "P:2>gear1", "C:1>flap1", "P:2>brake1")
    v = s.public_view()
    assert (v["gear"], v["flaps"], v["brakes"], v["blue_marker"], v["brake_marker"]) == (
        [True, False, False], 1, 1, 5, 2)
    closed = game({"dice": [dice([2, 2, 3, 3], [1, 1, 5, 5])], "gear": [True, False, False], "brakes": 1},
                  green_switch_takes_die=False)
    assert "gear1" not in spaces(closed, P) and "brake1" not in spaces(closed, P)


def test_flaps_go_in_order_from_the_top() -> None:
    s = game({"dice": [dice([1, 1, 1, 1], [5, 2, 2, 4])]})
    play(s, "P:1>radio")
    assert "flap2" not in spaces(s, C) and "flap1" in spaces(s, C)
    with pytest.raises(IllegalAction, match="flaps go in order"):
        s.apply({C: "2>flap2"})
    play(s, "C:2>flap1", "P:1>conc", "C:2>flap2")
    assert s.flaps == 2 and s.public_view()["orange_marker"] == 10
    s = game({"dice": [dice([1, 1, 1, 1], [5, 5, 4, 4])], "flaps": 2})
    play(s, "P:1>radio")
    assert "flap4" not in spaces(s, C)
    play(s, "C:4>flap3", "P:1>conc", "C:5>flap4")
    assert s.flaps == 4 and s.public_view()["orange_marker"] == 12


def test_brakes_go_in_order_with_exact_values() -> None:
    s = game({"dice": [dice([2, 4, 6, 1], [1, 1, 1, 1])]})
    assert "brake2" not in spaces(s, P) and "2>brake1" in legal(s, P)
    play(s, "P:2>brake1")
    assert s.public_view()["brake_marker"] == 2
    play(s, "C:1>radio", "P:4>brake2")
    assert s.public_view()["brake_marker"] == 4
    play(s, "C:1>axis")
    assert "6>brake3" not in legal(s, P)        # locked: two dice for axis and engines
    s = game({"dice": [dice([6, 1, 1, 1], [1, 1, 1, 1])], "brakes": 2})
    play(s, "P:6>brake3")
    assert s.public_view()["brake_marker"] == 6


# ----- concentration and coffee ------------------------------------------------------------
def test_concentration_takes_any_die_of_either_seat_for_a_coffee() -> None:
    s = game({"dice": [dice([6, 5, 4, 4], [1, 2, 3, 3])], "coffee": 1})
    play(s, "P:6>conc", "C:1>conc")
    assert s.coffee == 3
    play(s, "P:5>conc")                    # a fourth coffee is not gained
    assert s.coffee == 3
    assert "conc" not in spaces(s, C)      # the three spaces are full


def test_coffee_adjusts_a_die_by_one_per_token_within_one_to_six() -> None:
    s = game({"dice": [dice([1, 6, 3, 3], [1, 1, 1, 1])], "coffee": 2})
    texts = legal(s, P)
    assert {"1>radio", "1+1>radio", "1+2>radio"} <= set(texts) and "1-1>radio" not in texts
    assert {"6-2>axis", "6-1>axis", "6>axis"} <= set(texts) and "6+1>axis" not in texts
    assert not any(t.endswith(">conc") and ("+" in t or "-" in t) for t in texts)
    play(s, "P:1+2>radio")                 # 3 reaches space 3
    assert s.coffee == 0 and s.tokens[2] == 0 and s.board[4] == 3


def test_coffee_on_a_switch_only_meets_its_constraint_at_least_cost() -> None:
    s = game({"dice": [dice([3, 6, 6, 6], [1, 1, 1, 1])], "coffee": 2})
    texts = legal(s, P)
    assert [t for t in texts if "gear1" in t] == ["3-1>gear1"]
    assert [t for t in texts if "gear2" in t] == ["3>gear2", "6-2>gear2"]
    assert [t for t in texts if "brake1" in t] == ["3-1>brake1"]
    s = game({"dice": [dice([6, 6, 6, 6], [1, 1, 1, 1])], "coffee": 1})
    assert "gear2" not in spaces(s, P)     # 6 -> 4 needs two coffee


# ----- rerolls ---------------------------------------------------------------------------
def test_reroll_tokens_are_taken_at_6000_and_2000_only() -> None:
    assert game().rerolls == 1
    assert game({"round": 2}).rerolls == 0 and "reroll" not in legal(game({"round": 2}), P)
    s = game({"round": 5})
    assert s.rerolls == 1 and s.reroll_rounds == ()
    s = game({"round": 3, "dice": [QUIET_DICE]})
    play(s, *QUIET)
    assert s.round == 3 and s.rerolls == 0 and s.reroll_rounds == (4,)


def test_spending_a_reroll_lets_both_seats_reroll_at_once() -> None:
    s = game({"dice": [dice([1, 1, 2, 6], [3, 3, 4, 5])],
              "reroll_dice": [{"pilot": [5, 5], "copilot": [6]}]})
    play(s, "P:6>axis")
    assert "reroll" in legal(s, C)
    play(s, "C:reroll")
    assert s.to_move() == (P, C) and s.rerolls == 0 and s.public_view()["phase"] == "reroll"
    assert legal(s, P) == ["roll none", "roll 1", "roll 2", "roll 1,1", "roll 1,2", "roll 1,1,2"]
    assert "roll 3,3" in legal(s, C) and "roll 6" not in legal(s, C)
    play(s, "P:roll 1,1|C:roll 4")
    assert s.dice[P] == (2, 5, 5) and s.dice[C] == (3, 3, 5, 6)
    assert s.to_move() == (C,) and s.public_view()["phase"] == "place"
    assert "reroll" not in legal(s, C)
    chance = [e for e in s.history() if e[0] == "c"]
    assert ("c", "reroll 1 pilot (setup)", [5, 5]) in chance and ("c", "reroll 1 copilot (setup)", [6]) in chance


def test_several_rerolls_in_a_round_and_a_seat_without_dice_is_not_asked() -> None:
    s = game({"dice": [QUIET_DICE], "rerolls": 1,
              "reroll_dice": [{"pilot": [6]}, {"copilot": [2]}]})
    assert s.rerolls == 2
    play(s, "P:reroll", "P:roll 1|C:roll none")
    assert s.dice[P] == (2, 3, 3, 6) and s.to_move() == (P,)
    play(s, "P:3>axis", "C:3>axis", "P:2>engines", "C:2>engines", "P:6>radio", "C:1>radio", "P:3>conc")
    play(s, "C:reroll")
    assert s.to_move() == (C,)             # the Pilot has placed all its dice
    play(s, "C:roll 3")
    assert s.dice[C] == (2,)


def test_rerolled_dice_are_random_without_a_script_and_recorded() -> None:
    s = game({"dice": [QUIET_DICE]}, seed=11)
    play(s, "P:reroll", "P:roll 1,2,3,3|C:roll none")
    assert len(s.dice[P]) == 4
    assert [e[1] for e in s.history() if e[0] == "c"][-1] == "reroll 1 pilot"


# ----- mandatory spaces ------------------------------------------------------------------
def test_mandatory_lock_once_dice_only_cover_axis_and_engines() -> None:
    s = game({"dice": [dice([1, 2, 3, 3], [1, 2, 3, 3])]})
    play(s, "P:1>radio", "C:1>radio", "P:3>conc", "C:3>conc")
    assert spaces(s, P) == {"axis", "engines"} and "reroll" in legal(s, P)
    with pytest.raises(IllegalAction):
        s.apply({P: "2>gear1"})
    play(s, "P:2>axis", "C:2>axis")
    assert spaces(s, P) == {"engines"}


def test_missing_mandatory_die_loses_at_the_end_of_the_round() -> None:
    s = game({"dice": [QUIET_DICE]}, mandatory_lock=False)
    play(s, "P:1>radio", "C:3>axis", "P:3>conc", "C:2>engines", "P:3>conc", "C:1>radio", "P:2>engines")
    assert s.result() is None
    play(s, "C:3>conc")
    result = s.result()
    assert result is not None and result.reason == "missing-mandatory"
    assert result.details["missing"] == ["pilot axis"] and result.ranks == (0, 0)


# ----- the end ---------------------------------------------------------------------------
def crash_after_round_6() -> SkyTeamState:
    """Round 6 played out one space short of the airport (speed 4: the plane stays put)."""
    s = game({"round": 6, "position": 6, "tokens": [0] * 7, "dice": [QUIET_DICE]})
    play(s, "C:3>axis", "P:3>axis", "C:2>engines", "P:2>engines", "C:1>radio", "P:1>radio", "C:3>conc",
         "P:3>conc")
    return s


def test_crash_when_the_landing_round_comes_before_the_airport() -> None:
    s = crash_after_round_6()
    result = s.result()
    assert result is not None and result.reason == "crash" and result.details["position"] == 6


def test_after_a_crash_the_views_show_the_last_round_played_with_its_board_and_speed() -> None:
    """The crash comes as the altitude track reaches the landing round, which is never
    played: round, board and speed stay those of round 6, so `speed` is still "this round's"."""
    s = crash_after_round_6()
    for view in (s.public_view(), s.observation(0), s.observation(1)):
        assert view["round"] == 6 and view["altitude"] == 1000 and not view["final_round"]
        assert view["speed"] == 4 and view["board"]["engines_pilot"] == 2 and view["phase"] == "over"
        assert view["result"]["reason"] == "crash" and view["result"]["details"]["round"] == 6


LANDING = {"round": 7, "position": 7, "tokens": [0] * 7, "gear": [True, True, True], "flaps": 4, "brakes": 3}
LAND_MOVES = ("P:3>axis", "C:3>axis", "P:1>engines", "C:1>engines", "P:3>conc", "C:2>radio", "P:2>radio",
              "C:3>conc")


def test_landing_when_all_four_conditions_hold() -> None:
    s = game({**LANDING, "dice": [QUIET_DICE]})
    assert s.public_view()["final_round"] and s.to_move() == (P,)
    play(s, *LAND_MOVES)
    result = s.result()
    assert result is not None and result.reason == "landed"
    assert result.ranks == (0, 0) and result.scores == (1.0, 1.0)
    assert s.observation(P)["result"]["landed"] and s.observation(C)["result"]["landed"]


def test_engines_never_move_the_plane_in_the_final_round() -> None:
    s = game({**LANDING, "dice": [dice([6, 6, 3, 3], [6, 6, 3, 3])]})
    play(s, "P:6>engines", "C:6>engines")
    assert s.result() is None and s.pos == 6 and s.speed == 12


@pytest.mark.parametrize(("change", "missed"), [
    ({"tokens": [0, 0, 0, 0, 0, 0, 1]}, ["approach-clear"]),
    ({"gear": [True, False, True]}, ["switches-green"]),
    ({"flaps": 3}, ["switches-green"]),
    ({"axis": 1}, ["axis-level"]),
    ({"brakes": 0}, ["speed-under-brakes"]),
    ({"axis": -1, "flaps": 2, "tokens": [0, 0, 0, 0, 0, 0, 2]}, ["approach-clear", "switches-green", "axis-level"]),
])
def test_failed_landing_lists_the_missed_conditions(change: dict[str, object], missed: list[str]) -> None:
    s = game({**LANDING, **change, "dice": [QUIET_DICE]})
    play(s, *LAND_MOVES)
    result = s.result()
    assert result is not None and result.reason == "failed-landing" and result.details["missed"] == missed
    assert result.scores == (0.0, 0.0)


def test_speed_must_not_exceed_the_brake_marker() -> None:
    s = game({**LANDING, "brakes": 1, "dice": [dice([1, 3, 3, 2], [2, 3, 3, 1])]})
    play(s, "P:3>axis", "C:3>axis", "P:1>engines", "C:2>engines", "P:3>conc", "C:3>conc", "P:2>radio", "C:1>radio")
    result = s.result()
    assert result is not None and result.reason == "failed-landing"
    assert result.details["missed"] == ["speed-under-brakes"] and result.details["speed"] == 3
    s = game({**LANDING, "brakes": 1, "dice": [QUIET_DICE]})
    play(s, *LAND_MOVES)
    assert outcome(s).reason == "landed"   # speed 2, marker 2


def test_brake_check_below_reads_less_than_literally() -> None:
    s = game({**LANDING, "brakes": 1, "dice": [QUIET_DICE]}, brake_check="below")
    play(s, *LAND_MOVES)
    result = s.result()
    assert result is not None and result.details["missed"] == ["speed-under-brakes"]


def test_brakes_deployed_after_the_engines_come_too_late() -> None:
    setup = {**LANDING, "brakes": 1, "dice": [dice([4, 1, 2, 3], [3, 1, 2, 3])]}
    moves = ("P:3>axis", "C:3>axis", "P:2>engines", "C:2>engines", "P:4>brake2", "C:1>radio", "P:1>radio",
             "C:3>conc")
    s = play(game(setup), *moves)
    assert outcome(s).details["missed"] == ["speed-under-brakes"]
    assert outcome(s).details["brake_marker"] == 2 and s.brakes == 2
    s = play(game(setup, brake_timing="end"), *moves)
    assert outcome(s).reason == "landed"


def test_brakes_before_the_engines_count() -> None:
    setup = {**LANDING, "brakes": 1, "dice": [dice([4, 1, 2, 3], [3, 1, 2, 3])]}
    s = play(game(setup), "P:4>brake2", "C:3>axis", "P:3>axis", "C:2>engines", "P:2>engines", "C:1>radio",
             "P:1>radio", "C:3>conc")
    assert outcome(s).reason == "landed"


# ----- chance, setup and replays -------------------------------------------------------------
def test_setup_dice_are_used_then_dice_are_random_and_replays_verify() -> None:
    s = game({"dice": [QUIET_DICE]}, seed=5)
    assert s.dice == [(1, 2, 3, 3), (1, 2, 3, 3)]
    play(s, *QUIET)
    assert len(s.dice[P]) == 4 and s.round == 1
    records = s.replay()
    again = replay_io.verify(replay_io.loads(replay_io.dumps(records)))
    assert again.state_hash() == s.state_hash()
