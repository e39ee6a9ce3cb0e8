"""Sky Team: the cockpit as the two players see it across the table.

The altitude track and the approach track (airplanes to clear, the plane's position, the
airport) run across the top; below, the control panel: landing gear and brakes on the
Pilot's side, the Axis horizon, Engines with the speed against the Aerodynamics and Brake
markers, and Radio in the middle, flaps and Concentration (with the coffee) on the
Co-Pilot's side. Dice are blue for the Pilot and orange for the Co-Pilot; a die on
Concentration is grey (the view does not say whose it was). Each seat's unplaced dice
are face up in that seat's own view and hidden everywhere else.
"""

from __future__ import annotations

import math
from typing import Any

from referee.games.sky_team.data import ALTITUDES, BRAKE_VALUES, FLAP_VALUES, GEAR_VALUES

from .svg import INK, MARGIN, MUTED, PANEL, WIDTH, Canvas, heading, label, whose

DIE = 30
SEATS = ("Pilot", "Co-Pilot")
SEAT_COLOURS = ("#1e88e5", "#fb8c00")
SHARED_COLOUR = "#9e9e9e"
GREEN, OFF, DANGER = "#43a047", "#cfd8dc", "#e53935"
AIRPLANE = "#546e7a"

# Pip positions on a die, as fractions of its side.
PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.5, 0.5),),
    2: ((0.27, 0.27), (0.73, 0.73)),
    3: ((0.27, 0.27), (0.5, 0.5), (0.73, 0.73)),
    4: ((0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)),
    5: ((0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)),
    6: ((0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)),
}


def _values(constraint: tuple[int, ...]) -> str:
    return "=" + str(constraint[0]) if len(constraint) == 1 else f"{constraint[0]}-{constraint[-1]}"


# The switch panels: (title, slots, their constraints, owner seat or None, view field of the
# deployed switches: a list of booleans or a count deployed in order, column x, row y).
SWITCH_PANELS: tuple[tuple[str, tuple[str, ...], tuple[str, ...], int, str, int, int], ...] = (
    ("Landing gear", ("gear1", "gear2", "gear3"), tuple(_values(v) for v in GEAR_VALUES), 0, "gear", 0, 0),
    ("Brakes", ("brake1", "brake2", "brake3"), tuple(_values(v) for v in BRAKE_VALUES), 0, "brakes", 0, 1),
    ("Flaps", ("flap1", "flap2", "flap3", "flap4"), tuple(_values(v) for v in FLAP_VALUES), 1, "flaps", 2, 0),
)
COLUMN_W = (WIDTH - 2 * MARGIN) // 3
PANEL_H = 92


def die(canvas: Canvas, x: float, y: float, value: int | None, colour: str, **data: Any) -> None:
    """A die showing ``value``; ``None`` is a hidden die (behind its owner's screen)."""
    if value is None:
        with canvas.group(class_="die hidden", **data):
            canvas.rect(x, y, DIE, DIE, rx=6, fill="#b0bec5", stroke=colour, stroke_width=2)
            canvas.text(x + DIE / 2, y + DIE / 2 + 6, "?", size=16, fill=INK, text_anchor="middle")
        return
    with canvas.group(class_="die", data_value=value, **data):
        canvas.rect(x, y, DIE, DIE, rx=6, fill=colour, stroke=INK, stroke_width=1)
        for px, py in PIPS[value]:
            canvas.circle(x + px * DIE, y + py * DIE, 3, fill="#ffffff")


def _slot(canvas: Canvas, x: float, y: float, view: dict[str, Any], slot: str, colour: str, hint: str = "") -> None:
    value = view["board"][slot]
    if value is None:
        with canvas.group(class_="slot empty", data_slot=slot):
            canvas.rect(x, y, DIE, DIE, rx=6, fill="#ffffff", stroke=colour, stroke_width=1.5, stroke_dasharray="4 3")
            if hint:
                canvas.text(x + DIE / 2, y + DIE / 2 + 4, hint, size=10, fill=MUTED, text_anchor="middle")
    else:
        die(canvas, x, y, value, colour, data_slot=slot)


def _light(canvas: Canvas, x: float, y: float, on: bool) -> None:
    canvas.circle(x, y, 6, fill=GREEN if on else OFF, stroke=INK, stroke_width=0.5,
                  class_="switch on" if on else "switch off")


def _panel(canvas: Canvas, x: float, y: float, title: str, colour: str | None, h: float = PANEL_H) -> None:
    canvas.rect(x, y, COLUMN_W - 6, h, rx=6, fill=PANEL, stroke=colour or "none", stroke_width=1.5)
    canvas.text(x + 6, y + 14, title, size=11, font_weight="bold", fill=colour or INK)


def _tracks(canvas: Canvas, y: float, view: dict[str, Any]) -> float:
    cell = 62
    label(canvas, MARGIN, y + 10, "altitude (↻ holds a reroll token)")
    for i, feet in enumerate(ALTITUDES):
        x = MARGIN + i * cell
        now = i + 1 == view["round"]
        canvas.rect(x, y + 14, cell - 4, 26, rx=4, fill="#fff3e0" if now else PANEL,
                    stroke=INK if now else "none", stroke_width=2, class_="altitude now" if now else "altitude")
        reroll = " ↻" if i + 1 in (view.get("reroll_rounds") or []) else ""
        canvas.text(x + (cell - 4) / 2, y + 32, f"{feet or 'land'}{reroll}", size=11, text_anchor="middle")
    x = MARGIN + len(ALTITUDES) * cell + 16
    label(canvas, x, y + 10, "coffee")
    for i in range(3):
        canvas.circle(x + 10 + i * 22, y + 27, 8, fill="#6d4c41" if i < view["coffee"] else OFF,
                      class_="coffee on" if i < view["coffee"] else "coffee off")
    x += 84
    label(canvas, x, y + 10, "rerolls held")
    canvas.text(x + 4, y + 32, f"↻ × {view['rerolls']}", size=14, font_weight="bold")
    y += 50
    spaces = len(view["approach_tokens"])
    cell = (WIDTH - 2 * MARGIN) // spaces
    label(canvas, MARGIN, y + 10, "approach: airplanes to clear; the plane's position")
    for i, planes in enumerate(view["approach_tokens"]):
        x = MARGIN + i * cell
        here = i + 1 == view["position"]
        airport = i + 1 == view["airport"]
        canvas.rect(x, y + 14, cell - 4, 44, rx=4, fill="#e8f5e9" if airport else PANEL,
                    stroke=SEAT_COLOURS[0] if here else "none", stroke_width=2.5)
        canvas.text(x + 4, y + 26, "airport" if airport else str(i + 1), size=10, fill=MUTED)
        for k in range(planes):
            px = x + 10 + k * 16
            canvas.polygon([(px, y + 52), (px + 6, y + 34), (px + 12, y + 52)], fill=AIRPLANE, class_="airplane")
        if here:
            px = x + cell - 26
            canvas.polygon([(px, y + 50), (px + 9, y + 30), (px + 18, y + 50)], fill=SEAT_COLOURS[0],
                           stroke=INK, class_="plane")
    return y + 66


def _axis(canvas: Canvas, x: float, y: float, view: dict[str, Any]) -> None:
    _panel(canvas, x, y, f"Axis {view['axis']:+d}", None)
    _slot(canvas, x + 8, y + 40, view, "axis_pilot", SEAT_COLOURS[0])
    _slot(canvas, x + COLUMN_W - 44, y + 40, view, "axis_copilot", SEAT_COLOURS[1])
    cx, cy, r = x + (COLUMN_W - 6) / 2, y + 66, 44
    for tilt in range(-3, 4):
        colour = DANGER if abs(tilt) >= 3 else INK
        dx, dy = _spoke(tilt, r)
        canvas.line(cx + dx * 0.85, cy + dy * 0.85, cx + dx, cy + dy, stroke=colour, stroke_width=2)
    shown = max(-3, min(3, view["axis"]))
    needle = DANGER if abs(view["axis"]) >= 3 else INK
    dx, dy = _spoke(shown, r - 8)
    canvas.line(cx, cy, cx + dx, cy + dy, stroke=needle, stroke_width=2, class_="pointer")
    # The horizon line banks with the tilt: right side down when the tilt is toward the Co-Pilot.
    bank = math.radians(25 * shown)
    hx, hy = 28 * math.cos(bank), 28 * math.sin(bank)
    canvas.line(cx - hx, cy - hy, cx + hx, cy + hy, stroke=needle, stroke_width=3, class_="horizon")
    canvas.circle(cx, cy, 3, fill=needle)


def _spoke(tilt: int, r: float) -> tuple[float, float]:
    """Where a tilt mark sits on the horizon dial: 25 degrees a step, level at the top."""
    angle = math.radians(-90 + 25 * tilt)
    return r * math.cos(angle), r * math.sin(angle)


def _engines(canvas: Canvas, x: float, y: float, view: dict[str, Any]) -> None:
    speed = view.get("speed")
    _panel(canvas, x, y, "Engines" + (f": speed {speed}" if speed is not None else ""), None)
    _slot(canvas, x + 8, y + 22, view, "engines_pilot", SEAT_COLOURS[0])
    _slot(canvas, x + COLUMN_W - 44, y + 22, view, "engines_copilot", SEAT_COLOURS[1])
    left, right, low, high = x + 46, x + COLUMN_W - 52, 2, 12
    scale = (right - left) / (high - low)
    base = y + 72
    canvas.line(left, base, right, base, stroke=INK, stroke_width=1)
    for value in range(low, high + 1, 2):
        canvas.text(left + (value - low) * scale, base + 12, value, size=9, fill=MUTED, text_anchor="middle")
    markers = (("blue_marker", SEAT_COLOURS[0]), ("orange_marker", SEAT_COLOURS[1]), ("brake_marker", DANGER))
    for field, colour in markers:
        value = view.get(field) or 0
        px = left + (max(low, min(high, value)) - low) * scale
        canvas.polygon([(px - 5, base - 12), (px + 5, base - 12), (px, base - 2)], fill=colour,
                       class_=f"marker {field}")
    if speed is not None:
        px = left + (max(low, min(high, speed)) - low) * scale
        canvas.circle(px, base, 4, fill=INK, class_="speed")
    landing = view.get("landing_brake_marker")
    label(canvas, x + 46, y + 48, f"blue {view['blue_marker']} · orange {view['orange_marker']} · "
          f"brakes {view['brake_marker']}" + (f" (landing: {landing})" if landing is not None else ""), size=9)


def _radio(canvas: Canvas, x: float, y: float, view: dict[str, Any]) -> None:
    _panel(canvas, x, y, "Radio", None, h=58)
    _slot(canvas, x + 8, y + 20, view, "radio_pilot", SEAT_COLOURS[0])
    _slot(canvas, x + COLUMN_W - 80, y + 20, view, "radio_copilot_1", SEAT_COLOURS[1])
    _slot(canvas, x + COLUMN_W - 44, y + 20, view, "radio_copilot_2", SEAT_COLOURS[1])


def _switches(canvas: Canvas, view: dict[str, Any], top: float) -> None:
    for title, slots, hints, owner, field, column, row in SWITCH_PANELS:
        x, y = MARGIN + column * COLUMN_W, top + row * (PANEL_H + 6)
        _panel(canvas, x, y, f"{title} ({SEATS[owner]})", SEAT_COLOURS[owner])
        deployed = view[field]
        for i, (slot, hint) in enumerate(zip(slots, hints)):
            on = deployed[i] if isinstance(deployed, list) else i < deployed
            sx = x + 10 + i * (DIE + 18)
            _slot(canvas, sx, y + 24, view, slot, SEAT_COLOURS[owner], hint)
            _light(canvas, sx + DIE / 2, y + 72, bool(on))


def _concentration(canvas: Canvas, x: float, y: float, view: dict[str, Any]) -> None:
    _panel(canvas, x, y, "Concentration (either seat: coffee)", None)
    for i in range(3):
        _slot(canvas, x + 10 + i * (DIE + 18), y + 30, view, f"conc{i + 1}", SHARED_COLOUR)


def _dice(canvas: Canvas, y: float, view: dict[str, Any], seat: int | None) -> float:
    """Each seat's unplaced dice: face up for the viewing seat, hidden for the other."""
    for s, name in enumerate(SEATS):
        x = MARGIN + s * (WIDTH // 2)
        count = view["dice_count"][s]
        mine = seat == s and "my_dice" in view
        canvas.text(x, y + 14, f"{name}'s unplaced dice: {count}", size=12, font_weight="bold",
                    fill=SEAT_COLOURS[s])
        values = view["my_dice"] if mine else [None] * count
        for i, value in enumerate(values):
            die(canvas, x + i * (DIE + 8), y + 22, value, SEAT_COLOURS[s], data_seat=s, data_hand=i)
    return y + 22 + DIE + 8


def _result(canvas: Canvas, y: float, view: dict[str, Any]) -> None:
    result = view.get("result")
    if not result:
        return
    landed = result.get("landed")
    canvas.rect(MARGIN, y, WIDTH - 2 * MARGIN, 28, rx=6, fill=GREEN if landed else DANGER, class_="result")
    details = result.get("details") or {}
    missed = details.get("missed") or details.get("missing")
    words = "landed!" if landed else f"lost: {result['reason']}" + (f" ({', '.join(missed)})" if missed else "")
    canvas.text(MARGIN + 10, y + 19, words, size=14, font_weight="bold", fill="#ffffff")


def render(view: dict[str, Any], seat: int | None) -> str:
    altitude = view["altitude"]
    where = f"{altitude} ft" if altitude else "landing"
    title = f"Sky Team, round {view['round']} ({where})"
    canvas = Canvas("sky-team", title)
    turn = view.get("turn")
    if view["phase"] == "place" and turn is not None:
        doing = f"{SEATS[turn]} to place"
    elif view["phase"] == "reroll":
        doing = "rerolling: " + " and ".join(SEATS[s] for s in view["to_move"])
    else:
        doing = view["phase"]
    y = heading(canvas, 0, f"{title} — {whose(seat, SEATS)}", f"{doing} · {SEATS[view['first_placer']]} placed first")
    y = _tracks(canvas, y, view)
    top = y
    _switches(canvas, view, top)
    middle = MARGIN + COLUMN_W
    _axis(canvas, middle, top, view)
    _engines(canvas, middle, top + PANEL_H + 6, view)
    _radio(canvas, middle, top + 2 * (PANEL_H + 6), view)
    _concentration(canvas, MARGIN + 2 * COLUMN_W, top + PANEL_H + 6, view)
    y = top + 2 * (PANEL_H + 6) + 64
    y = _dice(canvas, y, view, seat)
    _result(canvas, y, view)
    return canvas.render()
