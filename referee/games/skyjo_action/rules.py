"""Skyjo Action rules that need no game state: one function per rule of the rulebook and
RULINGS.md, so each can be read against its text and tested on its own."""

from __future__ import annotations

from collections.abc import Sequence

from .data import EMPTY, LINE_COL, STAR, Line, card_value


def skyjo_line(row: Sequence[int], up: int, line: Line) -> bool:
    """"Skyjo!": a full line of face-up identical cards. Stars are wild, but a line of
    stars only is a star line (scored, never cleared) and needs at least one number."""
    if up & line.mask != line.mask:      # cleared positions are never face up
        return False
    value = None
    for p in line.positions:
        card = row[p]
        if card == STAR:
            continue
        if value is None:
            value = card
        elif card != value:
            return False
    return value is not None


def clearable_lines(row: Sequence[int], up: int, lines: Sequence[Line], changed: int, lock: int) -> list[Line]:
    """Lines that formed where ``changed`` touches them, within the area's rows-or-columns
    lock (0 = not locked yet); columns first, then rows."""
    return [line for line in lines
            if line.mask & changed and (not lock or line.kind == lock) and skyjo_line(row, up, line)]


def star_line(row: Sequence[int], line: Line) -> bool:
    """A full star line: every position of the line holds a star (none cleared)."""
    return all(row[p] == STAR for p in line.positions)


def area_points(row: Sequence[int], lines: Sequence[Line], star_col: int, star_row: int) -> int:
    """Points of a play area: card values (a lone star is 0) plus each full star line's
    bonus (a column and a row that share stars both score)."""
    total = sum(card_value(c) for c in row if c != EMPTY)
    for line in lines:
        if star_line(row, line):
            total += star_col if line.kind == LINE_COL else star_row
    return total


def all_face_up(row: Sequence[int], up: int) -> bool:
    """Round end trigger: every remaining card of the area is face up."""
    return all(c == EMPTY or (up >> p) & 1 for p, c in enumerate(row))


def opening_candidates(revealed: Sequence[Sequence[int]]) -> list[int]:
    """First round: highest sum of the revealed cards (a star counts 0); ties go to the
    highest single revealed card; the seats still tied are returned for a seeded draw."""
    sums = [sum(card_value(c) for c in cards) for cards in revealed]
    best = max(sums)
    tied = [s for s, total in enumerate(sums) if total == best]
    if len(tied) > 1:
        highs = {s: max((card_value(c) for c in revealed[s]), default=-99) for s in tied}
        top = max(highs.values())
        tied = [s for s in tied if highs[s] == top]
    return tied


def doubled_scores(scores: Sequence[int], ender: int) -> tuple[list[int], bool]:
    """The round ender doubles a positive round score unless it is strictly the lowest."""
    out = list(scores)
    mine = out[ender]
    strictly_lowest = all(mine < other for s, other in enumerate(out) if s != ender)
    if mine > 0 and not strictly_lowest:
        out[ender] = mine * 2
        return out, True
    return out, False


def game_over(totals: Sequence[int], end_score: int) -> bool:
    """The game ends when someone reaches or exceeds the end score at the end of a round."""
    return any(t >= end_score for t in totals)
