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
SETTLED = ("active", "held", "failed", "paused", "superseded", "retired")


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
@click.argument("target", metavar="DIRECTORY")
@click.option("--game", default="", help="The game (default: the manifest's).")
@click.option("--name", "bot", default="", help="The bot's name (default: the manifest's).")
@click.option("--online", is_flag=True, help="Register an online version: no upload, the bot plays from your "
              "machine with skyarena connect (DIRECTORY may be the bot's name, with --game).")
@click.option("--wait", is_flag=True, help="Wait for the smoke match's verdict.")
@click.option("--wait-timeout", type=click.FloatRange(min=1), default=600, show_default=True, metavar="SECONDS")
@arena_options
def command(target: str, game: str, bot: str, online: bool, wait: bool, wait_timeout: float, address: str | None,
            token: str | None, as_json: bool) -> None:
    """Submit the bot in DIRECTORY (with its skyarena.toml) as a new version, or register an online one."""
    if online:
        register_online(target, game, bot, address, token, as_json)
        return
    directory = Path(target)
    if not directory.is_dir():
        raise UserError(f"{target} is not a folder: submit a bot folder with its skyarena.toml (or pass --online "
                        "to register an online bot by name)")
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


def register_online(target: str, game: str, bot: str, address: str | None, token: str | None, as_json: bool) -> None:
    """``submit --online``: the bot's online version (a folder's skyarena.toml may name it and its game)."""
    from skyarena.v1 import online_pb2, online_pb2_grpc

    from .connect import manifest_of

    manifest = manifest_of(target)
    bot = bot or manifest.get("name") or target
    game = game or manifest.get("game", "")
    if not game:
        raise UserError(f"which game does {bot} play? pass --game GAME (skyarena games lists them)")
    response = arena(address, token).call("RegisterOnlineVersion", online_pb2.RegisterOnlineRequest(bot=bot, game=game),
                                          service=online_pb2_grpc.OnlineStub)
    info = response.version
    if as_json:
        echo_json({"version": to_json(info), "existing": response.existing})
        return
    again = " (already registered)" if response.existing else ""
    click.echo(f"version {info.id}: {info.bot} v{info.number} for {info.game}, online{again}")
    click.echo(f"status: {info.status} — {info.status_message}")
    click.echo(f"next: skyarena connect {bot if not manifest else target}  (a play token: skyarena token create "
               "--scope play)")
