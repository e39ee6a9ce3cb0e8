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

from skyarena.bot import RandomBot
from skyarena.remote.relay import relay
from skyarena.v1 import referee_pb2 as pb
from skyarena.v1 import referee_pb2_grpc as pb_grpc

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
    server = ServeProcess("--shutdown-grace", "3")
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
        time.sleep(1.5)         # both matches are running
        served.terminate()
        rest = list(silent)
        hold.set()
        end = rest[-1].end
        assert end.state == pb.MATCH_STATE_ABORTED and "shut down" in end.reason
    code, err = served.stop()
    assert code == 0, err
    results = finish(procs)
    assert [c for c, _ in results] == [0, 0, 2]
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


def test_skyarena_run_explains_a_bad_token(referee: Referee, tmp_path: Path) -> None:
    done = subprocess.run([*SKYARENA, "run", "random", "--referee", referee.address, "--token", "nope"],
                          cwd=ROOT, env=bot_env("", referee.address), capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "UNAUTHENTICATED" in done.stderr and "seat token" in done.stderr
    assert AUTH  # the service token is never needed to play
