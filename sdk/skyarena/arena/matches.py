"""``skyarena matches VERSION``: a version's matches, newest first."""

from __future__ import annotations

import click
from rich.table import Table

from skyarena.v1 import arena_pb2 as pb

from ..cli_support import console
from .client import arena, arena_options, echo_json, to_json


@click.command("matches")
@click.argument("version_id", type=int, metavar="VERSION")
@click.option("--limit", type=click.IntRange(1, 1000), default=50, show_default=True)
@arena_options
def command(version_id: int, limit: int, address: str | None, token: str | None, as_json: bool) -> None:
    """List a version's matches (smoke and rated) with their results."""
    response = arena(address, token).call("ListMatches", pb.ListMatchesRequest(version_id=version_id, limit=limit))
    if as_json:
        echo_json(to_json(response)["matches"])
        return
    if not response.matches:
        click.echo(f"version {version_id} has no matches yet")
        return
    table = Table("match", "kind", "season", "status", "seats (rank)")
    for m in response.matches:
        seats = ", ".join(f"{s.bot} v{s.version}" + (f" ({s.rank})" if s.rank >= 0 else "") for s in m.seats)
        table.add_row(m.match_id, m.kind, m.season or "-", m.status + (f": {m.void_reason}" if m.void_reason else ""),
                      seats)
    console.print(table)
