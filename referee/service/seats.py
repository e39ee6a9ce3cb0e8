"""A seat of a match in the driver: its stream, the decision it owes, the events it is owed."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from skyarena.v1 import referee_pb2 as pb

from . import turns
from .outbox import Outbox


class Awaiting:
    """The decision a seat owes: its request (serialized), when it was sent, and its deadline
    (on a CPU clock: the wall backstop; ``cpu_deadline_s`` is then the CPU seconds allowed)."""

    __slots__ = ("number", "turn", "sent_at", "deadline", "cpu_deadline_s")

    def __init__(self, number: int, turn: bytes, sent_at: float, deadline: float, cpu_deadline_s: float = 0.0) -> None:
        self.number = number
        self.turn = turn
        self.sent_at = sent_at
        self.deadline = deadline
        self.cpu_deadline_s = cpu_deadline_s


class Report:
    """The last ClockReport of a seat on a CPU clock, and when (loop time) it came."""

    __slots__ = ("turn", "cpu_s", "wait_s", "at")

    def __init__(self, turn: int, cpu_s: float, wait_s: float, at: float) -> None:
        self.turn = turn
        self.cpu_s = cpu_s
        self.wait_s = wait_s
        self.at = at


@dataclass
class Seat:
    """One seat of a match as the driver sees it: its stream (if connected), the decision it
    owes, its deadline timer, and the public events waiting to ride with its next message."""

    index: int
    name: str
    joined: bool = False
    outbox: Outbox | None = None
    client: str = ""
    awaiting: Awaiting | None = None
    # On a CPU clock (StartMatch's SeatSpec.cpu_clock) the seat is charged the CPU time its
    # worker reports, trusted only from a stream that carried the service token.
    cpu_clock: bool = False
    trusted: bool = False
    report: Report | None = None
    # The seat's deadline timer and the time it fires at. It is not cancelled when an answer
    # comes in time: the next decision's deadline is later, so the timer, when it fires, finds
    # a later deadline and re-arms for it (one timer per seat and deadline passed, instead of
    # one scheduled and cancelled per decision).
    timer: asyncio.TimerHandle | None = None
    timer_at: float = 0.0
    # Public events gathered since the last message to this seat, as constructor arguments
    # (the whole message is then built in one call into the protobuf runtime).
    events: list[dict[str, Any]] | None = None

    def event(self, event: dict[str, Any]) -> None:
        if self.events is None:
            self.events = [event]
        else:
            self.events.append(event)


    def message(self, **kind: Any) -> pb.RefereeMessage:
        """The next message: the events so far plus ``kind``."""
        message = turns.events_message(self.events, **kind)
        self.events = None  # only once the message is built: a failed build loses no event
        return message

    def turn_frame(self, turn: bytes) -> bytes:
        """The next message carrying the serialized TurnRequest ``turn``, serialized: the events
        so far, then the turn spliced in as bytes (see turns.py)."""
        frame = turns.turn_frame(self.events, turn)
        self.events = None
        return frame
