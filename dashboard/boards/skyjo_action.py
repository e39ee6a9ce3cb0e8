"""Skyjo Action: every play area as its grid of cards, the piles, the action row and the
decision being made.

A face-down card is a card back; a card the viewing seat has looked at is drawn face up
with a dashed frame (it is still face down on the table); a cleared position is an empty
slot. Card colours follow the printed deck: blues below zero, greens low, yellows middle,
reds high, the star violet.
"""

from __future__ import annotations

from typing import Any

from .svg import (
    HIGHLIGHT,
    INK,
    MARGIN,
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

CARD_W, CARD_H, GAP = 38, 50, 4
# Play areas side by side, by grid width: three 3x4 grids a row, four 3x3 (large group) grids.
AREAS_PER_ROW: dict[int, int] = {4: 3, 3: 4}
CHIP_W, CHIP_H = 74, 18

# (highest value in the band, fill, text colour): the printed deck's colour bands.
CARD_BANDS: tuple[tuple[int, str, str], ...] = (
    (-1, "#283593", "#ffffff"),
    (0, "#4fc3f7", INK),
    (4, "#66bb6a", INK),
    (8, "#fdd835", INK),
    (12, "#e53935", "#ffffff"),
)
STAR = ("#8e24aa", "#ffffff")

# Action card types: (short label, fill).
ACTION_CARDS: dict[str, tuple[str, str]] = {
    "swap-other": ("swap other", "#ffb74d"),
    "swap-own": ("swap own", "#ffe082"),
    "draw-three": ("draw three", "#aed581"),
    "look": ("look", "#81d4fa"),
    "meteor": ("meteor", "#ef9a9a"),
    "double-move": ("double move", "#ce93d8"),
    "defense": ("defense", "#b0bec5"),
    "reactivation": ("reactivate", "#80cbc4"),
    "thief": ("thief", "#bcaaa4"),
}
UNKNOWN_ACTION = ("action", "#e0e0e0")
LOCKS = {"rows": "rows only", "columns": "cols only"}  # an area's lock after its first Skyjo


def _card_colours(card: int | str) -> tuple[str, str]:
    if card == "*":
        return STAR
    if isinstance(card, int):
        for top, fill, ink in CARD_BANDS:
            if card <= top:
                return fill, ink
    return UNKNOWN_ACTION[1], INK


def draw_card(canvas: Canvas, x: float, y: float, card: int | str, *, peeked: bool = False,
              w: float = CARD_W, h: float = CARD_H, **data: Any) -> None:
    """A main-deck card face (or an action card turned over in a grid, single-deck variant)."""
    if isinstance(card, str) and card != "*":
        draw_action(canvas, x, y + h / 2 - CHIP_H / 2, card, w=w, **data)
        return
    fill, ink = _card_colours(card)
    with canvas.group(class_="card face peeked" if peeked else "card face", **data):
        canvas.rect(x, y, w, h, rx=4, fill=fill, stroke=INK, stroke_width=1,
                    stroke_dasharray="3 2" if peeked else None, opacity=0.75 if peeked else None)
        shown = "★" if card == "*" else card
        canvas.text(x + w / 2, y + h / 2 + 6, shown, size=17, fill=ink, font_weight="bold", text_anchor="middle")


def draw_action(canvas: Canvas, x: float, y: float, kind: str | None, *, w: float = CHIP_W, **data: Any) -> None:
    """An action card as a labelled chip; ``None`` (taken face down by another seat) is a back."""
    if kind is None:
        card_back(canvas, x, y, w, CHIP_H, **data)
        return
    text, fill = ACTION_CARDS.get(kind, UNKNOWN_ACTION)
    with canvas.group(class_="card action", **data):
        canvas.rect(x, y, w, CHIP_H, rx=3, fill=fill, stroke=INK, stroke_width=1)
        canvas.text(x + w / 2, y + 13, fit(text, 12), size=10, text_anchor="middle")


def _grid(canvas: Canvas, x: float, y: float, area: dict[str, Any], seat: int, cols: int) -> None:
    for index, (card, up) in enumerate(zip(area["cards"], area["face_up"])):
        cx = x + (index % cols) * (CARD_W + GAP)
        cy = y + (index // cols) * (CARD_H + GAP)
        pos = f"{'ABCD'[index % cols]}{index // cols + 1}"
        if up is None:
            empty_slot(canvas, cx, cy, CARD_W, CARD_H, data_seat=seat, data_pos=pos)
        elif up or card is not None:
            draw_card(canvas, cx, cy, card, peeked=not up, data_seat=seat, data_pos=pos)
        else:
            card_back(canvas, cx, cy, CARD_W, CARD_H, data_seat=seat, data_pos=pos)


def _chips_per_line(area_w: float) -> int:
    return max(int((area_w - 12) // (CHIP_W + 2)), 1)


def _area_height(area: dict[str, Any], rows: int, area_w: float) -> float:
    per_line = _chips_per_line(area_w)
    held_lines = (len(area["held"]) + per_line - 1) // per_line
    return 20 + rows * (CARD_H + GAP) + held_lines * (CHIP_H + 4) + 8


def _area(canvas: Canvas, x: float, y: float, w: float, h: float, view: dict[str, Any], seat: int) -> None:
    area = view["areas"][seat]
    current = view.get("current") == seat
    with canvas.group(class_="area", data_seat=seat):
        canvas.rect(x, y, w - 6, h, rx=6, fill=PANEL, stroke=HIGHLIGHT if current else "none",
                    stroke_width=3 if current else None)
        tags = [f"{area['total']} pts"]
        if area.get("lock"):
            tags.append(LOCKS.get(area["lock"], str(area["lock"])))
        if view.get("ender") == seat:
            tags.append("ended the round")
        you = " (you)" if view.get("seat") == seat else ""
        name_and_facts(canvas, x + 6, y + 14, f"Seat {seat}{you}", " · ".join(tags), w - 18)
        _grid(canvas, x + 6, y + 20, area, seat, view["cols"])
        held_y = y + 20 + view["rows"] * (CARD_H + GAP)
        mine = view.get("seat") == seat
        per_line = _chips_per_line(w)
        for i, kind in enumerate(area["held"]):
            fresh = mine and i < len(view.get("fresh") or []) and view["fresh"][i]
            cx, cy = x + 6 + (i % per_line) * (CHIP_W + 2), held_y + (i // per_line) * (CHIP_H + 4)
            draw_action(canvas, cx, cy, kind,
                        data_seat=seat, data_held=i, data_fresh="true" if fresh else None)


def _piles(canvas: Canvas, y: float, view: dict[str, Any]) -> float:
    x: float = MARGIN
    label(canvas, x, y + 10, f"deck {view['deck']}")
    card_back(canvas, x, y + 14, CARD_W, CARD_H, data_pile="deck")
    x += CARD_W + 14
    label(canvas, x, y + 10, f"discard {view['discard_size']}")
    if view.get("discard") is None:
        empty_slot(canvas, x, y + 14, CARD_W, CARD_H, data_pile="discard")
    else:
        draw_card(canvas, x, y + 14, view["discard"], data_pile="discard")
    x += CARD_W + 40
    if view.get("action_row") or view.get("action_deck"):
        label(canvas, x, y + 10, f"action deck {view['action_deck']}")
        card_back(canvas, x, y + 14 + CARD_H / 2 - CHIP_H / 2, CHIP_W / 2, CHIP_H, data_pile="action-deck")
        x += CHIP_W / 2 + 50
        label(canvas, x, y + 10, "action row")
        for i, kind in enumerate(view.get("action_row") or []):
            cy = y + 14 + CARD_H / 2 - CHIP_H / 2
            if kind is None:
                empty_slot(canvas, x + i * (CHIP_W + 4), cy, CHIP_W, CHIP_H, data_row=i)
            else:
                draw_action(canvas, x + i * (CHIP_W + 4), cy, kind, data_row=i)
        x += 4 * (CHIP_W + 4) + 10
        discard = view.get("action_discard") or []
        label(canvas, x, y + 10, f"action discard {len(discard)}")
        if discard:
            draw_action(canvas, x, y + 14 + CARD_H / 2 - CHIP_H / 2, discard[-1], w=CHIP_W - 10,
                        data_pile="action-discard")
    return y + 14 + CARD_H + 10


def _pending(canvas: Canvas, y: float, view: dict[str, Any]) -> float:
    """The decision being made, with the cards it is about (they are public)."""
    decision = view.get("decision")
    if not decision:
        return y
    pending = view.get("pending") or {}
    movers = ", ".join(str(s) for s in view.get("to_move") or [])
    words = [f"seat {movers} to decide: {decision}"]
    for key in ("lines", "players", "picked", "target"):
        if pending.get(key) not in (None, []):
            words.append(f"{key} {pending[key]}")
    canvas.text(MARGIN, y + 12, fit(" · ".join(words), 100), size=12)
    cards = pending.get("cards") or ([pending["card"]] if "card" in pending else [])
    x = MARGIN
    for i, card in enumerate(cards):
        if isinstance(card, str) and card in ACTION_CARDS:
            draw_action(canvas, x, y + 18, card, data_pending=i)
            x += CHIP_W + 6
        else:
            draw_card(canvas, x, y + 18, card, data_pending=i)
            x += CARD_W + 6
    return y + (18 + CARD_H + 8 if cards else 20)


def _rounds(canvas: Canvas, y: float, view: dict[str, Any]) -> None:
    for i, scored in enumerate(view.get("rounds") or []):
        scores = " · ".join(str(s) for s in scored["scores"])
        notes = [f"ender {scored['ender']}"] if scored.get("ender") is not None else []
        if scored.get("doubled"):
            notes.append("doubled")
        if scored.get("forced"):
            notes.append("forced")
        label(canvas, MARGIN, y + 14 + i * 15, fit(f"round {scored['round']}: {scores}  ({', '.join(notes)})", 110))


def render(view: dict[str, Any], seat: int | None) -> str:
    players = view["players"]
    title = f"Skyjo Action, round {view['round']}"
    canvas = Canvas("skyjo-action", title)
    facts = [f"seat {view['current']} to play"]
    if view.get("last_turns"):
        facts.append("last turns: " + ", ".join(str(s) for s in view["last_turns"]))
    y = heading(canvas, 0, f"{title} — {whose(seat)}",
                " · ".join(facts))
    y = _piles(canvas, y, view)
    y = _pending(canvas, y, view)
    per_row = AREAS_PER_ROW.get(view["cols"], 3)
    area_w = (WIDTH - 2 * MARGIN) // per_row
    for first in range(0, players, per_row):
        seats = range(first, min(first + per_row, players))
        h = max(_area_height(view["areas"][s], view["rows"], area_w) for s in seats)
        for column, s in enumerate(seats):
            _area(canvas, MARGIN + column * area_w, y, area_w, h, view, s)
        y += h + 6
    _rounds(canvas, y, view)
    return canvas.render()

