"""Pieces several pages share: a pager, status words, percentages."""

from __future__ import annotations

import streamlit as st

STATUS_WORDS = {
    "received": "received (waiting for its smoke test)",
    "smoke": "smoke test running",
    "failed": "failed its smoke test",
    "active": "active",
    "paused": "paused",
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
