"""Sky Team's published board data (base airport Montréal-Trudeau) as tables.

Everything the rules look up lives here so a different airport or a corrected figure is
a data change, never a new branch in the rules. Rounds, spaces and approach positions
are 0-based inside the engine; observations and notation show them 1-based.
"""

from __future__ import annotations

from typing import NamedTuple

PILOT = 0
COPILOT = 1
SEAT_NAMES = ("pilot", "copilot")
DICE_PER_SEAT = 4
FACES = 6

# ----- Altitude track: one entry per round; the last is the landing round. -------------
ALTITUDES = (6000, 5000, 4000, 3000, 2000, 1000, 0)
ROUNDS = len(ALTITUDES)
FINAL_ROUND = ROUNDS - 1
# Rounds (0-based) whose altitude space carries a Reroll token at setup: 6000 and 2000 ft.
REROLL_ROUNDS = (0, 4)

# ----- Approach track: airplane tokens per space at setup; the last space is the airport.
APPROACH_TOKENS = (0, 0, 1, 2, 1, 3, 2)
AIRPORT = len(APPROACH_TOKENS) - 1

# ----- Gauges. ---------------------------------------------------------------------------
BLUE_START = 4          # blue Aerodynamics marker between 4|5: lower number
ORANGE_START = 8        # orange Aerodynamics marker between 8|9
SPIN_TILT = 3           # |tilt| at or beyond this is a spin
COFFEE_MAX = 3

# ----- Number constraints of the switch spaces (RULINGS). --------------------------------
GEAR_VALUES = ((1, 2), (3, 4), (5, 6))               # Pilot, any order
FLAP_VALUES = ((1, 2), (2, 3), (4, 5), (5, 6))       # Co-Pilot, top to bottom
BRAKE_VALUES = ((2,), (4,), (6,))                    # Pilot, in order; marker = last value

# Space kinds.
AXIS, ENGINES, RADIO, GEAR, FLAP, BRAKE, CONC = range(7)
# The mandatory sections: each seat must have a die on each of these every round.
MANDATORY_KINDS = (AXIS, ENGINES)
SWITCH_KINDS = frozenset((GEAR, FLAP, BRAKE))  # the spaces that slide a switch green


class Space(NamedTuple):
    """One named space of the control panel as a seat sees it.

    ``slots`` are the board positions of this space that the seat may fill (the Co-Pilot's
    two Radio spaces and the three shared Concentration spaces are interchangeable, so
    they are one space with several slots); ``values`` is the number constraint (None:
    any value; the value then matters, so coffee adjustments are offered freely);
    ``number`` orders gear, flaps and brakes.
    """

    name: str
    kind: int
    number: int
    values: tuple[int, ...] | None
    slots: tuple[int, ...]


# ----- The board: one slot per die position. -------------------------------------------
SLOT_NAMES = (
    "axis_pilot", "axis_copilot", "engines_pilot", "engines_copilot",
    "radio_pilot", "radio_copilot_1", "radio_copilot_2",
    "gear1", "gear2", "gear3",
    "flap1", "flap2", "flap3", "flap4",
    "brake1", "brake2", "brake3",
    "conc1", "conc2", "conc3",
)
SLOTS = len(SLOT_NAMES)
AXIS_SLOTS = (0, 1)          # indexed by seat
ENGINE_SLOTS = (2, 3)
RADIO_SLOTS = ((4,), (5, 6))
GEAR_SLOTS = (7, 8, 9)
FLAP_SLOTS = (10, 11, 12, 13)
BRAKE_SLOTS = (14, 15, 16)
CONC_SLOTS = (17, 18, 19)
PLACEMENTS_PER_ROUND = 2 * DICE_PER_SEAT


def _seat_spaces(seat: int) -> tuple[Space, ...]:
    spaces = [
        Space("axis", AXIS, 0, None, (AXIS_SLOTS[seat],)),
        Space("engines", ENGINES, 0, None, (ENGINE_SLOTS[seat],)),
        Space("radio", RADIO, 0, None, RADIO_SLOTS[seat]),
    ]
    if seat == PILOT:
        spaces += [Space(f"gear{k + 1}", GEAR, k, v, (GEAR_SLOTS[k],)) for k, v in enumerate(GEAR_VALUES)]
        spaces += [Space(f"brake{k + 1}", BRAKE, k, v, (BRAKE_SLOTS[k],)) for k, v in enumerate(BRAKE_VALUES)]
    else:
        spaces += [Space(f"flap{k + 1}", FLAP, k, v, (FLAP_SLOTS[k],)) for k, v in enumerate(FLAP_VALUES)]
    spaces.append(Space("conc", CONC, 0, None, CONC_SLOTS))
    return tuple(spaces)


# Per seat, in canonical order; the mandatory spaces (axis, engines) come first.
SEAT_SPACES = (_seat_spaces(PILOT), _seat_spaces(COPILOT))
SPACE_BY_NAME = tuple({s.name: s for s in spaces} for spaces in SEAT_SPACES)
ALL_SPACE_NAMES = tuple(dict.fromkeys(s.name for spaces in SEAT_SPACES for s in spaces))
# Per seat: its mandatory spaces, in MANDATORY_KINDS order, and the board slots they fill.
MANDATORY_SPACES = tuple(
    tuple(sp for kind in MANDATORY_KINDS for sp in spaces if sp.kind == kind) for spaces in SEAT_SPACES
)
MANDATORY_SLOTS = tuple(tuple(slot for sp in spaces for slot in sp.slots) for spaces in MANDATORY_SPACES)

# Landing conditions, in the order the result details list them.
LANDING_CONDITIONS = ("approach-clear", "switches-green", "axis-level", "speed-under-brakes")


def first_placer(round_index: int, first_at_start: int) -> int:
    """The altitude track's arrow: it alternates, starting with ``first_at_start``."""
    return (first_at_start + round_index) % 2
