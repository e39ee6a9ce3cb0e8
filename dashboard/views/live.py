"""Live: the matches queued and running now, refreshed every few seconds.

A fragment re-runs on its own (`st.fragment(run_every=...)`), so only this list is re-read
and redrawn, never the whole page; its reads are not cached (they are the point).
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from dashboard.data import PAGE_SIZE, run
from dashboard.links import match_link
from dashboard.widgets import Cell, Link, pager, text_table
from workers.store import matches

REFRESH_S = 3.0   # a match lasts seconds to minutes: a new one shows up within a few seconds
LIVE_COLUMNS = ("match", "status", "game", "season", "seats", "attempt", "referee", "started")


def live_rows(rows: list[dict[str, Any]]) -> list[list[Cell]]:
    """A queued match has no referee and no start yet: those cells stay empty."""
    return [[Link(r["id"], match_link(r["id"])), r["status"], f"{r['game']} ({r['players']})", r["season"],
             r["seats"], r["attempts"], r["referee"],
             None if r["started_at"] is None else f"{r['started_at']:%Y-%m-%d %H:%M:%S}"] for r in rows]


@st.fragment(run_every=REFRESH_S)
def in_flight() -> None:
    counts = run(matches.in_flight_counts)
    figures = st.columns(2)
    figures[0].metric("Running", f"{counts['running']:,}")
    figures[1].metric("Queued", f"{counts['queued']:,}")
    total = counts["running"] + counts["queued"]
    if not total:
        st.info("No match is in flight: the scheduler queues the next ones for every active season.")
        return
    offset = pager("live_page", total, PAGE_SIZE)
    rows = run(matches.matches_in_flight, limit=PAGE_SIZE, offset=offset)
    text_table(LIVE_COLUMNS, live_rows(rows), numeric=("attempt",))
    st.caption(f"Refreshed every {REFRESH_S:g} s.")


def render() -> None:
    st.title("Live")
    in_flight()


render()
