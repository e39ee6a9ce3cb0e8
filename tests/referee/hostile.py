"""Attacks played against a real referee while an honest match runs beside it.

``beside_honest(target, attack, control)`` plays an honest match (tests/referee/honest.py,
its own process) once beside ``control`` running over and over in a thread (the same client
behaving: answering index 0 at the same pace, so the baseline carries the same load; or
nothing), and once beside ``attack`` running over and over. It checks the honest match got
no fault and was not slowed beyond noise: the run beside the attack takes at most SLOWDOWN
times the baseline, and no single turnaround stalls longer than STALL_SHARE of the whole
baseline run. Both are ratios against the baseline measured in the same test, never
absolute times. A hostile client may use its share of the referee like any client; what it
must not do is cost more than an honest one, or stall the others.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import grpc

from skyarena.v1 import referee_pb2 as pb
from skyarena.v1 import referee_pb2_grpc as pb_grpc

from .conftest import AUTH, ROOT, bot_env

# An honest run: a Skybirds match played with the first legal action (about a thousand
# decisions, a second or so).
HONEST_GAME = "skybirds"
HONEST_MATCHES = 1
# Under attack the honest run may take at most this many times its baseline (the machine
# is shared: tests run in parallel), and no turnaround may take this share of the baseline.
SLOWDOWN = 4.0
STALL_SHARE = 0.5


def start_honest(stub: Any, matches: int = HONEST_MATCHES) -> list[list[str]]:
    out = []
    for i in range(matches):
        response = stub.StartMatch(pb.StartMatchRequest(
            game=HONEST_GAME, players=2, seed=100 + i, seats=[pb.SeatSpec(name="honest")] * 2, join_timeout_s=60,
            time_control=pb.TimeControl(move_s=10, bank_s=10, first_move_s=10)), metadata=AUTH, timeout=10)
        out.append([s.token for s in response.seats])
    return out


def honest_run(address: str) -> dict[str, Any]:
    with grpc.insecure_channel(address) as channel:
        matches = start_honest(pb_grpc.RefereeStub(channel))
    done = subprocess.run([sys.executable, "-m", "tests.referee.honest", address], input=json.dumps(matches),
                          capture_output=True, text=True, cwd=ROOT, env=bot_env("", address), timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, Any] = json.loads(done.stdout)
    return result


@contextmanager
def attacking(attack: Callable[[], Any]) -> Iterator[list[int]]:
    """Run ``attack`` again and again in a thread while the block runs; yields a one-item
    list counting the attacks completed (the test checks the attack really ran)."""
    stop = threading.Event()
    count = [0]
    errors: list[BaseException] = []

    def loop() -> None:
        while not stop.is_set():
            try:
                attack()
            except BaseException as exc:  # noqa: BLE001 - reported by the test below
                errors.append(exc)
                return
            count[0] += 1

    thread = threading.Thread(target=loop, daemon=True)
    thread.start()
    try:
        yield count
    finally:
        stop.set()
        thread.join(120)
    if errors:
        raise errors[0]


def beside_honest(address: str, attack: Callable[[], Any], control: Callable[[], Any] | None = None,
                  min_attacks: int = 1) -> dict[str, Any]:
    """The honest match beside ``control`` (or alone), then beside ``attack``; asserts it was
    unharmed and the attack ran at least ``min_attacks`` times. Returns the run under attack."""
    if control is None:
        baseline = honest_run(address)
    else:
        with attacking(control):
            baseline = honest_run(address)
    assert not baseline["faults"], baseline["faults"]
    with attacking(attack) as count:
        under = honest_run(address)
        ran = count[0]
    assert ran >= min_attacks, f"the attack ran {ran} times beside the honest matches"
    assert not under["faults"], f"honest seats were charged beside the attack: {under['faults'][:3]}"
    assert set(under["states"]) == {pb.MATCH_STATE_FINISHED}
    assert under["elapsed_s"] <= SLOWDOWN * baseline["elapsed_s"], \
        f"honest matches took {under['elapsed_s']:.3f} s beside the attack, {baseline['elapsed_s']:.3f} s alone"
    worst = max(under["gaps_s"])
    assert worst <= STALL_SHARE * baseline["elapsed_s"], \
        f"an honest turnaround stalled {worst:.3f} s beside the attack (the whole run alone: " \
        f"{baseline['elapsed_s']:.3f} s)"
    return under
