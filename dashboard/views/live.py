"""Live: the matches queued and running now, refreshed every few seconds.

A fragment re-runs on its own (`st.fragment(run_every=...)`), so only this list is re-read
and redrawn, never the whole page; its reads are not cached (they are the point).
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from dashboard.data import PAGE_SIZE, run
from dashboard.links import match_link
from dashboard.widgets import pager
from workers.store import matches

REFRESH_S = 3.0   # a match lasts seconds to minutes: a new one shows up within a few seconds


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
    st.dataframe(pd.DataFrame({
        "match": [match_link(r["id"]) for r in rows],
        "status": [r["status"] for r in rows],
        "game": [f"{r['game']} ({r['players']})" for r in rows],
        "season": [r["season"] for r in rows],
        "seats": [r["seats"] for r in rows],
        "attempt": [r["attempts"] for r in rows],
        "referee": [r["referee"] for r in rows],
        "started": [r["started_at"] for r in rows],
    }), column_config={"match": st.column_config.LinkColumn(display_text=r"match=(.*)$")},
        hide_index=True, width="stretch")
    st.caption(f"Refreshed every {REFRESH_S:g} s.")


def render() -> None:
    st.title("Live")
    in_flight()


render()
