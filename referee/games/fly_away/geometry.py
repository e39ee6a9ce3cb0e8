"""Formation geometry: the 3/4/5 wedge on a brick lattice, taken groups and placements.

Cards sit on a lattice of rows offset like bricks. A cell is ``(row, col)``; rows grow
downwards and card ``col`` of a row touches cards ``col`` and ``col + 1`` of the row below,
so the six neighbours of ``(r, c)`` are ``(r, c +- 1)``, ``(r - 1, c - 1)``, ``(r - 1, c)``,
``(r + 1, c)`` and ``(r + 1, c + 1)``. The wedge is ``{(r, c) : 0 <= r <= 2, 0 <= c <= r + 2}``
(3, 4 and 5 cards); the display is the wedge itself and a finished formation is the wedge
moved by some translation.

A personal formation is not tied to the table until its cards force it: what is known
about it is the set of *anchors*, the translations ``a`` for which every card lies in
``wedge + a``. A placement is legal when some anchor still holds afterwards, which is
exactly "the formation must still fit some placement of the wedge". Within one anchor the
cards are a 12-bit mask of wedge slots, so the legality tests are bit operations.

Everything here is pure and immutable, shared freely between clones.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from typing import NamedTuple

Cell = tuple[int, int]

ROW_LENGTHS = (3, 4, 5)
ROW_LETTERS = "TMB"

# Wedge slots in canonical order T1..T3, M1..M4, B1..B5 (row-major).
WEDGE: tuple[Cell, ...] = tuple((r, c) for r, n in enumerate(ROW_LENGTHS) for c in range(n))
SLOT_COUNT = len(WEDGE)
FULL_MASK = (1 << SLOT_COUNT) - 1
SLOT_INDEX: dict[Cell, int] = {cell: i for i, cell in enumerate(WEDGE)}
SLOT_NAMES: tuple[str, ...] = tuple(f"{ROW_LETTERS[r]}{c + 1}" for r, c in WEDGE)
SLOT_BY_NAME: dict[str, int] = {name: i for i, name in enumerate(SLOT_NAMES)}

NEIGHBOUR_STEPS: tuple[Cell, ...] = ((0, -1), (0, 1), (-1, -1), (-1, 0), (1, 0), (1, 1))


def neighbours(cell: Cell) -> tuple[Cell, ...]:
    r, c = cell
    return tuple((r + dr, c + dc) for dr, dc in NEIGHBOUR_STEPS)


def adjacent(a: Cell, b: Cell) -> bool:
    return (b[0] - a[0], b[1] - a[1]) in NEIGHBOUR_STEPS


def is_connected(cells: Iterable[Cell]) -> bool:
    """True for an empty set too (nothing is disconnected)."""
    todo = set(cells)
    if not todo:
        return True
    stack = [todo.pop()]
    while stack:
        for n in neighbours(stack.pop()):
            if n in todo:
                todo.remove(n)
                stack.append(n)
    return not todo


def mask_of(slots: Iterable[int]) -> int:
    m = 0
    for s in slots:
        m |= 1 << s
    return m


def slots_of(mask: int) -> tuple[int, ...]:
    return tuple(i for i in range(SLOT_COUNT) if mask >> i & 1)


# Wedge slots touching each slot, as masks.
NEIGHBOUR_MASK: tuple[int, ...] = tuple(
    mask_of(SLOT_INDEX[n] for n in neighbours(cell) if n in SLOT_INDEX) for cell in WEDGE
)


def touching(mask: int) -> int:
    """Slots adjacent to some slot of ``mask`` (the mask itself may be included)."""
    out = 0
    for i in range(SLOT_COUNT):
        if mask >> i & 1:
            out |= NEIGHBOUR_MASK[i]
    return out


# ----- shapes: a taken group up to translation ------------------------------------------

Shape = tuple[Cell, ...]


def normalise(cells: Iterable[Cell]) -> tuple[Cell, Shape]:
    """The group's first cell (row-major smallest) and its shape: offsets from that cell."""
    ordered = sorted(cells)
    r0, c0 = ordered[0]
    return (r0, c0), tuple((r - r0, c - c0) for r, c in ordered)


class Group(NamedTuple):
    """A set of 1-3 connected display slots that can be taken together."""

    slots: tuple[int, ...]   # display slots, ascending (the first is the shape's origin)
    mask: int
    shape: int               # index into SHAPES


def _enumerate_groups() -> tuple[tuple[Group, ...], tuple[Shape, ...]]:
    found: set[tuple[int, ...]] = set()
    frontier: list[tuple[int, ...]] = [(i,) for i in range(SLOT_COUNT)]
    found.update(frontier)
    for _ in range(2):
        grown = []
        for group in frontier:
            for s in group:
                for n in slots_of(NEIGHBOUR_MASK[s]):
                    if n not in group:
                        bigger = tuple(sorted(group + (n,)))
                        if bigger not in found:
                            found.add(bigger)
                            grown.append(bigger)
        frontier = grown
    shapes: list[Shape] = []
    groups = []
    for slots in sorted(found):
        _, shape = normalise(WEDGE[s] for s in slots)
        if shape not in shapes:
            shapes.append(shape)
        groups.append(Group(slots, mask_of(slots), shapes.index(shape)))
    return tuple(groups), tuple(shapes)


GROUPS, SHAPES = _enumerate_groups()
GROUP_INDEX: dict[tuple[int, ...], int] = {g.slots: i for i, g in enumerate(GROUPS)}


def _placements(shape: Shape) -> tuple[tuple[int, Cell], ...]:
    """Every translation of ``shape`` inside the wedge: (slot mask, wedge cell of its origin)."""
    out = []
    for r0, c0 in WEDGE:
        cells = [(r0 + dr, c0 + dc) for dr, dc in shape]
        if all(cell in SLOT_INDEX for cell in cells):
            out.append((mask_of(SLOT_INDEX[cell] for cell in cells), (r0, c0)))
    return tuple(out)


PLACEMENTS: tuple[tuple[tuple[int, Cell], ...], ...] = tuple(_placements(s) for s in SHAPES)

_available_cache: dict[int, tuple[int, ...]] = {}


def available_groups(display_mask: int) -> tuple[int, ...]:
    """Indices of the groups whose every slot holds a card, in canonical order."""
    hit = _available_cache.get(display_mask)
    if hit is None:
        hit = tuple(i for i, g in enumerate(GROUPS) if g.mask & display_mask == g.mask)
        _available_cache[display_mask] = hit
    return hit


# ----- anchors: where a personal formation may still lie ---------------------------------


class Anchor(NamedTuple):
    """The formation fits ``wedge + (row, col)``; ``mask`` marks the wedge slots it fills."""

    row: int
    col: int
    mask: int


Anchors = tuple[Anchor, ...]


def anchors_for(cells: Sequence[Cell]) -> Anchors:
    """Every wedge placement holding all ``cells``; () if none does. Needs at least one cell."""
    r0, c0 = cells[0]
    out = []
    for wr, wc in WEDGE:
        ar, ac = r0 - wr, c0 - wc
        m = 0
        for r, c in cells:
            i = SLOT_INDEX.get((r - ar, c - ac))
            if i is None:
                break
            m |= 1 << i
        else:
            out.append(Anchor(ar, ac, m))
    return tuple(sorted(out))


def narrow(anchors: Anchors, cells: Sequence[Cell]) -> Anchors:
    """The anchors that still hold once ``cells`` are added."""
    out = []
    for ar, ac, m in anchors:
        for r, c in cells:
            i = SLOT_INDEX.get((r - ar, c - ac))
            if i is None:
                break
            m |= 1 << i
        else:
            out.append(Anchor(ar, ac, m))
    return tuple(out)


ORIGIN: Cell = (0, 0)
# Where each shape may go into an empty formation: its origin at (0, 0), by convention.
FIRST_POSITIONS: tuple[tuple[Cell, ...], ...] = tuple((ORIGIN,) for _ in SHAPES)


_positions_cache: dict[Anchors, tuple[tuple[Cell, ...], ...]] = {}
_POSITIONS_CACHE_SIZE = 20_000


def positions(anchors: Anchors) -> tuple[tuple[Cell, ...], ...]:
    """For each shape, the personal cells where its origin may go (sorted): the new cards
    cover nothing, touch the formation and keep some anchor. ``anchors`` must not be
    empty (use FIRST_POSITIONS for an empty formation). Formations recur (every first
    turn gives the same few), so answers are memoised, in a bounded table."""
    hit = _positions_cache.get(anchors)
    if hit is None:
        if len(_positions_cache) >= _POSITIONS_CACHE_SIZE:
            _positions_cache.clear()
        hit = _positions_cache[anchors] = _positions(anchors)
    return hit


def _positions(anchors: Anchors) -> tuple[tuple[Cell, ...], ...]:
    found: list[set[Cell]] = [set() for _ in SHAPES]
    for ar, ac, occ in anchors:
        near = touching(occ) & ~occ
        for spots, options in zip(found, PLACEMENTS):
            for m, (r, c) in options:
                if not m & occ and m & near:
                    spots.add((r + ar, c + ac))
    return tuple(tuple(sorted(s)) for s in found)


def placement_fault(formation: Collection[Cell], anchors: Anchors | None, new: Sequence[Cell]) -> str | None:
    """The first placement condition that ``new`` cells break, in the rulebook's order:
    ``"cover"`` (a card is already there), ``"touch"`` (none touches the formation),
    ``"wedge"`` (the formation would fit no placement of the wedge), or for an empty
    formation ``"origin"`` (its first cards go at ``(0, 0)`` by convention); None if legal.
    Agrees with ``positions``, which keeps exactly the cells with no fault."""
    if anchors is None:
        return None if new[0] == ORIGIN else "origin"
    if any(cell in formation for cell in new):
        return "cover"
    if not any(adjacent(cell, mine) for cell in new for mine in formation):
        return "touch"
    return None if narrow(anchors, new) else "wedge"


def shape_at(shape: int, origin: Cell) -> tuple[Cell, ...]:
    """The cells of shape ``shape`` with its origin (first slot) at ``origin``."""
    r0, c0 = origin
    return tuple((r0 + dr, c0 + dc) for dr, dc in SHAPES[shape])


def slot_of(anchor: Anchor, cell: Cell) -> int:
    """The wedge slot of a personal cell under an anchor (the cell must lie in it)."""
    return SLOT_INDEX[(cell[0] - anchor.row, cell[1] - anchor.col)]


def cell_of(anchor: Anchor, slot: int) -> Cell:
    r, c = WEDGE[slot]
    return (r + anchor.row, c + anchor.col)
