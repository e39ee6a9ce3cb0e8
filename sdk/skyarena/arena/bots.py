"""``skyarena bots``: your bots and their versions, with each version's status."""

from __future__ import annotations

import click
from rich.table import Column, Table

from skyarena.v1 import arena_pb2 as pb

from ..cli_support import console
from .client import arena, arena_options, echo_json, to_json


@click.command("bots")
@click.option("--game", default="", help="Only bots of this game.")
@arena_options
def command(game: str, address: str | None, token: str | None, as_json: bool) -> None:
    """List your bots and their versions."""
    response = arena(address, token).call("ListBots", pb.ListBotsRequest(game=game))
    if as_json:
        echo_json(to_json(response)["bots"])
        return
    if not response.bots:
        click.echo("no bots yet: skyarena submit DIR")
        return
    # Names, games and statuses are kept whole on one line; only the message wraps, at any width.
    table = Table(Column("version", no_wrap=True), Column("bot", no_wrap=True), Column("game", no_wrap=True),
                  Column("status", no_wrap=True), Column("message", overflow="fold", ratio=1))
    for bot in response.bots:
        for v in bot.versions:
            table.add_row(str(v.id), f"{bot.name} v{v.number}" + (" (retired)" if bot.retired else ""), bot.game,
                          v.status, v.status_message)
    console.print(table)
