"""``skyarena status VERSION``: one version's status, and why."""

from __future__ import annotations

import click

from skyarena.v1 import arena_pb2 as pb

from .client import arena, arena_options, echo_json, to_json

UNSETTLED = ("received", "smoke")  # a version whose smoke match is still to be played


@click.command("status")
@click.argument("version_id", type=int, metavar="VERSION")
@arena_options
def command(version_id: int, address: str | None, token: str | None, as_json: bool) -> None:
    """Show a version's status (received, smoke, held, failed, active, paused, superseded, retired)."""
    info = arena(address, token).call("GetVersion", pb.GetVersionRequest(version_id=version_id))
    if as_json:
        echo_json(to_json(info))
        return
    click.echo(f"version {info.id}: {info.bot} v{info.number} for {info.game}, {info.status}")
    if info.status_message:
        click.echo(f"  {info.status_message}")
    if not info.smoke_match_id:
        return
    if info.status in UNSETTLED:  # no log exists before the match ends: point at what will
        click.echo(f"  smoke match {info.smoke_match_id} is being played; once it is over: "
                   f"skyarena logs {info.smoke_match_id}")
    else:
        click.echo(f"  smoke match {info.smoke_match_id}: skyarena replay {info.smoke_match_id} (its moves), "
                   f"skyarena logs {info.smoke_match_id} (your bot's stderr)")
