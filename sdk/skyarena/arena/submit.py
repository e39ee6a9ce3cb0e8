"""``skyarena submit DIR``: pack a bot's folder, upload it with a progress bar, report the version."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterator
from pathlib import Path

import click
import grpc
from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TransferSpeedColumn

from skyarena.v1 import arena_pb2 as pb

from ..cli_support import UserError, err_console
from .client import CALL_TIMEOUT_S, Arena, arena, arena_options, call_error, echo_json, to_json
from .pack import pack_folder

CHUNK_BYTES = 64 * 1024   # well under the Arena's message cap
WAIT_POLL_S = 1.0
SETTLED = ("active", "failed", "paused", "superseded", "retired")


def chunks(data: bytes, header: pb.SubmitHeader, progress: Progress | None) -> Iterator[pb.SubmitChunk]:
    yield pb.SubmitChunk(header=header)
    task = progress.add_task("uploading", total=len(data)) if progress else None
    for start in range(0, len(data), CHUNK_BYTES):
        piece = data[start:start + CHUNK_BYTES]
        yield pb.SubmitChunk(data=piece)
        if progress is not None and task is not None:
            progress.advance(task, len(piece))


def upload(client: Arena, data: bytes, bot: str, game: str, show_progress: bool) -> pb.SubmitVersionResponse:
    header = pb.SubmitHeader(bot=bot, game=game, size=len(data), sha256=hashlib.sha256(data).hexdigest(),
                             format="tar.gz")
    # Off a terminal a progress bar draws nothing but leaves a blank line: shown on terminals only.
    progress = Progress(TextColumn("{task.description}"), BarColumn(), DownloadColumn(), TransferSpeedColumn(),
                        console=err_console, transient=True, disable=not show_progress or not err_console.is_terminal)
    with progress, client.stub() as stub:
        try:
            response: pb.SubmitVersionResponse = stub.SubmitVersion(chunks(data, header, progress),
                                                                    metadata=client.metadata, timeout=CALL_TIMEOUT_S)
        except grpc.RpcError as exc:
            raise call_error(exc, client.address) from None
    return response


def wait_for(client: Arena, version_id: int, timeout_s: float) -> pb.BotVersionInfo:
    deadline = time.monotonic() + timeout_s
    while True:
        info: pb.BotVersionInfo = client.call("GetVersion", pb.GetVersionRequest(version_id=version_id))
        if info.status in SETTLED or time.monotonic() > deadline:
            return info
        time.sleep(WAIT_POLL_S)


@click.command("submit")
@click.argument("directory", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--game", default="", help="The game (default: the manifest's).")
@click.option("--name", "bot", default="", help="The bot's name (default: the manifest's).")
@click.option("--wait", is_flag=True, help="Wait for the smoke match's verdict.")
@click.option("--wait-timeout", type=click.FloatRange(min=1), default=600, show_default=True, metavar="SECONDS")
@arena_options
def command(directory: Path, game: str, bot: str, wait: bool, wait_timeout: float, address: str | None,
            token: str | None, as_json: bool) -> None:
    """Submit the bot in DIRECTORY (with its skyarena.toml) as a new version."""
    if not (directory / "skyarena.toml").is_file():
        raise UserError(f"{directory} has no skyarena.toml: write one with game, entry and name "
                        "(skyarena new GAME DIR writes a bot with one)")
    client = arena(address, token)
    data = pack_folder(directory)
    response = upload(client, data, bot, game, show_progress=not as_json)
    info = response.version
    if wait and info.status not in SETTLED:
        info = wait_for(client, info.id, wait_timeout)
    if as_json:
        echo_json({"version": to_json(info), "existing": response.existing})
    else:
        again = " (this archive was already that version)" if response.existing else ""
        click.echo(f"version {info.id}: {info.bot} v{info.number} for {info.game}{again}")
        click.echo(f"status: {info.status}" + (f" — {info.status_message}" if info.status_message else ""))
    if info.status == "failed":
        raise SystemExit(1)
