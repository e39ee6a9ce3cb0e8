"""The demo's seasons on a real Arena: an older demo's season (fewer ladders, no leagues) is closed
and the next one opens with today's shape; a season of today's shape is kept as it is."""

from __future__ import annotations

from skyarena.arena.client import Arena
from workers.demo.league import DemoClock, demo_leagues, demo_player_counts, open_seasons
from workers.seasons import SeasonSpec
from workers.store import Database
from workers.store.leagues import league_settings
from workers.store.seasons import create_season, get_season, start_season

from .support import ArenaUnderTest


def _leagues(db: Database, name: str) -> str:
    with db.connection() as conn:
        settings = league_settings(conn, get_season(conn, name).id)
    return ",".join(f"{lg['name']}:{lg['boss']}" for lg in settings["leagues"])


def test_an_older_demos_season_is_closed_and_the_next_opens_with_todays_ladders(arena: ArenaUnderTest,
                                                                                 db: Database) -> None:
    with db.connection() as conn:   # what the demo of two sessions ago left: one 2-player ladder, no leagues
        create_season(conn, SeasonSpec("demo-skybirds", "skybirds", (2,)))
        start_season(conn, "demo-skybirds")
    organiser = Arena(arena.address, arena.token("organiser", "organiser"))
    names = open_seasons(db, organiser, DemoClock())
    assert names["skybirds"] == "demo-skybirds-2"
    with db.connection() as conn:
        old, new = get_season(conn, "demo-skybirds"), get_season(conn, "demo-skybirds-2")
    assert old.state == "closed" and new.state == "active"
    assert list(new.player_counts) == demo_player_counts("skybirds") == [2, 4]
    assert _leagues(db, "demo-skybirds-2") == demo_leagues("skybirds")
    assert open_seasons(db, organiser, DemoClock()) == names     # today's shape: kept, nothing new opened
