"""``skyarena standings SEASON``: each ladder of a season, best first by μ − 3σ."""

from __future__ import annotations

import click
from rich.table import Table

from skyarena.v1 import arena_pb2 as pb

from ..cli_support import console
from .client import arena, arena_options, echo_json, to_json


@click.command("standings")
@click.argument("season")
@click.option("--limit", type=click.IntRange(1, 1000), default=20, show_default=True, help="Rows per ladder.")
@arena_options
def command(season: str, limit: int, address: str | None, token: str | None, as_json: bool) -> None:
    """Show a season's ladders (frozen once it is closed)."""
    response = arena(address, token).call("GetStandings", pb.GetStandingsRequest(season=season, limit=limit))
    if as_json:
        echo_json(to_json(response))
        return
    click.echo(f"season {response.season} ({response.game}, {response.state})")
    for ladder in response.ladders:
        if not ladder.rows:
            click.echo(f"{ladder.players}-player ladder: no rated matches yet")
            continue
        table = Table("#", "bot", "account", "version", "μ − 3σ", "μ", "σ", "matches",
                      title=f"{ladder.players}-player ladder")
        for row in ladder.rows:
            table.add_row(str(row.position), f"{row.bot} v{row.version}", row.account, str(row.version_id),
                          f"{row.score:.2f}", f"{row.mu:.2f}", f"{row.sigma:.2f}", str(row.matches))
        console.print(table)
