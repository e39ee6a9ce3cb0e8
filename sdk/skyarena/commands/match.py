"""``skyarena match``: start a match on a running referee and play every seat with a local
bot process (``python -m skyarena.remote BOT --stdio``, so no console script needs to be on
PATH), relayed as a worker relays a hosted bot: on a CPU clock, measured from outside."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from rich.table import Table

from referee.match import TimeControl

from .. import cputime
from ..cli_support import UserError, console, err_console, prepare_replay_dir
from .bot_files import bot_cwd, bot_path, checked_bot_factory
from .fetch_replay import write_status_replay
from .referee_options import checked_options, new_match_options

if TYPE_CHECKING:
    from ..referee_client import RefereeClient

BOT_EXIT_GRACE_S = 10.0   # how long a bot process may take to exit once its match has ended
CALL_TIMEOUT_S = 30.0     # each call to the referee; the match itself has --timeout


@click.command("match")
@click.argument("game")
@click.argument("bots", nargs=-1, required=True)
@new_match_options
@click.option("--timeout", type=click.FloatRange(min=1), default=3600.0, show_default=True,
              help="Give up (and cancel the match) after this many seconds.")
@click.option("--replay-dir", type=click.Path(file_okay=False, path_type=Path),
              help="Write the match's replay here (GAME-MATCH_ID.jsonl).")
@click.option("--force", is_flag=True, help="Overwrite a replay that exists in --replay-dir.")
@click.option("--logs-dir", type=click.Path(file_okay=False, path_type=Path),
              help="Keep each seat's output here (default: kept only when a bot failed, and the path is printed).")
@click.option("--json", "as_json", is_flag=True,
              help='Print {"match_id", "game", "ranks", "scores", "reason", "faults"}.')
def command(game: str, bots: tuple[str, ...], referee: str, service_token: str, seed: int | None,
            option_pairs: tuple[str, ...], move_time: float, bank: float, first_move: float, strikes: int,
            timeout: float, replay_dir: Path | None, force: bool, logs_dir: Path | None, as_json: bool) -> None:
    """Start a GAME match on a running referee and play it with BOTS as local processes.

    One process per seat runs `skyarena run BOT --stdio` in the bot's folder, relayed to the
    referee as a worker relays a hosted bot (on a CPU clock: the bot is charged its own CPU
    time); the result is printed when the match ends. The quickest way to see the whole
    remote path work."""
    from ..referee_client import RefereeCallError, start_request

    options = checked_options(game, len(bots), option_pairs)
    for bot in bots:
        if bot.endswith(".py") or ".py:" in bot or Path(bot).is_dir():
            checked_bot_factory(bot, game)  # fail early on a broken bot file
    if replay_dir is not None:
        prepare_replay_dir(replay_dir, [], force)
    if logs_dir is not None:
        _make_dir(logs_dir, "--logs-dir")
    request = start_request(game, len(bots), options, TimeControl(move_time, bank, first_move), strikes, list(bots),
                            seed=seed, cpu_clock=cputime.supported())
    try:
        summary = asyncio.run(_run_match(request, bots, referee, service_token, timeout, replay_dir, force,
                                         logs_dir))
    except RefereeCallError as exc:
        raise UserError(str(exc)) from None
    if as_json:
        click.echo(json.dumps(summary))
    else:
        _print_match(summary)
    if summary.get("state") != "finished":
        sys.exit(1)


def _make_dir(path: Path, flag: str) -> None:
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(f"cannot create {path} ({flag}): {exc.strerror or exc}; choose another folder") from None


def exit_text(code: int) -> str:
    """Why a bot process ended, in words: a negative status is the signal that stopped it."""
    if code == -signal.SIGKILL:
        return (f"was killed (status {code}): it was still running {BOT_EXIT_GRACE_S:g} s after the match ended, "
                "most likely stuck in act() past its deadline (the referee had played the fallback for it)")
    if code < 0:
        return f"was stopped by signal {signal.Signals(-code).name} (status {code})"
    return f"exited with status {code}"


async def _run_match(request: Any, bots: tuple[str, ...], referee: str, service_token: str, timeout: float,
                     replay_dir: Path | None, force: bool, logs_dir: Path | None) -> dict[str, Any]:
    from ..referee_client import RefereeClient, fault_json, state_name

    async with RefereeClient.connect(referee, service_token, CALL_TIMEOUT_S) as client:
        started = await client.start(request)
        kept = logs_dir is not None
        logs = logs_dir if logs_dir is not None else Path(tempfile.mkdtemp(prefix="skyarena-match-"))
        processes = []
        relays = []
        for seat_token, bot in zip(started.seats, bots):
            env = dict(os.environ)
            env.pop("SKYARENA_SERVICE_TOKEN", None)  # bots never see the service token
            log_path = logs / f"{started.match_id}-seat{seat_token.seat}.log"
            target = bot_path(bot)
            with open(log_path, "wb") as log_file:
                proc = await asyncio.create_subprocess_exec(
                    sys.executable, "-m", "skyarena.remote", target, "--game", request.game, "--stdio",
                    stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=log_file, env=env,
                    cwd=bot_cwd(target),
                )
            processes.append((seat_token.seat, bot, proc, log_path))
            relays.append(asyncio.ensure_future(_relay_seat(proc, referee, seat_token.token, service_token)))
        await _wait_or_cancel(client, started.match_id, timeout)
        await asyncio.gather(*relays, return_exceptions=True)
        status = await client.status(started.match_id, include_replay=replay_dir is not None)
        failed = False
        for seat, bot, proc, log_path in processes:
            try:
                code = await asyncio.wait_for(proc.wait(), BOT_EXIT_GRACE_S)
            except TimeoutError:
                proc.kill()
                code = await proc.wait()
            if code != 0:
                failed = True
                tail = log_path.read_text(errors="replace")[-800:].strip()
                err_console.print(f"[yellow]seat {seat} ({bot}) {exit_text(code)}[/yellow]"
                                  + (f"; its last output:\n{tail}" if tail else ""), highlight=False, soft_wrap=True)
    if kept or failed:
        err_console.print(f"seat logs: {logs}", highlight=False, soft_wrap=True)
    else:
        shutil.rmtree(logs, ignore_errors=True)
    end = status.end
    state = state_name(status)
    summary: dict[str, Any] = {
        "match_id": status.match_id,
        "game": status.game,
        "ranks": list(end.result.ranks),
        "scores": list(end.result.scores),
        "reason": end.result.reason if state == "finished" else (end.reason or state),
        "faults": [fault_json(f) for f in end.faults],
        "state": state,
        "seed": status.seed,
        "seats": list(bots),
        "forfeited": list(end.forfeited),
        "decisions": status.decisions,
    }
    if replay_dir is not None and status.replay_jsonl:
        summary["replay"] = str(write_status_replay(status, replay_dir, force))
    return summary


async def _relay_seat(proc: asyncio.subprocess.Process, referee: str, token: str, service_token: str) -> None:
    """A seat as a worker plays it: the bot speaks stdio frames and this relay measures its
    process tree's CPU time for the referee (the seat's CPU clock), so the clock here is
    the one the platform applies."""
    from ..remote.relay import relay

    assert proc.stdout is not None and proc.stdin is not None
    clock = cputime.TreeClock(proc.pid) if cputime.supported() else None
    await relay(proc.stdout, proc.stdin, referee, token, cpu_clock=clock,
                service_token=service_token if clock is not None else None)


async def _wait_or_cancel(client: RefereeClient, match_id: str, timeout: float) -> None:
    """Wait for the match's end; past ``timeout``, or when watching fails, cancel it."""
    from ..referee_client import RefereeCallError

    try:
        await asyncio.wait_for(client.wait_end(match_id), timeout)
    except (TimeoutError, RefereeCallError) as exc:
        await client.cancel(match_id, "skyarena match gave up")
        if isinstance(exc, RefereeCallError):
            raise RefereeCallError("watching the match", exc.code, exc.details) from None


def _print_match(summary: dict[str, Any]) -> None:
    if summary["state"] != "finished":
        console.print(f"match {summary['match_id']} ({summary['game']}) {summary['state']}: {summary['reason']}")
        return
    table = Table(title=f"{summary['game']} — match {summary['match_id']}, seed {summary['seed']}")
    for col in ("seat", "bot", "rank", "score", "faults"):
        table.add_column(col, justify="left" if col == "bot" else "right")
    for seat, bot in enumerate(summary["seats"]):
        faults = sum(1 for f in summary["faults"] if f["seat"] == seat)
        mark = " (forfeit)" if seat in summary["forfeited"] else ""
        table.add_row(str(seat), bot + mark, str(summary["ranks"][seat] + 1), f"{summary['scores'][seat]:g}",
                      str(faults))
    console.print(table)
    console.print(f"result: {summary['reason']} after {summary['decisions']} decisions (rank 1 = first)")
    if summary.get("replay"):
        console.print(f"replay: {summary['replay']}")
    for fault in summary["faults"][:20]:
        console.print(f"  turn {fault['turn']}, seat {fault['seat']}: {fault['kind']} — {fault['reason']}"
                      + (" (forfeit)" if fault["forfeit"] else ""))
