"""What the commands that reach a referee share: its address and service token (one
definition, one help text), a new match's options, and a failed call as a one-line error."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from referee.games import GAMES, SkyarenaError

from ..cli_support import UserError, clock_options, parse_options

if TYPE_CHECKING:
    from ..referee_client import RefereeCallError

CONNECT_TIMEOUT_S = 10.0   # an unreachable referee is reported after this, not waited for forever

referee_option = click.option("--referee", envvar="SKYARENA_REFEREE", required=True, metavar="HOST:PORT",
                              help="The referee's address (env SKYARENA_REFEREE).")
service_token_option = click.option("--service-token", envvar="SKYARENA_SERVICE_TOKEN", required=True,
                                    help="The referee's service token (env SKYARENA_SERVICE_TOKEN).")


def new_match_options(command: Any) -> Any:
    """What a new match on a referee needs: address, service token, seed, options, clocks."""
    for option in reversed([
        referee_option, service_token_option,
        click.option("--seed", type=int, default=None, help="The match seed (default: the referee draws one)."),
        click.option("-o", "--option", "option_pairs", multiple=True, metavar="NAME=VALUE",
                     help="A game option (repeatable)."),
        clock_options,
    ]):
        command = option(command)
    return command


def checked_options(game: str, players: int, option_pairs: tuple[str, ...]) -> dict[str, Any]:
    """The ``-o`` options, checked against the game when this installation knows it."""
    game_spec = GAMES.get(game)
    options = parse_options(option_pairs, game_spec)
    if game_spec is not None:  # an unknown game may still be known to the referee: it will say
        try:
            game_spec.validate(players, options)
        except SkyarenaError as exc:
            raise UserError(str(exc)) from None
    return options


def call_failed(what: str, exc: RefereeCallError) -> UserError:
    return UserError(f"{what} failed: {exc.code.name}: {exc.details}")
