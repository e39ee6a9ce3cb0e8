"""Bot: its versions and their status, a version's rating history per ladder, its promotions
through a season's leagues (with the match and the scores that earned each), its matches,
whom it beats, its faults; and, for its author only, its log of each match.

Opened as ``/bot?bot=ID[&version=ID]`` (the ladder links here); without a bot, a search.
The head-to-head table covers the version's latest ``WINDOW`` matches on the ladder
(bounded work at any size); faults count over all its matches (the faulty seats have an
index of their own).
"""

from __future__ import annotations

from typing import Any

import altair as alt
import pandas as pd
import streamlit as st

from dashboard.auth import sign_in
from dashboard.data import PAGE_SIZE, cached, run
from dashboard.links import bot_link, match_link, query_int
from dashboard.stats import wilson_interval
from dashboard.widgets import is_cooperative, pager, place_label, place_text, status_text
from workers.matchmaking import MatchmakingParameters
from workers.store import matches
from workers.store.ladders import WINDOW

PLACEMENT = MatchmakingParameters().placement_matches


def history_chart(history: list[dict[str, Any]]) -> alt.LayerChart:
    """μ after each match with its ±3σ band; x is the match's place in the ladder's completion order."""
    frame = pd.DataFrame({"match": [h["seq"] for h in history], "μ": [h["mu_after"] for h in history],
                          "low": [h["mu_after"] - 3 * h["sigma_after"] for h in history],
                          "high": [h["mu_after"] + 3 * h["sigma_after"] for h in history]})
    base = alt.Chart(frame).encode(x=alt.X("match:Q", title="ladder match number"))
    band = base.mark_area(opacity=0.25).encode(y=alt.Y("low:Q", title="rating"), y2="high:Q",
                                               tooltip=["match", "μ", "low", "high"])
    line = base.mark_line().encode(y="μ:Q")
    return band + line


def rate_columns(rows: list[dict[str, Any]], rate: str, hits: str, out_of: str) -> dict[str, list[Any]]:
    """The share ``hits / out_of`` of each row as column ``rate``, its 95 % Wilson interval, the row's page."""
    intervals = [wilson_interval(r[hits], r[out_of]) for r in rows]
    return {rate: [r[hits] / r[out_of] for r in rows],
            "95% CI low": [low for low, _ in intervals], "95% CI high": [high for _, high in intervals],
            "page": [bot_link(r["bot_id"], r["version_id"]) for r in rows]}


def show_rates(frame: pd.DataFrame, rate: str) -> None:
    """A table of ``rate_columns``: the shares as percentages, the page as a link."""
    st.dataframe(frame, hide_index=True, width="stretch", column_config={
        **{name: st.column_config.NumberColumn(format="percent") for name in (rate, "95% CI low", "95% CI high")},
        "page": st.column_config.LinkColumn(display_text="open")})


def partner_frame(rows: list[dict[str, Any]]) -> pd.DataFrame:
    """A co-operative version's landing rate with itself (self-play) and with each partner (cross-play)."""
    return pd.DataFrame({
        "partner": ["itself (self-play)" if r["itself"] else f"{r['bot']} v{r['version']}" for r in rows],
        "matches": [r["matches"] for r in rows], "landed": [r["landed"] for r in rows],
        **rate_columns(rows, "landing rate", "landed", "matches")})


def _partners(version_id: int, ladder_id: int) -> None:
    st.subheader("Partners")
    rows = cached("partner_landings", version_id, ladder_id)
    if not rows:
        return
    show_rates(partner_frame(rows), "landing rate")
    st.caption(f"Over its latest {WINDOW} matches on this ladder: how often it landed flying with itself "
               "(self-play) and with each partner (cross-play), with the 95 % Wilson interval.")


def head_to_head_frame(rows: list[dict[str, Any]]) -> pd.DataFrame:
    """Opponents with the share of meetings this version finished ahead, and its 95 % Wilson interval."""
    return pd.DataFrame({
        "opponent": [f"{r['bot']} v{r['version']}" for r in rows],
        "meetings": [r["meetings"] for r in rows],
        "ahead": [r["ahead"] for r in rows], "behind": [r["behind"] for r in rows],
        "level": [r["level"] for r in rows],
        **rate_columns(rows, "win rate", "ahead", "meetings")})


def _search() -> None:
    name = st.text_input("Bot or author name contains", key="bot_search").strip()
    bots = cached("find_bots", name, limit=PAGE_SIZE + 1, offset=st.session_state.get("bot_search_offset", 0))
    if not bots:
        st.info("No bot matches." if name else "No bots yet: authors submit them with `skyarena submit`.")
        return
    st.dataframe(pd.DataFrame({"bot": [b["name"] for b in bots[:PAGE_SIZE]],
                               "game": [b["game"] for b in bots[:PAGE_SIZE]],
                               "author": [b["author"] for b in bots[:PAGE_SIZE]],
                               "page": [bot_link(b["id"]) for b in bots[:PAGE_SIZE]]}),
                 column_config={"page": st.column_config.LinkColumn(display_text="open")}, hide_index=True)
    if len(bots) > PAGE_SIZE and st.button("More bots"):
        st.session_state["bot_search_offset"] = st.session_state.get("bot_search_offset", 0) + PAGE_SIZE
        st.rerun()


def _versions(versions: list[dict[str, Any]], ladders_by_version: dict[int, list[dict[str, Any]]]) -> None:
    st.subheader("Versions")
    st.dataframe(pd.DataFrame({
        "version": [v["number"] for v in versions],
        "status": [status_text(v["status"], v["status_message"],
                               max((r["matches"] for r in ladders_by_version.get(v["id"], [])
                                    if r["state"] == "active"), default=0),
                               PLACEMENT) for v in versions],
        "since": [v["status_changed_at"] for v in versions],
        "submitted": [v["created_at"] for v in versions],
    }), hide_index=True, width="stretch")


def _matches(version_id: int, ladder_id: int, game: str, own: bool) -> None:
    st.subheader("Recent matches")
    key = f"matches_before_{version_id}_{ladder_id}"
    before = st.session_state.get(key)
    rows = cached("rated_matches", version_id, ladder_id, limit=PAGE_SIZE + 1, before_seq=before)
    shown = rows[:PAGE_SIZE]
    if not shown:
        st.info("No rated match on this ladder yet.")
        return
    st.dataframe(pd.DataFrame({
        "match": [match_link(r["match_id"]) for r in shown],
        place_label(game): [place_text(game, r["rank"], r["score"], r["end_reason"]) for r in shown],
        "score": [r["score"] for r in shown],
        "Δμ": [r["mu_change"] for r in shown],
        "μ after": [r["mu_after"] for r in shown],
        "ended": [r["end_reason"] for r in shown],
        "finished": [r["finished_at"] for r in shown],
    }), column_config={"match": st.column_config.LinkColumn(display_text=r"match=(.*)$"),
                       "Δμ": st.column_config.NumberColumn(format="%+.2f"),
                       "μ after": st.column_config.NumberColumn(format="%.2f")},
        hide_index=True, width="stretch")
    buttons = st.columns(2)
    if before is not None and buttons[0].button("Newest matches", key=f"{key}_newest"):
        st.session_state[key] = None
        st.rerun()
    if len(rows) > PAGE_SIZE and buttons[1].button("Older matches", key=f"{key}_older"):
        st.session_state[key] = shown[-1]["seq"]
        st.rerun()
    if own:
        _logs(shown)


def _logs(shown: list[dict[str, Any]]) -> None:
    st.subheader("Your bot's log")
    chosen = st.selectbox("Match", shown, format_func=lambda r: f"{r['match_id']} (seat {r['seat']})",
                          key="log_match")
    log = run(matches.bot_log, chosen["match_id"], chosen["seat"])  # never cached: private to the author
    if log is None:
        st.caption("No log for this match (a remote bot's output stays with its author, and a quiet bot "
                   "writes none).")
        return
    st.code(bytes(log["log"]).decode("utf-8", "replace") or "(empty)", language=None)
    if log["truncated"]:
        st.caption("The log was cut at the sandbox's limit.")


def _challenges(version_id: int) -> None:
    """The version's challenges, apart from its rated matches: unrated, asked for, on no ladder."""
    rows = cached("version_challenges", version_id, PAGE_SIZE)
    if not rows:
        return
    st.subheader("Challenges (unrated)")
    st.dataframe(pd.DataFrame({
        "match": [match_link(r["id"]) for r in rows],
        "status": [r["status"] for r in rows],
        "seats": [", ".join(f"{s['bot']} v{s['version']}" for s in r["seats"]) for r in rows],
        "place": [next((place_text(r["game"], s["rank"], s["score"], r["end_reason"]) for s in r["seats"]
                        if s["version_id"] == version_id), "") for r in rows],
        "ended": [r["end_reason"] for r in rows],
    }), column_config={"match": st.column_config.LinkColumn(display_text=r"match=(.*)$")}, hide_index=True,
        width="stretch")


def promotion_frame(rows: list[dict[str, Any]]) -> pd.DataFrame:
    """A version's promotions with their evidence: the match that did it and both scores after it."""
    return pd.DataFrame({
        "when (UTC)": [f"{r['promoted_at']:%Y-%m-%d %H:%M}" for r in rows],
        "season": [f"{r['season']}, {r['players']} players" for r in rows],
        "promoted": [f"{r['from_league']} → {r['to_league']}" for r in rows],
        "its μ − 3σ": [r["score"] for r in rows],
        "boss's μ − 3σ": [r["boss_score"] for r in rows],
        "beaten boss": [r["boss"] for r in rows],
        "in a row": [r["streak"] for r in rows],
        "match": [match_link(r["match_id"]) for r in rows]})


def _promotions(version_id: int) -> None:
    """Its climb through the leagues (seasons with leagues only)."""
    rows = cached("version_promotions", version_id)
    if not rows:
        return
    st.subheader("Promotions")
    st.dataframe(promotion_frame(rows), hide_index=True, width="stretch", column_config={
        "match": st.column_config.LinkColumn(display_text=r"match=(.*)$"),
        "its μ − 3σ": st.column_config.NumberColumn(format="%.2f"),
        "boss's μ − 3σ": st.column_config.NumberColumn(format="%.2f")})
    st.caption("Each promotion, with the rated match after which its μ − 3σ had stayed above its league's boss "
               "for the season's number of matches in a row, and both scores at that moment.")


def _faults(version_id: int) -> None:
    st.subheader("Faults by kind")
    faults = cached("faults_by_kind", version_id)
    if not faults:
        st.caption("No faults in any match.")
        return
    st.dataframe(pd.DataFrame({"kind": [f["kind"] for f in faults], "faults": [f["faults"] for f in faults],
                               "matches": [f["matches"] for f in faults],
                               "example": [match_link(f["example_match"]) for f in faults]}),
                 column_config={"example": st.column_config.LinkColumn(display_text=r"match=(.*)$")},
                 hide_index=True)


def render() -> None:
    st.title("Bot")
    bot_id = query_int(st.query_params.get("bot"))
    found = cached("bot", bot_id) if bot_id is not None else None
    if found is None:
        if bot_id is not None:
            st.warning(f"There is no bot {bot_id}: search for it below.")
        _search()
        return
    author = sign_in("author")
    own = author is not None and author["id"] == found["account_id"]
    st.header(f"{found['name']}")
    st.caption(f"{found['game']} · by {found['author']}" + (" · retired" if found["retired_at"] else "")
               + (" · yours: your logs are shown" if own else ""))
    versions = cached("bot_versions", found["id"])
    if not versions:
        st.info("This bot has no versions yet.")
        return
    ladders_by_version = {v["id"]: cached("version_ladders", v["id"]) for v in versions[:PAGE_SIZE]}
    _versions(versions, ladders_by_version)

    wanted = query_int(st.query_params.get("version"))
    index = next((i for i, v in enumerate(versions) if v["id"] == wanted), 0)
    version = st.selectbox("Version", versions, index=index, format_func=lambda v: f"v{v['number']} ({v['status']})",
                           key=f"bot_version_{found['id']}")
    ladders = ladders_by_version.get(version["id"]) or cached("version_ladders", version["id"])
    _challenges(version["id"])
    if not ladders:
        st.info("This version has not played a rated match yet.")
        _faults(version["id"])
        return
    ladder = st.selectbox("Ladder", ladders, key=f"bot_ladder_{version['id']}",
                          format_func=lambda r: f"{r['season']}, {r['players']} players ({r['state']})")
    figures = st.columns(5)
    figures[0].metric("μ − 3σ", f"{ladder['mu'] - 3 * ladder['sigma']:.2f}")
    figures[1].metric("μ", f"{ladder['mu']:.2f}")
    figures[2].metric("σ", f"{ladder['sigma']:.2f}")
    figures[3].metric("Matches", f"{ladder['matches']:,}")
    latency = cached("answer_latency", version["id"])
    figures[4].metric("Median answer", "–" if latency["median_s"] is None else f"{latency['median_s'] * 1000:.0f} ms",
                      help=f"Over its latest {latency['matches']} matches: the time from the referee sending a turn "
                           "request to receiving the answer, network latency included (an online bot's lag shows "
                           "here).")

    league = cached("page_leagues", ladder["ladder_id"], (version["id"],)).get(version["id"])
    if league:
        st.caption(f"League: {league['league']}" + (" (its boss: the line to beat to move up)" if league["boss"]
                                                     else ""))

    st.subheader("Rating history")
    history = cached("rating_history", version["id"], ladder["ladder_id"])
    if history:
        st.altair_chart(history_chart(history), width="stretch")
        st.caption(f"μ and its ±3σ band over the latest {len(history):,} matches.")
    _promotions(version["id"])
    _matches(version["id"], ladder["ladder_id"], found["game"], own)
    if is_cooperative(found["game"]):
        _partners(version["id"], ladder["ladder_id"])

    st.subheader("Head to head")
    rows = cached("head_to_head", version["id"], ladder["ladder_id"])
    if rows:
        offset = pager("h2h_page", len(rows), PAGE_SIZE)
        show_rates(head_to_head_frame(rows[offset:offset + PAGE_SIZE]), "win rate")
        st.caption(f"Over its latest {WINDOW} matches on this ladder: the share of meetings it finished "
                   "ahead (a tie is not ahead), with its 95 % Wilson interval.")
    _faults(version["id"])


render()
