"""``skyarena fetch-replay``: a finished match's whole replay from the referee, as a file
``skyarena replay FILE --verify`` checks."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import click

from referee.games.core import replay as replay_io

from ..cli_support import UserError, prepare_replay_dir, replay_path, write_replay
from .referee_options import CONNECT_TIMEOUT_S, call_failed, referee_option


@click.command("fetch-replay")
@click.argument("match_id")
@referee_option
@click.option("--service-token", envvar="SKYARENA_SERVICE_TOKEN", required=True,
              help="The referee's service token (env SKYARENA_SERVICE_TOKEN); a replay reveals every hidden card.")
@click.option("--replay-dir", type=click.Path(file_okay=False, path_type=Path), default=Path("."),
              show_default=True, help="Write GAME-MATCH_ID.jsonl here.")
@click.option("--force", is_flag=True, help="Overwrite the replay if it exists.")
def command(match_id: str, referee: str, service_token: str, replay_dir: Path, force: bool) -> None:
    """Download a finished match's replay from the referee (`skyarena replay FILE --verify` checks it)."""
    from ..referee_client import RefereeCallError, RefereeClient

    async def fetch() -> Any:
        async with RefereeClient.connect(referee, service_token, CONNECT_TIMEOUT_S) as client:
            return await client.status(match_id, include_replay=True)

    try:
        status = asyncio.run(fetch())
    except RefereeCallError as exc:
        raise call_failed(f"GetMatch {match_id}", exc) from None
    click.echo(f"wrote {write_status_replay(status, replay_dir, force)}")


def write_status_replay(status: Any, replay_dir: Path, force: bool) -> Path:
    """Write a status's (whole) replay with the seats' names in its header."""
    if not status.replay_jsonl:
        raise UserError(f"match {status.match_id} has no replay yet: it is still running (or was aborted before "
                        "its first move); fetch it once it has ended")
    path = replay_path(replay_dir, status.game, status.match_id)
    prepare_replay_dir(replay_dir, [path], force)
    records = replay_io.loads(status.replay_jsonl, f"the replay of match {status.match_id}")
    write_replay(path, records, [seat.name for seat in status.seats])
    return path
