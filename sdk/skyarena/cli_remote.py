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
import shutil
import signal
import sys
import tempfile
from pathlib import Path
from typing import Any

import click
from rich.table import Table

from referee.games import GAMES, GameSpec, SkyarenaError
from referee.games.core import replay as replay_io
from referee.match import TimeControl

from .cli import (
    UserError,
    clock_options,
    console,
    err_console,
    main,
    parse_options,
    prepare_replay_dir,
    replay_path,
    write_replay,
)
from .loader import BotLoadError, create_bot, load_bot

CONNECT_TIMEOUT_S = 10.0   # an unreachable referee is reported after this, not waited for forever


def _bot_factory(bot_spec: str, game: str | None) -> Any:
    """The remote runner's bot factory, after one trial creation of a bot file's class: an
    ``__init__`` that raises or needs arguments is a one-line error before connecting."""
    from .remote.runner import bot_factory

    try:
        if Path(bot_spec.partition(":")[0]).exists() or Path(bot_spec).exists():
            create_bot(load_bot(bot_spec, game or "")[1])
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
    from .remote.frames import FrameError

    _enter_bot_folder(bot)
    try:
        outcome = run_bot(factory, referee, token or "", stdio=stdio)
    except FrameError as exc:
        raise UserError(f"--stdio: stdin does not carry skyarena.v1 frames ({exc}); --stdio is for a relay that "
                        "writes length-delimited BotMessage/RefereeMessage frames. To play a referee directly, use "
                        "--referee HOST:PORT --token T.") from None
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
    err_console.print(f"match {outcome.match_id}: seat {outcome.seat} ranked {res['ranks'][outcome.seat] + 1} "
                      "(1 = first) "
                      f"({res['reason']}); ranks {res['ranks']}, scores {res['scores']}; "
                      f"{len(own)} fault(s) of this seat")


def _enter_bot_folder(bot: str) -> None:
    """Run a bot file in its folder, as local play does, so its relative data files resolve
    the same way everywhere (its modules import from there by the loader's doing)."""
    path = Path(bot.partition(":")[0] if not Path(bot).exists() else bot)
    if path.exists():
        os.chdir(path.resolve() if path.is_dir() else path.resolve().parent)


def _bot_path(bot: str) -> str:
    """A bot file or folder as an absolute path (its process runs in the bot's folder); a
    house bot name as is."""
    file_part, sep, cls = bot.partition(":") if not Path(bot).exists() else (bot, "", "")
    if not Path(file_part).exists():
        return bot
    return str(Path(file_part).resolve()) + sep + cls


def _bot_cwd(bot: str) -> str | None:
    path = Path(bot.partition(":")[0])
    if not path.is_absolute() or not path.exists():
        return None
    return str(path if path.is_dir() else path.parent)


def _start_request(game: str, players: int, options: dict[str, Any], seed: int | None, clock: TimeControl,
                   strikes: int, names: list[str]) -> Any:
    from .v1 import referee_pb2 as pb

    request = pb.StartMatchRequest(
        game=game, players=players, options_json=json.dumps(options), strike_limit=strikes,
        time_control=pb.TimeControl(move_s=clock.move_s, bank_s=clock.bank_s, first_move_s=clock.first_move_s),
        seats=[pb.SeatSpec(name=n) for n in names],
    )
    if seed is not None:
        request.seed = seed
    return request


def _service(service_token: str) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {service_token}"),)


def _rpc_error(what: str, exc: Any) -> UserError:
    return UserError(f"{what} failed: {exc.code().name}: {exc.details()}")


# Options shared by the commands that reach a referee (one definition, one help text).
referee_option = click.option("--referee", envvar="SKYARENA_REFEREE", required=True, metavar="HOST:PORT",
                              help="The referee's address (env SKYARENA_REFEREE).")
service_token_option = click.option("--service-token", envvar="SKYARENA_SERVICE_TOKEN", required=True,
                                    help="The referee's service token (env SKYARENA_SERVICE_TOKEN).")


def new_match_options(command: Any) -> Any:
    """What a new match on a referee needs: address, service token, seed, options, clocks."""
    for option in reversed([
        referee_option, service_token_option,
        click.option("--seed", type=int, default=None, help="The match seed (default: the referee draws one)."),
        click.option("-o", "--option", "option_pairs", multiple=True, metavar="NAME=VALUE",
                     help="A game option (repeatable)."),
        clock_options,
    ]):
        command = option(command)
    return command


# ----- skyarena start ------------------------------------------------------------------------

@main.command("start")
@click.argument("game")
@click.option("--players", type=click.IntRange(min=1), required=True, help="Seats in the match.")
@click.option("--name", "names", multiple=True, metavar="NAME",
              help="A seat's display name, in seat order (repeatable; default seat0, seat1...).")
@new_match_options
@click.option("--json", "as_json", is_flag=True, help='Print {"match_id", "seed", "seats": [{"seat", "token"}]}.')
def start_command(game: str, players: int, names: tuple[str, ...], referee: str, service_token: str,
                  seed: int | None, option_pairs: tuple[str, ...], move_time: float, bank: float, first_move: float,
                  strikes: int, as_json: bool) -> None:
    """Start a GAME match on a referee and print its id and one seat token per seat.

    Hand each token to one bot: `skyarena run BOT --referee ADDR --token TOKEN`. Tokens are
    secrets: each plays its seat only."""
    import grpc

    from .v1 import referee_pb2_grpc as pb_grpc

    options = _checked_options(game, players, option_pairs)
    if names and len(names) != players:
        raise UserError(f"--name was given {len(names)} times for {players} seats; give one per seat or none")
    seat_names = list(names) or [f"seat{i}" for i in range(players)]
    request = _start_request(game, players, options, seed, TimeControl(move_time, bank, first_move), strikes,
                             seat_names)
    with grpc.insecure_channel(referee) as channel:
        try:
            started = pb_grpc.RefereeStub(channel).StartMatch(request, metadata=_service(service_token),
                                                              timeout=CONNECT_TIMEOUT_S)
        except grpc.RpcError as exc:
            raise _rpc_error(f"StartMatch on {referee}", exc) from None
    seats = [{"seat": t.seat, "name": seat_names[t.seat], "token": t.token} for t in started.seats]
    if as_json:
        click.echo(json.dumps({"match_id": started.match_id, "game": game, "seed": started.seed, "seats": seats}))
        return
    click.echo(f"match {started.match_id} ({game}, seed {started.seed})")
    for seat in seats:
        click.echo(f"  seat {seat['seat']} ({seat['name']}): skyarena run BOT --referee {referee} "
                   f"--token {seat['token']}")
    click.echo(f"watch it: skyarena watch {started.match_id} --referee {referee}")


def _checked_options(game: str, players: int, option_pairs: tuple[str, ...]) -> dict[str, Any]:
    game_spec = GAMES.get(game)
    options = parse_options(option_pairs, game_spec)
    if game_spec is not None:  # an unknown game may still be known to the referee: it will say
        try:
            game_spec.validate(players, options)
        except SkyarenaError as exc:
            raise UserError(str(exc)) from None
    return options


# ----- skyarena watch --------------------------------------------------------------------------

@main.command("watch")
@click.argument("match_id")
@referee_option
@click.option("--from-start", is_flag=True, help="Every public event from the first move (default: from now).")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per event (header, step, fault, end).")
def watch_command(match_id: str, referee: str, from_start: bool, as_json: bool) -> None:
    """Follow a match live as a spectator: public moves, faults and the result."""
    import grpc
    from google.protobuf.json_format import MessageToDict

    from .v1 import referee_pb2 as pb
    from .v1 import referee_pb2_grpc as pb_grpc

    with grpc.insecure_channel(referee) as channel:
        try:
            grpc.channel_ready_future(channel).result(timeout=CONNECT_TIMEOUT_S)
        except grpc.FutureTimeoutError:
            raise UserError(f"no referee answers at {referee} (waited {CONNECT_TIMEOUT_S:g} s); check the address "
                            "and that `skyarena referee serve` runs there") from None
        try:
            for event in pb_grpc.RefereeStub(channel).Watch(pb.WatchRequest(match_id=match_id,
                                                                            from_start=from_start)):
                if as_json:
                    click.echo(json.dumps(MessageToDict(event, preserving_proto_field_name=True)))
                else:
                    _print_event(event)
        except grpc.RpcError as exc:
            raise _rpc_error(f"watching match {match_id}", exc) from None


def _print_event(event: Any) -> None:
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


# ----- skyarena fetch-replay ---------------------------------------------------------------------

@main.command("fetch-replay")
@click.argument("match_id")
@referee_option
@click.option("--service-token", envvar="SKYARENA_SERVICE_TOKEN", required=True,
              help="The referee's service token (env SKYARENA_SERVICE_TOKEN); a replay reveals every hidden card.")
@click.option("--replay-dir", type=click.Path(file_okay=False, path_type=Path), default=Path("."),
              show_default=True, help="Write GAME-MATCH_ID.jsonl here.")
@click.option("--force", is_flag=True, help="Overwrite the replay if it exists.")
def fetch_replay_command(match_id: str, referee: str, service_token: str, replay_dir: Path, force: bool) -> None:
    """Download a finished match's replay from the referee (`skyarena replay FILE --verify` checks it)."""
    import grpc

    from .v1 import referee_pb2_grpc as pb_grpc

    with grpc.insecure_channel(referee) as channel:
        try:
            path = _save_replay(pb_grpc.RefereeStub(channel).GetMatch, match_id, service_token, replay_dir, force)
        except grpc.RpcError as exc:
            raise _rpc_error(f"GetMatch {match_id}", exc) from None
    click.echo(f"wrote {path}")


def _save_replay(get_match: Any, match_id: str, service_token: str, replay_dir: Path, force: bool) -> Path:
    """Fetch the replay (GetMatch with include_replay) and write it with the seats' names in
    its header; works with a sync or an async stub's GetMatch result."""
    from .v1 import referee_pb2 as pb

    status = get_match(pb.GetMatchRequest(match_id=match_id, include_replay=True), metadata=_service(service_token),
                       timeout=CONNECT_TIMEOUT_S)
    return _write_status_replay(status, replay_dir, force)


def _write_status_replay(status: Any, replay_dir: Path, force: bool) -> Path:
    if not status.replay_jsonl:
        raise UserError(f"match {status.match_id} has no replay yet: it is still running (or was aborted before "
                        "its first move); fetch it once it has ended")
    path = replay_path(replay_dir, status.game, status.match_id)
    prepare_replay_dir(replay_dir, [path], force)
    records = replay_io.loads(status.replay_jsonl, f"the replay of match {status.match_id}")
    write_replay(path, records, [seat.name for seat in status.seats])
    return path


# ----- skyarena match ----------------------------------------------------------------------

@main.command("match")
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
def match_command(game: str, bots: tuple[str, ...], referee: str, service_token: str, seed: int | None,
                  option_pairs: tuple[str, ...], move_time: float, bank: float, first_move: float, strikes: int,
                  timeout: float, replay_dir: Path | None, force: bool, logs_dir: Path | None,
                  as_json: bool) -> None:
    """Start a GAME match on a running referee and play it with BOTS as local processes.

    One process per seat runs `skyarena run BOT` against the referee, in the bot's folder;
    the result is printed when the match ends. The quickest way to see the whole remote path
    work."""
    options = _checked_options(game, len(bots), option_pairs)
    for bot in bots:
        if bot.endswith(".py") or ".py:" in bot or Path(bot).is_dir():
            _bot_factory(bot, game)  # fail early on a broken bot file
    if replay_dir is not None:
        prepare_replay_dir(replay_dir, [], force)
    if logs_dir is not None:
        _make_dir(logs_dir, "--logs-dir")
    try:
        summary = asyncio.run(_run_match(game, bots, referee, service_token, seed, options,
                                         TimeControl(move_time, bank, first_move), strikes, timeout,
                                         replay_dir, force, logs_dir))
    except _MatchError as exc:
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


class _MatchError(Exception):
    pass


BOT_EXIT_GRACE_S = 10.0   # how long a bot process may take to exit once its match has ended


def _exit_text(code: int) -> str:
    """Why a bot process ended, in words: a negative status is the signal that stopped it."""
    if code == -signal.SIGKILL:
        return (f"was killed (status {code}): it was still running {BOT_EXIT_GRACE_S:g} s after the match ended, "
                "most likely stuck in act() past its deadline (the referee had played the fallback for it)")
    if code < 0:
        return f"was stopped by signal {signal.Signals(-code).name} (status {code})"
    return f"exited with status {code}"


async def _run_match(game: str, bots: tuple[str, ...], referee: str, service_token: str, seed: int | None,
                     options: dict[str, Any], clock: TimeControl, strikes: int, timeout: float,
                     replay_dir: Path | None, force: bool, logs_dir: Path | None) -> dict[str, Any]:
    from grpc import aio

    from .v1 import referee_pb2 as pb
    from .v1 import referee_pb2_grpc as pb_grpc

    metadata = _service(service_token)
    request = _start_request(game, len(bots), options, seed, clock, strikes, list(bots))
    async with aio.insecure_channel(referee) as channel:
        stub = pb_grpc.RefereeStub(channel)
        try:
            started = await stub.StartMatch(request, metadata=metadata, timeout=30)
        except aio.AioRpcError as exc:
            raise _MatchError(f"StartMatch failed: {exc.code().name}: {exc.details()}") from None
        kept = logs_dir is not None
        logs = logs_dir if logs_dir is not None else Path(tempfile.mkdtemp(prefix="skyarena-match-"))
        processes = []
        for seat_token, bot in zip(started.seats, bots):
            env = dict(os.environ, SKYARENA_SEAT_TOKEN=seat_token.token, SKYARENA_REFEREE=referee)
            env.pop("SKYARENA_SERVICE_TOKEN", None)  # bots never see the service token
            log_path = logs / f"{started.match_id}-seat{seat_token.seat}.log"
            target = _bot_path(bot)
            with open(log_path, "wb") as log_file:
                proc = await asyncio.create_subprocess_exec(
                    sys.executable, "-m", "skyarena.remote", target, "--game", game,
                    stdin=asyncio.subprocess.DEVNULL, stdout=log_file, stderr=log_file, env=env,
                    cwd=_bot_cwd(target),
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
        status = await stub.GetMatch(pb.GetMatchRequest(match_id=started.match_id, include_replay=bool(replay_dir)),
                                     metadata=metadata)
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
                err_console.print(f"[yellow]seat {seat} ({bot}) {_exit_text(code)}[/yellow]"
                                  + (f"; its last output:\n{tail}" if tail else ""), highlight=False, soft_wrap=True)
    if kept or failed:
        err_console.print(f"seat logs: {logs}", highlight=False, soft_wrap=True)
    else:
        shutil.rmtree(logs, ignore_errors=True)
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
    if replay_dir is not None and status.replay_jsonl:
        summary["replay"] = str(_write_status_replay(status, replay_dir, force))
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
        table.add_row(str(seat), bot + mark, str(summary["ranks"][seat] + 1), f"{summary['scores'][seat]:g}",
                      str(faults))
    console.print(table)
    console.print(f"result: {summary['reason']} after {summary['decisions']} decisions (rank 1 = first)")
    if summary.get("replay"):
        console.print(f"replay: {summary['replay']}")
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
