"""Sky Team actions: immutable values, their notation, and the precomputed action tables.

Notation (one action, no spaces around the symbols)::

    <die>[+k|-k]><space>     place a die of that value on a space; +k / -k spends k coffee
                             tokens to raise / lower it (``4>axis``, ``1+1>radio``, ``6-2>engines``)
    reroll                   spend a Reroll token before placing
    roll none | roll 1,3,3   after a Reroll token is spent: which unplaced dice to reroll

Dice are named by value because two dice of one value are interchangeable. Every action
object the engine can offer is built once at import time, so producing legal actions on
the hot path is a table lookup, not object construction.
"""

from __future__ import annotations

import re
from functools import cache
from itertools import combinations
from typing import NamedTuple

from ..core.errors import MalformedAction
from .data import ALL_SPACE_NAMES, COFFEE_MAX, CONC, DICE_PER_SEAT, FACES, SEAT_SPACES, Space


class Place(NamedTuple):
    """Place the die showing ``value`` on ``space``, adjusted by ``coffee`` (signed: the
    number of coffee tokens spent and the direction)."""

    value: int
    coffee: int
    space: str

    def __str__(self) -> str:
        if self.coffee:
            return f"{self.value}{self.coffee:+d}>{self.space}"
        return f"{self.value}>{self.space}"

    @property
    def placed_value(self) -> int:
        return self.value + self.coffee


class SpendReroll(NamedTuple):
    """Spend one Reroll token (a choice of the seat to move, before its placement)."""

    def __str__(self) -> str:
        return "reroll"


class Reroll(NamedTuple):
    """After a Reroll token is spent: reroll these unplaced dice (values, ascending)."""

    dice: tuple[int, ...]

    def __str__(self) -> str:
        return "roll " + (",".join(map(str, self.dice)) if self.dice else "none")


SPEND_REROLL = SpendReroll()
Action = Place | SpendReroll | Reroll


def _adjustments(space: Space, value: int, coffee: int) -> tuple[int, ...]:
    """The coffee adjustments offered for ``value`` on ``space`` with ``coffee`` held.

    Where the value itself matters (axis, engines, radio) every affordable adjustment
    within 1..6 is offered. On a switch space only the number constraint matters, so the
    die is offered as rolled when it fits, else with the cheapest fitting adjustment.
    Concentration takes any value: never an adjustment (RULINGS).
    """
    if space.kind == CONC:
        return (0,)
    if space.values is None:
        return tuple(range(-min(coffee, value - 1), min(coffee, FACES - value) + 1))
    if value in space.values:
        return (0,)
    cheapest = min((v - value for v in space.values), key=abs)
    return (cheapest,) if abs(cheapest) <= coffee else ()


def _space_table(space: Space) -> tuple[tuple[tuple[Place, ...], ...], ...]:
    """table[value][coffee held] -> the Place actions offered; index 0 unused."""
    rows: list[tuple[tuple[Place, ...], ...]] = [()]
    for v in range(1, FACES + 1):
        rows.append(tuple(tuple(Place(v, d, space.name) for d in _adjustments(space, v, c))
                          for c in range(COFFEE_MAX + 1)))
    return tuple(rows)


# PLACE_TABLE[seat][space index][value][coffee held] -> tuple of Place actions.
PLACE_TABLE = tuple(tuple(_space_table(sp) for sp in spaces) for spaces in SEAT_SPACES)


@cache
def reroll_choices(dice: tuple[int, ...]) -> tuple[Reroll, ...]:
    """Every distinct sub-multiset of the unplaced dice (sorted), fewest dice first."""
    seen: dict[tuple[int, ...], None] = {}
    for k in range(len(dice) + 1):
        for combo in combinations(dice, k):
            seen.setdefault(combo, None)
    return tuple(Reroll(c) for c in seen)


_PLACE_RE = re.compile(r"^([1-6])(?:([+-])([0-9]))?>([a-z0-9]+)$")
_ROLL_RE = re.compile(r"^roll (none|[1-6](?:,[1-6])*)$")

GRAMMAR = ("expected '<die>><space>' like '4>axis', '<die>+k><space>' / '<die>-k><space>' to spend "
           "k coffee (e.g. '1+1>radio'), 'reroll', or 'roll none' / 'roll 1,3' (spaces: "
           + ", ".join(ALL_SPACE_NAMES) + ")")


def parse(text: str) -> Action:
    """The action written as ``text`` (not yet checked for legality); MalformedAction (an
    IllegalAction) if the text is not Sky Team notation at all, saying what is expected."""
    text = text.strip()
    if text == "reroll":
        return SPEND_REROLL
    m = _ROLL_RE.match(text)
    if m:
        body = m.group(1)
        dice = () if body == "none" else tuple(sorted(int(x) for x in body.split(",")))
        if len(dice) > DICE_PER_SEAT:
            raise MalformedAction(f"sky-team: {text!r} rerolls {len(dice)} dice; a seat has at most {DICE_PER_SEAT}.")
        return Reroll(dice)
    m = _PLACE_RE.match(text)
    if m:
        value, sign, amount, space = m.groups()
        if space not in ALL_SPACE_NAMES:
            raise MalformedAction(f"sky-team: {text!r} names no space {space!r}; spaces: "
                                + ", ".join(ALL_SPACE_NAMES) + ".")
        coffee = 0 if sign is None else (int(amount) if sign == "+" else -int(amount))
        if sign is not None and coffee == 0:
            raise MalformedAction(f"sky-team: {text!r}: write no adjustment rather than +0/-0.")
        return Place(int(value), coffee, space)
    raise MalformedAction(f"sky-team: cannot read {text!r}: {GRAMMAR}.")
