"""``skyarena start``: start a match on a referee and hand out its seat tokens."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import click

from referee.match import TimeControl

from ..cli_support import UserError
from .referee_options import CONNECT_TIMEOUT_S, call_failed, checked_options, new_match_options


@click.command("start")
@click.argument("game")
@click.option("--players", type=click.IntRange(min=1), required=True, help="Seats in the match.")
@click.option("--name", "names", multiple=True, metavar="NAME",
              help="A seat's display name, in seat order (repeatable; default seat0, seat1...).")
@new_match_options
@click.option("--json", "as_json", is_flag=True, help='Print {"match_id", "seed", "seats": [{"seat", "token"}]}.')
def command(game: str, players: int, names: tuple[str, ...], referee: str, service_token: str, seed: int | None,
            option_pairs: tuple[str, ...], move_time: float, bank: float, first_move: float, strikes: int,
            as_json: bool) -> None:
    """Start a GAME match on a referee and print its id and one seat token per seat.

    Hand each token to one bot: `skyarena run BOT --referee ADDR --token TOKEN`. Tokens are
    secrets: each plays its seat only."""
    from ..referee_client import RefereeCallError, RefereeClient, start_request

    options = checked_options(game, players, option_pairs)
    if names and len(names) != players:
        raise UserError(f"--name was given {len(names)} times for {players} seats; give one per seat or none")
    seat_names = list(names) or [f"seat{i}" for i in range(players)]
    request = start_request(game, players, options, TimeControl(move_time, bank, first_move), strikes, seat_names,
                            seed=seed)

    async def start() -> Any:
        async with RefereeClient.connect(referee, service_token, CONNECT_TIMEOUT_S) as client:
            return await client.start(request)

    try:
        started = asyncio.run(start())
    except RefereeCallError as exc:
        raise call_failed(f"StartMatch on {referee}", exc) from None
    seats = [{"seat": t.seat, "name": seat_names[t.seat], "token": t.token} for t in started.seats]
    if as_json:
        click.echo(json.dumps({"match_id": started.match_id, "game": game, "seed": started.seed, "seats": seats}))
        return
    click.echo(f"match {started.match_id} ({game}, seed {started.seed})")
    for seat in seats:
        click.echo(f"  seat {seat['seat']} ({seat['name']}): skyarena run BOT --referee {referee} "
                   f"--token {seat['token']}")
    click.echo(f"watch it: skyarena watch {started.match_id} --referee {referee}")
