"""Local play charges a bot in its own process its CPU time, as the platform charges a
hosted bot (issue 23): a spinning bot is cut off at the limit by its CPU time, a sleeping
one at the wall backstop, and a bot that thinks within the limit is never struck however
long the wall clock runs, nor when the machine starves it of cores."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from referee.games import GAMES
from referee.match import TimeControl
from skyarena.cputime import supported
from skyarena.local import play_match
from skyarena.seats import WorkerSeat
from tests.toy_game import SPEC as TOY_SPEC

CPU_BOT = str(Path(__file__).resolve().parents[1] / "referee" / "bots" / "cpu_bot.py")

pytestmark = pytest.mark.skipif(not supported(), reason="CPU time is read from Linux /proc")


@pytest.fixture(autouse=True)
def toy_game() -> object:
    GAMES[TOY_SPEC.name] = TOY_SPEC
    yield
    GAMES.pop(TOY_SPEC.name, None)


def play(mode: str, monkeypatch: pytest.MonkeyPatch, control: TimeControl) -> dict:
    monkeypatch.setenv("CPU_BOT", mode)
    seats = [WorkerSeat(CPU_BOT, TOY_SPEC.name), WorkerSeat(CPU_BOT, TOY_SPEC.name)]
    try:
        record = play_match(TOY_SPEC.name, seats, seed=2, options={"rounds": 3}, time_control=control)
    finally:
        for seat in seats:
            seat.close()
    return {"record": record, "match": record.replay_records()[-1]}


@pytest.mark.parametrize("mode", ["spin", "sleep"])
def test_a_local_worker_seat_is_cut_off_by_cpu_time_or_at_the_backstop(mode: str,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    out = play(mode, monkeypatch, TimeControl(move_s=0.3, bank_s=0.0, first_move_s=10.0, wall_backstop=3))
    record, match = out["record"], out["match"]
    assert match["clocks"] == ["cpu", "cpu"]
    # Stuck on turn 2 and after it (the process spins or sleeps on): timeouts from turn 2 on.
    assert {(f.seat, f.kind.value) for f in record.faults if f.turn == 2} == {(0, "timeout"), (1, "timeout")}
    assert min(f.turn for f in record.faults) == 2
    charges = [c for c in match["charges"] if c["turn"] == 2]
    assert all(c["clock"] == "cpu" for c in charges)
    if mode == "spin":
        # Cut off by its CPU time, not before the limit (how near it: bench/clocks.py, spin_cutoff_s).
        assert all(c["charged_s"] >= 0.3 for c in charges)
        assert all("s of CPU without answering" in f.reason for f in record.faults)
    else:
        assert all(c["wall_s"] >= 0.9 and c["charged_s"] < 0.05 for c in charges)  # at the backstop, not before
        assert all("slept or blocked" in f.reason for f in record.faults)


def test_a_bot_thinking_within_its_cpu_limit_is_never_struck(monkeypatch: pytest.MonkeyPatch) -> None:
    out = play("think:0.1", monkeypatch, TimeControl(move_s=0.15, bank_s=0.0, first_move_s=10.0))
    assert not out["record"].faults
    charges = [c for c in out["match"]["charges"] if c["turn"] > 1]
    assert all(0.08 <= c["charged_s"] <= 0.15 for c in charges)


def test_a_bot_starved_of_cores_is_given_its_time_not_struck(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot shares one core with three processes that spin: it waits for the core most of
    the time, so its 0.1 s of thinking takes about 0.4 s of wall time, past the 2× backstop
    (0.3 s). That is the machine's load, not the bot: it is given its time."""
    monkeypatch.setenv("CPU_BOT", "think:0.1")
    core = min(os.sched_getaffinity(0))
    seats = [WorkerSeat(CPU_BOT, TOY_SPEC.name), WorkerSeat(CPU_BOT, TOY_SPEC.name)]
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(3)]
    try:
        for pid in [seat.process.pid for seat in seats] + [hog.pid for hog in hogs]:
            os.sched_setaffinity(pid, {core})
        record = play_match(TOY_SPEC.name, seats, seed=2, options={"rounds": 3},
                            time_control=TimeControl(move_s=0.15, bank_s=0.0, first_move_s=10.0, wall_backstop=2))
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
        for seat in seats:
            seat.close()
    assert not record.faults
    charges = [c for c in record.replay_records()[-1]["charges"] if c["turn"] > 1]
    assert all(c["clock"] == "cpu" and c["charged_s"] <= 0.15 for c in charges)
    assert any(c["wall_s"] > 0.3 for c in charges)  # some decisions did run past the backstop
