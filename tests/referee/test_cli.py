"""The command line end to end: `skyarena referee serve` as a process, `skyarena match`
against it, Prometheus metrics over HTTP, graceful shutdown, and the stdio transport."""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from click.testing import CliRunner

from referee.games import GAMES
from skyarena.bot import RandomBot
from skyarena.cli import main
from skyarena.remote.relay import relay
from skyarena.v1 import referee_pb2 as pb
from skyarena.v1 import referee_pb2_grpc as pb_grpc
from tests.toy_game import SPEC as TOY_SPEC

from .conftest import (
    AUTH,
    BOTS,
    ROOT,
    SERVICE_TOKEN,
    SKYARENA,
    TOY,
    Referee,
    ServeProcess,
    bot_env,
    finish,
    play_locally,
    replay_moves,
    spawn_bot,
)


@pytest.fixture
def served() -> Iterator[ServeProcess]:
    server = ServeProcess("--shutdown-grace", "6")
    try:
        yield server
    finally:
        if server.proc.poll() is None:
            server.proc.kill()
            server.proc.communicate()


def test_skyarena_match_prints_json_and_metrics_are_served(served: ServeProcess) -> None:
    env = dict(os.environ, SKYARENA_SERVICE_TOKEN=SERVICE_TOKEN,
               PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    done = subprocess.run([*SKYARENA, "match", TOY, "random", str(BOTS / "crash_bot.py"), "--referee", served.address,
                           "--seed", "21", "-o", "rounds=4", "--json"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert {"match_id", "game", "ranks", "scores", "reason", "faults"} <= set(summary)
    assert summary["game"] == TOY and summary["ranks"] == [0, 1] and summary["reason"] == "forfeit"
    assert [f["kind"] for f in summary["faults"]] == ["exception"] * 3 and "my bug" in summary["faults"][0]["reason"]
    text = urllib.request.urlopen(f"http://{served.metrics}/metrics", timeout=5).read().decode()
    assert re.search(r"^skyarena_referee_decisions_total [1-9]", text, re.M)
    assert re.search(r'^skyarena_referee_faults_total\{kind="exception"\} 3', text, re.M)
    assert "skyarena_referee_decision_latency_seconds_count" in text
    assert re.search(r"^skyarena_referee_matches_running 0", text, re.M)
    code, err = served.stop()
    assert code == 0
    events = [json.loads(line) for line in err.splitlines() if line.startswith("{")]
    assert {"referee_listening", "match_created", "match_started", "fault", "match_finished",
            "referee_stopped"} <= {e["event"] for e in events}
    assert all(SERVICE_TOKEN not in line for line in err.splitlines())
    assert not [e for e in events if "seed" in e], "a match's seed decides its chance: the log never holds it"


def test_graceful_shutdown_lets_matches_finish_or_fail_cleanly(served: ServeProcess) -> None:
    with grpc.insecure_channel(served.address) as channel:
        stub = pb_grpc.RefereeStub(channel)

        def start(rounds: int) -> pb.StartMatchResponse:
            return stub.StartMatch(pb.StartMatchRequest(
                game=TOY, players=2, seed=3, options_json=json.dumps({"rounds": rounds}),
                time_control=pb.TimeControl(move_s=30, bank_s=0, first_move_s=30), seats=[pb.SeatSpec()] * 2),
                metadata=AUTH, timeout=10)

        quick = start(12)       # finishes within the grace period
        stuck = start(3)        # one seat never answers: aborted at the end of the grace period
        procs = [spawn_bot("sleepy_bot.py", s.token, served.address) for s in quick.seats]
        procs.append(spawn_bot("random", stuck.seats[0].token, served.address))
        hold = threading.Event()

        def join_then_wait() -> Iterator[pb.BotMessage]:
            yield pb.BotMessage(join=pb.Join(token=stuck.seats[1].token))
            hold.wait(60)   # never answers, never closes its side

        silent = stub.Play(join_then_wait())
        first = next(silent)
        assert first.WhichOneof("kind") == "welcome"
        for match in (quick, stuck):  # both matches are running (bots start slowly on a busy machine)
            while stub.GetMatch(pb.GetMatchRequest(match_id=match.match_id), metadata=AUTH,
                                timeout=10).state != pb.MATCH_STATE_RUNNING:
                time.sleep(0.05)
        served.terminate()
        rest = list(silent)
        hold.set()
        end = rest[-1].end
        assert end.state == pb.MATCH_STATE_ABORTED and "shut down" in end.reason
    code, err = served.stop()
    assert code == 0, err
    results = finish(procs)
    assert [c for c, _ in results] == [0, 0, 2], results
    assert "shut down" in results[2][1]
    finished = [json.loads(line) for line in err.splitlines() if '"match_finished"' in line]
    assert [e["match_id"] for e in finished] == [quick.match_id]


def test_stdio_transport_plays_through_a_relay(referee: Referee) -> None:
    """A bot process that speaks frames on stdin/stdout (and prints to stdout itself),
    relayed to the referee, plays exactly as it would locally."""
    response = referee.start(TOY, 2, seed=31, options={"rounds": 6})

    async def run() -> grpc.StatusCode:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "skyarena.remote", str(BOTS / "chatty_bot.py"), "--stdio", cwd=ROOT,
            env=bot_env("", ""), stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE)
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        status = await relay(proc.stdout, proc.stdin, referee.address, response.seats[0].token)
        err = await proc.stderr.read()
        assert await proc.wait() == 0, err
        assert b"thinking about 2 actions" in err  # the bot's prints went to stderr
        return status

    other = spawn_bot("random", response.seats[1].token, referee.address)
    assert asyncio.run(run()) == grpc.StatusCode.OK
    assert finish([other])[0][0] == 0
    status = referee.status(response.match_id, replay=True)
    assert status.state == pb.MATCH_STATE_FINISHED and not status.end.faults
    local = play_locally(TOY, [RandomBot(), RandomBot()], 31, status, options={"rounds": 6})
    assert replay_moves(status) == [r["actions"] for r in local.replay if r["type"] == "move"]


def test_a_hosted_bot_of_a_typed_game_loads_neither_grpc_nor_asyncio(referee: Referee) -> None:
    """A stdio bot converts typed observations and actions (skyarena.wire) for a whole match,
    relayed to the referee, without loading gRPC or asyncio: the wire conversion lives apart
    from the bot's gRPC client, and a hosted bot's start-up stays lean."""
    response = referee.start("sky-team", 2, seed=33, move_s=10, bank_s=10, first_move_s=30)

    async def run() -> bytes:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "skyarena.remote", str(BOTS / "lean_bot.py"), "--stdio", cwd=ROOT,
            env=bot_env("", ""), stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE)
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        assert await relay(proc.stdout, proc.stdin, referee.address, response.seats[0].token) == grpc.StatusCode.OK
        err = await proc.stderr.read()
        assert await proc.wait() == 0, err
        return err

    other = spawn_bot("random", response.seats[1].token, referee.address, game="sky-team")
    err = asyncio.run(run())
    assert finish([other])[0][0] == 0
    status = referee.status(response.match_id)
    assert status.state == pb.MATCH_STATE_FINISHED and not status.end.faults and status.decisions >= 4
    assert b"loaded at the end: neither" in err, err


def test_skyarena_run_explains_a_bad_token(referee: Referee, tmp_path: Path) -> None:
    done = subprocess.run([*SKYARENA, "run", "random", "--referee", referee.address, "--token", "nope"],
                          cwd=ROOT, env=bot_env("", referee.address), capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "UNAUTHENTICATED" in done.stderr and "seat token" in done.stderr
    assert AUTH  # the service token is never needed to play


# ----- the operator's and the bot author's mistakes, each a one-line message ----------------

def _serve(*args: str, env: dict[str, str] | None = None, prelude: str = "") -> subprocess.CompletedProcess[str]:
    """``skyarena referee serve ARGS`` that must fail at once (a hang is a failure)."""
    code = f"{prelude}import sys; from skyarena.cli import main; sys.exit(main(sys.argv[1:]))"
    full_env = {**os.environ, "SKYARENA_SERVICE_TOKEN": SERVICE_TOKEN, **(env or {})}
    return subprocess.run([sys.executable, "-c", code, "referee", "serve", *args], cwd=ROOT, env=full_env,
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize(("args", "env", "message"), [
    (["--listen", "127.0.0.1"], {}, "--listen needs HOST:PORT, e.g. 127.0.0.1:50051"),
    (["--listen", ":99999"], {}, "has no host"),
    (["--listen", "127.0.0.1:99999"], {}, "the port must be a number from 0 to 65535, got '99999'"),
    (["--listen", "127.0.0.1:-1"], {}, "the port must be a number from 0 to 65535, got '-1'"),
    (["--listen", "127.0.0.1:0", "--max-send-bytes", "4"], {}, "--max-send-bytes must be from 262144"),
    (["--listen", "127.0.0.1:0"], {"SKYARENA_MAX_SEND_BYTES": "4"}, "SKYARENA_MAX_SEND_BYTES must be from 262144"),
    (["--listen", "127.0.0.1:0"], {"SKYARENA_RETAIN_S": "inf"}, "SKYARENA_RETAIN_S must be a finite number"),
    (["--listen", "127.0.0.1:0", "--max-move", "inf"], {}, "--max-move must be a finite number"),
    (["--listen", "127.0.0.1:0"], {"SKYARENA_SERVICE_TOKEN": "short"}, "must be at least 16 characters"),
])
def test_serve_refuses_bad_configuration_in_one_line(args: list[str], env: dict[str, str], message: str) -> None:
    done = _serve(*args, env=env)
    assert done.returncode == 2, done.stderr
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and message in lines[0], done.stderr


def test_serve_names_a_port_in_use_and_a_missing_server_extra() -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = _serve("--listen", f"127.0.0.1:{port}")
    assert done.returncode == 2 and "the port is in use" in done.stderr and "Traceback" not in done.stderr
    done = _serve("--listen", "127.0.0.1:0", prelude="import sys; sys.modules['grpc_health'] = None; ")
    assert done.returncode == 2 and "pip install 'skyarena[server]'" in done.stderr and "grpc_health" in done.stderr


def test_a_service_token_read_with_its_newline_still_works() -> None:
    env = {"SKYARENA_SERVICE_TOKEN": SERVICE_TOKEN + "\n"}  # as a file read into the variable gives it
    served = ServeProcess("--shutdown-grace", "1", env=env)
    try:
        with grpc.insecure_channel(served.address) as channel:
            response = pb_grpc.RefereeStub(channel).StartMatch(
                pb.StartMatchRequest(game=TOY, players=2, seats=[pb.SeatSpec()] * 2), metadata=AUTH, timeout=10)
        assert response.match_id
    finally:
        served.stop()


def test_skyarena_run_against_a_wrong_address_fails_at_once() -> None:
    done = subprocess.run([*SKYARENA, "run", "random", "--referee", "127.0.0.1:1", "--token", "x" * 40], cwd=ROOT,
                          env=bot_env("", ""), capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "no referee answers at 127.0.0.1:1" in done.stderr and "Traceback" not in done.stderr


def test_a_bot_whose_referee_died_gives_up_after_its_rejoin_window() -> None:
    served = ServeProcess("--shutdown-grace", "1")
    with grpc.insecure_channel(served.address) as channel:
        response = pb_grpc.RefereeStub(channel).StartMatch(
            pb.StartMatchRequest(game=TOY, players=2, seats=[pb.SeatSpec()] * 2, join_timeout_s=120), metadata=AUTH,
            timeout=10)
    bot = spawn_bot("random", response.seats[0].token, served.address, SKYARENA_REJOIN_WINDOW_S="2")
    with grpc.insecure_channel(served.address) as channel:
        stub = pb_grpc.RefereeStub(channel)
        while not stub.GetMatch(pb.GetMatchRequest(match_id=response.match_id), metadata=AUTH,
                                timeout=10).seats[0].connected:
            time.sleep(0.1)  # until the bot has joined (it then waits for the other seat)
    served.proc.kill()
    served.proc.wait()
    (code, err), = finish([bot], timeout=60)
    assert code == 2, err
    assert "is gone" in err and "rejoin window" in err


def test_a_replay_sent_in_pages_is_saved_whole_by_match_and_fetch_replay(tmp_path: Path) -> None:
    """The referee pages long replays (here 4 KiB a page): `skyarena match --replay-dir` and
    `skyarena fetch-replay` follow every page, so the saved replay verifies."""
    served = ServeProcess("--shutdown-grace", "1", "--replay-page-bytes", "4096")
    env = dict(os.environ, SKYARENA_SERVICE_TOKEN=SERVICE_TOKEN,
               PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    try:
        played = subprocess.run([*SKYARENA, "match", TOY, "random", "random", "--referee", served.address,
                                 "--seed", "8", "-o", "rounds=50", "--replay-dir", str(tmp_path / "match"), "--json"],
                                cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
        assert played.returncode == 0, played.stderr
        summary = json.loads(played.stdout)
        fetched = subprocess.run([*SKYARENA, "fetch-replay", summary["match_id"], "--referee", served.address,
                                  "--replay-dir", str(tmp_path / "fetched")],
                                 cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
        assert fetched.returncode == 0, fetched.stderr
    finally:
        served.stop()
    saved = [Path(summary["replay"]), tmp_path / "fetched" / f"{TOY}-{summary['match_id']}.jsonl"]
    assert saved[0].read_bytes() == saved[1].read_bytes()
    assert saved[0].stat().st_size > 6000  # about 8 kB: two pages at least
    GAMES[TOY] = TOY_SPEC  # `skyarena replay --verify` in this process, which then knows the toy game
    try:
        verified = CliRunner().invoke(main, ["replay", str(saved[0]), "--verify"])
    finally:
        GAMES.pop(TOY, None)
    assert verified.exit_code == 0 and "verified:" in verified.output, verified.output
