"""``skyarena watch``: follow a match live as a spectator."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import click

from ..cli_support import UserError
from .referee_options import CONNECT_TIMEOUT_S, call_failed, referee_option


@click.command("watch")
@click.argument("match_id")
@referee_option
@click.option("--from-start", is_flag=True, help="Every public event from the first move (default: from now).")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per event (header, step, fault, end).")
def command(match_id: str, referee: str, from_start: bool, as_json: bool) -> None:
    """Follow a match live as a spectator: public moves, faults and the result."""
    from google.protobuf.json_format import MessageToDict

    from ..referee_client import RefereeCallError, RefereeClient

    async def watch() -> None:
        async with RefereeClient.connect(referee, "", timeout_s=None) as client:  # Watch needs no token
            if not await client.ready(CONNECT_TIMEOUT_S):
                raise UserError(f"no referee answers at {referee} (waited {CONNECT_TIMEOUT_S:g} s); check the "
                                "address and that `skyarena referee serve` runs there")
            async for event in client.events(match_id, from_start):
                if as_json:
                    click.echo(json.dumps(MessageToDict(event, preserving_proto_field_name=True)))
                else:
                    print_event(event)

    try:
        asyncio.run(watch())
    except RefereeCallError as exc:
        raise call_failed(f"watching match {match_id}", exc) from None


def print_event(event: Any) -> None:
    kind = event.WhichOneof("kind")
    if kind == "header":
        h = event.header
        click.echo(f"match {h.match_id}: {h.game}, {h.players} players: " + ", ".join(
            f"seat {i} {name}" for i, name in enumerate(h.seat_names)))
    elif kind == "step":
        moves = "; ".join(f"seat {m.seat}: {'(hidden)' if m.hidden else m.action}" for m in event.step.moves)
        click.echo(f"turn {event.step.decisions:>4}  {moves}" if moves else f"turn {event.step.decisions:>4}")
    elif kind == "fault":
        f = event.fault
        click.echo(f"fault: turn {f.turn}, seat {f.seat}: {f.kind}" + (" (forfeit)" if f.forfeit else ""))
    elif kind == "end":
        end = event.end
        if end.result.reason:
            click.echo(f"end: {end.result.reason}; ranks (1 = first) {[r + 1 for r in end.result.ranks]}; "
                       f"scores {list(end.result.scores)}")
        else:
            click.echo(f"end: aborted ({end.reason})")
