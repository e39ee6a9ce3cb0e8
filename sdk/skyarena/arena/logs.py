"""``skyarena logs MATCH_ID``: your bot's stderr from one match (only your own bots' logs)."""

from __future__ import annotations

import base64
import sys

import click

from skyarena.v1 import arena_pb2 as pb

from .client import arena, arena_options, echo_json


@click.command("logs")
@click.argument("match_id")
@click.option("--seat", type=click.IntRange(min=0), help="The seat (default: your bot's seat in the match).")
@arena_options
def command(match_id: str, seat: int | None, address: str | None, token: str | None, as_json: bool) -> None:
    """Print your bot's log from match MATCH_ID."""
    log = arena(address, token).call("GetBotLog", pb.GetBotLogRequest(match_id=match_id,
                                                                         seat=-1 if seat is None else seat))
    if as_json:
        echo_json({"match_id": log.match_id, "seat": log.seat, "version_id": log.version_id,
                   "log": log.log.decode(errors="replace"), "log_base64": base64.b64encode(log.log).decode(),
                   "truncated": log.truncated})
        return
    if not log.log:
        click.echo(f"match {log.match_id}: your bot (seat {log.seat}) wrote nothing to stderr in this match", err=True)
        return
    sys.stdout.buffer.write(log.log)
    if log.truncated:
        click.echo("\n[log truncated at the platform's cap]", err=True)
