"""Seasons and their ladders in the store: create, start, close (freezing the standings), read.

Every read of a season lives here, for the scheduler, the Arena, the commands and the
dashboard alike: the list of seasons, one season, its settings, its matches by status, the
active ones.

Every function runs inside the caller's transaction (``Database.connection()``), so a
failure half-way (a bad carry-over source, a closed season) leaves nothing behind. Closing
holds each ladder exclusively (`results.lock_ladder`, in ladder order), so no match is
applied between the moment the season stops and the moment its standings are frozen.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from psycopg.types.json import Jsonb

from workers.house_bots import house_version
from workers.matchmaking import MatchmakingParameters
from workers.ratings import Rating, RatingParameters
from workers.seasons import SeasonSpec, carried_over, check_transition

from .database import Conn, Row
from .errors import Conflict, NotFound
from .ladders import standings
from .leagues import create_leagues, league_settings
from .results import lock_ladder
from .submissions import enter_held_versions

SEASON_CLOSED_VOID_REASON = "season closed before the match finished"
MATCH_STATUSES = ("queued", "running", "finished", "void")


@dataclass(frozen=True)
class ActiveSeason:
    id: int
    name: str
    matches_in_flight: int   # per ladder: what the scheduler keeps queued or running


@dataclass(frozen=True)
class Season:
    id: int
    name: str
    game: str
    player_counts: tuple[int, ...]
    state: str
    rating: RatingParameters
    matchmaking: MatchmakingParameters
    carry_over_from: int | None
    sigma_inflation: float | None
    ladders: dict[int, int]          # player count -> ladder id (the regular ladders)
    finals: dict[str, Any] | None = None        # what the organiser called (`workers.finals.Finals`), or None
    final_ladders: dict[int, int] = field(default_factory=dict)  # player count -> the final's ladder id
    matches_in_flight: int = 0


def get_season(conn: Conn, name: str, *, lock: bool = False) -> Season:
    """The season called ``name`` (``lock``: held FOR UPDATE until the transaction ends)."""
    row = conn.execute("SELECT * FROM seasons WHERE name = %s" + (" FOR UPDATE" if lock else ""), (name,)).fetchone()
    if row is None:
        known = [r["name"] for r in conn.execute("SELECT name FROM seasons ORDER BY id DESC LIMIT 5")]
        hint = f" (recent: {', '.join(known)})" if known else " (there are no seasons yet: create one)"
        raise NotFound(f"unknown season {name!r}{hint}")
    return _season(conn, row)


def get_season_by_id(conn: Conn, season_id: int) -> Season:
    row = conn.execute("SELECT * FROM seasons WHERE id = %s", (season_id,)).fetchone()
    if row is None:
        raise NotFound(f"unknown season id {season_id}")
    return _season(conn, row)


def _season(conn: Conn, row: dict[str, Any]) -> Season:
    stages: dict[str, dict[int, int]] = {"regular": {}, "final": {}}
    for r in conn.execute("SELECT id, players, stage FROM ladders WHERE season_id = %s ORDER BY players",
                          (row["id"],)):
        stages[r["stage"]][r["players"]] = r["id"]
    return Season(row["id"], row["name"], row["game"], tuple(row["player_counts"]), row["state"],
                  RatingParameters.from_mapping(row["rating"]), MatchmakingParameters.from_mapping(row["matchmaking"]),
                  row["carry_over_from"], row["carry_over_sigma_inflation"], stages["regular"], row["finals"],
                  stages["final"], row["matches_in_flight"])


def create_season(conn: Conn, spec: SeasonSpec) -> Season:
    """A draft season with its ladders; ratings start fresh or from a closed season's standings."""
    if conn.execute("SELECT 1 FROM seasons WHERE name = %s", (spec.name,)).fetchone():
        raise Conflict(f"a season called {spec.name!r} exists already: choose another name")
    source = None
    if spec.carry_over_from is not None:
        source = get_season(conn, spec.carry_over_from)
        if source.game != spec.game:
            raise Conflict(f"season {source.name} is a {source.game} season; {spec.game} ratings cannot carry over "
                           "from it")
        if source.state != "closed":
            raise Conflict(f"season {source.name} is {source.state}: close it first, so the ratings carried "
                           "over are its frozen standings")
    row = conn.execute(
        """INSERT INTO seasons (name, game, player_counts, options, move_s, bank_s, first_move_s, cpu_clock,
                                wall_backstop, strike_limit, matches_in_flight, matchmaking, rating, carry_over_from,
                                carry_over_sigma_inflation, promotion_matches, league_start)
           VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s) RETURNING id""",
        (spec.name, spec.game, list(spec.player_counts), Jsonb(spec.options), spec.move_s, spec.bank_s,
         spec.first_move_s, spec.cpu_clock, spec.wall_backstop, spec.strike_limit, spec.matches_in_flight,
         Jsonb(spec.matchmaking.to_mapping()),
         Jsonb(spec.rating.to_mapping()), source.id if source else None,
         spec.sigma_inflation if source else None, spec.promotion_matches, spec.league_start)).fetchone()
    assert row is not None
    season_id = row["id"]
    ladder_ids = []
    for players in spec.player_counts:
        ladder = conn.execute("INSERT INTO ladders (season_id, players) VALUES (%s, %s) RETURNING id",
                              (season_id, players)).fetchone()
        assert ladder is not None
        ladder_ids.append(ladder["id"])
    if spec.leagues:
        create_leagues(conn, season_id, ladder_ids,
                       [(lg.name, lg.boss, house_version(conn, spec.game, lg.boss)) for lg in spec.leagues])
    season = get_season_by_id(conn, season_id)
    if source is not None:
        _carry_over(conn, season)
    return season


def starting_ratings(conn: Conn, season: Season, players: int) -> tuple[dict[int, Rating], Rating | None]:
    """The ratings a ladder starts from: a closed source season's frozen standings, inflated.

    The apply path reads them from the ratings rows written at creation; the recompute
    command derives them again from here, so both start from the same numbers.
    """
    if season.carry_over_from is None or season.sigma_inflation is None:
        return {}, None
    source = get_season_by_id(conn, season.carry_over_from)
    ladder_id = source.ladders.get(players)
    if ladder_id is None:
        return {}, None
    gamma, params = season.sigma_inflation, season.rating
    rows = conn.execute("SELECT version_id, mu, sigma FROM season_standings WHERE ladder_id = %s", (ladder_id,))
    carried = {r["version_id"]: carried_over(Rating(r["mu"], r["sigma"]), gamma, params) for r in rows}
    pseudo = conn.execute("SELECT pseudo_mu, pseudo_sigma FROM ladders WHERE id = %s", (ladder_id,)).fetchone()
    game = None
    if pseudo is not None and pseudo["pseudo_mu"] is not None:
        game = carried_over(Rating(pseudo["pseudo_mu"], pseudo["pseudo_sigma"]), gamma, params)
    return carried, game


def _carry_over(conn: Conn, season: Season) -> None:
    for players, ladder_id in season.ladders.items():
        carried, game = starting_ratings(conn, season, players)
        with conn.cursor() as cur:
            cur.executemany("INSERT INTO ratings (ladder_id, version_id, mu, sigma) VALUES (%s, %s, %s, %s)",
                            [(ladder_id, v, r.mu, r.sigma) for v, r in carried.items()])
        if game is not None:
            conn.execute("UPDATE ladders SET pseudo_mu = %s, pseudo_sigma = %s WHERE id = %s",
                         (game.mu, game.sigma, ladder_id))


def start_season(conn: Conn, name: str) -> Season:
    season = get_season(conn, name, lock=True)
    check_transition(season.name, season.state, "active")
    conn.execute("UPDATE seasons SET state = 'active', started_at = now() WHERE id = %s", (season.id,))
    return get_season_by_id(conn, season.id)


def close_season(conn: Conn, name: str) -> Season:
    """Stop the season, void its unfinished matches and freeze every ladder's standings (a ladder
    frozen already, a regular one when its finals began, stays as it was)."""
    season = get_season(conn, name, lock=True)
    check_transition(season.name, season.state, "closed")
    stop_ladders(conn, season, [*season.ladders.values(), *season.final_ladders.values()], SEASON_CLOSED_VOID_REASON)
    conn.execute("UPDATE seasons SET state = 'closed', closed_at = now() WHERE id = %s", (season.id,))
    if season.finals is not None:   # versions held during the finals enter the ladders now
        enter_held_versions(conn, season.game)
    return get_season_by_id(conn, season.id)


def stop_ladders(conn: Conn, season: Season, ladder_ids: list[int], reason: str) -> None:
    """Hold the ladders, void their unfinished matches (with ``reason``) and freeze their standings."""
    for ladder_id in sorted(ladder_ids):
        lock_ladder(conn, ladder_id, exclusive=True)
    conn.execute("""UPDATE matches SET status = 'void', void_reason = %s, lease_owner = NULL, lease_expires_at = NULL
                    WHERE season_id = %s AND ladder_id = ANY(%s) AND status IN ('queued', 'running')""",
                 (reason, season.id, ladder_ids))
    frozen = {r["ladder_id"] for r in conn.execute(
        "SELECT DISTINCT ladder_id FROM season_standings WHERE ladder_id = ANY(%s)", (ladder_ids,))}
    for ladder_id in ladder_ids:
        if ladder_id in frozen:
            continue
        table = standings(conn, ladder_id)
        with conn.cursor() as cur:
            cur.executemany(
                """INSERT INTO season_standings (season_id, ladder_id, position, version_id, mu, sigma, matches)
                   VALUES (%s, %s, %s, %s, %s, %s, %s)""",
                [(season.id, ladder_id, s.position, s.version_id, s.mu, s.sigma, s.matches) for s in table])


def season_details(conn: Conn, season: Season) -> dict[str, Any]:
    """The summary with the season's settings and its matches by status: what `skyarena season show` and
    the Arena's season calls answer."""
    return {**season_summary(season), **season_settings(conn, season.id), **league_settings(conn, season.id),
            "matches": season_match_counts(conn, season.id)}


def season_summary(season: Season) -> dict[str, Any]:
    """A JSON-ready description, for the command line and the Arena."""
    return {"id": season.id, "name": season.name, "game": season.game, "state": season.state,
            "player_counts": list(season.player_counts), "ladders": {str(k): v for k, v in season.ladders.items()},
            "rating": season.rating.to_mapping(), "matchmaking": season.matchmaking.to_mapping(),
            "carry_over_from": season.carry_over_from, "sigma_inflation": season.sigma_inflation,
            "finals": season.finals, "final_ladders": {str(k): v for k, v in season.final_ladders.items()}}


def seasons(conn: Conn) -> list[Row]:
    """Every season, newest first, with its ladders as {player count: ladder id} (a small table)."""
    return list(conn.execute(
        """SELECT s.id, s.name, s.game, s.state, s.player_counts, s.created_at, s.started_at, s.closed_at,
                  coalesce(jsonb_object_agg(l.players, l.id) FILTER (WHERE l.stage = 'regular'), '{}') AS ladders,
                  coalesce(jsonb_object_agg(l.players, l.id) FILTER (WHERE l.stage = 'final'), '{}') AS final_ladders,
                  s.finals
           FROM seasons s LEFT JOIN ladders l ON l.season_id = s.id
           GROUP BY s.id ORDER BY s.id DESC"""))


def season_match_counts(conn: Conn, season_id: int) -> dict[str, int]:
    """The season's matches by status, only the statuses it has (index-only on ``matches_season_status``)."""
    rows = conn.execute("SELECT status, count(*) AS n FROM matches WHERE season_id = %s GROUP BY status",
                        (season_id,)).fetchall()
    return {r["status"]: int(r["n"]) for r in rows}


def season_progress(conn: Conn, season_id: int) -> dict[str, int]:
    """The season's matches by status, every status named (0 when it has none): a progress bar's parts."""
    return {**dict.fromkeys(MATCH_STATUSES, 0), **season_match_counts(conn, season_id)}


def season_settings(conn: Conn, season_id: int) -> dict[str, Any]:
    """The settings the play path reads from a season (clocks, strikes, options, matches in flight)."""
    row = conn.execute("SELECT options, move_s, bank_s, first_move_s, cpu_clock, wall_backstop, strike_limit,"
                       " matches_in_flight, created_at,"
                       " started_at, closed_at FROM seasons WHERE id = %s", (season_id,)).fetchone()
    return dict(row) if row else {}


def active_seasons(conn: Conn, game: str | None = None) -> list[ActiveSeason]:
    """The active seasons (of ``game`` only, if given: where a version that passed its smoke match plays next)."""
    rows = conn.execute("SELECT id, name, matches_in_flight FROM seasons WHERE state = 'active'"
                        " AND (%(game)s::text IS NULL OR game = %(game)s) ORDER BY id", {"game": game}).fetchall()
    return [ActiveSeason(r["id"], r["name"], r["matches_in_flight"]) for r in rows]


def season_of_match(conn: Conn, match_id: str) -> ActiveSeason | None:
    """The active season a match belongs to, or None (a smoke match, or a season no longer active)."""
    row = conn.execute("SELECT s.id, s.name, s.matches_in_flight FROM matches m JOIN seasons s ON s.id = m.season_id"
                       " WHERE m.id = %s AND s.state = 'active'", (match_id,)).fetchone()
    return ActiveSeason(row["id"], row["name"], row["matches_in_flight"]) if row else None


def set_matches_in_flight(conn: Conn, season_id: int, count: int) -> None:
    """Change how many matches per ladder the scheduler keeps going (0 lets a season drain)."""
    conn.execute("UPDATE seasons SET matches_in_flight = %s WHERE id = %s", (count, season_id))
