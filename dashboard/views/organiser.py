"""Organiser: create, start and close seasons (or close with finals); pause and reinstate versions;
revoke API tokens.
Behind an organiser token.

The only page that writes, and only through the store's own functions (`seasons.py`,
`version_status.py`), each in one transaction: a refused request (a name taken, a season
already closed) changes nothing and says why.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamlit as st

from dashboard.auth import sign_in
from dashboard.data import PAGE_SIZE, run
from dashboard.token_revoke import render_tokens
from referee.games import GAMES
from workers.finals import DEFAULT_GAMES_PER_PAIR, NEW_VERSIONS, Finals
from workers.seasons import SeasonError, SeasonSpec
from workers.store import versions
from workers.store.errors import Conflict, NotFound
from workers.store.finals import start_finals
from workers.store.seasons import close_season, create_season, seasons, start_season
from workers.store.version_status import pause_version, reinstate_version

REFUSALS = (Conflict, NotFound, SeasonError, ValueError)


def _do(action: Callable[..., Any], *args: Any, done: str) -> None:
    """One write; on success the caches are dropped so every page shows it at once."""
    try:
        run(action, *args)
    except REFUSALS as exc:
        st.error(str(exc))
        return
    st.cache_data.clear()
    st.session_state["organiser_done"] = done
    st.rerun()


def _create() -> None:
    st.subheader("Create a season")
    with st.form("create_season"):
        name = st.text_input("Name", placeholder="skyjo-2027-spring", key="new_season_name")
        game = st.selectbox("Game", sorted(GAMES), key="new_season_game")
        counts = st.text_input("Player counts", value="2", help="comma-separated: one ladder per count",
                               key="new_season_players")
        carry = st.text_input("Carry ratings over from (a closed season, optional)", key="new_season_carry")
        submitted = st.form_submit_button("Create")
    if submitted:
        try:
            players = tuple(int(c) for c in counts.replace(" ", "").split(",") if c)
            spec = SeasonSpec(name.strip(), game, players, carry_over_from=carry.strip() or None)
        except (ValueError, SeasonError) as exc:
            st.error(f"cannot create the season: {exc}")
            return
        _do(create_season, spec, done=f"season {spec.name} created (draft): start it when its bots are ready")


def _seasons() -> None:
    st.subheader("Seasons")
    for season in _current_seasons():
        row = st.columns([3, 1, 1, 2])
        finals = season["finals"]
        state = f"{season['state']}, in its finals (top {finals['top']})" if finals and season["state"] == "active" \
            else season["state"]
        row[0].write(f"**{season['name']}** · {season['game']} · {state}")
        if season["state"] == "draft" and row[1].button("Start", key=f"start_{season['id']}"):
            _do(start_season, season["name"], done=f"season {season['name']} started")
        if season["state"] == "active" and row[2].button("Close", key=f"close_{season['id']}"):
            _do(close_season, season["name"],
                done=f"season {season['name']} closed: its standings are frozen, its unfinished matches void")
        if season["state"] == "active" and not finals:
            _finals(row[3], season)


def _finals(cell: Any, season: dict[str, Any]) -> None:
    """Close with finals: the top K of each ladder play a balanced final, then the season closes."""
    with cell.popover("Close with finals"):
        top = st.number_input("Finalists (K)", min_value=2, value=4, key=f"finals_top_{season['id']}")
        budget = st.number_input("Games per pair", min_value=1, value=DEFAULT_GAMES_PER_PAIR,
                                 key=f"finals_budget_{season['id']}")
        until = st.checkbox("Stop once settled", key=f"finals_until_{season['id']}")
        new_versions = st.radio("New versions meanwhile", NEW_VERSIONS, horizontal=True,
                                format_func=lambda v: {"hold": "hold until the end", "refuse": "refuse"}[v],
                                key=f"finals_new_{season['id']}")
        if st.button("Start the finals", key=f"finals_go_{season['id']}"):
            try:
                finals = Finals(int(top), int(budget), until, str(new_versions))
            except SeasonError as exc:
                st.error(str(exc))
                return
            _do(start_finals, season["name"], finals,
                done=f"season {season['name']} is in its finals: the top {finals.top} play, then it closes")


def _current_seasons() -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = run(seasons)  # not cached: the organiser acts on what is there now
    return found


def _versions() -> None:
    st.subheader("Pause or reinstate a version")
    st.caption(f"The first {PAGE_SIZE} by bot name; narrow them with the name.")
    status = st.radio("Versions", ["active", "paused"], horizontal=True, key="organiser_status")
    bot = st.text_input("Bot name contains", key="organiser_bot").strip()
    rows = run(versions.versions_by_status, status, bot=bot, limit=PAGE_SIZE)
    if not rows:
        st.caption(f"No {status} versions" + (f" of a bot called like {bot!r}." if bot else "."))
        return
    version = st.selectbox("Version", rows, key=f"organiser_{status}_version",
                           format_func=lambda v: f"{v['bot']} v{v['number']} ({v['game']}, {v['author']})"
                           + (f": {v['status_message']}" if v["status_message"] else ""))
    if status == "active":
        reason = st.text_input("Reason (its author reads it)", key="pause_reason")
        if st.button("Pause"):
            _do(pause_version, version["id"], reason, done=f"{version['bot']} v{version['number']} paused")
    elif st.button("Reinstate"):
        _do(reinstate_version, version["id"], done=f"{version['bot']} v{version['number']} reinstated")


def render() -> None:
    st.title("Organiser")
    organiser = sign_in("organiser", st)
    if organiser is None:
        st.info("Sign in with an organiser token to run seasons and pause versions.")
        return
    if "organiser_done" in st.session_state:
        st.success(st.session_state.pop("organiser_done"))
    _create()
    _seasons()
    _versions()
    render_tokens()


render()
