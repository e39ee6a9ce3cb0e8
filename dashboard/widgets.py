"""Pieces several pages share: a pager, status words, percentages, tables of text."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

import streamlit as st

from referee.games import GAMES
from skyarena.local import team_won

STATUS_WORDS = {
    "received": "received (waiting for its smoke test)",
    "smoke": "smoke test running",
    "failed": "failed its smoke test",
    "active": "active",
    "paused": "paused",
    "held": "passed its smoke test; waits for its game's finals to end",
    "superseded": "superseded by a newer version",
    "retired": "retired",
}


def status_text(status: str, message: str = "", matches: int | None = None, placement: int = 0) -> str:
    """A version's status as a person reads it: placement while its first matches are played, the reason
    of a pause."""
    if status == "active" and matches is not None and matches < placement:
        return f"placement ({matches} of {placement} matches)"
    words = STATUS_WORDS.get(status, status)
    return f"{words}: {message}" if message else words


def pager(key: str, total: int, page_size: int) -> int:
    """A page number input under a list of ``total`` rows; the offset of the page shown."""
    pages = max(1, -(-total // page_size))
    if pages == 1:
        return 0
    page = st.number_input(f"Page (of {pages})", min_value=1, max_value=pages, value=1, step=1, key=key)
    return (int(page) - 1) * page_size


def percent(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f} %"


# ----- tables of text -------------------------------------------------------------------------
# st.dataframe draws on a canvas: find-in-page, screen readers and scripts cannot read its cells.
# The tables people read (the ladder, the live matches, a match's participants) are HTML tables
# instead, whose every cell is text in the page.
EMPTY = "–"           # an empty cell reads as empty, never as "None"
SPARK_W, SPARK_H = 120, 26
SPARK_MIN_SPAN = 2.0  # rating points: a version whose μ barely moved draws a nearly flat line, not noise
SPARK_INK = "#1565c0"


@dataclass(frozen=True)
class Link:
    """A cell that is a link to another page of the dashboard."""

    text: str
    href: str


@dataclass(frozen=True)
class Markup:
    """A cell drawn here (a sparkline): put in the table as it is; ``text`` is what it says in words."""

    html: str
    text: str


Cell = str | int | float | Link | Markup | None


def sparkline(values: Sequence[float], what: str = "μ") -> Markup:
    """A small line of ``values`` (oldest first), scaled to their own range (at least ``SPARK_MIN_SPAN``)."""
    if not values:
        return Markup("", "")
    low, high = min(values), max(values)
    span = max(high - low, SPARK_MIN_SPAN)
    floor = (low + high - span) / 2  # a small range sits in the middle of the box
    step = (SPARK_W - 6) / max(len(values) - 1, 1)
    points = [(3 + i * step, SPARK_H - 3 - (v - floor) / span * (SPARK_H - 6)) for i, v in enumerate(values)]
    shown = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
    words = f"{what} {values[0]:.1f} to {values[-1]:.1f} over {len(values)} matches"
    last_x, last_y = points[-1]
    svg = (f'<svg class="sparkline" width="{SPARK_W}" height="{SPARK_H}" viewBox="0 0 {SPARK_W} {SPARK_H}" '
           f'role="img" aria-label="{escape(words)}"><title>{escape(words)}</title>'
           f'<polyline points="{shown}" fill="none" stroke="{SPARK_INK}" stroke-width="1.5"/>'
           f'<circle cx="{last_x:.1f}" cy="{last_y:.1f}" r="2.5" fill="{SPARK_INK}"/></svg>')
    return Markup(svg, words)


def _cell(value: Cell) -> str:
    if value is None or value == "":
        return EMPTY
    if isinstance(value, Link):
        return f'<a href="{escape(value.href, quote=True)}" target="_self">{escape(value.text)}</a>'
    if isinstance(value, Markup):
        return value.html or EMPTY
    return escape(str(value))


def table_html(columns: Sequence[str], rows: Sequence[Sequence[Cell]], numeric: Sequence[str] = ()) -> str:
    """An HTML table of ``rows`` under ``columns``; the ``numeric`` columns are right-aligned."""
    right = [column in numeric for column in columns]

    def align(i: int) -> str:
        return ' style="text-align:right"' if right[i] else ""

    head = "".join(f"<th{align(i)}>{escape(c)}</th>" for i, c in enumerate(columns))
    body = "".join("<tr>" + "".join(f"<td{align(i)}>{_cell(v)}</td>" for i, v in enumerate(row)) + "</tr>"
                   for row in rows)
    return (f'<table class="skyarena-table" style="width:100%"><thead><tr>{head}</tr></thead>'
            f"<tbody>{body}</tbody></table>")


def text_table(columns: Sequence[str], rows: Sequence[Sequence[Cell]], numeric: Sequence[str] = ()) -> None:
    """Draw the rows as an HTML table: text in the page, as wide as the page, wrapping rather than cut."""
    st.markdown(table_html(columns, rows, numeric), unsafe_allow_html=True)


def number(value: float | None, format_spec: str = ".2f") -> str | None:
    """A figure as the tables show it (``None`` stays empty)."""
    return None if value is None else format(value, format_spec)


def is_cooperative(game: str) -> bool:
    spec = GAMES.get(game)
    return spec is not None and spec.cooperative


def place_label(game: str) -> str:
    """The column of a seat's outcome: its place, or in a co-operative game the team's result."""
    return "team result" if is_cooperative(game) else "place"


def place_text(game: str, rank: int | None, score: float | None, end_reason: str | None) -> str | None:
    """A seat's outcome as ``skyarena play`` words it: place 1, 2, ...; in a co-operative game
    (Sky Team) every seat ranks first, so the team's landing or its loss and why."""
    if rank is None:
        return None
    if not is_cooperative(game):
        return str(rank + 1)
    if team_won(rank, score or 0.0):
        return "landed"
    return f"lost ({end_reason})" if end_reason else "lost"
