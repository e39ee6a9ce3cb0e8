"""``skyarena season create|start|close|list|show|standings``: the organiser's seasons.

Every subcommand needs an organiser API token (``--token`` or ``SKYARENA_TOKEN``), checked
against the store's hashed tokens. A season is validated whole before anything is written
(`workers.seasons.check_season`: game, player counts, options per count, clocks, parameters,
the same verdicts as the Arena's), and each change happens in one transaction: a bad request
leaves nothing behind.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click

from referee.games import GAMES
from skyarena.cli_support import UserError, clock_options, parse_options
from workers.boss_smoke import smoke_bosses
from workers.commands.store_options import open_store, store_options
from workers.errors import PLATFORM_ERRORS
from workers.finals import DEFAULT_GAMES_PER_PAIR, NEW_VERSIONS, Finals
from workers.ladder_confidence import ladder_confidence, ladder_settling
from workers.leagues import EXAMPLE, LEAGUE_STARTS, MAX_PROMOTION_MATCHES, parse_leagues
from workers.matchmaking import MatchmakingParameters
from workers.ratings import RatingParameters
from workers.seasons import DEFAULT_SIGMA_INFLATION, SeasonSpec
from workers.store.accounts import check_token
from workers.store.database import Conn
from workers.store.finals import start_finals
from workers.store.ladders import frozen_standings, leaderboard, standings
from workers.store.leagues import standing_leagues
from workers.store.seasons import (
    Season,
    close_season,
    create_season,
    get_season,
    season_details,
    season_match_counts,
    season_summary,
    seasons,
    start_season,
)

DEFAULTS = SeasonSpec("defaults", "sky-team", (2,))  # only to show the defaults in --help


@click.group("season")
def command() -> None:
    """Create, start, close and inspect seasons (needs an organiser token)."""


_token = click.option("--token", envvar="SKYARENA_TOKEN", metavar="TOKEN",
                      help="An organiser API token (env SKYARENA_TOKEN).")
_json = click.option("--json", "as_json", is_flag=True, help="Print JSON.")


def _options(func: Callable[..., None]) -> Callable[..., None]:
    """What every subcommand takes: the token, the store and --json."""
    return _token(store_options(_json(func)))


@contextmanager
def organiser(token: str | None, database_url: str | None, data_dir: Path | None) -> Iterator[Conn]:
    """A transaction of the store, after the token is checked; store problems become one-line errors."""
    db = open_store(database_url, data_dir)
    try:
        with db.connection() as conn:
            check_token(conn, token, "organiser")
            yield conn
    except PLATFORM_ERRORS + (ValueError,) as exc:
        raise UserError(str(exc)) from None
    finally:
        db.close()


def _numbers(pairs: tuple[str, ...], what: str) -> dict[str, Any]:
    values = parse_options(pairs)
    for name, value in values.items():
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise UserError(f"{what} {name}={value!r} must be a number")
    return values


def _players(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(p) for p in text.split(",") if p.strip())
    except ValueError:
        raise UserError(f"--players {text!r} must be player counts separated by commas, e.g. 2 or 2,3,4") from None


@command.command("create")
@click.argument("name")
@click.option("--game", required=True, help=f"The game: {', '.join(sorted(GAMES))}.")
@click.option("--players", "players_text", default="2", show_default=True,
              help="Player counts, one ladder each, e.g. 2 or 2,3,4.")
@click.option("-o", "--option", "option_pairs", multiple=True, metavar="NAME=VALUE", help="A game option (repeatable).")
@clock_options
@click.option("--in-flight", type=click.IntRange(min=0), default=DEFAULTS.matches_in_flight, show_default=True,
              help="Matches each ladder keeps queued or running.")
@click.option("--matchmaking", "matchmaking_pairs", multiple=True, metavar="NAME=VALUE",
              help=f"A matchmaking parameter: {', '.join(MatchmakingParameters().to_mapping())}.")
@click.option("--rating", "rating_pairs", multiple=True, metavar="NAME=VALUE",
              help=f"A rating parameter: {', '.join(RatingParameters().to_mapping())}.")
@click.option("--carry-over-from", metavar="SEASON", help="Start from this closed season's standings.")
@click.option("--sigma-inflation", type=float, default=DEFAULT_SIGMA_INFLATION, show_default=True,
              help="How far carried-over ratings are widened.")
@click.option("--cpu-clock/--wall-clock", default=DEFAULTS.cpu_clock, show_default=True,
              help="Charge hosted bots their own CPU time (wall time only as a backstop), or wall time.")
@click.option("--wall-backstop", type=float, default=DEFAULTS.wall_backstop, show_default=True,
              help="On a CPU clock, a decision's wall deadline in times its CPU deadline.")
@click.option("--leagues", "leagues_text", metavar="NAME:BOSS,...",
              help=f"Leagues, lowest first, each with a house bot as its boss, e.g. {EXAMPLE}.")
@click.option("--promotion-matches", type=int, default=DEFAULTS.promotion_matches, show_default=True,
              help=f"Rated matches in a row above its league's boss (by μ − 3σ) that promote a version "
                   f"(1-{MAX_PROMOTION_MATCHES}).")
@click.option("--league-start", type=click.Choice(LEAGUE_STARTS), default=DEFAULTS.league_start, show_default=True,
              help="Where a new version starts: the lowest league, or (keep) its bot's previous version's league.")
@click.option("--start", is_flag=True, help="Start the season at once.")
@_options
def create_command(name: str, game: str, players_text: str, option_pairs: tuple[str, ...], move_time: float,
                   bank: float, first_move: float, strikes: int, in_flight: int, matchmaking_pairs: tuple[str, ...],
                   rating_pairs: tuple[str, ...], carry_over_from: str | None, sigma_inflation: float, cpu_clock: bool,
                   wall_backstop: float, leagues_text: str | None, promotion_matches: int, league_start: str,
                   start: bool, token: str | None, database_url: str | None, data_dir: Path | None,
                   as_json: bool) -> None:
    """Create the season NAME (a draft, or started with --start)."""
    players = _players(players_text)
    options = parse_options(option_pairs)
    try:
        spec = SeasonSpec(name, game, players, options, move_time, bank, first_move, strikes, in_flight,
                          MatchmakingParameters.from_mapping(_numbers(matchmaking_pairs, "matchmaking parameter")),
                          RatingParameters.from_mapping(_numbers(rating_pairs, "rating parameter")),
                          carry_over_from, sigma_inflation, cpu_clock, wall_backstop,
                          parse_leagues(leagues_text) if leagues_text is not None else (), promotion_matches,
                          league_start)
    except ValueError as exc:
        raise UserError(str(exc)) from None
    with organiser(token, database_url, data_dir) as conn:
        smoke_bosses(spec)  # after the token: only an organiser makes the bosses play
        season = create_season(conn, spec)
        if start:
            season = start_season(conn, name)
        summary = season_details(conn, season)
    leagues = f"; leagues {', '.join(map(str, spec.leagues))}" if spec.leagues else ""
    _print(summary, as_json, f"season {name} created ({summary['state']}): {game}, ladders for "
                             f"{', '.join(map(str, players))} players{leagues}")


def _transition(action: Callable[[Conn, str], Season], done: str) -> Callable[..., None]:
    def run(name: str, token: str | None, database_url: str | None, data_dir: Path | None, as_json: bool) -> None:
        with organiser(token, database_url, data_dir) as conn:
            summary = season_details(conn, action(conn, name))
        _print(summary, as_json, f"season {name} {done}")

    return run


command.command("start", help="Start the draft season NAME: its ladders fill with matches.")(
    click.argument("name")(_options(_transition(start_season,
                                                "is active: the scheduler fills its ladders from now on"))))


@command.command("close")
@click.argument("name")
@click.option("--finals", "finals_top", type=int, metavar="K",
              help="Close with a final: the top K of each ladder play a balanced final first (τ = 0).")
@click.option("--games-per-pair", type=int, metavar="N",
              help=f"The final's budget: games every pair of finalists plays (default {DEFAULT_GAMES_PER_PAIR}).")
@click.option("--until-settled", is_flag=True,
              help="Stop the final after the first full round in which its top is settled (within the budget).")
@click.option("--new-versions", type=click.Choice(NEW_VERSIONS),
              help="New versions of the game during the final: hold them (smoke-tested, they enter the ladders "
                   "when it ends; the default) or refuse them.")
@_options
def close_command(name: str, finals_top: int | None, games_per_pair: int | None, until_settled: bool,
                  new_versions: str | None, token: str | None, database_url: str | None, data_dir: Path | None,
                  as_json: bool) -> None:
    """Close the season NAME: void its unfinished matches and freeze its standings, or run its finals first."""
    if finals_top is None:
        if games_per_pair is not None or until_settled or new_versions is not None:
            raise UserError("--games-per-pair, --until-settled and --new-versions belong to a final: add --finals K")
        _transition(close_season, "is closed: unfinished matches are void and its standings frozen")(
            name, token, database_url, data_dir, as_json)
        return
    try:
        finals = Finals(finals_top, DEFAULT_GAMES_PER_PAIR if games_per_pair is None else games_per_pair,
                        until_settled, new_versions or "hold")
    except ValueError as exc:
        raise UserError(str(exc)) from None
    with organiser(token, database_url, data_dir) as conn:
        summary = season_details(conn, start_finals(conn, name, finals))
    until = " or until settled" if until_settled else ""
    held = ("held (smoke-tested, entering the ladders when they end)" if finals.new_versions == "hold"
            else "refused")
    _print(summary, as_json, f"season {name} is in its finals: the top {finals.top} of each ladder play "
                             f"{finals.games_per_pair} games per pair{until}; the season closes when they end; "
                             f"new {summary['game']} versions are {held} until then")


@command.command("list")
@_options
def list_command(token: str | None, database_url: str | None, data_dir: Path | None, as_json: bool) -> None:
    """List every season, newest first."""
    with organiser(token, database_url, data_dir) as conn:
        rows = [{**row, "matches": season_match_counts(conn, row["id"])} for row in seasons(conn)]
    if as_json:
        click.echo(json.dumps(rows, default=str))
        return
    for row in rows:
        counts = ", ".join(f"{n} {status}" for status, n in sorted(row["matches"].items())) or "no matches"
        click.echo(f"{row['name']}  {row['game']}  {row['state']}  players {row['player_counts']}  ({counts})")
    if not rows:
        click.echo("no seasons yet: skyarena season create NAME --game GAME")


@command.command("show")
@click.argument("name")
@click.option("--top", type=click.IntRange(min=1), default=10, show_default=True, help="Leaderboard rows per ladder.")
@_options
def show_command(name: str, top: int, token: str | None, database_url: str | None, data_dir: Path | None,
                 as_json: bool) -> None:
    """Show a season: settings, matches by status, and the top of each ladder."""
    with organiser(token, database_url, data_dir) as conn:
        season = get_season(conn, name)
        summary = season_details(conn, season)
        summary["leaderboards"] = {str(p): leaderboard(conn, ladder, top) for p, ladder in season.ladders.items()}
    if as_json:
        click.echo(json.dumps(summary, default=str))
        return
    click.echo(f"{season.name}: {season.game}, {season.state}; matches {summary['matches'] or 'none yet'}")
    if summary["leagues"]:
        start = "in their bot's league" if summary["league_start"] == "keep" else "in the lowest"
        click.echo("  leagues, lowest first: " + ", ".join(f"{lg['name']} (boss {lg['boss']})"
                                                         for lg in summary["leagues"])
                   + f"; up after {summary['promotion_matches']} rated matches in a row above the boss; "
                     f"new versions start {start}")
    for players, rows in summary["leaderboards"].items():
        click.echo(f"  {players}-player ladder:")
        for row in rows:
            click.echo(f"    {row['position']:>3}. {row['bot']} v{row['version']}  {row['score']:.2f} "
                       f"(μ {row['mu']:.2f}, σ {row['sigma']:.2f}, {row['matches']} matches)")


@command.command("standings")
@click.argument("name")
@click.option("--limit", type=click.IntRange(1), default=20, show_default=True, help="Rows per ladder.")
@_options
def standings_command(name: str, limit: int, token: str | None, database_url: str | None, data_dir: Path | None,
                      as_json: bool) -> None:
    """Show each ladder of season NAME (frozen when the season is closed)."""
    with organiser(token, database_url, data_dir) as conn:
        season = get_season(conn, name)
        closed = season.state == "closed"
        tables = {str(p): _ladder_rows(conn, ladder, closed, limit) for p, ladder in season.ladders.items()}
        finals = {str(p): _ladder_rows(conn, ladder, closed, limit) for p, ladder in season.final_ladders.items()}
        settling = {str(p): ladder_settling(conn, season, p) for p in season.ladders}
    if as_json:
        click.echo(json.dumps({**season_summary(season), "standings": tables, "settling": settling,
                               "final_standings": finals}))
        return
    click.echo(f"season {season.name} ({season.game}, {season.state})")
    for stage, shown in (("ladder", tables), ("final", finals)):
        for players, rows in shown.items():
            verdict = settling[players]["text"] if stage == "ladder" else "the final's standings"
            click.echo(f"{players}-player {stage}: " + (verdict if rows else "no rated matches yet"))
            for r in rows:
                low, high = r["rank_interval"]
                above = "" if r["p_above_next"] is None else f"  P>next {r['p_above_next']:.2f}"
                league = f"  {r['league']}{' boss' if r['boss'] else ''}" if r["league"] else ""
                click.echo(f"  {r['position']:>3}. version {r['version_id']:<6} rank {low}-{high:<4} "
                           f"mu-3sigma {r['score']:7.2f}  mu {r['mu']:6.2f}  sigma {r['sigma']:5.2f}  "
                           f"{r['matches']} matches{above}{league}")


def _ladder_rows(conn: Conn, ladder_id: int, closed: bool, limit: int) -> list[dict[str, Any]]:
    """The top ``limit`` of a ladder (frozen once closed), each with its rank interval and P(above the next)."""
    figures = ladder_confidence(conn, ladder_id, frozen=closed)
    table = (frozen_standings if closed else standings)(conn, ladder_id)[:limit]
    leagues = standing_leagues(conn, ladder_id, [s.version_id for s in table])
    return [{"position": s.position, "version_id": s.version_id, "mu": s.mu, "sigma": s.sigma, "score": s.score,
             "matches": s.matches, "league": leagues.get(s.version_id, {}).get("league", ""),
             "boss": leagues.get(s.version_id, {}).get("boss", False), **figures[s.version_id].to_json()}
            for s in table]


def _print(summary: dict[str, Any], as_json: bool, text: str) -> None:
    click.echo(json.dumps(summary, default=str) if as_json else text)
