"""Keeping every active season's ladders full: the body of the ``schedule`` beat task.

For each ladder of each active season, under the ladder's scheduling lock, the scheduler counts the
matches queued or running, asks the matchmaker for enough new ones to reach the season's
``matches_in_flight``, and inserts their rows (seats and seeds fixed now) in the same
transaction. Only then, after the commit, are they enqueued: a message never names a row
that does not exist, and a row whose message is lost is found again by the reaper
(`queue.waiting_matches`). A season in its finals plays only them
(`workers.final_scheduling`). Each pass also records whether the ladder's top is settled
(`workers.ladder_confidence`), so the moment it settled is kept, and a settled ladder with
``settled_per_minute`` slows to that trickle (the demo's pacing). Two beats running at once
are safe: the second waits for the lock and then finds the ladder full.

A season with leagues (`workers.leagues`) plays each league of a ladder as a ladder of its own:
the matchmaker is given only the league's versions (its boss included) and the league is topped
up to ``matches_in_flight``; a league where only its boss stands plays nothing, and one too small
to seat a table plays with the league below it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from referee.games import GAMES
from workers.final_scheduling import schedule_finals
from workers.ladder_confidence import record_verdict, verdict_of
from workers.matchmaking import LadderVersion, plan_matches
from workers.store import Database
from workers.store.database import Conn
from workers.store.ladders import matches_created_since
from workers.store.leagues import ladder_leagues, season_leagues
from workers.store.scheduling import (
    SEED_RANGE,
    in_flight_seats,
    ladder_match_count,
    ladder_versions,
    pause_versions,
    schedule_matches,
    scheduling_lock,
)
from workers.store.seasons import active_seasons, get_season_by_id, season_of_match


@dataclass(frozen=True)
class Scheduled:
    """What one pass over a season did."""

    season: str
    match_ids: tuple[str, ...]
    paused: tuple[int, ...]       # version ids paused for faulting


def schedule_season(db: Database, season_id: int, matches_in_flight: int) -> Scheduled:
    """Top up every ladder of the season to ``matches_in_flight`` queued or running matches."""
    ids: list[str] = []
    paused: list[int] = []
    with db.connection() as conn:
        season = get_season_by_id(conn, season_id)
        if season.state != "active":
            return Scheduled(season.name, (), ())
        if season.finals is not None:   # the regular ladders stopped: only the finals play
            return Scheduled(season.name, tuple(schedule_finals(conn, season)), ())
        bosses = {lg.boss_version_id for lg in season_leagues(conn, season.id)}
        for players, ladder_id in sorted(season.ladders.items()):
            scheduling_lock(conn, ladder_id)
            versions = ladder_versions(conn, ladder_id, season.rating)
            verdict = verdict_of(season, players, versions)
            record_verdict(conn, ladder_id, verdict)
            in_flight = in_flight_seats(conn, ladder_id)
            room = None
            if verdict.settled and season.matchmaking.settled_per_minute:
                room = trickle_room(conn, ladder_id, season.matchmaking.settled_per_minute)
            # Seeded by the ladder's history so a schedule can be re-derived, yet moves on each pass.
            count = ladder_match_count(conn, ladder_id)
            table = 1 if GAMES[season.game].cooperative else players  # a co-op version may fill every seat
            for league, members in _divisions(conn, ladder_id, versions, bosses, table):
                ids_here = {v.version_id for v in members}
                league_in_flight = in_flight if league is None else [s for s in in_flight if s[0] in ids_here]
                wanted = matches_in_flight - len(league_in_flight)
                if room is not None:
                    wanted = min(wanted, room)
                if wanted <= 0:
                    continue
                rng = random.Random(f"{season.id}/{ladder_id}/{count}" + ("" if league is None else f"/{league}"))
                plan = plan_matches(members, in_flight, players, wanted, rng.randrange(SEED_RANGE),
                                    season.matchmaking, season.rating, GAMES[season.game].cooperative)
                pause_versions(conn, plan.paused)
                paused.extend(p.version_id for p in plan.paused if p.version_id not in paused)
                seeds = [rng.randrange(SEED_RANGE) for _ in plan.matches]
                ids.extend(schedule_matches(conn, ladder_id, plan.matches, seeds))
                if room is not None:
                    room -= len(plan.matches)
    return Scheduled(season.name, tuple(ids), tuple(paused))


def _divisions(conn: Conn, ladder_id: int, versions: Sequence[LadderVersion], bosses: set[int], seats: int
               ) -> list[tuple[int | None, list[LadderVersion]]]:
    """The ladder as the matchmaker plays it: whole (league None), or one part per league with someone
    besides its boss in it, each version in its league (`store.leagues.ladder_leagues`). A league with
    fewer versions than a table has ``seats`` plays together with the league below it (the lowest with
    the one above), so a 4-player ladder does not stand still because its leagues thinned out; a
    league where only its boss stands plays nothing (its boss never comes down to play)."""
    if not bosses:
        return [(None, list(versions))]
    league_of = ladder_leagues(conn, ladder_id, [v.version_id for v in versions])
    by_league: dict[int, list[LadderVersion]] = {}
    for version in versions:
        by_league.setdefault(league_of[version.version_id], []).append(version)
    keys = [k for k in sorted(by_league) if any(v.version_id not in bosses for v in by_league[k])]
    return [(key, part) for key, part in merge_small_leagues(keys, [by_league[k] for k in keys], seats)]


T = TypeVar("T")


def merge_small_leagues(keys: list[int], parts: list[list[T]], seats: int) -> list[tuple[int, list[T]]]:
    """Leagues (lowest first) with fewer than ``seats`` members joined to the one below, the lowest to
    the one above it (under that league's key)."""
    keys, parts = list(keys), [list(p) for p in parts]
    for i in range(len(parts) - 1, 0, -1):
        if len(parts[i]) < seats:
            parts[i - 1] = [*parts[i - 1], *parts.pop(i)]
            keys.pop(i)
    if len(parts) > 1 and len(parts[0]) < seats:
        lowest = parts.pop(0)
        parts[0] = [*lowest, *parts[0]]
        keys.pop(0)
    return list(zip(keys, parts))


def trickle_room(conn: Conn, ladder_id: int, per_minute: float) -> int:
    """New matches a settled ladder may start now to stay within ``per_minute`` (over a window of at
    least a minute, so a rate below one a minute still starts a match now and then)."""
    window_s = max(60.0, 60.0 / per_minute)
    return max(0, math.floor(per_minute * window_s / 60.0) - matches_created_since(conn, ladder_id, window_s))


def top_up_after(db: Database, match_id: str) -> Scheduled | None:
    """Refill the ladders of a match's season as soon as the match is done, not at the next beat.

    The beat's pass stays the backstop; with it alone a season could run at most
    ``matches_in_flight`` matches per beat period however many workers wait.
    """
    with db.connection() as conn:
        season = season_of_match(conn, match_id)
    return None if season is None else schedule_season(db, season.id, season.matches_in_flight)


def schedule_active(db: Database) -> list[Scheduled]:
    """One scheduling pass over every active season."""
    with db.connection() as conn:
        seasons = active_seasons(conn)
    return [schedule_season(db, s.id, s.matches_in_flight) for s in seasons]
