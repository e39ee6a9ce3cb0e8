"""``skyarena standings SEASON``: each ladder of a season, best first by μ − 3σ, with each rank's 90 %
interval, P(outranks the next), whether the top is settled and, in a season with leagues, the
league each version plays in (its boss marked: the score to beat to move up)."""

from __future__ import annotations

import click
from rich.table import Column, Table

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
        title = f"{ladder.players}-player {'final' if ladder.stage == 'final' else 'ladder'}"
        leagues = any(row.league for row in ladder.rows)
        table = Table("#", "rank 90 %", "bot",
                      # whose bot it is must survive a narrow terminal: the other columns give way first
                      Column("account", no_wrap=True, min_width=max(len(row.account) for row in ladder.rows)),
                      "version",
                      *([Column("league", no_wrap=True, min_width=max(len(league_text(row.league, row.boss))
                                                                     for row in ladder.rows))] if leagues else []),
                      "μ − 3σ", "μ", "σ", "P > next", "matches",
                      title=f"{title}: {ladder.settling.text}" if ladder.settling.text else title)
        for row in ladder.rows:
            league = [league_text(row.league, row.boss)] if leagues else []
            table.add_row(str(row.position), rank_interval_text(row.rank_low, row.rank_high),
                          f"{row.bot} v{row.version}", row.account, str(row.version_id), *league,
                          f"{row.score:.2f}", f"{row.mu:.2f}", f"{row.sigma:.2f}",
                          f"{row.p_above_next:.2f}" if row.HasField("p_above_next") else "", str(row.matches))
        console.print(table)


def rank_interval_text(low: int, high: int) -> str:
    """"3" when the rank is sure, "2–5" otherwise (empty when the Arena sent none)."""
    if not low:
        return ""
    return str(low) if low == high else f"{low}–{high}"


def league_text(league: str, boss: bool) -> str:
    """"silver" for a version in it, "silver (boss)" for the league's boss."""
    return f"{league} (boss)" if boss else league
