"""``skyarena season``: create, start and close league seasons; show their standings."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from skyarena.cli import UserError, parse_options
from workers.commands.store_options import open_store, store_options
from workers.matchmaking import MatchmakingParameterError, MatchmakingParameters
from workers.ratings import RatingParameterError, RatingParameters
from workers.seasons import DEFAULT_SIGMA_INFLATION, SeasonError, SeasonSpec
from workers.store import Database, StoreError
from workers.store.ladders import frozen_standings, standings
from workers.store.seasons import Season, close_season, create_season, get_season, season_summary, start_season


@click.group("season")
def command() -> None:
    """League seasons: one game, a TrueSkill ladder per player count."""


def _run(database_url: str | None, data_dir: Path | None, action: Any) -> Any:
    """Run ``action(conn)`` in one transaction: every error is a UserError and nothing stays written."""
    store: Database = open_store(database_url, data_dir)
    try:
        with store.connection() as conn:
            return action(conn)
    except (StoreError, SeasonError, RatingParameterError, MatchmakingParameterError) as exc:
        raise UserError(str(exc)) from None
    finally:
        store.close()


def _players(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(p) for p in text.split(","))
    except ValueError:
        raise UserError(f"--players {text!r} must be player counts separated by commas, like 2,4") from None


@command.command("create")
@click.argument("name")
@click.option("--game", required=True, help="The game: skybirds, skyjo-action, sky-team, oddball-aeronauts, fly-away.")
@click.option("--players", "players_text", required=True, metavar="N[,N...]", help="Player counts, a ladder each.")
@click.option("--carry-over-from", metavar="SEASON", help="Start from this closed season's frozen ratings.")
@click.option("--sigma-inflation", type=float, default=DEFAULT_SIGMA_INFLATION, show_default=True,
              help="With --carry-over-from: sigma' = sqrt(sigma^2 + X^2), capped at the prior sigma.")
@click.option("--rating", "rating_pairs", multiple=True, metavar="NAME=VALUE",
              help="TrueSkill parameter: mu, sigma, beta, tau, draw_probability.")
@click.option("--matchmaking", "matchmaking_pairs", multiple=True, metavar="NAME=VALUE",
              help="Matchmaking parameter, e.g. placement_matches=5, max_in_flight=2.")
@click.option("--strike-limit", type=int, default=3, show_default=True, help="Strikes before a seat forfeits.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@store_options
def create_command(name: str, game: str, players_text: str, carry_over_from: str | None, sigma_inflation: float,
                   rating_pairs: tuple[str, ...], matchmaking_pairs: tuple[str, ...], strike_limit: int,
                   as_json: bool, database_url: str | None, data_dir: Path | None) -> None:
    """Create season NAME as a draft (start it with `skyarena season start NAME`)."""
    try:
        spec = SeasonSpec(name, game, _players(players_text), strike_limit=strike_limit,
                          rating=RatingParameters.from_mapping(parse_options(rating_pairs)),
                          matchmaking=MatchmakingParameters.from_mapping(parse_options(matchmaking_pairs)),
                          carry_over_from=carry_over_from, sigma_inflation=sigma_inflation)
    except (SeasonError, RatingParameterError, MatchmakingParameterError) as exc:
        raise UserError(str(exc)) from None
    season = _run(database_url, data_dir, lambda conn: create_season(conn, spec))
    _echo(season, as_json, f"created season {season.name} (draft): start it with `skyarena season start {name}`")


def _transition(verb: str, help_text: str, change: Callable[[Any, str], Season], done: str) -> None:
    """``skyarena season start|close NAME``: one state change in one transaction."""

    @command.command(verb, help=help_text)
    @click.argument("name")
    @click.option("--json", "as_json", is_flag=True, help="Print JSON.")
    @store_options
    def transition(name: str, as_json: bool, database_url: str | None, data_dir: Path | None) -> None:
        season = _run(database_url, data_dir, lambda conn: change(conn, name))
        _echo(season, as_json, f"season {season.name} {done}")


_transition("start", "Open season NAME: its ladders start scheduling matches.", start_season, "is active")
_transition("close", "Close season NAME: unfinished matches are void and the standings are frozen for good.",
            close_season, "is closed; its standings are frozen")


@command.command("standings")
@click.argument("name")
@click.option("--limit", type=click.IntRange(1), default=20, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@store_options
def standings_command(name: str, limit: int, as_json: bool, database_url: str | None, data_dir: Path | None) -> None:
    """Show each ladder of season NAME (frozen when the season is closed)."""

    def read(conn: Any) -> tuple[Season, dict[int, list[Any]]]:
        season = get_season(conn, name)
        read_ladder = frozen_standings if season.state == "closed" else standings
        return season, {p: read_ladder(conn, ladder)[:limit] for p, ladder in season.ladders.items()}

    season, tables = _run(database_url, data_dir, read)
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


def _echo(season: Season, as_json: bool, message: str) -> None:
    click.echo(json.dumps(season_summary(season)) if as_json else message)
