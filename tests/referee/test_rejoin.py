"""The SDK's automatic rejoin, end to end: a seat's TCP connection is cut mid-match and
``play_grpc`` rejoins with the same seat token, resumes the pending turn and finishes the
match, without a fault or a forfeit for that seat."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from skyarena import Bot
from skyarena.remote.grpc_transport import play_grpc
from skyarena.remote.runner import RemoteResult, SeatSession
from skyarena.v1 import referee_pb2 as pb

from .conftest import TOY, Referee, finish, spawn_bot


class CuttableProxy:
    """A TCP relay on loopback to ``target`` that can drop every open connection at once
    (both sides closed, as a network failure would) while it keeps accepting new ones."""

    def __init__(self, target: str) -> None:
        host, port = target.rsplit(":", 1)
        self.target = (host, int(port))
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.address = f"127.0.0.1:{self.listener.getsockname()[1]}"
        self.lock = threading.Lock()
        self.open: list[tuple[socket.socket, socket.socket]] = []
        self.accepted = 0
        self.closed = False
        threading.Thread(target=self._accept, daemon=True, name="proxy-accept").start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(self.target, timeout=5)
                upstream.settimeout(None)
            except OSError:
                client.close()
                continue
            pair = (client, upstream)
            with self.lock:
                if self.closed:
                    _close(pair)
                    return
                self.open.append(pair)
                self.accepted += 1
            threading.Thread(target=self._pump, args=(client, upstream, pair), daemon=True).start()
            threading.Thread(target=self._pump, args=(upstream, client, pair), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket, pair: tuple[socket.socket, socket.socket]) -> None:
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        self._drop(pair)

    def _drop(self, pair: tuple[socket.socket, socket.socket]) -> None:
        with self.lock:
            if pair in self.open:
                self.open.remove(pair)
        _close(pair)

    def cut(self) -> int:
        """Close every connection open now; returns how many were cut."""
        with self.lock:
            pairs, self.open = self.open, []
        for pair in pairs:
            _close(pair)
        return len(pairs)

    def close(self) -> None:
        with self.lock:
            self.closed = True
        self.listener.close()
        self.cut()


def _close(pair: tuple[socket.socket, socket.socket]) -> None:
    for sock in pair:
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)
        sock.close()


@pytest.fixture
def proxy(referee: Referee) -> Iterator[CuttableProxy]:
    relay = CuttableProxy(referee.address)
    try:
        yield relay
    finally:
        relay.close()


class GatedBot(Bot):
    """Plays index 0, but holds its second decision until the test lets it go (so the test
    can cut the connection while the referee is waiting on this seat)."""

    def __init__(self) -> None:
        super().__init__()
        self.decisions = 0
        self.holding = threading.Event()
        self.release = threading.Event()

    def act(self, observation: Any, legal_actions: list[Any]) -> Any:
        self.decisions += 1
        if self.decisions == 2:
            self.holding.set()
            assert self.release.wait(30), "the test never released the bot"
        return 0


class FirstLegal(Bot):
    def __init__(self) -> None:
        super().__init__()
        self.decisions = 0

    def act(self, observation: Any, legal_actions: list[Any]) -> Any:
        self.decisions += 1
        return 0


def wait_for(condition: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.01)


class SdkSeat:
    """One seat played in-process by the SDK (``play_grpc``) on its own thread."""

    def __init__(self, bot: Bot, address: str, token: str) -> None:
        self.said: list[str] = []
        self.result: RemoteResult | None = None
        self.error: BaseException | None = None
        self.session = SeatSession(lambda game: bot, say=self.said.append)
        self.thread = threading.Thread(target=self._run, args=(address, token), daemon=True, name="sdk-seat")
        self.thread.start()

    def _run(self, address: str, token: str) -> None:
        try:
            self.result = asyncio.run(play_grpc(self.session, address, token))
        except BaseException as exc:  # reported by the test thread
            self.error = exc

    def outcome(self, timeout: float = 30.0) -> RemoteResult:
        self.thread.join(timeout)
        assert not self.thread.is_alive(), f"play_grpc did not return; it said {self.said}"
        assert self.error is None, f"play_grpc failed: {self.error!r}; it said {self.said}"
        assert self.result is not None
        return self.result


def check_finished_without_fault(status: pb.MatchStatus, result: RemoteResult, match_id: str) -> None:
    assert status.state == pb.MATCH_STATE_FINISHED
    assert not status.end.forfeited
    assert [f for f in status.end.faults if f.seat == 0] == []
    assert status.end.decisions == 6
    assert result.seat == 0 and result.match_id == match_id
    assert result.decisions == 6 and not result.forfeited and not result.faults
    assert result.result["reason"] == "score" and sorted(result.result["ranks"]) in ([0, 1], [0, 0])


def check_rejoined(seat: SdkSeat, proxy: CuttableProxy, match_id: str) -> None:
    assert proxy.accepted >= 2, "seat 0 never connected again"
    assert any("rejoining" in line for line in seat.said), seat.said
    assert any(line.startswith(f"rejoined match {match_id} as seat 0") for line in seat.said), seat.said


def start_match(referee: Referee, seed: int) -> pb.StartMatchResponse:
    return referee.start(TOY, 2, seed=seed, options={"rounds": 6}, move_s=5, bank_s=10, first_move_s=10)


def test_sdk_rejoins_after_its_connection_drops_while_deciding(referee: Referee, proxy: CuttableProxy) -> None:
    """Cut while seat 0's bot is thinking: its answer goes to a dead stream, the SDK rejoins,
    the referee asks the same turn again and the match finishes normally."""
    response = start_match(referee, 21)
    other = spawn_bot("random", response.seats[1].token, referee.address)
    bot = GatedBot()
    seat0 = SdkSeat(bot, proxy.address, response.seats[0].token)
    try:
        assert bot.holding.wait(20), "seat 0 never reached its second decision"
        assert referee.status(response.match_id).decisions >= 1   # one full round was played
        assert proxy.cut() == 1                                   # seat 0's one connection
        bot.release.set()
        result = seat0.outcome()
        status = referee.wait_end(response.match_id, timeout=30)
    finally:
        bot.release.set()
        (code, err), = finish([other], timeout=30)

    assert code == 0, err
    check_rejoined(seat0, proxy, response.match_id)
    check_finished_without_fault(status, result, response.match_id)
    assert bot.decisions == 7   # six rounds, and the held turn asked again after the rejoin


def test_sdk_rejoins_after_its_connection_drops_while_waiting(referee: Referee, proxy: CuttableProxy) -> None:
    """Cut while seat 0 waits for its next turn request (the other seat is thinking): the
    SDK's pending read fails, it rejoins and plays on."""
    response = start_match(referee, 22)
    bot = FirstLegal()
    holder = GatedBot()
    seat1 = SdkSeat(holder, referee.address, response.seats[1].token)   # direct, not through the proxy
    seat0 = SdkSeat(bot, proxy.address, response.seats[0].token)
    try:
        assert holder.holding.wait(20), "seat 1 never reached its second decision"
        wait_for(lambda: bot.decisions >= 2, 20, "seat 0's second decision")
        assert proxy.cut() == 1
        holder.release.set()
        result = seat0.outcome()
        seat1.outcome()
        status = referee.wait_end(response.match_id, timeout=30)
    finally:
        holder.release.set()

    check_rejoined(seat0, proxy, response.match_id)
    check_finished_without_fault(status, result, response.match_id)
    # If the cut beat seat 0's second answer to the referee, that turn was asked again.
    assert bot.decisions in (6, 7)



def test_bot_process_rejoins_after_its_connection_drops(referee: Referee, proxy: CuttableProxy) -> None:
    """The same through ``python -m skyarena.remote`` (as ``skyarena match`` runs a bot): the
    process says it is rejoining, exits 0 and its seat finishes without a fault."""
    response = referee.start(TOY, 2, seed=23, options={"rounds": 40}, move_s=5, bank_s=10, first_move_s=10)
    seat0 = spawn_bot("sleepy_bot.py", response.seats[0].token, proxy.address)   # ~50 ms a decision
    seat1 = spawn_bot("random", response.seats[1].token, referee.address)
    try:
        wait_for(lambda: referee.status(response.match_id).decisions >= 1, 20, "the first round")
        assert referee.status(response.match_id).state == pb.MATCH_STATE_RUNNING   # still far from the end
        assert proxy.cut() == 1
        status = referee.wait_end(response.match_id, timeout=60)
    finally:
        (code0, err0), (code1, err1) = finish([seat0, seat1], timeout=60)

    assert code0 == 0 and code1 == 0, (err0, err1)
    assert "rejoining" in err0 and f"rejoined match {response.match_id} as seat 0" in err0, err0
    assert proxy.accepted >= 2
    assert status.state == pb.MATCH_STATE_FINISHED
    assert status.end.decisions == 40
    assert not status.end.forfeited and [f for f in status.end.faults if f.seat == 0] == []
