"""Addresses of the dashboard's pages, so a table cell or a button can point at a bot or a match."""

from __future__ import annotations


def bot_link(bot_id: int, version_id: int | None = None) -> str:
    return f"/bot?bot={bot_id}" + (f"&version={version_id}" if version_id is not None else "")


def match_link(match_id: str) -> str:
    return f"/match?match={match_id}"


def query_int(value: str | None) -> int | None:
    """A query parameter that should be a whole number (None when absent or not one)."""
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None
