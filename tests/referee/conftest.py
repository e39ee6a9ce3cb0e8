"""A real referee on loopback for the referee tests, and real bot processes.

The referee runs in this process on its own event loop thread (so tests can register the
toy game and inspect matches), listening on 127.0.0.1 with a free port; bots run as
subprocesses (``python -m skyarena.remote``) exactly as ``skyarena match`` starts them.
"""

from __future__ import annotations

import asyncio
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import grpc
import pytest

from referee.games import GAMES
from referee.service import Limits, RefereeServer
from skyarena.v1 import referee_pb2 as pb
from skyarena.v1 import referee_pb2_grpc as pb_grpc
from tests.toy_game import SPEC as TOY_SPEC

T = TypeVar("T")
ROOT = Path(__file__).resolve().parents[2]
BOTS = Path(__file__).resolve().parent / "bots"
SERVICE_TOKEN = "test-service-token-0123456789"
AUTH = (("authorization", f"Bearer {SERVICE_TOKEN}"),)
TOY = TOY_SPEC.name


class Referee:
    """A RefereeServer on a background event loop, with a synchronous client."""

    def __init__(self, limits: Limits | None = None) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True, name="referee-loop")
        self.thread.start()

        async def make() -> RefereeServer:
            return RefereeServer(SERVICE_TOKEN, limits or Limits(join_timeout_s=60.0))

        self.server = self.call(make())
        self.port = self.call(self.server.start("127.0.0.1:0"))
        self.address = f"127.0.0.1:{self.port}"
        self.channel = grpc.insecure_channel(self.address)
        self.stub = pb_grpc.RefereeStub(self.channel)

    def call(self, coro: Coroutine[Any, Any, T], timeout: float = 60.0) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def on_loop(self, fn: Any, *args: Any) -> Any:
        """Run a plain function on the referee's loop (matches are not thread-safe)."""

        async def wrapper() -> Any:
            return fn(*args)

        return self.call(wrapper())

    def start(self, game: str = TOY, players: int = 2, seed: int = 1, options: dict[str, Any] | None = None,
              move_s: float = 5.0, bank_s: float = 10.0, first_move_s: float = 15.0, strikes: int = 3,
              join_timeout_s: float = 0.0, names: list[str] | None = None, cpu_seats: tuple[int, ...] = (),
              wall_backstop: float = 0.0) -> pb.StartMatchResponse:
        import json

        request = pb.StartMatchRequest(
            game=game, players=players, seed=seed, options_json=json.dumps(options or {}),
            time_control=pb.TimeControl(move_s=move_s, bank_s=bank_s, first_move_s=first_move_s,
                                        wall_backstop=wall_backstop),
            strike_limit=strikes, join_timeout_s=join_timeout_s,
            seats=[pb.SeatSpec(name=(names or [])[i] if names and i < len(names) else f"bot{i}",
                               cpu_clock=i in cpu_seats) for i in range(players)],
        )
        return self.stub.StartMatch(request, metadata=AUTH, timeout=10)

    def status(self, match_id: str, replay: bool = False) -> pb.MatchStatus:
        return self.stub.GetMatch(pb.GetMatchRequest(match_id=match_id, include_replay=replay), metadata=AUTH,
                                  timeout=10)

    def wait_end(self, match_id: str, timeout: float = 60.0) -> pb.MatchStatus:
        """Block until the match is over (following its Watch stream)."""
        for event in self.stub.Watch(pb.WatchRequest(match_id=match_id), timeout=timeout):
            if event.WhichOneof("kind") == "end":
                break
        return self.status(match_id, replay=True)

    def close(self) -> None:
        self.channel.close()
        self.call(self.server.stop(grace_s=1.0))
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


# ----- a bare client for protocol tests --------------------------------------------------


class RawSeat:
    """One Play stream driven by hand (no SDK): send frames, read frames with a timeout."""

    def __init__(self, referee: Any, token: str | None, first: pb.BotMessage | None = None,
                 metadata: tuple[tuple[str, str], ...] | None = None) -> None:
        self.channel = grpc.insecure_channel(referee.address)
        self.outgoing: queue.Queue[pb.BotMessage | None] = queue.Queue()
        self.incoming: queue.Queue[Any] = queue.Queue()
        if first is not None:
            self.outgoing.put(first)
        elif token is not None:
            self.outgoing.put(pb.BotMessage(join=pb.Join(token=token, client="raw-test")))
        self.call = pb_grpc.RefereeStub(self.channel).Play(self._requests(), metadata=metadata)
        self.thread = threading.Thread(target=self._pump, daemon=True)
        self.thread.start()

    def _requests(self) -> Iterator[pb.BotMessage]:
        while True:
            message = self.outgoing.get()
            if message is None:
                return
            yield message

    def _pump(self) -> None:
        try:
            for message in self.call:
                self.incoming.put(message)
            self.incoming.put(("closed", grpc.StatusCode.OK, ""))
        except grpc.RpcError as exc:
            self.incoming.put(("closed", exc.code(), exc.details()))

    def send(self, message: pb.BotMessage) -> None:
        self.outgoing.put(message)

    def answer(self, turn: int, **choice: Any) -> None:
        self.send(pb.BotMessage(answer=pb.Answer(turn=turn, **choice)))

    def next(self, timeout: float = 10.0) -> Any:
        return self.incoming.get(timeout=timeout)

    def next_kind(self, kind: str, timeout: float = 10.0) -> Any:
        """Skip messages (e.g. event-only ones) until one of ``kind``; returns it."""
        deadline = time.monotonic() + timeout
        while True:
            message = self.next(max(0.01, deadline - time.monotonic()))
            if isinstance(message, tuple):
                raise AssertionError(f"stream closed with {message[1]}: {message[2]} while waiting for {kind}")
            if message.WhichOneof("kind") == kind:
                return message

    def closed(self, timeout: float = 10.0) -> tuple[grpc.StatusCode, str]:
        deadline = time.monotonic() + timeout
        while True:
            message = self.next(max(0.01, deadline - time.monotonic()))
            if isinstance(message, tuple):
                return message[1], message[2]

    def close(self) -> None:
        self.outgoing.put(None)
        self.call.cancel()
        self.channel.close()


SKYARENA = [sys.executable, "-m", "skyarena.cli"]


class ServeProcess:
    """``skyarena referee serve`` as a process (the toy game registered), on free ports."""

    def __init__(self, *extra: str, env: dict[str, str] | None = None) -> None:
        env = {**os.environ, "SKYARENA_SERVICE_TOKEN": SERVICE_TOKEN,
               "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]), **(env or {})}
        self.proc = subprocess.Popen(
            [*SKYARENA, "referee", "serve", "--listen", "127.0.0.1:0", "--metrics-listen", "127.0.0.1:0",
             "--register-game", "tests.toy_game:SPEC", *extra],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        lines = [self.proc.stdout.readline() for _ in range(2)]
        found = {m.group(1): m.group(2) for line in lines
                 if (m := re.search(r"(referee listening|metrics) on (?:http://)?([\d.]+:\d+)", line))}
        assert set(found) == {"referee listening", "metrics"}, lines
        self.address = found["referee listening"]
        self.signalled = False
        self.metrics = found["metrics"]

    def terminate(self) -> None:
        """SIGTERM once (a second one would cut the grace period short)."""
        if not self.signalled and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        self.signalled = True

    def stop(self) -> tuple[int, str]:
        self.terminate()
        _, err = self.proc.communicate(timeout=30)
        return self.proc.returncode, err


@pytest.fixture(scope="module")
def referee() -> Iterator[Referee]:
    GAMES[TOY_SPEC.name] = TOY_SPEC
    ref = Referee()
    try:
        yield ref
    finally:
        ref.close()
        GAMES.pop(TOY_SPEC.name, None)


def bot_env(token: str, referee_address: str, **extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("SKYARENA_SERVICE_TOKEN", None)
    env.update(SKYARENA_SEAT_TOKEN=token, SKYARENA_REFEREE=referee_address,
               PYTHONPATH=os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]), **extra)
    return env


def spawn_bot(bot: str, token: str, address: str, game: str | None = None, stdio: bool = False,
              **extra_env: str) -> subprocess.Popen[bytes]:
    """A bot process playing one seat (``bot``: house bot name or a file under tests/referee/bots)."""
    spec = str(BOTS / bot) if bot.endswith(".py") else bot
    cmd = [sys.executable, "-m", "skyarena.remote", spec]
    if game:
        cmd += ["--game", game]
    if stdio:
        cmd.append("--stdio")
    return subprocess.Popen(cmd, env=bot_env(token, address, **extra_env), cwd=ROOT, stdin=subprocess.PIPE if stdio
                            else subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def finish(processes: list[subprocess.Popen[bytes]], timeout: float = 60.0) -> list[tuple[int, str]]:
    """Wait for bot processes; returns (exit code, stderr) of each."""
    out = []
    for proc in processes:
        try:
            _, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            _, err = proc.communicate()
        out.append((proc.returncode, err.decode(errors="replace")))
    return out


def replay_moves(status: pb.MatchStatus) -> list[dict[str, str]]:
    import json

    return [r["actions"] for r in map(json.loads, status.replay_jsonl.splitlines()) if r["type"] == "move"]


def play_locally(game: str, bots: list[Any], seed: int, status: pb.MatchStatus,
                 options: dict[str, Any] | None = None) -> Any:
    """The same match played locally: the same seed, and each bot seeded as the referee
    seeded it (``SeatStatus.bot_seed``: a keyed hash the bots cannot recompute)."""
    import dataclasses

    from skyarena.local import play_match

    for bot, seat in zip(bots, status.seats):
        start = bot.start

        def seeded(info: Any, _start: Any = start, _seed: int = seat.bot_seed) -> None:
            _start(dataclasses.replace(info, bot_seed=_seed))

        bot.start = seeded
    return play_match(game, bots, seed=seed, options=options)
