"""The formation geometry: lattice, wedge, display groups, anchors and legal placements.

The property tests compare the bit-mask implementation with the rules stated plainly
(brute force over translations) on formations built by random legal play.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.games.fly_away import geometry as g

Cell = tuple[int, int]


def brute_fits(cells: set[Cell]) -> bool:
    """Some translation of the wedge holds every cell (searched over a generous window)."""
    if not cells:
        return True
    r0, c0 = min(cells)   # some cell must sit on a wedge slot: rows 0-2, columns 0-4
    for ar in range(r0 - 2, r0 + 1):
        for ac in range(c0 - 4, c0 + 1):
            if all((r - ar, c - ac) in g.SLOT_INDEX for r, c in cells):
                return True
    return False


def brute_legal(formation: set[Cell], shape: g.Shape, origin: Cell) -> bool:
    new = {(origin[0] + dr, origin[1] + dc) for dr, dc in shape}
    if new & formation:
        return False                                        # never covering
    if formation and not any(g.adjacent(a, b) for a in new for b in formation):
        return False                                        # touching the formation
    return brute_fits(formation | new)                      # never breaking the wedge


def legal_origins(formation: set[Cell], shape_index: int) -> set[Cell]:
    """The module's answer for one shape."""
    if not formation:
        return set(g.FIRST_POSITIONS[shape_index])
    return set(g.positions(g.anchors_for(sorted(formation)))[shape_index])


# ----- fixed facts -------------------------------------------------------------------------

def test_wedge_rows_and_names() -> None:
    assert [sum(1 for r, _ in g.WEDGE if r == row) for row in range(3)] == [3, 4, 5]
    assert g.SLOT_NAMES == ("T1", "T2", "T3", "M1", "M2", "M3", "M4", "B1", "B2", "B3", "B4", "B5")


def test_card_i_touches_cards_i_and_i_plus_1_of_the_row_below() -> None:
    for r, c in g.WEDGE:
        below = {(r + 1, c), (r + 1, c + 1)}
        assert below <= set(g.neighbours((r, c)))
        assert {(r, c - 1), (r, c + 1)} <= set(g.neighbours((r, c)))
    # T1 touches T2, M1, M2 only inside the wedge; M2 (inner) touches six cards.
    names = lambda m: {g.SLOT_NAMES[s] for s in g.slots_of(m)}  # noqa: E731
    assert names(g.NEIGHBOUR_MASK[g.SLOT_BY_NAME["T1"]]) == {"T2", "M1", "M2"}
    assert names(g.NEIGHBOUR_MASK[g.SLOT_BY_NAME["M2"]]) == {"T1", "T2", "M1", "M3", "B2", "B3"}


def test_adjacency_is_symmetric_with_six_neighbours() -> None:
    for cell in [(0, 0), (3, -2), (-1, 4)]:
        around = g.neighbours(cell)
        assert len(set(around)) == 6
        assert all(g.adjacent(n, cell) and g.adjacent(cell, n) for n in around)
        assert not g.adjacent(cell, cell)


def test_display_groups_are_every_connected_set_of_one_to_three_slots() -> None:
    from itertools import combinations

    expected = {
        combo for n in (1, 2, 3) for combo in combinations(range(12), n)
        if g.is_connected(g.WEDGE[s] for s in combo)
    }
    assert {grp.slots for grp in g.GROUPS} == expected
    assert len(g.GROUPS) == len(expected) == 85
    # 1 monohex, 3 dominoes and the 11 fixed trihexes.
    assert len(g.SHAPES) == 15
    assert [grp.slots for grp in g.GROUPS] == sorted(grp.slots for grp in g.GROUPS)


def test_adjacency_across_rows_counts_for_groups() -> None:
    slots = tuple(g.SLOT_BY_NAME[n] for n in ("T1", "M2", "B3"))     # a diagonal line
    assert slots in g.GROUP_INDEX
    assert (g.SLOT_BY_NAME["T1"], g.SLOT_BY_NAME["T3"]) not in g.GROUP_INDEX


def test_an_empty_formation_takes_any_group_at_the_origin() -> None:
    for i in range(len(g.SHAPES)):
        assert legal_origins(set(), i) == {(0, 0)}


def test_a_row_of_four_breaks_the_wedge_only_when_on_top() -> None:
    row = {(0, 0), (0, 1), (0, 2)}
    anchors = g.anchors_for(sorted(row))
    assert {(a.row, a.col) for a in anchors} == {(0, 0), (-1, 0), (-1, -1), (-2, 0), (-2, -1), (-2, -2)}
    single = g.SHAPES.index(((0, 0),))
    spots = set(g.positions(anchors)[single])
    assert (0, 3) in spots and (0, -1) in spots        # the row may still be a middle or bottom row
    five = row | {(0, 3), (0, 4)}
    assert g.anchors_for(sorted(five)) == (g.Anchor(-2, 0, 0b111110000000),)
    assert not g.anchors_for(sorted(five | {(0, 5)}))  # six in a row: no wedge holds it


def test_four_rows_never_fit() -> None:
    column = [(0, 0), (1, 0), (2, 0)]
    assert g.anchors_for(column)
    assert not g.anchors_for(column + [(3, 0)])


def test_complete_formation_has_one_anchor_equal_to_the_wedge() -> None:
    moved = [(r + 5, c - 3) for r, c in g.WEDGE]
    anchors = g.anchors_for(moved)
    assert anchors == (g.Anchor(5, -3, g.FULL_MASK),)
    assert g.positions(anchors) == tuple(() for _ in g.SHAPES)


def test_slot_and_cell_conversions_are_inverse() -> None:
    anchor = g.Anchor(-1, 2, 0)
    for slot in range(12):
        assert g.slot_of(anchor, g.cell_of(anchor, slot)) == slot


# ----- properties over random legal play ----------------------------------------------------

@st.composite
def formations(draw: st.DrawFn) -> tuple[set[Cell], list[tuple[int, Cell]]]:
    """A formation grown by legal placements, and the placements used."""
    formation: set[Cell] = set()
    history: list[tuple[int, Cell]] = []
    steps = draw(st.integers(0, 8))
    for _ in range(steps):
        choices = [(i, cell) for i in range(len(g.SHAPES)) for cell in sorted(legal_origins(formation, i))]
        if not choices:
            break
        shape_index, origin = draw(st.sampled_from(choices))
        formation |= {(origin[0] + dr, origin[1] + dc) for dr, dc in g.SHAPES[shape_index]}
        history.append((shape_index, origin))
    return formation, history


@settings(max_examples=80, deadline=None)
@given(formations())
def test_legal_placements_match_the_rules_stated_plainly(data: tuple[set[Cell], list[tuple[int, Cell]]]) -> None:
    formation, _ = data
    rows = [r for r, _ in formation]
    cols = [c for _, c in formation]
    window = [(r, c) for r in range(min(rows, default=0) - 3, max(rows, default=0) + 3)
              for c in range(min(cols, default=0) - 5, max(cols, default=0) + 5)]
    for i, shape in enumerate(g.SHAPES):
        mine = legal_origins(formation, i)
        if not formation:
            continue
        plain = {cell for cell in window if brute_legal(formation, shape, cell)}
        assert mine == plain, (formation, shape)


def plain_fault(formation: set[Cell], shape: g.Shape, origin: Cell) -> str | None:
    """The first condition of brute_legal that fails, in the same order."""
    new = {(origin[0] + dr, origin[1] + dc) for dr, dc in shape}
    if new & formation:
        return "cover"
    if not any(g.adjacent(a, b) for a in new for b in formation):
        return "touch"
    return None if brute_fits(formation | new) else "wedge"


@settings(max_examples=60, deadline=None)
@given(formations())
def test_an_illegal_placement_names_the_one_condition_it_breaks(data: tuple[set[Cell], list[tuple[int, Cell]]]) -> None:
    """Turn overview: cover nothing, touch the formation, never break the wedge. The fault
    named is the first of them that fails, and there is none exactly for the legal cells."""
    formation, _ = data
    if not formation:
        return
    anchors = g.anchors_for(sorted(formation))
    rows = [r for r, _ in formation]
    cols = [c for _, c in formation]
    for i, shape in enumerate(g.SHAPES):
        for cell in ((r, c) for r in range(min(rows) - 3, max(rows) + 3) for c in range(min(cols) - 5, max(cols) + 5)):
            fault = g.placement_fault(formation, anchors, g.shape_at(i, cell))
            assert fault == plain_fault(formation, shape, cell), (formation, shape, cell)


@settings(max_examples=150, deadline=None)
@given(formations())
def test_legal_play_keeps_a_connected_formation_inside_some_wedge(
        data: tuple[set[Cell], list[tuple[int, Cell]]]) -> None:
    formation, history = data
    assert sum(len(g.SHAPES[i]) for i, _ in history) == len(formation)   # nothing covered
    assert len(formation) <= 12
    assert g.is_connected(formation)
    assert brute_fits(formation)
    if formation:
        anchors = g.anchors_for(sorted(formation))
        assert anchors and all(bin(a.mask).count("1") == len(formation) for a in anchors)


@settings(max_examples=100, deadline=None)
@given(formations())
def test_every_formation_can_be_completed_one_card_at_a_time(
        data: tuple[set[Cell], list[tuple[int, Cell]]]) -> None:
    formation, _ = data
    if not formation:
        formation = {(0, 0)}
    single = g.SHAPES.index(((0, 0),))
    while len(formation) < 12:
        spots = legal_origins(formation, single)
        assert spots, f"stuck at {len(formation)} cards"
        formation.add(min(spots))
    anchors = g.anchors_for(sorted(formation))
    assert len(anchors) == 1 and anchors[0].mask == g.FULL_MASK


@settings(max_examples=100, deadline=None)
@given(formations(), st.integers(-5, 5), st.integers(-5, 5))
def test_placements_do_not_depend_on_where_the_formation_is(
        data: tuple[set[Cell], list[tuple[int, Cell]]], dr: int, dc: int) -> None:
    formation, _ = data
    if not formation:
        return
    moved = {(r + dr, c + dc) for r, c in formation}
    for i in range(len(g.SHAPES)):
        assert legal_origins(moved, i) == {(r + dr, c + dc) for r, c in legal_origins(formation, i)}


@settings(max_examples=100, deadline=None)
@given(formations(), st.data())
def test_narrowing_anchors_equals_recomputing_them(data: tuple[set[Cell], list[tuple[int, Cell]]],
                                                   more: st.DataObject) -> None:
    formation, _ = data
    if not formation:
        return
    i = more.draw(st.integers(0, len(g.SHAPES) - 1))
    spots = sorted(legal_origins(formation, i))
    if not spots:
        return
    origin = more.draw(st.sampled_from(spots))
    new = [(origin[0] + dr, origin[1] + dc) for dr, dc in g.SHAPES[i]]
    narrowed = g.narrow(g.anchors_for(sorted(formation)), new)
    assert set(narrowed) == set(g.anchors_for(sorted(formation | set(new))))


@settings(max_examples=200, deadline=None)
@given(st.sets(st.integers(0, 11), max_size=12))
def test_available_groups_are_those_fully_in_the_display(filled: set[int]) -> None:
    mask = g.mask_of(filled)
    got = [g.GROUPS[i].slots for i in g.available_groups(mask)]
    assert got == [grp.slots for grp in g.GROUPS if set(grp.slots) <= filled]
