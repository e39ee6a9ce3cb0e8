"""Remote play from the command line: ``skyarena run``, ``skyarena match`` and
``skyarena referee serve``.

Registered on the ``skyarena`` click group by the last line of ``cli.py``. ``skyarena match``
starts its bot processes as ``python -m skyarena.remote BOT`` (see ``remote/__main__.py``),
so it does not depend on a console script being on PATH.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

import click
from rich.table import Table

from referee.games import GAMES, GameSpec, SkyarenaError, spec
from referee.match import TimeControl

from .cli import UserError, console, err_console, main, parse_options
from .loader import BotLoadError

REMOTE_TIME = TimeControl()  # the referee's default time control


def _bot_factory(bot_spec: str, game: str | None) -> Any:
    from .remote.runner import bot_factory

    try:
        return bot_factory(bot_spec, game)
    except BotLoadError as exc:
        raise UserError(str(exc)) from None


# ----- skyarena run ------------------------------------------------------------------------

@main.command("run")
@click.argument("bot")
@click.option("--referee", envvar="SKYARENA_REFEREE", metavar="HOST:PORT",
              help="The referee's address (env SKYARENA_REFEREE).")
@click.option("--token", envvar="SKYARENA_SEAT_TOKEN", help="This seat's token (env SKYARENA_SEAT_TOKEN).")
@click.option("--stdio", is_flag=True, envvar="SKYARENA_STDIO",
              help="Speak length-delimited skyarena.v1 frames on stdin/stdout instead of gRPC (for a relay).")
@click.option("--game", help="Resolve a house bot name for this game before connecting.")
@click.option("--json", "as_json", is_flag=True, help="Print the seat's result as JSON (not with --stdio).")
def run_command(bot: str, referee: str | None, token: str | None, stdio: bool, game: str | None,
                as_json: bool) -> None:
    """Play one seat of a match on a referee with BOT (a house bot name or a .py file).

    The same bot file plays locally (`skyarena play`) and here, unchanged."""
    from .remote import RemoteError, run_bot

    factory = _bot_factory(bot, game)
    if not stdio and not referee:
        raise UserError("give the referee's address with --referee HOST:PORT (or set SKYARENA_REFEREE)")
    if not stdio and not token:
        raise UserError("give the seat token with --token (or set SKYARENA_SEAT_TOKEN); StartMatch returns one "
                        "per seat")
    try:
        outcome = run_bot(factory, referee, token or "", stdio=stdio)
    except RemoteError as exc:
        raise UserError(f"the referee refused or ended the stream: {exc}") from None
    except BotLoadError as exc:
        raise UserError(str(exc)) from None
    if stdio:
        return  # stdout carries frames only
    if as_json:
        click.echo(json.dumps(outcome.to_json()))
        return
    res = outcome.result
    own = [f for f in outcome.faults if f["seat"] == outcome.seat]
    err_console.print(f"match {outcome.match_id}: seat {outcome.seat} ranked {res['ranks'][outcome.seat]} "
                      f"({res['reason']}); ranks {res['ranks']}, scores {res['scores']}; "
                      f"{len(own)} fault(s) of this seat")


# ----- skyarena match ----------------------------------------------------------------------

@main.command("match")
@click.argument("game")
@click.argument("bots", nargs=-1, required=True)
@click.option("--referee", envvar="SKYARENA_REFEREE", required=True, metavar="HOST:PORT",
              help="The referee's address (env SKYARENA_REFEREE).")
@click.option("--service-token", envvar="SKYARENA_SERVICE_TOKEN", required=True,
              help="The referee's service token (env SKYARENA_SERVICE_TOKEN).")
@click.option("--seed", type=int, default=None, help="The match seed (default: the referee draws one).")
@click.option("-o", "--option", "option_pairs", multiple=True, metavar="NAME=VALUE", help="A game option (repeatable).")
@click.option("--move-time", type=click.FloatRange(min=0.001), default=REMOTE_TIME.move_s, show_default=True,
              help="Seconds per move.")
@click.option("--bank", type=click.FloatRange(min=0), default=REMOTE_TIME.bank_s, show_default=True,
              help="Time bank in seconds.")
@click.option("--first-move", type=click.FloatRange(min=0.001), default=REMOTE_TIME.first_move_s, show_default=True,
              help="Seconds for each seat's first move.")
@click.option("--strikes", type=click.IntRange(min=1), default=3, show_default=True, help="Faults before a forfeit.")
@click.option("--timeout", type=click.FloatRange(min=1), default=3600.0, show_default=True,
              help="Give up (and cancel the match) after this many seconds.")
@click.option("--json", "as_json", is_flag=True,
              help='Print {"match_id", "game", "ranks", "scores", "reason", "faults"}.')
def match_command(game: str, bots: tuple[str, ...], referee: str, service_token: str, seed: int | None,
                  option_pairs: tuple[str, ...], move_time: float, bank: float, first_move: float, strikes: int,
                  timeout: float, as_json: bool) -> None:
    """Start a GAME match on a running referee and play it with BOTS as local processes.

    One process per seat runs `skyarena run BOT` against the referee; the result is printed
    when the match ends. The quickest way to see the whole remote path work."""
    options = parse_options(option_pairs)
    with contextlib.suppress(SkyarenaError):  # an unknown game here may still be known to the referee
        spec(game).validate(len(bots), options)
    for bot in bots:
        if bot.endswith(".py") or ".py:" in bot:
            _bot_factory(bot, game)  # fail early on a broken bot file
    try:
        summary = asyncio.run(_run_match(game, bots, referee, service_token, seed, options,
                                         (move_time, bank, first_move), strikes, timeout))
    except _MatchError as exc:
        raise UserError(str(exc)) from None
    if as_json:
        click.echo(json.dumps(summary))
    else:
        _print_match(summary)
    if summary.get("state") != "finished":
        sys.exit(1)


class _MatchError(Exception):
    pass


async def _run_match(game: str, bots: tuple[str, ...], referee: str, service_token: str, seed: int | None,
                     options: dict[str, Any], clock: tuple[float, float, float], strikes: int,
                     timeout: float) -> dict[str, Any]:
    from grpc import aio

    from .v1 import referee_pb2 as pb
    from .v1 import referee_pb2_grpc as pb_grpc

    metadata = (("authorization", f"Bearer {service_token}"),)
    request = pb.StartMatchRequest(
        game=game, players=len(bots), options_json=json.dumps(options), strike_limit=strikes,
        time_control=pb.TimeControl(move_s=clock[0], bank_s=clock[1], first_move_s=clock[2]),
        seats=[pb.SeatSpec(name=b) for b in bots],
    )
    if seed is not None:
        request.seed = seed
    async with aio.insecure_channel(referee) as channel:
        stub = pb_grpc.RefereeStub(channel)
        try:
            started = await stub.StartMatch(request, metadata=metadata, timeout=30)
        except aio.AioRpcError as exc:
            raise _MatchError(f"StartMatch failed: {exc.code().name}: {exc.details()}") from None
        logs_dir = Path(tempfile.mkdtemp(prefix="skyarena-match-"))
        processes = []
        for seat_token, bot in zip(started.seats, bots):
            env = dict(os.environ, SKYARENA_SEAT_TOKEN=seat_token.token, SKYARENA_REFEREE=referee)
            env.pop("SKYARENA_SERVICE_TOKEN", None)  # bots never see the service token
            log_path = logs_dir / f"seat{seat_token.seat}.log"
            with open(log_path, "wb") as log_file:
                proc = await asyncio.create_subprocess_exec(
                    sys.executable, "-m", "skyarena.remote", bot, "--game", game,
                    stdin=asyncio.subprocess.DEVNULL, stdout=log_file, stderr=log_file, env=env,
                )
            processes.append((seat_token.seat, bot, proc, log_path))
        try:
            await asyncio.wait_for(_wait_end(stub, started.match_id), timeout)
        except (TimeoutError, aio.AioRpcError) as exc:
            with contextlib.suppress(aio.AioRpcError):
                cancel = pb.CancelMatchRequest(match_id=started.match_id, reason="skyarena match gave up")
                await stub.CancelMatch(cancel, metadata=metadata)
            if isinstance(exc, aio.AioRpcError):
                raise _MatchError(f"watching the match failed: {exc.code().name}: {exc.details()}") from None
        status = await stub.GetMatch(pb.GetMatchRequest(match_id=started.match_id), metadata=metadata)
        exits = []
        for seat, bot, proc, log_path in processes:
            try:
                code = await asyncio.wait_for(proc.wait(), 10)
            except TimeoutError:
                proc.kill()
                code = await proc.wait()
            if code != 0:
                tail = log_path.read_text(errors="replace")[-800:].strip()
                err_console.print(f"[yellow]seat {seat} ({bot}) exited with status {code}[/yellow]"
                                  + (f"; its last output:\n{tail}" if tail else ""))
            exits.append(code)
    end = status.end
    state = {pb.MATCH_STATE_FINISHED: "finished", pb.MATCH_STATE_ABORTED: "aborted"}.get(status.state, "running")
    summary: dict[str, Any] = {
        "match_id": status.match_id,
        "game": status.game,
        "ranks": list(end.result.ranks),
        "scores": list(end.result.scores),
        "reason": end.result.reason if state == "finished" else (end.reason or state),
        "faults": [{"seat": f.seat, "turn": f.turn, "kind": f.kind, "reason": f.reason, "strike": f.strike,
                    "forfeit": f.forfeit} for f in end.faults],
        "state": state,
        "seed": status.seed,
        "seats": list(bots),
        "forfeited": list(end.forfeited),
        "decisions": status.decisions,
    }
    return summary


async def _wait_end(stub: Any, match_id: str) -> None:
    from .v1 import referee_pb2 as pb

    async for event in stub.Watch(pb.WatchRequest(match_id=match_id)):
        if event.WhichOneof("kind") == "end":
            return


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
        table.add_row(str(seat), bot + mark, str(summary["ranks"][seat]), f"{summary['scores'][seat]:g}",
                      str(faults))
    console.print(table)
    console.print(f"result: {summary['reason']} after {summary['decisions']} decisions")
    for fault in summary["faults"][:20]:
        console.print(f"  turn {fault['turn']}, seat {fault['seat']}: {fault['kind']} — {fault['reason']}"
                      + (" (forfeit)" if fault["forfeit"] else ""))


# ----- skyarena referee serve --------------------------------------------------------------

@main.group("referee")
def referee_group() -> None:
    """Run the referee service."""


def _register_game(target: str) -> None:
    """``module:ATTR`` naming a GameSpec to serve besides the built-in games (tests, new games)."""
    module_name, _, attr = target.partition(":")
    if os.getcwd() not in sys.path:
        sys.path.append(os.getcwd())  # as `python -m` would: modules of the current directory
    try:
        game_spec = getattr(importlib.import_module(module_name), attr or "SPEC")
    except (ImportError, AttributeError) as exc:
        raise UserError(f"--register-game {target}: {exc}") from None
    if not isinstance(game_spec, GameSpec):
        raise UserError(f"--register-game {target} is not a GameSpec")
    GAMES[game_spec.name] = game_spec


def _limit_options(command: Any) -> Any:
    """One text option per referee limit (parsed and checked by Limits, as its variable is)."""
    from referee.service.limits import Limits

    for name, flag, help_text in reversed(Limits.flags()):
        command = click.option(flag, name, metavar="N", default=None, help=help_text)(command)
    return command


def _serve_imports() -> Any:
    """The referee's modules; without the server extra, a one-line message saying so."""
    try:
        from referee.service import limits, logs, server, tokens
    except ModuleNotFoundError as exc:
        raise UserError(f"the referee needs the server extra (module {exc.name!r} is missing): "
                        "pip install 'skyarena[server]'") from None
    return limits, logs, server, tokens


@referee_group.command("serve")
@click.option("--listen", envvar="SKYARENA_LISTEN", default="127.0.0.1:50051", show_default=True,
              metavar="HOST:PORT", help="Address to serve gRPC on (env SKYARENA_LISTEN); port 0 picks one.")
@click.option("--service-token", envvar="SKYARENA_SERVICE_TOKEN", required=True,
              help="Token that StartMatch and operator calls must present (env SKYARENA_SERVICE_TOKEN).")
@click.option("--spectator-token", envvar="SKYARENA_SPECTATOR_TOKEN",
              help="Token that lets a spectator (the dashboard) watch without the anonymous limits and take the "
                   "reserved spectator slots (env SKYARENA_SPECTATOR_TOKEN).")
@click.option("--seed-key", envvar="SKYARENA_SEED_KEY", hidden=True,
              help="Key of the bots' seeds (env SKYARENA_SEED_KEY); default: a random key per process.")
@click.option("--metrics-listen", envvar="SKYARENA_METRICS_LISTEN", metavar="HOST:PORT",
              help="Serve Prometheus metrics over HTTP here (env SKYARENA_METRICS_LISTEN).")
@click.option("--log-level", envvar="SKYARENA_LOG_LEVEL", default="info", show_default=True,
              type=click.Choice(["debug", "info", "warning", "error"]))
@click.option("--log-format", envvar="SKYARENA_LOG_FORMAT", default="json", show_default=True,
              type=click.Choice(["json", "text"]))
@click.option("--register-game", "register_games", multiple=True, hidden=True, metavar="MODULE:ATTR")
@_limit_options
def serve_command(listen: str, service_token: str, spectator_token: str | None, seed_key: str | None,
                  metrics_listen: str | None, log_level: str, log_format: str, register_games: tuple[str, ...],
                  **limit_flags: str | None) -> None:
    """Serve matches over gRPC until SIGINT/SIGTERM; then running matches finish (within the
    shutdown grace) or end ABORTED, and the process exits."""
    limits_mod, logs, server, tokens = _serve_imports()
    for target in register_games:
        _register_game(target)
    try:  # every check before anything starts, each a one-line message
        limits = limits_mod.Limits.from_sources(limit_flags)
        limits_mod.parse_listen(listen)
        if metrics_listen:
            limits_mod.parse_listen(metrics_listen, "--metrics-listen")
        service_token = tokens.check_token(service_token, "the service token (--service-token)")
        if spectator_token:
            spectator_token = tokens.check_token(spectator_token, "the spectator token (--spectator-token)")
    except ValueError as exc:
        raise UserError(str(exc)) from None
    logs.configure(log_level, log_format)
    try:
        asyncio.run(server.serve(listen, service_token, limits, metrics_listen, spectator_token=spectator_token,
                                 seed_key=seed_key.encode() if seed_key else None))
    except OSError as exc:
        raise UserError(str(exc) if str(exc).startswith("cannot listen") else f"cannot serve on {listen}: {exc}") \
            from None


if __name__ == "__main__":
    sys.exit(main())
