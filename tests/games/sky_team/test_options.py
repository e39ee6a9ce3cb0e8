"""Options and the setup format: bad or contradictory values are refused with the fix."""

from __future__ import annotations

from typing import Any

import pytest

from referee.games import GAMES, OptionError, PlayerCountError, make


def test_spec_declares_every_ruling_as_an_option() -> None:
    spec = GAMES["sky-team"]
    assert spec.cooperative and (spec.min_players, spec.max_players) == (2, 2)
    defaults = {o.name: o.default for o in spec.all_options()}
    assert defaults == {"first_placer": "pilot", "mandatory_lock": True, "green_switch_takes_die": True,
                        "brake_check": "at-most", "brake_timing": "engines", "setup": None}
    assert spec.rulebook == "docs/rules/sky-team.md"


@pytest.mark.parametrize(("options", "hint"), [
    ({"first_placer": "navigator"}, "'pilot', 'copilot'"),
    ({"brake_check": "fast"}, "'at-most', 'below'"),
    ({"brake_timing": "later"}, "'engines', 'end'"),
    ({"mandatory_lock": "maybe"}, "true/false"),
    ({"crew": 3}, "unknown option 'crew'"),
])
def test_bad_option_values_name_what_is_allowed(options: dict[str, Any], hint: str) -> None:
    with pytest.raises(OptionError, match=hint):
        make("sky-team", 2, options=options)


def test_sky_team_is_for_two() -> None:
    with pytest.raises(PlayerCountError, match="played by 2 players, not 3"):
        make("sky-team", 3)


@pytest.mark.parametrize(("setup", "hint"), [
    ([1, 2], "must be a JSON object"),
    ({"wind": 3}, "unknown key 'wind'; known keys"),
    ({"round": 0}, "'round' must be an integer from 1 to 7"),
    ({"round": 8}, "'round' must be an integer from 1 to 7"),
    ({"altitude": 2500}, "'altitude' must be one of 6000"),
    ({"round": 2, "altitude": 3000}, "contradict each other"),
    ({"first_placer": "captain"}, "'first_placer' must be 'pilot' or 'copilot'"),
    ({"position": 8}, "'position' must be an integer from 1 to 7"),
    ({"tokens": [0, 0, 1]}, "'tokens' must list the airplane tokens on each of the 7"),
    ({"position": 5, "tokens": [0, 0, 1, 0, 0, 0, 0]}, "behind the current position 5"),
    ({"round": 7, "position": 6}, "the landing round .* starts only at the airport"),
    ({"axis": 3}, "'axis' must be an integer from -2 to 2"),
    ({"gear": 2}, "'gear' must list 3 booleans"),
    ({"flaps": 5}, "'flaps' must be an integer from 0 to 4"),
    ({"brakes": -1}, "'brakes' must be an integer from 0 to 3"),
    ({"coffee": 4}, "'coffee' must be an integer from 0 to 3"),
    ({"rerolls": 9}, "'rerolls' must be an integer from 0 to 4"),
    ({"reroll_rounds": [5, 5]}, "'reroll_rounds' must list distinct rounds"),
    ({"dice": {"pilot": [1, 2, 3, 4]}}, "'dice' must be a list"),
    ({"dice": [{"pilot": [1, 2, 3], "copilot": [1, 2, 3, 4]}]}, r"dice\[0\].pilot must list exactly 4"),
    ({"dice": [{"pilot": [1, 2, 3, 7], "copilot": [1, 2, 3, 4]}]}, "die values 1..6"),
    ({"dice": [{"pilot": [1, 2, 3, 4]}]}, "both 'pilot' and 'copilot'"),
    ({"round": 6, "dice": [{"pilot": [1, 1, 1, 1], "copilot": [1, 1, 1, 1]}] * 3}, "only 2 remain"),
    ({"reroll_dice": [{"navigator": [1]}]}, r"reroll_dice\[0\] must be an object"),
])
def test_bad_setups_say_what_to_fix(setup: Any, hint: str) -> None:
    with pytest.raises(OptionError, match=hint):
        make("sky-team", 2, options={"setup": setup})


def test_setup_accepts_altitude_and_seat_numbers() -> None:
    s = make("sky-team", 2, options={"setup": {"altitude": 3000, "first_placer": 0, "reroll_rounds": [5, 6]}})
    v = s.public_view()
    assert (v["round"], v["first_placer"], v["reroll_rounds"]) == (4, 0, [5, 6])
