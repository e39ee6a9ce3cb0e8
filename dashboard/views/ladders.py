"""Ladders: a season's standings per player count, by μ − 3σ, with the season's progress.

An active (or draft) season shows its live ratings; a closed season its frozen standings
(`season_standings`), which no later match changes. Filters and paging run in the store,
so a ladder of thousands of versions costs one page of rows.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from dashboard.data import PAGE_SIZE, cached
from dashboard.links import bot_link
from dashboard.widgets import Cell, Link, is_cooperative, number, pager, percent, sparkline, status_text, text_table
from workers.store.ladders import TREND_POINTS

NUMERIC = ("#", "version", "μ − 3σ", "μ", "σ", "matches", "win rate", "landing rate")


def win_label(game: str) -> str:
    """What rank 0 means: landing for a co-operative game (Sky Team), winning otherwise."""
    return "landing rate" if is_cooperative(game) else "win rate"


def standings_columns(game: str) -> list[str]:
    return ["#", "bot", "version", "author", "μ − 3σ", "μ", "σ", "matches", win_label(game), "trend", "status"]


def standings_rows(rows: list[dict[str, Any]]) -> list[list[Cell]]:
    """The rows as the table shows them: the bot's name links to its page; the trend is its μ after
    each of its latest matches (the rating's own ups and downs, where μ − 3σ would only climb as σ shrinks)."""
    return [[r["position"], Link(r["bot"], bot_link(r["bot_id"], r["version_id"])), r["version"], r["author"],
             number(r["score"]), number(r["mu"]), number(r["sigma"]), r["matches"],
             percent(r["wins"] / r["rated"]) if r["rated"] else None, sparkline(list(r["trend"] or [])),
             status_text(r["status"])] for r in rows]


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
    text_table(standings_columns(season["game"]), standings_rows(rows), numeric=NUMERIC)
    st.caption(f"μ − 3σ: the conservative rating the ladder ranks by. {win_label(season['game']).capitalize()}: "
               "the share of its rated matches it finished first. Trend: its μ after each of its latest "
               f"{TREND_POINTS} matches.")


render()
