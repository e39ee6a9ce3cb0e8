"""Fly Away: the display and every seat's formation, drawn on the brick lattice.

The display is the wedge itself (3, 4 and 5 cards); each formation is drawn in the wedge
where its cards place it (for a formation not yet tied to one placement, the first one
its anchors allow, marked as floating). Birds are coloured by species with their ability
(⇄ swap, ↻ flip, ×2 double); a flipped bird is a card back. Scoring cards the viewer may
see are drawn with their points per species; the others are backs, one per kept card.
"""

from __future__ import annotations

from typing import Any

from referee.games.fly_away.data import SPECIES

from .svg import (
    HIGHLIGHT,
    INK,
    MARGIN,
    MUTED,
    PANEL,
    WIDTH,
    Canvas,
    card_back,
    empty_slot,
    fit,
    heading,
    label,
    name_and_facts,
    whose,
)

WEDGE_ROWS = (3, 4, 5)
SLOT_NAMES = tuple(f"{row}{i + 1}" for row, count in zip("TMB", WEDGE_ROWS) for i in range(count))
SLOT_CELLS = tuple((r, c) for r, count in enumerate(WEDGE_ROWS) for c in range(count))

SPECIES_COLOURS: dict[str, str] = {
    "swan": "#eceff1", "flamingo": "#f48fb1", "goose": "#bcaaa4", "crane": "#90caf9", "pelican": "#ffd54f",
}
SPECIES_SHORT = {"flamingo": "flam.", "pelican": "pelic."}  # for the small formation cards
ABILITY_MARKS = {"swap": "⇄", "flip": "↻", "double": "×2"}
AREA_COLOURS = {"outside": "#7e57c2", "center": "#26a69a", "top": "#42a5f5", "bottom": "#8d6e63"}
FORMATIONS_PER_ROW = 3
COLUMN_W = (WIDTH - 2 * MARGIN) // FORMATIONS_PER_ROW
SCORE_W, SCORE_H = 104, 58


def _cell_xy(x0: float, y0: float, row: int, col: int, w: float, h: float) -> tuple[float, float]:
    """The brick lattice: row r is shifted half a card left of row r-1 (its card c touches
    cards c and c+1 below), so the 3-4-5 wedge is centred on its widest row."""
    return x0 + (col - row / 2 + 1) * w, y0 + row * h


def draw_bird(canvas: Canvas, x: float, y: float, w: float, h: float, card: dict[str, Any], *,
              flipped: bool = False, used: bool = False, **data: Any) -> None:
    if flipped:
        card_back(canvas, x, y, w, h, data_bird=card.get("id"), **data)
        return
    species = card.get("species", "")
    with canvas.group(class_="card face bird", data_bird=card.get("id"), data_species=species, **data):
        canvas.rect(x, y, w, h, rx=3, fill=SPECIES_COLOURS.get(species, PANEL), stroke=INK, stroke_width=1)
        shown = SPECIES_SHORT.get(species, species) if w < 40 else species
        canvas.text(x + w / 2, y + h / 2 + (0 if card.get("ability") else 4), shown,
                    size=9 if w < 40 else 10, text_anchor="middle")
        mark = ABILITY_MARKS.get(card.get("ability") or "")
        if mark:
            canvas.text(x + w / 2, y + h - 4, mark + (" ✓" if used else ""), size=10, font_weight="bold",
                        fill=MUTED if used else INK, text_anchor="middle")


def _display(canvas: Canvas, y: float, view: dict[str, Any]) -> float:
    w, h = 48, 46
    label(canvas, MARGIN, y + 10, f"display · draw pile {view['deck_size']} · penalty pile {view['penalty_pile_size']}")
    for name, (r, c), card in zip(SLOT_NAMES, SLOT_CELLS, view["display"]):
        x, cy = _cell_xy(MARGIN, y + 16, r, c, w, h)
        if card is None:
            empty_slot(canvas, x + 1, cy + 1, w - 2, h - 2, data_slot=name)
        else:
            draw_bird(canvas, x + 1, cy + 1, w - 2, h - 2, card, data_slot=name)
        canvas.text(x + 4, cy + 11, name, size=8, fill=MUTED)
    return y + 16 + 3 * h


def draw_scoring(canvas: Canvas, x: float, y: float, card: dict[str, Any], **data: Any) -> None:
    """A scoring card: its area, the points per species and the bonus for a missing species."""
    colour = AREA_COLOURS.get(card.get("area", ""), MUTED)
    with canvas.group(class_="card face scoring", data_scoring=card.get("id"), **data):
        canvas.rect(x, y, SCORE_W, SCORE_H, rx=4, fill="#ffffff", stroke=colour, stroke_width=2)
        canvas.text(x + 4, y + 12, card.get("id", ""), size=10, font_weight="bold", fill=colour)
        for i, species in enumerate(SPECIES):
            points = (card.get("points") or {}).get(species)
            canvas.rect(x + 4 + i * 19, y + 18, 17, 16, rx=2, fill=SPECIES_COLOURS.get(species, PANEL))
            canvas.text(x + 12.5 + i * 19, y + 30, "" if points is None else f"{points:+d}", size=8,
                        text_anchor="middle")
        none = card.get("no_card") or {}
        if none:
            label(canvas, x + 4, y + 48, fit(f"no {none.get('species')}: +{none.get('points')}", 20), size=9)


def _scoring_cards(canvas: Canvas, x: float, y: float, view: dict[str, Any]) -> None:
    """The viewer's own scoring cards: those dealt (while choosing) or those kept."""
    seat = view.get("seat")
    mine = view["seats"][seat]["kept"] if seat is not None else None
    cards = mine if mine else (view.get("dealt") or [])
    if not cards:
        return
    label(canvas, x, y + 10, "your kept scoring cards" if mine else "your dealt scoring cards")
    for i, card in enumerate(cards):
        draw_scoring(canvas, x + (i % 3) * (SCORE_W + 6), y + 16 + (i // 3) * (SCORE_H + 6), card, data_seat=seat)
    rows = (len(cards) + 2) // 3
    label(canvas, x, y + 28 + rows * (SCORE_H + 6), "points per " + ", ".join(SPECIES), size=10)


def _formation(canvas: Canvas, x: float, y: float, view: dict[str, Any], entry: dict[str, Any]) -> float:
    s = entry["seat"]
    w, h = 36, 32
    current = view.get("current") == s and view["phase"] == "play"
    top = y
    you = " (you)" if view.get("seat") == s else ""
    cards = entry["formation"]
    state = "complete" if entry.get("complete") else f"{len(cards)}/12"
    if len(entry.get("anchors") or []) > 1:
        state += " · floating"
    name_and_facts(canvas, x + 6, y + 14, f"Seat {s}{you}", state, COLUMN_W - 18)
    y += 20
    for r, c in SLOT_CELLS:
        sx, sy = _cell_xy(x + 6, y, r, c, w, h)
        canvas.rect(sx + 1, sy + 1, w - 2, h - 2, rx=2, fill="none", stroke="#cfd8dc", stroke_width=1)
    # An anchor (ar, ac) puts wedge slot (r, c) on formation cell (r + ar, c + ac).
    anchors = entry.get("anchors") or [[0, 0]]
    ar, ac = anchors[0]
    for placed in cards:
        sx, sy = _cell_xy(x + 6, y, placed["row"] - ar, placed["col"] - ac, w, h)
        draw_bird(canvas, sx + 1, sy + 1, w - 2, h - 2, placed["card"], flipped=placed.get("flipped", False),
                  used=placed.get("ability_used", False), data_seat=s)
    y += 3 * h + 4
    penalties = entry.get("penalties") or []
    facts = [f"penalties {', '.join(str(p) for p in penalties)}"] if penalties else []
    if entry.get("ability_stage"):
        facts.append(f"abilities: {entry['ability_stage']}")
    if facts:
        label(canvas, x + 6, y + 10, fit(" · ".join(facts), 36))
        y += 14
    kept = entry.get("kept")
    if kept is None:
        count = entry.get("kept_count") or 0
        chosen = entry.get("kept_count") is not None
        label(canvas, x + 6, y + 10, f"kept scoring cards: {count}" if chosen else "choosing scoring cards")
        for i in range(count):
            card_back(canvas, x + 6 + i * 30, y + 14, 26, 34, data_seat=s, data_scoring="hidden")
        y += 52 if count else 14
    elif view.get("seat") != s:
        label(canvas, x + 6, y + 10, fit("kept: " + ", ".join(k.get("id", "") for k in kept), 36))
        y += 14
    canvas.rect(x, top, COLUMN_W - 6, y - top + 4, rx=6, fill="none", stroke=HIGHLIGHT if current else MUTED,
                stroke_width=2.5 if current else 1, class_="seat", data_seat=s)
    return y + 10


def _scores(canvas: Canvas, y: float, view: dict[str, Any]) -> None:
    result = view.get("result")
    if not result:
        return
    scores = result.get("scores") or []
    ranks = result.get("ranks") or []
    words = " · ".join(f"seat {s}: {score:g}" + (f" (#{ranks[s] + 1})" if s < len(ranks) else "")
                       for s, score in enumerate(scores))
    canvas.rect(MARGIN, y, WIDTH - 2 * MARGIN, 24, rx=5, fill=PANEL, class_="result")
    canvas.text(MARGIN + 8, y + 16, fit(f"final: {words}", 110), size=12, font_weight="bold")


def render(view: dict[str, Any], seat: int | None) -> str:
    title = "Fly Away"
    canvas = Canvas("fly-away", title)
    movers = ", ".join(str(s) for s in view.get("to_move") or []) or "nobody"
    facts = [f"phase {view['phase']}", f"to move: {movers}", f"lead bird: seat {view.get('lead')}"]
    if view.get("end_triggered"):
        facts.append("last turns" if not view.get("penalty_turns") else "late turns (penalties)")
    y = heading(canvas, 0, f"{title} — {whose(seat)}", " · ".join(facts))
    display_bottom = _display(canvas, y, view)
    _scoring_cards(canvas, MARGIN + 290, y, view)
    y = max(display_bottom, canvas.bottom) + 10
    seats = view["seats"]
    for first in range(0, len(seats), FORMATIONS_PER_ROW):
        row_bottom = y
        for column, entry in enumerate(seats[first:first + FORMATIONS_PER_ROW]):
            row_bottom = max(row_bottom, _formation(canvas, MARGIN + column * COLUMN_W, y, view, entry))
        y = row_bottom
    _scores(canvas, y, view)
    return canvas.render()
