"""Which time a decision is charged, and whose fault a wall backstop is (CPU clocks).

A seat on a CPU clock is charged the CPU time its worker measured (``Answer.cpu_s``), on a
stream that carried the service token: the bot cannot forge it, since its relay overwrites
the field and a bot's own stream holds only its seat token. Anything else (no figure, a
negative one, a figure on an untrusted stream or for a seat on a wall clock) is refused:
the decision is charged wall time and the charge record says why.

When a decision runs into the wall backstop, the worker's ClockReports tell what happened:
reports on time showing little CPU and no waiting for a core mean the bot slept or blocked
(its timeout); reports that stopped coming (a stopped worker) or that show the bot waiting
for a core most of the time (a starved machine) mean the platform stalled: that is no
bot's fault, and the match is aborted to be replayed with the same seed.
"""

from __future__ import annotations

import math

from referee.match.clock import CPU, STARVED_SHARE, WALL
from referee.match.faults import PLATFORM_FAULT
from skyarena.v1 import referee_pb2 as pb

from .seats import Awaiting, Report, Seat


def figure_problem(seat: Seat, cpu_s: float | None) -> str | None:
    """Why a CPU figure of this seat cannot be trusted, or None if it can."""
    if not seat.cpu_clock:
        return "the seat is on a wall clock (not hosted with a CPU clock)"
    if not seat.trusted:
        return "its stream did not carry the service token (only a worker's relay may report CPU time)"
    if cpu_s is None:
        return "no CPU figure came with it"
    if not math.isfinite(cpu_s) or cpu_s < 0:
        return f"its CPU figure ({cpu_s!r}) is not a number of seconds >= 0"
    return None


def answer_charge(seat: Seat, answer: pb.Answer, wall_s: float) -> tuple[float, str, str]:
    """What an answer is charged: (seconds, the clock, a note on a refused figure)."""
    figure = answer.cpu_s if answer.HasField("cpu_s") else None
    if not seat.cpu_clock and figure is None:
        return wall_s, WALL, ""
    problem = figure_problem(seat, figure)
    if problem is None:
        assert figure is not None
        return figure, CPU, ""
    return wall_s, WALL, f"charged wall time: a CPU figure was refused because {problem}"


def take_report(seat: Seat, report: pb.ClockReport, now: float) -> Report | None:
    """The ClockReport as kept for the decision it measures, or None when it is refused
    (untrusted, for a turn not awaited, e.g. after the deadline, or a bad figure)."""
    awaiting = seat.awaiting
    if awaiting is None or report.turn != awaiting.number:
        return None
    if figure_problem(seat, report.cpu_s) is not None or not (math.isfinite(report.wait_s) and report.wait_s >= 0):
        return None
    seat.report = Report(report.turn, report.cpu_s, report.wait_s, now)
    return seat.report


def backstop_verdict(seat: Seat, awaiting: Awaiting, now: float) -> tuple[bool, float, str]:
    """At the wall backstop: (the platform's fault?, CPU seconds known to be used, why)."""
    wall = now - awaiting.sent_at
    report = seat.report if seat.report is not None and seat.report.turn == awaiting.number else None
    # The relay reports every half CPU deadline of wall time: two missed reports is silence.
    silent_for = now - (report.at if report is not None else awaiting.sent_at)
    if silent_for > max(awaiting.cpu_deadline_s, 0.05):
        used = report.cpu_s if report is not None else 0.0
        return True, used, (f"{PLATFORM_FAULT}: seat {seat.index}'s decision of turn {awaiting.number} reached the "
                            f"wall backstop ({wall:.3f} s) and its worker had sent no CPU measure for "
                            f"{silent_for:.3f} s (the worker stalled); the match is void and is replayed with the "
                            "same seed.")
    assert report is not None
    reported_wall = max(report.at - awaiting.sent_at, 1e-9)
    if report.wait_s >= STARVED_SHARE * reported_wall:
        return True, report.cpu_s, (f"{PLATFORM_FAULT}: seat {seat.index}'s decision of turn {awaiting.number} "
                                    f"reached the wall backstop ({wall:.3f} s) with {report.cpu_s:.3f} s of CPU, "
                                    f"having waited {report.wait_s:.3f} s for a core (the machine was starved); "
                                    "the match is void and is replayed with the same seed.")
    return False, report.cpu_s, (f"no answer within {wall:.3f} s of wall time (the backstop of this CPU clock); the "
                                 f"bot used only {report.cpu_s:.3f} s of CPU meanwhile, so it slept or blocked")


def cpu_overrun_reason(report: Report, awaiting: Awaiting) -> str:
    return (f"used {report.cpu_s:.3f} s of CPU without answering, past the move limit and the rest of the time "
            f"bank ({awaiting.cpu_deadline_s:.3f} s)")
