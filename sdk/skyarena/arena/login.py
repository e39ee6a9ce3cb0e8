"""``skyarena login --arena ADDR``: check a token against the Arena and keep it for the other commands."""

from __future__ import annotations

import click

from skyarena.v1 import arena_pb2 as pb

from .client import Arena, echo_json, store_login


@click.command("login")
@click.option("--arena", "address", required=True, metavar="HOST:PORT", help="The Arena's address.")
@click.option("--token", metavar="TOKEN", help="The API token an organiser gave you (asked for if not given).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def command(address: str, token: str | None, as_json: bool) -> None:
    """Store the Arena's address and your API token (in your config directory, mode 0600)."""
    key = token or click.prompt("API token", hide_input=True)
    bots = Arena(address, key).call("ListBots", pb.ListBotsRequest())  # refused tokens stop here, unstored
    path = store_login(address, key)
    if as_json:
        echo_json({"arena": address, "config": str(path), "bots": len(bots.bots)})
        return
    click.echo(f"logged in to {address}; token stored in {path} ({len(bots.bots)} bot(s) visible)")
