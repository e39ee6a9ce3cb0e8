"""Skyjo Action game data: the cards, the action card types and the two grid layouts.

Cards are small integers so grids, decks and piles are plain lists of ints (cheap to copy
and to hash): a number card is its value (-2..12), a star is ``STAR`` and an action card
that has found its way into the main deck (single-deck variant, or a Meteor shower that put
a held action card under the main discard pile) is ``ACTION0 + type``. ``EMPTY`` marks a
grid position whose card was cleared by a Skyjo line.
"""

from __future__ import annotations

from dataclasses import dataclass

STAR = 13
ACTION0 = 20
EMPTY = -9

# Number/star deck (RULINGS.md): 3 x -2, 7 x -1, 11 x 0, 7 each of 1..12, 15 stars.
NUMBER_COUNTS: dict[int, int] = {-2: 3, -1: 7, 0: 11, **{v: 7 for v in range(1, 13)}}
STAR_COUNT = 15
COPIES_PER_ACTION = 3

# Action card types, in canonical order (also the order of every list of types).
SWAP_OTHER, SWAP_OWN, DRAW_THREE, LOOK, METEOR, DOUBLE_MOVE, DEFENSE, REACTIVATION, THIEF = range(9)
TYPE_NAMES = (
    "swap-other", "swap-own", "draw-three", "look", "meteor",
    "double-move", "defense", "reactivation", "thief",
)
TYPE_INDEX = {name: i for i, name in enumerate(TYPE_NAMES)}
STARTER_TYPES = (SWAP_OTHER, SWAP_OWN, DRAW_THREE, LOOK, METEOR)
# Option name of each extra action card type.
EXTRA_TYPE_OPTIONS = {"double_move": DOUBLE_MOVE, "defense": DEFENSE, "reactivation": REACTIVATION, "thief": THIEF}

ROW_SIZE = 4          # face-up action cards in the action row
LINE_ROW, LINE_COL = 1, 2   # lock values: which kind of Skyjo line a play area may clear


def card_value(card: int) -> int:
    """Points of a card on the table: stars count 0 (star lines are scored separately)."""
    return 0 if card == STAR else card


def card_text(card: int) -> str:
    """Notation of a card: ``-2``..``12``, ``*`` for a star, the type name of an action card."""
    if card == STAR:
        return "*"
    if card >= ACTION0:
        return TYPE_NAMES[card - ACTION0]
    return str(card)


def card_json(card: int) -> int | str | None:
    """A card as it appears in observations: number, ``"*"`` or an action card's name."""
    if card == EMPTY:
        return None
    if card == STAR:
        return "*"
    if card >= ACTION0:
        return TYPE_NAMES[card - ACTION0]
    return card


def number_deck(stars: bool) -> list[int]:
    """The Number/Star deck in a fixed order (shuffled by the engine)."""
    cards = [value for value, count in NUMBER_COUNTS.items() for _ in range(count)]
    if stars:
        cards += [STAR] * STAR_COUNT
    return cards


@dataclass(frozen=True)
class Line:
    """A row or column of a play area: ``code`` is 0..2 for rows, 10 + column for columns."""

    code: int
    kind: int            # LINE_ROW or LINE_COL
    mask: int            # bit p set for each position p of the line
    positions: tuple[int, ...]


def line_text(code: int) -> str:
    return f"row {code + 1}" if code < 10 else f"col {'ABCD'[code - 10]}"


def pos_text(code: int) -> str:
    """A position code (row * 4 + column, whatever the layout) as ``A1``..``D3``."""
    return "ABCD"[code % 4] + str(code // 4 + 1)


@dataclass(frozen=True)
class Layout:
    """A grid shape and the cards each player reveals at setup. Positions are indexed
    row-major within the layout (``idx``); the notation uses layout-independent codes
    (row * 4 + column) so ``B2`` is the same text in both layouts."""

    rows: int
    cols: int
    reveals: int         # cards each player turns face up at setup (1 or 2)

    @property
    def size(self) -> int:
        return self.rows * self.cols

    @property
    def codes(self) -> tuple[int, ...]:
        return tuple((i // self.cols) * 4 + i % self.cols for i in range(self.size))

    @property
    def lines(self) -> tuple[Line, ...]:
        out = []
        for c in range(self.cols):
            positions = tuple(r * self.cols + c for r in range(self.rows))
            out.append(Line(10 + c, LINE_COL, sum(1 << p for p in positions), positions))
        for r in range(self.rows):
            positions = tuple(r * self.cols + c for c in range(self.cols))
            out.append(Line(r, LINE_ROW, sum(1 << p for p in positions), positions))
        return tuple(out)


STANDARD = Layout(3, 4, reveals=2)
LARGE = Layout(3, 3, reveals=1)      # large-group variant: 3x3 grids, one card revealed at setup


def parse_pos(text: str) -> int:
    """The position code of ``A1``..``D3`` (any case), or -1."""
    t = text.strip().upper()
    if len(t) == 2 and t[0] in "ABCD" and t[1] in "123":
        return (int(t[1]) - 1) * 4 + "ABCD".index(t[0])
    return -1


# Observation form of every card code (EMPTY -> None), for table lookups on the hot path.
CARD_JSON: dict[int, int | str | None] = {c: card_json(c) for c in
                                          [EMPTY, STAR, *range(-2, 13), *range(ACTION0, ACTION0 + len(TYPE_NAMES))]}


# The positions whose bit is set, and the face-up flags, for every 12-bit mask.
POSITIONS_OF_MASK = tuple(tuple(p for p in range(12) if (mask >> p) & 1) for mask in range(1 << 12))
FACE_UP_OF_MASK = tuple(tuple((mask >> p) & 1 == 1 for p in range(12)) for mask in range(1 << 12))
