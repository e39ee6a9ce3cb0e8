"""Ladders: a season's standings per player count, by μ − 3σ, with the season's progress.

Each row shows its rank's 90 % interval and P(it outranks the next row) from the TrueSkill
posteriors, the chart beside shows μ with a ±2σ error bar per version of the page, and the
ladder says whether its top is settled or about how many more matches it needs
(`workers.ladder_confidence`).

A season with leagues shows them above the ladder, top first: each league's boss with its line
(its μ − 3σ, what a version must stay above for ``promotion_matches`` rated matches in a row to
move up), and each row of the ladder names its league, the bosses marked.

An active (or draft) season shows its live ratings; a closed season its frozen standings
(`season_standings`), which no later match changes. Filters and paging run in the store,
so a ladder of thousands of versions costs one page of rows.
"""

from __future__ import annotations

from typing import Any

import altair as alt
import pandas as pd
import streamlit as st

from dashboard.data import PAGE_SIZE, cached
from dashboard.links import bot_link
from dashboard.widgets import Cell, Link, is_cooperative, number, pager, percent, sparkline, status_text, text_table
from workers.ladder_confidence import RankConfidence
from workers.store.ladders import TREND_POINTS

NUMERIC = ("#", "rank 90 %", "version", "μ − 3σ", "μ", "σ", "P > next", "matches", "win rate", "landing rate",
           "mean place")


def win_label(game: str) -> str:
    """What rank 0 means: landing for a co-operative game (Sky Team), winning otherwise."""
    return "landing rate" if is_cooperative(game) else "win rate"


def standings_columns(game: str, players: int = 2, leagues: bool = False) -> list[str]:
    """A free-for-all of 3+ seats also shows the mean place (1 is first): winning alone says little there;
    a season with leagues, each version's league."""
    place = ["mean place"] if players > 2 else []
    return ["#", "rank 90 %", "bot", "version", "author", *(["league"] if leagues else []), "μ − 3σ", "μ", "σ",
            "P > next", "matches", win_label(game), *place, "trend", "status"]


def rank_text(figure: RankConfidence | None) -> str | None:
    """"3" when the rank is sure, "2–5" otherwise."""
    if figure is None:
        return None
    return str(figure.rank_low) if figure.rank_low == figure.rank_high else f"{figure.rank_low}–{figure.rank_high}"


def league_text(league: dict[str, Any] | None) -> str | None:
    """"silver", or "silver · boss" for the league's boss."""
    if not league:
        return None
    return f"{league['league']} · boss" if league["boss"] else league["league"]


def standings_rows(rows: list[dict[str, Any]], figures: dict[int, RankConfidence], players: int = 2,
                   leagues: dict[int, dict[str, Any]] | None = None) -> list[list[Cell]]:
    """The rows as the table shows them: the bot's name links to its page; the trend is its μ after
    each of its latest matches (the rating's own ups and downs, where μ − 3σ would only climb as σ shrinks);
    with ``leagues``, each row's league."""
    out: list[list[Cell]] = []
    for r in rows:
        figure = figures.get(r["version_id"])
        above = figure.above_next if figure is not None else None
        league = [league_text(leagues.get(r["version_id"]))] if leagues is not None else []
        out.append([r["position"], rank_text(figure), Link(r["bot"], bot_link(r["bot_id"], r["version_id"])),
                    r["version"], r["author"], *league, number(r["score"]), number(r["mu"]), number(r["sigma"]),
                    number(above), r["matches"], percent(r["wins"] / r["rated"]) if r["rated"] else None,
                    *([number(float(r["mean_rank"]) + 1)] if players > 2 and r["mean_rank"] is not None else
                      [None] if players > 2 else []),
                    sparkline(list(r["trend"] or [])), status_text(r["status"])])
    return out


def rating_chart(rows: list[dict[str, Any]]) -> alt.LayerChart:
    """μ of each version on the page with a ±2σ error bar (about 95 % of its posterior), best first."""
    frame = pd.DataFrame({"version": [f"{r['position']}. {r['bot']} v{r['version']}" for r in rows],
                          "μ": [r["mu"] for r in rows], "low": [r["mu"] - 2 * r["sigma"] for r in rows],
                          "high": [r["mu"] + 2 * r["sigma"] for r in rows]})
    order = list(frame["version"])
    base = alt.Chart(frame).encode(y=alt.Y("version:N", sort=order, title=None))
    bars = base.mark_errorbar(ticks=True).encode(x=alt.X("low:Q", title="rating (μ ± 2σ)"), x2="high:Q",
                                                 tooltip=["version", "μ", "low", "high"])
    return bars + base.mark_point(filled=True).encode(x="μ:Q")


def league_rows(table: list[dict[str, Any]]) -> list[list[Cell]]:
    """The leagues, top first: the boss (a link to its page) and its line, who stands there, who left it."""
    top = max((t["position"] for t in table), default=0)
    return [[t["name"], Link(f"{t['boss']} v{t['boss_number']}", bot_link(t["boss_bot_id"], t["boss_version_id"])),
             number(t["boss_score"]) if t["boss_score"] is not None else "not rated yet",
             "the top league" if t["position"] == top else f"above the boss for {t['promotion_matches']} in a row",
             t["members"], t["promoted"]] for t in table]


LEAGUE_COLUMNS = ["league", "boss", "boss's line (μ − 3σ)", "to move up", "versions", "promoted"]


def _leagues(ladder_id: int) -> list[dict[str, Any]]:
    table: list[dict[str, Any]] = cached("ladder_league_table", ladder_id)
    if table:
        st.subheader("Leagues")
        text_table(LEAGUE_COLUMNS, league_rows(table), numeric=("boss's line (μ − 3σ)", "versions", "promoted"))
        st.caption("A new version starts in the lowest league and plays only within its league, its boss "
                   "included; it moves up, rating and all, once its μ − 3σ has stayed above the boss's line for "
                   "that many rated matches in a row, and never moves down.")
    return table


def _settling(season: dict[str, Any], players: int) -> None:
    settling = cached("season_ladder_settling", season["id"], players)
    if settling["settled"]:
        since = f" since {settling['settled_at'][:16].replace('T', ' ')} UTC" if settling["settled_at"] else ""
        st.success(f"{settling['text'][0].upper()}{settling['text'][1:]}{since}.")
    else:
        st.info(f"{settling['text'][0].upper()}{settling['text'][1:]}.")


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
    stage = "regular"
    if str(players) in (season.get("final_ladders") or {}):
        stage = st.radio("Stage", ["final", "regular"], horizontal=True, key="ladder_stage",
                         help="The final: the season's top versions in a balanced final with τ = 0.")
    ladder_id = int(season["final_ladders" if stage == "final" else "ladders"][str(players)])
    _progress(season)
    leagues_table: list[dict[str, Any]] = []
    if stage == "regular":
        _settling(season, players)
        leagues_table = _leagues(ladder_id)
    elif season["state"] == "active":
        held = ("new versions wait until then" if season["finals"].get("new_versions", "hold") == "hold"
                else "no new versions are taken until then")
        st.info(f"The final is being played: the top {season['finals']['top']} meet "
                f"{season['finals']['games_per_pair']} times per pair; the season closes when it ends ({held}).")

    filtered = False
    if season["state"] == "closed" or (stage == "regular" and season.get("finals")):
        when = f"Closed {season['closed_at']:%Y-%m-%d %H:%M} UTC" if season["closed_at"] else "Frozen at the finals"
        st.caption(f"{when}: the standings as they were frozen then.")
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
    figures = cached("ladder_confidence", ladder_id, frozen=season["state"] == "closed"
                     or (stage == "regular" and bool(season.get("finals"))))
    leagues = cached("page_leagues", ladder_id, tuple(r["version_id"] for r in rows)) if leagues_table else None
    text_table(standings_columns(season["game"], players, leagues is not None),
               standings_rows(rows, figures, players, leagues), numeric=NUMERIC)
    st.altair_chart(rating_chart(rows), width="stretch")
    st.caption(f"μ − 3σ: the conservative rating the ladder ranks by. Rank 90 %: where the version ranks "
               "with 90 % probability under the ratings' uncertainty; P > next: the probability it is truly "
               f"stronger than the next row. {win_label(season['game']).capitalize()}: "
               "the share of its rated matches it finished first. "
               + ("Mean place: its average place in its rated matches (1 is first). " if players > 2 else "")
               + "Trend: its μ after each of its latest "
               f"{TREND_POINTS} matches.")


render()
