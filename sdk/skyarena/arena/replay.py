"""``skyarena replay MATCH_ID``: a platform match's public replay, fetched from the Arena and shown.

The local ``skyarena replay FILE`` shows a full replay file; a match played on the platform
is only available as its public replay (what a spectator saw: public views and the moves the
game makes public), so this shows that, turn by turn in the same layout.
"""

from __future__ import annotations

import json
from typing import Any

import click

from referee.match.public_steps import charges_text, fault_text, moves_text
from skyarena.v1 import arena_pb2 as pb

from ..results_text import RANKS_IN_JSON, result_line
from .client import arena, echo_json, to_json


def fetch(match_id: str, address: str | None = None, token: str | None = None) -> pb.ArenaMatch:
    response: pb.ArenaMatch = arena(address, token).call("GetMatch", pb.ArenaMatchRequest(match_id=match_id))
    return response


def records(match: pb.ArenaMatch) -> list[dict[str, Any]]:
    return [json.loads(line) for line in match.public_replay_jsonl.splitlines() if line.strip()]


def show(match: pb.ArenaMatch, as_json: bool) -> None:
    rows = records(match)
    if as_json:
        echo_json({"match": to_json(match.summary), "records": rows, "ranks": RANKS_IN_JSON})
        return
    summary = match.summary
    click.echo(f"match {summary.match_id}: {summary.game}, {summary.players} players, {summary.kind}"
               + (f" in {summary.season}" if summary.season else "") + f", {summary.status}")
    if not rows:
        click.echo("no replay yet: the match is not finished" if summary.status != "void"
                   else f"void: {summary.void_reason}")
        return
    for record in rows[1:]:
        kind = record["type"]
        if kind == "step" and record["moves"]:
            timing = charges_text(record.get("time") or [])
            click.echo(f"turn {record['n']:>4}  {moves_text(record['moves'])}" + (f"  [{timing}]" if timing else ""))
        elif kind == "fault":
            click.echo(f"turn {record['turn']:>4}  {fault_text(record)}")
        elif kind == "end":
            click.echo(result_line(record["result"]))
