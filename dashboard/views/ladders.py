"""Ladders: a season's standings per player count, by μ − 3σ, with the season's progress.

An active (or draft) season shows its live ratings; a closed season its frozen standings
(`season_standings`), which no later match changes. Filters and paging run in the store,
so a ladder of thousands of versions costs one page of rows.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from dashboard.data import PAGE_SIZE, cached
from dashboard.links import bot_link
from dashboard.widgets import pager, status_text
from referee.games import GAMES


def win_label(game: str) -> str:
    """What rank 0 means: landing for a co-operative game (Sky Team), winning otherwise."""
    spec = GAMES.get(game)
    return "landing rate" if spec is not None and spec.cooperative else "win rate"


def standings_frame(rows: list[dict[str, Any]], game: str) -> pd.DataFrame:
    """The rows as the table shows them; the bot column links to its page."""
    label = win_label(game)
    return pd.DataFrame({
        "#": [r["position"] for r in rows],
        "bot": [r["bot"] for r in rows],
        "version": [r["version"] for r in rows],
        "author": [r["author"] for r in rows],
        "μ − 3σ": [r["score"] for r in rows],
        "μ": [r["mu"] for r in rows],
        "σ": [r["sigma"] for r in rows],
        "matches": [r["matches"] for r in rows],
        label: [r["wins"] / r["rated"] if r["rated"] else None for r in rows],
        "trend": [list(r["trend"] or []) for r in rows],
        "status": [status_text(r["status"]) for r in rows],
        "page": [bot_link(r["bot_id"], r["version_id"]) for r in rows],
    })


def _column_config(game: str) -> dict[str, Any]:
    return {
        "μ − 3σ": st.column_config.NumberColumn(format="%.2f", help="the conservative rating the ladder ranks by"),
        "μ": st.column_config.NumberColumn(format="%.2f"),
        "σ": st.column_config.NumberColumn(format="%.2f"),
        win_label(game): st.column_config.ProgressColumn(format="percent", min_value=0.0, max_value=1.0,
                                                          help="share of its rated matches it finished first"),
        "trend": st.column_config.LineChartColumn(help="μ − 3σ after each of its last 20 matches"),
        "page": st.column_config.LinkColumn(display_text="open", help="the bot's page"),
    }


def _progress(season: dict[str, Any]) -> None:
    progress = cached("season_progress", season["id"])
    columns = st.columns(4)
    columns[0].metric("State", season["state"])
    columns[1].metric("Played", f"{progress['finished']:,}")
    columns[2].metric("In flight", f"{progress['queued'] + progress['running']:,}",
                      help=f"{progress['running']} running, {progress['queued']} queued")
    columns[3].metric("Void", f"{progress['void']:,}")


def render() -> None:
    st.title("Ladders")
    seasons = cached("seasons")
    if not seasons:
        st.info("No seasons yet. An organiser creates one on the Organiser page (or `skyarena season create`).")
        return
    games = sorted({s["game"] for s in seasons})
    top = st.columns([2, 2, 1])
    game = top[0].selectbox("Game", ["all games", *games], key="ladder_game")
    shown = [s for s in seasons if game in ("all games", s["game"])]
    season = top[1].selectbox("Season", shown, format_func=lambda s: f"{s['name']} ({s['game']}, {s['state']})",
                              key="ladder_season")
    counts = sorted(int(players) for players in season["ladders"])
    if not counts:
        st.warning(f"Season {season['name']} has no ladders.")
        return
    players = top[2].selectbox("Players", counts, key="ladder_players")
    ladder_id = int(season["ladders"][str(players)])
    _progress(season)

    filtered = False
    if season["state"] == "closed":
        st.caption(f"Closed {season['closed_at']:%Y-%m-%d %H:%M} UTC: the standings as they were frozen then.")
        total = cached("frozen_size", ladder_id)
        offset = pager("ladder_page", total, PAGE_SIZE)
        rows = cached("frozen_page", ladder_id, limit=PAGE_SIZE, offset=offset)
    else:
        filters = st.columns(2)
        bot = filters[0].text_input("Bot name contains", key="ladder_bot").strip()
        author = filters[1].text_input("Author contains", key="ladder_author").strip()
        filtered = bool(bot or author)
        total = cached("ladder_size", ladder_id, bot=bot, author=author)
        offset = pager("ladder_page", total, PAGE_SIZE)
        rows = cached("ladder_page", ladder_id, limit=PAGE_SIZE, offset=offset, bot=bot, author=author)
    if not rows:
        st.info("No version matches the filters." if filtered else "No version has played on this ladder yet.")
        return
    st.caption(f"{total:,} versions, ranked by μ − 3σ; rows {offset + 1}–{offset + len(rows)}.")
    st.dataframe(standings_frame(rows, season["game"]), column_config=_column_config(season["game"]),
                 hide_index=True, width="stretch")


render()
