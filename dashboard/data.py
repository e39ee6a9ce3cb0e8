"""The dashboard's access to the store: one pool per server, and short caches in front of the reads.

Every read is a store function, the same ones the Arena calls (`workers.store.matches`,
`versions`, `seasons`, `ladders`); this module only decides what may be cached and for how
long. Ladders, progress and histories change with every applied match, so they are cached
for seconds (many viewers of one page cost one query per TTL, and a viewer sees a change
within that time). A finished match never
changes, so its rows and its replay are cached for longer; the Live page and everything
token-related are never cached. Cache keys include the database URL, so two dashboards
(or two tests) on two databases in one process never see each other's rows.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from workers import ladder_confidence
from workers.store import Database, ladders, leagues, matches, open_database, seasons, versions
from workers.store import replay_document as stored_replay
from workers.store.database import Row, resolve_url
from workers.store.results import decompress_replay

from .replay_views import ReplayViews

LIVE_TTL_S = 10        # ladders, progress, a version's figures: fresh within seconds
FINISHED_TTL_S = 600   # a finished match's rows and replay do not change
PAGE_SIZE = 25         # rows per page of every long list


def database_url() -> str:
    """The server the dashboard reads: ``DATABASE_URL`` (``skyarena dashboard --database-url`` sets it)."""
    return resolve_url()


@st.cache_resource(show_spinner=False)
def _database(url: str) -> Database:
    return open_database(url, max_size=4)


def database() -> Database:
    return _database(database_url())


def run(read: Any, *args: Any, **kwargs: Any) -> Any:
    """``read(conn, *args, **kwargs)`` on a pooled connection: for the uncached reads and the writes."""
    with database().connection() as conn:
        return read(conn, *args, **kwargs)


# ----- cached reads (the URL is the first argument so it is part of every cache key) -------
CACHED_READS = {read.__name__: read for read in (
    seasons.seasons, seasons.season_progress, ladders.ladder_page, ladders.ladder_size, ladders.frozen_page,
    ladders.frozen_size, versions.find_bots, versions.bot, versions.bot_versions, ladders.version_ladders,
    ladders.rated_matches, ladders.head_to_head, versions.faults_by_kind, ladders.rating_history,
    matches.version_challenges, versions.answer_latency, ladders.partner_landings,
    ladder_confidence.ladder_confidence, ladder_confidence.season_ladder_settling, leagues.ladder_league_table,
    leagues.page_leagues, leagues.version_promotions)}


@st.cache_data(ttl=LIVE_TTL_S, show_spinner=False)
def _cached(url: str, name: str, *args: Any, **kwargs: Any) -> Any:
    with _database(url).connection() as conn:
        return CACHED_READS[name](conn, *args, **kwargs)


def cached(name: str, *args: Any, **kwargs: Any) -> Any:
    """The store read called ``name`` (one of ``CACHED_READS``), cached for ``LIVE_TTL_S``."""
    return _cached(database_url(), name, *args, **kwargs)


@st.cache_data(ttl=FINISHED_TTL_S, show_spinner=False)
def _finished_match(url: str, match_id: str) -> tuple[Row | None, list[Row]]:
    with _database(url).connection() as conn:
        return matches.match(conn, match_id), matches.match_participants(conn, match_id)


def match_and_seats(match_id: str) -> tuple[Row | None, list[Row]]:
    """A match and its seats: cached long once finished (or void), read afresh while it may change."""
    url = database_url()
    row, seats = _finished_match(url, match_id)
    if row is not None and row["status"] not in ("finished", "void"):
        _finished_match.clear(url, match_id)  # type: ignore[call-arg]
    return row, seats


@st.cache_resource(ttl=FINISHED_TTL_S, max_entries=32, show_spinner=False)
def _replay(url: str, match_id: str) -> ReplayViews | None:
    with _database(url).connection() as conn:
        data = matches.replay_data(conn, match_id)
    if data is None:
        return None
    records, chance_in_order = stored_replay.records(decompress_replay(data))
    return ReplayViews(records, chance_in_order=chance_in_order)


def replay(match_id: str) -> ReplayViews | None:
    """The match's replay, opened once and shared by its viewers (`ReplayViews` is thread-safe)."""
    return _replay(database_url(), match_id)
