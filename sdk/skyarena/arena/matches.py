"""``skyarena matches VERSION``: a version's matches, newest first, a page at a time.

A version passes the Arena's 1,000-per-answer cap within an hour of play, so the list is
paged: each page ends with the command that shows the next one (``--before`` the last match
shown), and ``--all`` follows every page down to the version's first match.
"""

from __future__ import annotations

from collections.abc import Iterator

import click
from rich.table import Table

from skyarena.v1 import arena_pb2 as pb

from ..cli_support import console
from ..results_text import RANKS_IN_JSON
from .client import Arena, arena, arena_options, echo_json, to_json


def pages(client: Arena, version_id: int, limit: int, before: str, every: bool) -> Iterator[pb.ListMatchesResponse]:
    while True:
        page: pb.ListMatchesResponse = client.call("ListMatches", pb.ListMatchesRequest(
            version_id=version_id, limit=limit, before=before))
        yield page
        if not every or not page.next_before:
            return
        before = page.next_before


def seats_text(match: pb.MatchSummary) -> str:
    """``mybot v1 (1st)``: the place a person reads, 1 = first (the wire's rank is 0-based)."""
    return ", ".join(f"{s.bot} v{s.version}" + (f" ({ordinal(s.rank + 1)})" if s.rank >= 0 else "")
                     for s in match.seats)


def ordinal(place: int) -> str:
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


@click.command("matches")
@click.argument("version_id", type=int, metavar="VERSION")
@click.option("--limit", type=click.IntRange(1, 1000), default=50, show_default=True, help="Matches per page.")
@click.option("--before", default="", metavar="MATCH_ID",
              help="Start after this match (the last one of the previous page): older matches.")
@click.option("--all", "every", is_flag=True, help="Follow every page, down to the version's first match.")
@arena_options
def command(version_id: int, limit: int, before: str, every: bool, address: str | None, token: str | None,
            as_json: bool) -> None:
    """List a version's matches (smoke and rated) with their results, newest first."""
    client = arena(address, token)
    shown = 0
    last = pb.ListMatchesResponse()
    table = Table("match", "kind", "season", "status", "seats (place)")
    found: list[dict[str, object]] = []
    for last in pages(client, version_id, limit, before, every):
        shown += len(last.matches)
        if as_json:
            found.extend({**to_json(m), "ranks": RANKS_IN_JSON} for m in last.matches)
            continue
        for m in last.matches:
            table.add_row(m.match_id, m.kind, m.season or "-",
                          m.status + (f": {m.void_reason}" if m.void_reason else ""), seats_text(m))
    if as_json:
        echo_json(found)
    elif not shown:
        click.echo(f"version {version_id} has no matches " + ("before that one" if before else "yet"))
    else:
        console.print(table)
    if last.next_before:
        click.echo(f"more: skyarena matches {version_id} --before {last.next_before} (or --all)", err=as_json)
