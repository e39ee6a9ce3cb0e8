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
from workers.commands.store_options import open_store, store_options
from workers.errors import PLATFORM_ERRORS
from workers.matchmaking import MatchmakingParameters
from workers.ratings import RatingParameters
from workers.seasons import DEFAULT_SIGMA_INFLATION, SeasonSpec
from workers.store.accounts import check_token
from workers.store.database import Conn
from workers.store.ladders import frozen_standings, leaderboard, standings
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
@click.option("--start", is_flag=True, help="Start the season at once.")
@_options
def create_command(name: str, game: str, players_text: str, option_pairs: tuple[str, ...], move_time: float,
                   bank: float, first_move: float, strikes: int, in_flight: int, matchmaking_pairs: tuple[str, ...],
                   rating_pairs: tuple[str, ...], carry_over_from: str | None, sigma_inflation: float, cpu_clock: bool,
                   wall_backstop: float, start: bool, token: str | None, database_url: str | None,
                   data_dir: Path | None, as_json: bool) -> None:
    """Create the season NAME (a draft, or started with --start)."""
    players = _players(players_text)
    options = parse_options(option_pairs)
    try:
        spec = SeasonSpec(name, game, players, options, move_time, bank, first_move, strikes, in_flight,
                          MatchmakingParameters.from_mapping(_numbers(matchmaking_pairs, "matchmaking parameter")),
                          RatingParameters.from_mapping(_numbers(rating_pairs, "rating parameter")),
                          carry_over_from, sigma_inflation, cpu_clock, wall_backstop)
    except ValueError as exc:
        raise UserError(str(exc)) from None
    with organiser(token, database_url, data_dir) as conn:
        season = create_season(conn, spec)
        if start:
            season = start_season(conn, name)
        summary = season_details(conn, season)
    _print(summary, as_json, f"season {name} created ({summary['state']}): {game}, ladders for "
                             f"{', '.join(map(str, players))} players")


def _transition(action: Callable[[Conn, str], Season], done: str) -> Callable[..., None]:
    def run(name: str, token: str | None, database_url: str | None, data_dir: Path | None, as_json: bool) -> None:
        with organiser(token, database_url, data_dir) as conn:
            summary = season_details(conn, action(conn, name))
        _print(summary, as_json, f"season {name} {done}")

    return run


for _name, _action, _done, _help in (
        ("start", start_season, "is active: the scheduler fills its ladders from now on",
         "Start the draft season NAME: its ladders fill with matches."),
        ("close", close_season, "is closed: unfinished matches are void and its standings frozen",
         "Close the season NAME: void its unfinished matches and freeze its standings.")):
    command.command(_name, help=_help)(click.argument("name")(_options(_transition(_action, _done))))


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
        read_ladder = frozen_standings if season.state == "closed" else standings
        tables = {p: read_ladder(conn, ladder)[:limit] for p, ladder in season.ladders.items()}
    if as_json:
        click.echo(json.dumps({**season_summary(season), "standings": {
            str(p): [{"position": s.position, "version_id": s.version_id, "mu": s.mu, "sigma": s.sigma,
                      "score": s.score, "matches": s.matches} for s in table] for p, table in tables.items()}}))
        return
    click.echo(f"season {season.name} ({season.game}, {season.state})")
    for players, table in tables.items():
        click.echo(f"{players}-player ladder" + ("" if table else ": no rated matches yet"))
        for s in table:
            click.echo(f"  {s.position:>3}. version {s.version_id:<6} mu-3sigma {s.score:7.2f}  "
                       f"mu {s.mu:6.2f}  sigma {s.sigma:5.2f}  {s.matches} matches")


def _print(summary: dict[str, Any], as_json: bool, text: str) -> None:
    click.echo(json.dumps(summary, default=str) if as_json else text)
