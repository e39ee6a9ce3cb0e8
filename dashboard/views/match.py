"""Match: who played, how it ended, the faults, and its replay stepped turn by turn.

Opened as ``/match?match=ID``. The replay viewer re-creates the engine's views from the
stored replay (`ReplayViews`, opened once per match and shared between viewers) and draws
each with the game's board (`boards.board_svg`). The spectator's view is the default;
once the match is over, any seat's view can be chosen: nothing is hidden any more.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from dashboard.auth import sign_in
from dashboard.boards import board_svg
from dashboard.data import match_and_seats, replay, run
from dashboard.links import bot_link
from dashboard.replay_views import ReplayViews
from dashboard.widgets import Cell, Link, place_label, place_text, text_table
from referee.games import ReplayError
from workers.arena.participant_replay import stored_seat_jsonl

AUTOPLAY_S = 0.8   # seconds per step while playing: slow enough to follow a move
SPECTATOR = "spectator"


SEAT_NUMERIC = ("seat", "place", "score", "Δμ", "faults", "strikes")


def seat_columns(game: str) -> list[str]:
    return ["seat", "bot", "author", place_label(game), "score", "Δμ", "faults", "strikes", "forfeited", "rated"]


def seat_rows(game: str, end_reason: str | None, seats: list[dict[str, Any]]) -> list[list[Cell]]:
    """Who sat where and how it went; in Sky Team the team's landing or its loss, not a place."""
    return [[s["seat"], Link(f"{s['bot']} v{s['version']}", bot_link(s["bot_id"], s["version_id"])), s["author"],
             place_text(game, s["rank"], s["score"], end_reason), s["score"],
             None if s["mu_after"] is None else f"{s['mu_after'] - s['mu_before']:+.2f}", len(s["faults"]),
             s["strikes"], "yes" if s["forfeited"] else "no",
             "no: " + (s["unrated_reason"] or "excused") if s["unrated"] or s["unrated_reason"] else "yes"]
            for s in seats]


def _faults(seats: list[dict[str, Any]]) -> None:
    faults = [(s["seat"], s["bot"], f) for s in seats for f in s["faults"]]
    if not faults:
        return
    st.subheader("Faults")
    st.dataframe(pd.DataFrame({"seat": [seat for seat, _, _ in faults], "bot": [bot for _, bot, _ in faults],
                               "turn": [f.get("turn") for _, _, f in faults],
                               "kind": [f.get("kind") for _, _, f in faults],
                               "reason": [f.get("reason") for _, _, f in faults]}), hide_index=True)


def _step_by(key: str, delta: int, last: int) -> None:
    st.session_state[key] = min(last, max(0, st.session_state.get(key, 0) + delta))


def _toggle_play(key: str, last: int) -> None:
    playing = not st.session_state.get(f"{key}_playing", False)
    st.session_state[f"{key}_playing"] = playing
    if playing and st.session_state.get(key, 0) >= last:
        st.session_state[key] = 0  # play again from the start


def replay_viewer(match_id: str, game: str, players: int, views: ReplayViews, over: bool) -> None:
    """Slider, previous/next and autoplay over the replay's steps, with the picture of the table."""
    key = f"step_{match_id}"
    last = len(views) - 1
    options = [SPECTATOR, *(f"seat {seat}" for seat in range(players))] if over else [SPECTATOR]
    viewer = st.selectbox("Whose view", options, key=f"{key}_viewer",
                          help="the spectator's view; after the match, any seat's (its hand, its choices)")
    seat = None if viewer == SPECTATOR else int(viewer.split()[1])
    playing = st.session_state.get(f"{key}_playing", False)

    @st.fragment(run_every=AUTOPLAY_S if playing else None)
    def stepper() -> None:
        if st.session_state.get(f"{key}_playing", False):
            if st.session_state.get(key, 0) >= last:
                st.session_state[f"{key}_playing"] = False
            else:
                _step_by(key, 1, last)
        controls = st.columns([1, 1, 1, 6])
        controls[0].button("◀ Previous", key=f"{key}_prev", on_click=_step_by, args=(key, -1, last),
                           disabled=st.session_state.get(key, 0) <= 0)
        controls[1].button("Next ▶", key=f"{key}_next", on_click=_step_by, args=(key, 1, last),
                           disabled=st.session_state.get(key, 0) >= last)
        controls[2].button("Pause" if st.session_state.get(f"{key}_playing") else "Play", key=f"{key}_play",
                           on_click=_toggle_play, args=(key, last))
        index = controls[3].slider("Step", 0, last, key=key, label_visibility="collapsed") if last else 0
        try:
            step = views[index]
        except ReplayError as exc:
            st.error(f"This replay cannot be shown: {exc}")
            return
        st.caption(f"Step {index} of {last}" + (" · the end" if step.over else ""))
        # An <img> of the SVG: st.html would sanitise the markup away; an image is drawn as it is,
        # scaled to the page's width (the SVG has a viewBox), so a wide page gets a big board.
        st.image(board_svg(game, step.view(seat), seat=seat), width="stretch")
        st.code(step.text(seat), language=None)  # it tells what the picture shows, no more
        if step.result is not None:
            st.caption(f"Result: {step.result}")

    stepper()


def your_seats(match_id: str, row: dict[str, Any], seats: list[dict[str, Any]]) -> None:
    """To a seat's owner (author token, once per session): the reproduce command and the seat's
    participant's replay (full record, bot seed, decisions), read afresh: it is private to them."""
    author = sign_in("author")
    if author is None:
        st.sidebar.caption("Played in this match? Sign in to download your seat's replay and reproduce it.")
        return
    mine = [s for s in seats if s["account_id"] == author["id"]]
    if not mine:
        return
    st.subheader("Your seat")
    if row["status"] != "finished" or not row["has_replay"]:
        st.caption("Your participant's replay is there once the match has finished with its replay kept.")
        return
    for seat in mine:
        jsonl = run(stored_seat_jsonl, match_id, seat)
        if jsonl is None:
            continue
        st.code(f"skyarena reproduce {match_id} BOT_DIR" + (f" --seat {seat['seat']}" if len(mine) > 1 else ""),
                language="sh")
        st.download_button(f"Download seat {seat['seat']}'s participant's replay", jsonl,
                           file_name=f"{match_id}-seat{seat['seat']}.jsonl", mime="application/jsonl",
                           key=f"participant_{match_id}_{seat['seat']}")


def render() -> None:
    st.title("Match")
    match_id = (st.query_params.get("match") or "").strip()
    typed = st.text_input("Match id", value=match_id, key="match_id_input").strip()
    if typed != match_id:
        st.query_params["match"] = typed
        match_id = typed
    if not match_id:
        st.info("Open a match from a bot's page or the Live page, or type its id.")
        return
    row, seats = match_and_seats(match_id)
    if row is None:
        st.warning(f"There is no match {match_id!r}: check the id (bot pages list their matches).")
        return
    st.markdown(f"**{row['game']}**, {row['players']} players · "
                + (f"season **{row['season']}**" if row["season"] else f"a {row['kind']} match")
                + (f" · attempt {row['attempts']}" if row["attempts"] > 1 else ""))
    figures = st.columns(2)  # two wide figures: an end reason like "campaign-limit" must fit
    figures[0].metric("Status", row["status"])
    figures[1].metric("Ended by", row["end_reason"] or row["void_reason"] or "–")
    st.subheader("Participants")
    text_table(seat_columns(row["game"]), seat_rows(row["game"], row["end_reason"], seats), numeric=SEAT_NUMERIC)
    _faults(seats)
    your_seats(match_id, row, seats)
    st.subheader("Replay")
    if not row["has_replay"]:
        st.info("No replay stored: the match has not finished." if row["status"] in ("queued", "running")
                else "No replay was stored for this match.")
        return
    try:
        views = replay(match_id)
    except ReplayError as exc:
        st.error(f"This replay cannot be opened: {exc}")
        return
    if views is None:
        st.info("No replay was stored for this match.")
        return
    if views.version_note:
        st.caption(views.version_note)
    replay_viewer(match_id, row["game"], row["players"], views, over=row["status"] == "finished")


render()
