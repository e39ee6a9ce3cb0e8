"""CPU-time clocks (issue 23): a hosted seat is charged the CPU time its worker reports on a
service-token stream, wall time only bounds it, untrusted or bad figures fall back to wall
time with the reason recorded, and a backstop the platform caused aborts the match."""

from __future__ import annotations

import asyncio
import json
import sys
import time
from typing import Any

import grpc
import pytest

from skyarena.cputime import TreeClock, supported
from skyarena.remote.relay import relay
from skyarena.v1 import referee_pb2 as pb
from tests.referee.conftest import AUTH, BOTS, ROOT, SERVICE_TOKEN, TOY, RawSeat, Referee, bot_env, finish, spawn_bot


def match_record(status: pb.MatchStatus) -> dict[str, Any]:
    records = [json.loads(line) for line in status.replay_jsonl.splitlines()]
    assert records[-1]["type"] == "match"
    return records[-1]


def play_turn(seat: RawSeat, **answer: Any) -> pb.TurnRequest:
    turn = seat.next_kind("turn").turn
    seat.answer(turn.turn, index=0, **answer)
    return turn


def test_a_trusted_cpu_figure_is_charged_and_recorded_per_move(referee: Referee) -> None:
    response = referee.start(TOY, 2, seed=3, options={"rounds": 2}, move_s=1.0, bank_s=0.0, first_move_s=1.0,
                             cpu_seats=(0,))
    hosted = RawSeat(referee, response.seats[0].token, metadata=AUTH)
    remote = RawSeat(referee, response.seats[1].token)
    try:
        for _ in range(2):
            turn = play_turn(hosted, cpu_s=0.25)
            assert turn.wall_deadline_s == pytest.approx(4.0)  # the default backstop: 4 × the CPU deadline
            time.sleep(0.05)
            assert play_turn(remote).wall_deadline_s == 0
        status = referee.wait_end(response.match_id)
    finally:
        hosted.close()
        remote.close()
    assert status.state == pb.MATCH_STATE_FINISHED and not status.end.faults
    record = match_record(status)
    assert record["clocks"] == ["cpu", "wall"]
    mine = [c for c in record["charges"] if c["seat"] == 0]
    assert [c["charged_s"] for c in mine] == [0.25, 0.25] and all(c["clock"] == "cpu" for c in mine)
    assert all(c["wall_s"] >= 0 for c in mine)
    theirs = [c for c in record["charges"] if c["seat"] == 1]
    assert all(c["clock"] == "wall" and "note" not in c and c["charged_s"] >= 0.04 for c in theirs)
    assert status.seats[0].time_used_s == pytest.approx(0.5)


def test_cpu_time_past_the_limit_and_bank_is_a_timeout_however_quick_the_wall(referee: Referee) -> None:
    response = referee.start(TOY, 2, seed=4, options={"rounds": 1}, move_s=1.0, bank_s=0.5, first_move_s=1.0,
                             cpu_seats=(0, 1))
    seats = [RawSeat(referee, t.token, metadata=AUTH) for t in response.seats]
    try:
        play_turn(seats[0], cpu_s=1.6)
        play_turn(seats[1], cpu_s=1.4)
        status = referee.wait_end(response.match_id)
    finally:
        for seat in seats:
            seat.close()
    assert [(f.seat, f.kind) for f in status.end.faults] == [(0, "timeout")]
    assert "1.600 s of CPU" in status.end.faults[0].reason


@pytest.mark.parametrize(("trusted", "cpu_seat", "figure", "why"), [
    (False, True, 0.001, "did not carry the service token"),
    (True, True, -1.0, "not a number of seconds >= 0"),
    (True, True, None, "no CPU figure came with it"),
    (True, False, 0.001, "is on a wall clock"),
])
def test_a_refused_cpu_figure_falls_back_to_wall_time_and_says_why(referee: Referee, trusted: bool, cpu_seat: bool,
                                                                   figure: float | None, why: str) -> None:
    response = referee.start(TOY, 2, seed=5, options={"rounds": 1}, move_s=0.2, bank_s=1.0, first_move_s=0.2,
                             cpu_seats=(0,) if cpu_seat else ())
    hosted = RawSeat(referee, response.seats[0].token, metadata=AUTH if trusted else None)
    other = RawSeat(referee, response.seats[1].token)
    try:
        play_turn(other)
        hosted.next_kind("turn")
        time.sleep(0.3)  # past the limit in wall time, well within it in the (refused) CPU figure
        hosted.answer(1, index=0, **({} if figure is None else {"cpu_s": figure}))
        status = referee.wait_end(response.match_id)
    finally:
        hosted.close()
        other.close()
    charge = next(c for c in match_record(status)["charges"] if c["seat"] == 0)
    assert charge["clock"] == "wall" and why in charge["note"] and charge["charged_s"] >= 0.3
    assert status.seats[0].time_used_s >= 0.3 and not status.end.faults  # the overage came out of the bank


def test_a_clock_report_past_the_cpu_deadline_ends_the_decision_at_once(referee: Referee) -> None:
    response = referee.start(TOY, 2, seed=6, options={"rounds": 1}, move_s=1.0, bank_s=0.0, first_move_s=1.0,
                             cpu_seats=(0,), wall_backstop=50)
    hosted = RawSeat(referee, response.seats[0].token, metadata=AUTH)
    other = RawSeat(referee, response.seats[1].token)
    try:
        hosted.next_kind("turn")
        started = time.monotonic()
        hosted.send(pb.BotMessage(clock=pb.ClockReport(turn=1, cpu_s=1.2, wait_s=0.0)))
        notice = hosted.next_kind("notice")
        assert time.monotonic() - started < 5  # not the 50 s backstop
        play_turn(other)
        status = referee.wait_end(response.match_id)
    finally:
        hosted.close()
        other.close()
    assert notice.notice.fault.kind == "timeout" and "1.200 s of CPU without answering" in notice.notice.message
    assert [(f.seat, f.kind) for f in status.end.faults] == [(0, "timeout")]


def test_a_clock_report_on_an_untrusted_stream_changes_nothing(referee: Referee) -> None:
    response = referee.start(TOY, 2, seed=7, options={"rounds": 1}, cpu_seats=(0,))
    hosted = RawSeat(referee, response.seats[0].token)  # the seat token only: a bot, not its worker
    other = RawSeat(referee, response.seats[1].token)
    try:
        hosted.next_kind("turn")
        hosted.send(pb.BotMessage(clock=pb.ClockReport(turn=1, cpu_s=99.0)))
        time.sleep(0.2)
        hosted.answer(1, index=0)
        play_turn(other)
        status = referee.wait_end(response.match_id)
    finally:
        hosted.close()
        other.close()
    assert status.state == pb.MATCH_STATE_FINISHED and not status.end.faults


def report_while_thinking(seat: RawSeat, turn: int, seconds: float, wait_share: float) -> None:
    started = time.monotonic()
    while (elapsed := time.monotonic() - started) < seconds:
        seat.send(pb.BotMessage(clock=pb.ClockReport(turn=turn, cpu_s=0.01, wait_s=elapsed * wait_share)))
        time.sleep(0.05)


def test_a_bot_that_sleeps_is_cut_off_at_the_backstop_as_its_own_timeout(referee: Referee) -> None:
    response = referee.start(TOY, 2, seed=8, options={"rounds": 1}, move_s=0.2, bank_s=0.0, first_move_s=0.2,
                             cpu_seats=(0,), wall_backstop=3)
    hosted = RawSeat(referee, response.seats[0].token, metadata=AUTH)
    other = RawSeat(referee, response.seats[1].token)
    try:
        hosted.next_kind("turn")
        play_turn(other)
        report_while_thinking(hosted, 1, 0.9, wait_share=0.0)
        status = referee.wait_end(response.match_id)
    finally:
        hosted.close()
        other.close()
    assert status.state == pb.MATCH_STATE_FINISHED
    assert [(f.seat, f.kind) for f in status.end.faults] == [(0, "timeout")]
    assert "slept or blocked" in status.end.faults[0].reason


@pytest.mark.parametrize(("report", "why"), [(False, "had sent no CPU measure"), (True, "waited")])
def test_a_backstop_the_platform_caused_aborts_the_match_as_a_platform_fault(referee: Referee, report: bool,
                                                                            why: str) -> None:
    response = referee.start(TOY, 2, seed=9, options={"rounds": 1}, move_s=0.2, bank_s=0.0, first_move_s=0.2,
                             cpu_seats=(0,), wall_backstop=3)
    hosted = RawSeat(referee, response.seats[0].token, metadata=AUTH)
    other = RawSeat(referee, response.seats[1].token)
    try:
        hosted.next_kind("turn")
        play_turn(other)
        if report:  # a starved machine: the bot waited for a core most of the time
            report_while_thinking(hosted, 1, 0.9, wait_share=0.9)
        status = referee.wait_end(response.match_id)
    finally:
        hosted.close()
        other.close()
    assert status.state == pb.MATCH_STATE_ABORTED
    assert status.end.reason.startswith("platform fault:") and why in status.end.reason
    assert "replayed with the same seed" in status.end.reason and not status.end.faults


def test_a_wall_backstop_below_two_is_refused(referee: Referee) -> None:
    with pytest.raises(grpc.RpcError) as caught:
        referee.start(TOY, 2, seed=10, cpu_seats=(0,), wall_backstop=1.5)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "wall_backstop" in (caught.value.details() or "")


@pytest.mark.skipif(not supported(), reason="CPU time is read from Linux /proc")
@pytest.mark.parametrize("mode", ["spin", "sleep"])
def test_the_relay_cuts_off_a_spinning_bot_at_the_cpu_limit_and_a_sleeping_one_at_the_backstop(
        referee: Referee, mode: str) -> None:
    """A real stdio bot relayed with the worker's measure: spinning is cut off by its CPU time
    near the limit; sleeping by the wall backstop; both as the bot's own timeout."""
    # A spinning bot on a loaded machine needs more wall time for its CPU: a backstop it cannot reach.
    response = referee.start(TOY, 2, seed=11, options={"rounds": 3}, move_s=0.5, bank_s=0.0, first_move_s=10.0,
                             cpu_seats=(0,), wall_backstop=20 if mode == "spin" else 3)

    async def run() -> None:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "skyarena.remote", str(BOTS / "cpu_bot.py"), "--stdio", cwd=ROOT,
            env=bot_env("", "", CPU_BOT=mode), stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE)
        assert proc.stdin is not None and proc.stdout is not None
        try:
            await relay(proc.stdout, proc.stdin, referee.address, response.seats[0].token,
                        cpu_clock=TreeClock(proc.pid), service_token=SERVICE_TOKEN)
        finally:
            proc.kill()
            await proc.wait()

    other = spawn_bot("random", response.seats[1].token, referee.address)
    asyncio.run(run())
    assert finish([other])[0][0] == 0
    status = referee.status(response.match_id, replay=True)
    assert [(f.seat, f.turn, f.kind) for f in status.end.faults][:1] == [(0, 2, "timeout")]
    charge = next(c for c in match_record(status)["charges"] if c["seat"] == 0 and c["turn"] == 2)
    assert charge["clock"] == "cpu"
    if mode == "spin":
        # Cut off by its CPU time, not before the limit (how near it: bench/clocks.py, spin_cutoff_s).
        assert charge["charged_s"] >= 0.5 and "s of CPU without answering" in status.end.faults[0].reason
    else:
        assert charge["wall_s"] >= 1.5 and charge["charged_s"] < 0.1  # at the backstop, not before
        assert "slept or blocked" in status.end.faults[0].reason
