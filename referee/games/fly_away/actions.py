"""Fly Away actions and their text notation (grammar and examples in README.md).

    keep outside-3 center-1 top-5     keep these scoring cards (setup)
    take M2+M3+B3 @-1,0               take display cards M2, M3, B3; M2's card goes to
                                      cell (-1, 0) of your formation, the others keep
                                      their places relative to it
    swap M2 B5                        the swap card at M2 trades places with the card at B5
    flip T1                           turn the flip card at T1 face down
    done                              use no more abilities of this kind

Actions are immutable, hashable and compare by value; ``str()`` is the canonical
notation. ``parse`` checks only the syntax (and what no position can make legal, such as
slots that do not touch); whether an action is legal now is the state's business.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..core.errors import IllegalAction
from .data import SCORING, SCORING_INDEX, TYPE_OF
from .geometry import GROUPS, SLOT_BY_NAME, SLOT_NAMES

GAME = "fly-away"


@dataclass(frozen=True, slots=True)
class Keep:
    """Keep these scoring cards (indices into data.SCORING, in type order)."""

    cards: tuple[int, ...]

    def __str__(self) -> str:
        return "keep " + " ".join(SCORING[c].id for c in self.cards)


@dataclass(frozen=True, slots=True)
class Take:
    """Take the display group ``group`` (index into geometry.GROUPS) and put the card of
    its first slot at personal cell (row, col)."""

    group: int
    row: int
    col: int

    def __str__(self) -> str:
        return f"take {GROUP_TEXT[self.group]} @{self.row},{self.col}"


@dataclass(frozen=True, slots=True)
class Swap:
    """The unused swap card at wedge slot ``source`` trades places with the card at ``target``."""

    source: int
    target: int

    def __str__(self) -> str:
        return f"swap {SLOT_NAMES[self.source]} {SLOT_NAMES[self.target]}"


@dataclass(frozen=True, slots=True)
class Flip:
    """Turn the flip card at wedge slot ``slot`` face down."""

    slot: int

    def __str__(self) -> str:
        return f"flip {SLOT_NAMES[self.slot]}"


@dataclass(frozen=True, slots=True)
class Done:
    """Stop using abilities of the current kind (swaps, then flips)."""

    def __str__(self) -> str:
        return "done"


Action = Keep | Take | Swap | Flip | Done
GROUP_TEXT: tuple[str, ...] = tuple("+".join(SLOT_NAMES[s] for s in g.slots) for g in GROUPS)
GROUP_BY_TEXT: dict[str, int] = {text: g for g, text in enumerate(GROUP_TEXT)}
DONE = Done()

class _Takes(dict[tuple[int, int], Take]):
    """The Take actions of one display group by target cell, made on first use and shared:
    legal_actions returns hundreds of them per turn."""

    __slots__ = ("group",)

    def __init__(self, group: int) -> None:
        super().__init__()
        self.group = group

    def __missing__(self, cell: tuple[int, int]) -> Take:
        action = self[cell] = Take(self.group, cell[0], cell[1])
        return action


_TAKES = [_Takes(g) for g in range(len(GROUPS))]


def takes(group: int, cells: tuple[tuple[int, int], ...]) -> map[Take]:
    """The Take actions of ``group`` to each of ``cells``, in that order."""
    return map(_TAKES[group].__getitem__, cells)


def keep(cards: tuple[int, ...]) -> Keep:
    return Keep(tuple(sorted(cards, key=lambda c: (TYPE_OF[c], c))))


# ----- parsing ------------------------------------------------------------------------

_TAKE = re.compile(r"take\s+([A-Za-z0-9+\s]+?)\s*@\s*([+-]?\d+)\s*,\s*([+-]?\d+)", re.IGNORECASE)


def _fail(text: str, why: str) -> IllegalAction:
    return IllegalAction(f"{GAME}: cannot read {text!r}: {why}")


def _slot(text: str, name: str) -> int:
    slot = SLOT_BY_NAME.get(name.upper())
    if slot is None:
        raise _fail(text, f"{name!r} is not a slot; slots are T1-T3, M1-M4 and B1-B5 (top, middle, bottom row).")
    return slot


def parse(text: str) -> Action:
    """The action written in ``text`` (syntax only; see the module docstring)."""
    clean = " ".join(text.strip().split())
    if not clean:
        raise _fail(text, "empty text; write e.g. 'take M2+M3 @0,1', 'keep outside-1 center-2 top-3', "
                          "'swap M2 B5', 'flip T1' or 'done'.")
    word, _, rest = clean.partition(" ")
    word = word.lower()
    if word == "done":
        if rest:
            raise _fail(text, "'done' takes nothing after it.")
        return DONE
    if word == "take":
        return _parse_take(text, clean)
    if word == "keep":
        return _parse_keep(text, rest)
    if word == "swap":
        names = rest.split()
        if len(names) != 2:
            raise _fail(text, "write 'swap <slot of your swap card> <slot of the other card>', e.g. 'swap M2 B5'.")
        source, target = (_slot(text, n) for n in names)
        if source == target:
            raise _fail(text, "a card cannot swap with itself; name two different slots.")
        return Swap(source, target)
    if word == "flip":
        names = rest.split()
        if len(names) != 1:
            raise _fail(text, "write 'flip <slot>', e.g. 'flip T1'.")
        return Flip(_slot(text, names[0]))
    raise _fail(text, f"unknown word {word!r}; actions start with take, keep, swap, flip or done.")


def _parse_take(text: str, clean: str) -> Take:
    m = _TAKE.fullmatch(clean)
    if m is None:
        raise _fail(text, "write 'take <slots joined by +> @<row>,<col>', e.g. 'take M2+M3 @0,1'.")
    written = m.group(1).replace(" ", "").upper()
    group = GROUP_BY_TEXT.get(written)
    if group is not None:
        return Take(group, int(m.group(2)), int(m.group(3)))
    names = written.split("+")
    if not 1 <= len(names) <= 3 or any(not n for n in names):
        raise _fail(text, "take 1 to 3 display slots joined by '+', e.g. 'take T1', 'take M2+M3+B3'.")
    slots = tuple(_slot(text, n) for n in names)
    if len(set(slots)) != len(slots):
        raise _fail(text, "a slot is named twice.")
    if list(slots) != sorted(slots):
        ordered = "+".join(SLOT_NAMES[s] for s in sorted(slots))
        raise _fail(text, f"list the slots in display order (T1..T3, M1..M4, B1..B5): {ordered}; "
                          "the cell after '@' is where the first of them goes.")
    raise _fail(text, "the cards taken must be adjacent to each other (a connected group).")


def _parse_keep(text: str, rest: str) -> Keep:
    ids = rest.split()
    if not ids:
        raise _fail(text, "write 'keep' and the ids of the scoring cards to keep, "
                          "e.g. 'keep outside-1 center-2 top-3'.")
    cards = []
    for card_id in ids:
        index = SCORING_INDEX.get(card_id.lower())
        if index is None:
            raise _fail(text, f"{card_id!r} is not a scoring card id (outside-1 .. bottom-5).")
        cards.append(index)
    if len({TYPE_OF[c] for c in cards}) != len(cards):
        raise _fail(text, "each scoring card kept must be of a different type.")
    return keep(tuple(cards))
