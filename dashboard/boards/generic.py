"""The fallback picture for a game without a board of its own: the view's fields as a
key/value panel, so any registered game shows something in the replay viewer."""

from __future__ import annotations

import json
from typing import Any

from .svg import MARGIN, PANEL, WIDTH, Canvas, fit, heading, label, whose

LINE = 16
VALUE_CHARS = 88


def _shown(value: Any) -> str:
    """A value as one line of compact JSON (the views are JSON data)."""
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "), default=str)


def render(view: dict[str, Any], seat: int | None, game: str = "", note: str = "") -> str:
    title = f"{game or 'game'} — " + whose(seat)
    canvas = Canvas("generic", title)
    y = heading(canvas, 0, title, note)
    for key, value in view.items():
        canvas.rect(MARGIN, y, WIDTH - 2 * MARGIN, LINE, fill=PANEL)
        canvas.text(MARGIN + 4, y + 12, fit(key, 18), size=11, font_weight="bold")
        label(canvas, MARGIN + 140, y + 12, fit(_shown(value), VALUE_CHARS), size=11)
        y += LINE + 2
    return canvas.render()
