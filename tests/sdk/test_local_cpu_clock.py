"""Local play charges a bot in its own process its CPU time, as the platform charges a
hosted bot (issue 23): a spinning bot is cut off at the limit by its CPU time, a sleeping
one at the wall backstop, and a bot that thinks within the limit is never struck however
long the wall clock runs."""

from __future__ import annotations

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
        assert all(0.3 <= c["charged_s"] <= 0.33 + 0.02 for c in charges)  # the limit, within 10 % (and a tick)
    else:
        assert all(c["wall_s"] == pytest.approx(0.9, rel=0.1) and c["charged_s"] < 0.05 for c in charges)
        assert all("slept or blocked" in f.reason for f in record.faults)


def test_a_bot_thinking_within_its_cpu_limit_is_never_struck(monkeypatch: pytest.MonkeyPatch) -> None:
    out = play("think:0.1", monkeypatch, TimeControl(move_s=0.15, bank_s=0.0, first_move_s=10.0))
    assert not out["record"].faults
    charges = [c for c in out["match"]["charges"] if c["turn"] > 1]
    assert all(0.08 <= c["charged_s"] <= 0.15 for c in charges)
