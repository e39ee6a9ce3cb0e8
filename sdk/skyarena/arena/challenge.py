"""``skyarena challenge VERSION --vs OPPONENT [--vs ...] [--games N]``: unrated matches on the platform.

The Arena queues them for the workers like rated matches (same sandbox, referees and clocks) but
on no ladder; the account's daily quota and its cap in flight bound them, and a refusal says when
one more fits. Each result, replay (``--mine`` too) and log is read as for a rated match.
"""

from __future__ import annotations

import click

from skyarena.v1 import arena_pb2 as pb

from .client import arena, arena_options, echo_json


@click.command("challenge")
@click.argument("version_id", type=int, metavar="VERSION")
@click.option("--vs", "opponents", multiple=True, required=True, metavar="VERSION|random|heuristic",
              help="An opponent: a version id or a house bot (repeat for more seats).")
@click.option("--games", type=click.IntRange(min=1), default=1, show_default=True,
              help="How many matches (seats rotate between them).")
@arena_options
def command(version_id: int, opponents: tuple[str, ...], games: int, address: str | None, token: str | None,
            as_json: bool) -> None:
    """Queue unrated challenge matches of your VERSION against the opponents (never rated)."""
    response = arena(address, token).call("Challenge", pb.ChallengeRequest(version_id=version_id,
                                                                           opponents=list(opponents), games=games))
    ids = list(response.match_ids)
    if as_json:
        echo_json({"match_ids": ids})
        return
    click.echo(f"queued {len(ids)} challenge{'s' if len(ids) != 1 else ''}: {', '.join(ids)}")
    click.echo("challenges give way to the seasons' rated matches: on a busy platform they wait their turn")
    click.echo(f"follow them with skyarena matches {version_id}; once one is over: skyarena replay MATCH_ID "
               "[--mine], skyarena logs MATCH_ID")
