"""The ``setup`` option: a fixed position and fixed dice, validated with messages that say
what is wrong and how to write it instead. The format is documented in README.md."""

from __future__ import annotations

from typing import Any, NamedTuple

from ..core.setup_fields import SetupFields, is_integer
from .data import (
    ALTITUDES,
    APPROACH_TOKENS,
    BRAKE_VALUES,
    COFFEE_MAX,
    DICE_PER_SEAT,
    FACES,
    FINAL_ROUND,
    FLAP_VALUES,
    GEAR_VALUES,
    REROLL_ROUNDS,
    ROUNDS,
    SEAT_NAMES,
    SPIN_TILT,
)

KEYS = ("round", "altitude", "first_placer", "position", "tokens", "axis", "gear", "flaps", "brakes", "coffee",
        "rerolls", "reroll_rounds", "dice", "reroll_dice")
MAX_REROLLS_HELD = 4

RoundDice = tuple[tuple[int, ...], tuple[int, ...]]


class Setup(NamedTuple):
    """A validated setup, 0-based. ``dice[r]`` is (pilot, copilot) for round r or None;
    ``reroll_dice[n]`` gives the results of the n-th reroll of the game."""

    start_round: int
    first_placer: int | None
    position: int
    tokens: tuple[int, ...]
    tilt: int
    gear: int
    flaps: int
    brakes: int
    coffee: int
    rerolls: int
    reroll_rounds: tuple[int, ...]
    dice: tuple[RoundDice | None, ...]
    reroll_dice: tuple[RoundDice, ...]


DEFAULT = Setup(0, None, 0, APPROACH_TOKENS, 0, 0, 0, 0, 0, 0, REROLL_ROUNDS, (None,) * ROUNDS, ())


FIELDS = SetupFields("sky-team: option 'setup': {} (see referee/games/sky_team/README.md, 'setup').")


def _dice_list(where: str, value: Any, exact: int | None) -> tuple[int, ...]:
    if not isinstance(value, list) or any(not is_integer(v) or not 1 <= v <= FACES
                                          for v in value):
        FIELDS.fail(f"{where} must be a list of die values 1..{FACES}, got {value!r}")
    if exact is not None and len(value) != exact:
        FIELDS.fail(f"{where} must list exactly {exact} dice, got {len(value)}")
    if len(value) > DICE_PER_SEAT:
        FIELDS.fail(f"{where} lists {len(value)} dice; a seat has at most {DICE_PER_SEAT}")
    return tuple(value)


def _seat_dice(where: str, entry: Any, exact: int | None) -> RoundDice:
    if not isinstance(entry, dict) or set(entry) - set(SEAT_NAMES):
        FIELDS.fail(f"{where} must be an object like {{\"pilot\": [6, 4, 3, 1], \"copilot\": [5, 4, 1, 2]}}, "
                    f"got {entry!r}")
    if exact is not None and set(entry) != set(SEAT_NAMES):
        FIELDS.fail(f"{where} must give the dice of both 'pilot' and 'copilot'")
    pilot = _dice_list(f"{where}.pilot", entry.get("pilot", []), exact)
    copilot = _dice_list(f"{where}.copilot", entry.get("copilot", []), exact)
    return pilot, copilot


def parse_setup(raw: Any) -> Setup:
    """Validate the JSON ``setup`` value; None gives the published start with random dice."""
    if raw is None:
        return DEFAULT
    if not isinstance(raw, dict):
        FIELDS.fail(f"it must be a JSON object (or null), got {type(raw).__name__}")
    FIELDS.known_keys(raw, KEYS)
    start = FIELDS.integer(raw.get("round", 1), "'round'", 1, ROUNDS) - 1
    if "altitude" in raw:
        alt = raw["altitude"]
        if alt not in ALTITUDES or isinstance(alt, bool):
            FIELDS.fail(f"'altitude' must be one of {', '.join(map(str, ALTITUDES))} (0 = the landing round), "
                        f"got {alt!r}")
        if "round" in raw and ALTITUDES.index(alt) != start:
            FIELDS.fail(f"'round' {start + 1} and 'altitude' {alt} contradict each other (round {start + 1} is at "
                        f"{ALTITUDES[start]} ft); give only one of them")
        start = ALTITUDES.index(alt)
    first: int | None = None
    if "first_placer" in raw:
        fp = raw["first_placer"]
        if fp in SEAT_NAMES:
            first = SEAT_NAMES.index(fp)
        elif fp in (0, 1) and not isinstance(fp, bool):
            first = int(fp)
        else:
            FIELDS.fail(f"'first_placer' must be 'pilot' or 'copilot' (or seat 0 / 1), got {fp!r}")
    airport = len(APPROACH_TOKENS)
    position = FIELDS.integer(raw.get("position", 1), "'position'", 1, airport) - 1
    # Without 'tokens', the published ones from the current position on (those behind were cleared).
    tokens = (0,) * position + APPROACH_TOKENS[position:]
    if "tokens" in raw:
        t = raw["tokens"]
        if (not isinstance(t, list) or len(t) != airport
                or any(not is_integer(v) or not 0 <= v <= 9 for v in t)):
            FIELDS.fail(f"'tokens' must list the airplane tokens on each of the {airport} approach spaces "
                        f"(integers 0..9, space 1 first), got {t!r}")
        tokens = tuple(t)
    if any(tokens[:position]):
        FIELDS.fail(f"'tokens' puts airplanes behind the current position {position + 1}; the plane cannot have "
                    f"passed them without a collision: set spaces 1..{position} to 0 or move 'position' back")
    if start == FINAL_ROUND and position != airport - 1:
        FIELDS.fail(f"the landing round ('round' {ROUNDS}) starts only at the airport: set 'position' to {airport} "
                    "or start an earlier round (elsewhere the plane has crashed)")
    tilt = FIELDS.integer(raw.get("axis", 0), "'axis'", -(SPIN_TILT - 1), SPIN_TILT - 1)
    gear = 0
    if "gear" in raw:
        g = raw["gear"]
        if not isinstance(g, list) or len(g) != len(GEAR_VALUES) or any(not isinstance(v, bool) for v in g):
            FIELDS.fail(f"'gear' must list {len(GEAR_VALUES)} booleans (true = that landing gear is down), got {g!r}")
        gear = sum(1 << k for k, down in enumerate(g) if down)
    flaps = FIELDS.integer(raw.get("flaps", 0), "'flaps'", 0, len(FLAP_VALUES))
    brakes = FIELDS.integer(raw.get("brakes", 0), "'brakes'", 0, len(BRAKE_VALUES))
    coffee = FIELDS.integer(raw.get("coffee", 0), "'coffee'", 0, COFFEE_MAX)
    rerolls = FIELDS.integer(raw.get("rerolls", 0), "'rerolls'", 0, MAX_REROLLS_HELD)
    reroll_rounds = tuple(r for r in REROLL_ROUNDS if r >= start)
    if "reroll_rounds" in raw:
        rr = raw["reroll_rounds"]
        if (not isinstance(rr, list)
                or any(not is_integer(v) or not 1 <= v <= ROUNDS for v in rr)
                or len(set(rr)) != len(rr)):
            FIELDS.fail(f"'reroll_rounds' must list distinct rounds 1..{ROUNDS} whose altitude space still holds a "
                        f"Reroll token, got {rr!r}")
        reroll_rounds = tuple(sorted(v - 1 for v in rr if v - 1 >= start))
    dice: list[RoundDice | None] = [None] * ROUNDS
    if "dice" in raw:
        d = raw["dice"]
        if not isinstance(d, list):
            FIELDS.fail("'dice' must be a list with one {\"pilot\": [...], \"copilot\": [...]} object per round, "
                        "from the starting round on")
        if len(d) > ROUNDS - start:
            FIELDS.fail(f"'dice' gives {len(d)} rounds but only {ROUNDS - start} remain from round {start + 1}; "
                        "drop the extra entries")
        for i, entry in enumerate(d):
            dice[start + i] = _seat_dice(f"dice[{i}]", entry, DICE_PER_SEAT)
    reroll_dice: list[RoundDice] = []
    if "reroll_dice" in raw:
        rd = raw["reroll_dice"]
        if not isinstance(rd, list):
            FIELDS.fail("'reroll_dice' must be a list with one {\"pilot\": [...], \"copilot\": [...]} object per "
                        "Reroll token spent, in order")
        reroll_dice = [_seat_dice(f"reroll_dice[{i}]", entry, None) for i, entry in enumerate(rd)]
    return Setup(start, first, position, tokens, tilt, gear, flaps, brakes, coffee, rerolls, reroll_rounds,
                 tuple(dice), tuple(reroll_dice))
