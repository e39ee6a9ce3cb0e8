"""Matches in one referee process: the registry and the asyncio driver of the MatchRunner.

The :class:`~referee.match.MatchRunner` owns the rules-independent parts (clocks, strikes,
fallback, forfeits, fault records); this module only connects it to streams:

- a :class:`Match` waits until every seat has joined (or aborts after the join timeout),
  then hands each pending decision to its seat's stream, arms a deadline timer (move limit
  plus what is left of the bank), and feeds the answer, the bot's error report or the
  timeout to the runner;
- a seat whose stream drops keeps its clock running; if it rejoins with its token before
  the deadline it gets the same turn request again (with the time that is left), otherwise
  the deadline records a ``disconnect`` fault and the runner plays the fallback;
- public events (other seats' moves, faults without reasons) go to the seats with their
  next message, and to spectators with the public view.

Everything runs on the event loop thread: the driver's methods are synchronous and never
await, so a match's state cannot change between two lines of its code. Stream handlers
(server.py) only read frames, call these methods, and write what the per-stream outboxes
give (through each stream's writer task, or directly from the reader on the hot path).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import secrets
import struct
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import grpc
from google.protobuf.message import DecodeError

from referee.games import State, make
from referee.games.core import replay as replay_io
from referee.match import DecisionRequest, Fault, FaultKind, MatchRecord, MatchRunner, TimeControl
from referee.match.faults import cap
from skyarena.remote import convert
from skyarena.v1 import referee_pb2 as pb

from . import answers, visibility
from .limits import Limits
from .logs import log
from .metrics import Metrics
from .seeds import SeatSeeds
from .spectators import PublicLog, fault_message, step_event
from .tokens import SeatTokens

# The message class called with plain dicts (the runtime accepts them; the stubs do not).
_REFEREE_MESSAGE: Any = pb.RefereeMessage

_TURN_REQUEST: Any = pb.TurnRequest
LEGAL_ACTIONS_FIELD = pb.TurnRequest.DESCRIPTOR.fields_by_name["legal_actions"].number
TURN_FIELD = pb.RefereeMessage.DESCRIPTOR.fields_by_name["turn"].number
# TurnRequest.deadline_s (a double) appended to a kept request: the last value of a field wins.
DEADLINE_TAG = bytes([pb.TurnRequest.DESCRIPTOR.fields_by_name["deadline_s"].number << 3 | 1])
MATCH_ID_RE = re.compile(r"^[A-Za-z0-9._-]{1,64}$")
DEFAULT_TIME_CONTROL = TimeControl()

# Other seats' public events ride with a seat's next message (its next turn request, most
# often, in the same write). A seat that is not written to soon gets them on their own after
# this delay, or at once when this many are waiting: one write per decision instead of one
# per seat and decision (writes are most of the referee's cost per decision).
EVENT_DELAY_S = 0.02
EVENT_BATCH = 32

# How a fault is named to the seat that made it (the code it would get as a status).
FAULT_CODES = {
    FaultKind.TIMEOUT: grpc.StatusCode.DEADLINE_EXCEEDED,
    FaultKind.ILLEGAL: grpc.StatusCode.FAILED_PRECONDITION,
    FaultKind.UNPARSEABLE: grpc.StatusCode.INVALID_ARGUMENT,
    FaultKind.EXCEPTION: grpc.StatusCode.ABORTED,
    FaultKind.DISCONNECT: grpc.StatusCode.UNAVAILABLE,
}


class Phase(StrEnum):
    WAITING = "waiting"
    RUNNING = "running"
    FINISHED = "finished"
    ABORTED = "aborted"

    @property
    def proto(self) -> pb.MatchState.ValueType:
        return {
            Phase.WAITING: pb.MATCH_STATE_WAITING, Phase.RUNNING: pb.MATCH_STATE_RUNNING,
            Phase.FINISHED: pb.MATCH_STATE_FINISHED, Phase.ABORTED: pb.MATCH_STATE_ABORTED,
        }[self]

    @property
    def over(self) -> bool:
        return self in (Phase.FINISHED, Phase.ABORTED)


class RequestError(Exception):
    """A request the referee refuses; becomes a gRPC status with this code and message."""

    def __init__(self, code: grpc.StatusCode, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _code(code: grpc.StatusCode) -> int:
    return int(code.value[0])


def _utc(timestamp: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(timestamp))


# ----- streams -----------------------------------------------------------------------------

# A stream gets direct writes only while less than this many bytes were written to it since
# its bot last sent a frame: a bot that stops reading cannot stall another seat's reader for
# long (the bytes fit in its flow-control window); it falls back to its own writer task.
DIRECT_BYTES = 32 * 1024
DIRECT_WRITES = os.environ.get("SKYARENA_DIRECT_WRITES", "1") != "0"


class DirectWrites:
    """One server's direct writes: while a stream's reader handles a frame (``collect``),
    messages for idle streams are gathered here, and that reader writes them right after
    (``flush``), saving a task switch per message on the hot path."""

    __slots__ = ("pending",)

    def __init__(self) -> None:
        self.pending: list[Outbox] | None = None

    def collect(self) -> None:
        self.pending = [] if DIRECT_WRITES else None

    async def flush(self) -> None:
        """Write what was gathered. Every stream concerned is reserved (``writing``) before
        the first write, so none can end or write out of order while this reader works
        through the others."""
        outboxes, self.pending = self.pending, None
        reserved = []
        for outbox in outboxes or ():
            messages, outbox.direct = outbox.direct, []
            if outbox.writing:  # its writer task got there first: queue behind it, in order
                for message in messages:
                    outbox.queue.put_nowait(message)
                continue
            outbox.writing = True
            reserved.append((outbox, messages))
        try:
            while reserved:
                outbox, messages = reserved[0]
                try:
                    while messages:
                        await outbox.context.write(messages[0])
                        outbox.unread_bytes += frame_size(messages.pop(0))
                except asyncio.CancelledError:
                    raise
                except Exception:  # that stream broke; its handler sees it and detaches the seat
                    messages.clear()
                reserved.pop(0)
                outbox.writing = False
                outbox.idle.set()
        finally:  # this reader was cancelled: hand what is left to the streams' own writers
            for outbox, messages in reserved:
                for message in messages:
                    outbox.queue.put_nowait(message)
                outbox.writing = False
                outbox.idle.set()


class Outbox:
    """The outgoing side of one stream. Messages go out through the stream's writer task
    (a queue the handler drains) or, on the hot path, directly from the reader of the frame
    that caused them (:class:`DirectWrites`), never both at once: ``writing`` serialises the
    two and keeps the order.

    ``close()`` ends the stream normally after what is queued; ``fail()`` ends it with a
    status. A consumer that stops reading is cut off once ``limit`` messages pile up.
    """

    __slots__ = ("queue", "closed", "status", "limit", "context", "writing", "idle", "direct", "unread_bytes",
                 "writes")

    def __init__(self, limit: int, context: Any = None, writes: DirectWrites | None = None) -> None:
        self.queue: asyncio.Queue[Any] = asyncio.Queue()
        self.closed = False
        self.status: tuple[grpc.StatusCode, str] | None = None
        self.limit = limit
        self.context = context
        self.writing = False
        self.idle = asyncio.Event()
        self.direct: list[Any] = []
        self.unread_bytes = 0
        self.writes = writes

    def put(self, message: Any) -> None:
        if self.closed:
            return
        collecting = self.writes.pending if self.writes is not None else None
        if self.direct or (collecting is not None and not self.writing and self.queue.empty()
                           and self.unread_bytes < DIRECT_BYTES):
            if not self.direct and collecting is not None:
                collecting.append(self)
            self.direct.append(message)
            return
        if self.queue.qsize() >= self.limit:
            self.fail(grpc.StatusCode.RESOURCE_EXHAUSTED,
                      f"more than {self.limit} messages were waiting for this stream: read it faster")
            return
        self.queue.put_nowait(message)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.queue.put_nowait(None)

    def fail(self, code: grpc.StatusCode, message: str) -> None:
        if not self.closed:
            self.status = (code, message)
            self.close()

    async def _wait_idle(self) -> None:
        while self.writing:
            self.idle.clear()
            await self.idle.wait()

    async def write(self, message: Any) -> None:
        self.writing = True
        try:
            await self.context.write(message)
            self.unread_bytes += frame_size(message)
        finally:
            self.writing = False
            self.idle.set()

    async def drain(self) -> AsyncIterator[Any]:
        """The writer task's messages (for a context-less outbox, e.g. a spectator's)."""
        while True:
            message = await self.queue.get()
            await self._wait_idle()
            if message is None:
                return
            yield message

    async def run_writer(self) -> None:
        """Write queued messages until closed (after any direct write in progress)."""
        while True:
            message = await self.queue.get()
            await self._wait_idle()
            if message is None:
                return
            await self.write(message)


def frame_size(frame: Any) -> int:
    """Bytes of an outgoing frame: a message, or one the referee serialized itself."""
    return len(frame) if isinstance(frame, bytes) else int(frame.ByteSize())


class Awaiting:
    """The decision a seat owes: its request (serialized), when it was sent, and its deadline."""

    __slots__ = ("number", "turn", "sent_at", "deadline")

    def __init__(self, number: int, turn: bytes, sent_at: float, deadline: float) -> None:
        self.number = number
        self.turn = turn
        self.sent_at = sent_at
        self.deadline = deadline


@dataclass
class Seat:
    index: int
    name: str
    joined: bool = False
    outbox: Outbox | None = None
    client: str = ""
    awaiting: Awaiting | None = None
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
        events = self.events
        message: pb.RefereeMessage = _REFEREE_MESSAGE(events=events, **kind) if events else \
            _REFEREE_MESSAGE(**kind)
        self.events = None  # only once the message is built: a failed build loses no event
        return message

    def turn_frame(self, turn: bytes) -> bytes:
        """The next message carrying the serialized TurnRequest ``turn``, serialized: the events
        so far, then the turn spliced in as bytes (no parse, no second serialization)."""
        events = self.events
        head = _REFEREE_MESSAGE(events=events).SerializeToString() if events else b""
        self.events = None
        return head + convert.repeated_field_bytes(TURN_FIELD, (turn,))


# ----- one match ---------------------------------------------------------------------------

class Match:
    def __init__(
        self,
        match_id: str,
        state: State,
        seat_names: list[str],
        time_control: TimeControl,
        strike_limit: int,
        join_timeout_s: float,
        limits: Limits,
        metrics: Metrics,
        on_end: Callable[[Match], None],
        seeds: SeatSeeds | None = None,
    ) -> None:
        self.id = match_id
        self.game = state.game
        self.players = state.players
        self.seed = state.seed
        self.options = dict(state.options)
        self.public_options_json = json.dumps(state.public_options(),
                                              sort_keys=True)
        self.time_control = time_control
        self.strike_limit = strike_limit
        self.runner = MatchRunner(state, time_control, strike_limit, match_id=match_id)
        self.seats = [Seat(i, name) for i, name in enumerate(seat_names)]
        self.limits = limits
        self.metrics = metrics
        self.phase = Phase.WAITING
        self.created = time.time()
        self.ended: float | None = None
        self.abort_reason = ""
        self.record: MatchRecord | None = None
        self.done = asyncio.Event()
        self.watchers: set[Outbox] = set()
        self.log_readers: set[Outbox] = set()  # from-start spectators (they read public_log)
        self.public_log: PublicLog | None = None  # made by the first spectator from the start
        self.bot_seeds = [(seeds or SeatSeeds()).bot_seed(match_id, self.seed, seat) for seat in range(self.players)]
        self._replay_text: bytes | None = None
        self._events_timer: asyncio.TimerHandle | None = None
        self._on_end = on_end
        self._loop = asyncio.get_running_loop()
        self._issued_turn = 0          # the runner turn whose requests are out
        self._seen_decisions = 0       # engine decisions already turned into events
        self._wire = convert.wire_for(self.game)
        self._visible = visibility.policy(state)
        self._stats = metrics.stats
        self._join_timer = self._loop.call_later(join_timeout_s, self._join_timeout, join_timeout_s)
        log.info("match_created", match_id=match_id, game=self.game, players=self.players,
                 time_control=time_control.to_json(), strike_limit=strike_limit)

    # ----- seats joining and leaving ---------------------------------------------------
    def attach(self, seat_index: int, outbox: Outbox, client: str) -> None:
        """A seat's stream joined. Raises RequestError if it cannot play now."""
        seat = self.seats[seat_index]
        if self.phase.over:
            raise RequestError(grpc.StatusCode.FAILED_PRECONDITION,
                               f"match {self.id} is over ({self.phase.value}); its seat tokens have expired.")
        if seat.outbox is not None and not seat.outbox.closed:
            raise RequestError(grpc.StatusCode.ALREADY_EXISTS,
                               f"seat {seat_index} of match {self.id} is already connected; a seat plays over one "
                               "stream at a time. If your bot lost its connection, retry once the old stream has "
                               "closed.")
        resumed = seat.joined
        seat.joined = True
        seat.outbox = outbox
        seat.client = client
        self.metrics.seats_connected.inc()
        welcome = pb.Welcome(
            match_id=self.id, game=self.game, seat=seat_index, players=self.players,
            options_json=self.public_options_json, bot_seed=self.bot_seeds[seat_index],
            time_control=pb.TimeControl(**self.time_control.to_json()), strike_limit=self.strike_limit,
            seat_names=[s.name for s in self.seats], resumed=resumed, strikes=self.runner.strikes[seat_index],
        )
        self._send(seat, welcome=welcome)
        log.info("seat_joined", match_id=self.id, seat=seat_index, resumed=resumed, client=client)
        if self.phase is Phase.WAITING and all(s.joined for s in self.seats):
            self._guarded(self._start)
        elif self.phase is Phase.RUNNING and seat.awaiting is not None:
            self._resend(seat)

    def detach(self, seat_index: int, outbox: Outbox) -> None:
        """A seat's stream ended. Its clock runs on; the deadline decides what happens."""
        seat = self.seats[seat_index]
        if seat.outbox is not outbox:
            return
        seat.outbox = None
        self.metrics.seats_connected.dec()
        if not self.phase.over:
            log.info("seat_disconnected", match_id=self.id, seat=seat_index,
                     awaiting_turn=seat.awaiting.number if seat.awaiting else None)

    # ----- the match's life ----------------------------------------------------------------
    def _start(self) -> None:
        self._join_timer.cancel()
        self.phase = Phase.RUNNING
        log.info("match_started", match_id=self.id)
        self._progress()

    def _join_timeout(self, waited_s: float) -> None:
        if self.phase is Phase.WAITING:
            missing = [s.index for s in self.seats if not s.joined]
            self.abort(f"seat{'s' if len(missing) > 1 else ''} {', '.join(map(str, missing))} did not join "
                       f"within {waited_s:g} s; start the bots with their seat tokens right after StartMatch.")

    def abort(self, reason: str) -> None:
        """End the match without a result (join timeout, CancelMatch, shutdown)."""
        if self.phase.over:
            return
        self._join_timer.cancel()
        for seat in self.seats:
            seat.awaiting = None
        self.phase = Phase.ABORTED
        self.abort_reason = reason
        log.warning("match_aborted", match_id=self.id, reason=reason)
        self._end()

    def _guarded(self, step: Callable[..., None], *args: Any) -> None:
        """Run a step of the match; if it raises (a bug in the referee or an engine, never a
        bot's doing: answers are resolved before this), the match is aborted with a reason
        instead of being left RUNNING without a pending deadline."""
        try:
            step(*args)
        except Exception as exc:
            log.error("match_failed", exc_info=True, match_id=self.id, error=cap(f"{type(exc).__name__}: {exc}", 500))
            self.abort(f"the referee failed while running this match ({type(exc).__name__}); it was aborted and no "
                       "seat was charged. Report it with the match id.")

    def _finish(self) -> None:
        self.phase = Phase.FINISHED
        self.record = self.runner.record()
        log.info("match_finished", match_id=self.id, decisions=self.record.decisions,
                 ranks=list(self.record.result.ranks), reason=self.record.result.reason,
                 faults=len(self.record.faults), forfeited=self.record.forfeited)
        self._end()

    def _end(self) -> None:
        self.ended = time.time()
        for seat in self.seats:
            if seat.timer is not None:
                seat.timer.cancel()
                seat.timer = None
            self._send(seat, end=self.end_message(for_seat=seat.index))
            if seat.outbox is not None:
                seat.outbox.close()
        if self._events_timer is not None:
            self._events_timer.cancel()
        public_end = pb.WatchEvent(end=self.end_message(for_seat=None))
        for watcher in self.watchers:
            watcher.put(public_end)
            watcher.close()
        if self.public_log is not None:
            self.public_log.live_end(public_end)
        self.metrics.matches_total.labels(self.phase.value).inc()
        self.done.set()
        self._on_end(self)

    # ----- decisions -----------------------------------------------------------------------
    def _progress(self) -> None:
        """After anything that may have moved the runner: publish moves, ask the next seats."""
        runner = self.runner
        if runner.state.decisions != self._seen_decisions:
            self._publish_moves()
        if runner.finished:
            self._finish()
            return
        if runner.turn != self._issued_turn:
            self._issued_turn = runner.turn
            for request in runner.pending():
                self._ask(request)
        waiting = False
        for seat in self.seats:
            events = seat.events
            if events and seat.outbox is not None:
                if len(events) >= EVENT_BATCH:
                    seat.outbox.put(seat.message())
                else:
                    waiting = True
        if waiting and self._events_timer is None:
            self._events_timer = self._loop.call_later(EVENT_DELAY_S, self._send_events)

    def _send_events(self) -> None:
        """The events that waited EVENT_DELAY_S for a message to ride with go on their own."""
        self._events_timer = None
        for seat in self.seats:
            if seat.events and seat.outbox is not None:
                seat.outbox.put(seat.message())

    def _ask(self, request: DecisionRequest) -> None:
        seat = self.seats[request.seat]
        deadline_s = request.time_limit_s + request.bank_s
        turn: dict[str, Any] = {"turn": request.turn, "move_limit_s": request.time_limit_s,
                                "bank_s": request.bank_s, "deadline_s": deadline_s}
        game, wire = self.game, self._wire
        legal = b""
        try:
            turn["observation"] = convert.observation_kwargs(game, request.observation, wire)
            if wire is None:
                turn["legal_actions"] = [{"notation": str(a)} for a in request.legal_actions]
            else:  # typed actions are spliced in as bytes kept per action (see convert.action_bytes)
                legal = convert.repeated_field_bytes(
                    LEGAL_ACTIONS_FIELD, [convert.action_bytes(game, a, wire) for a in request.legal_actions])
            turn_bytes = _TURN_REQUEST(**turn).SerializeToString() + legal
        except (convert.ConversionError, ValueError, TypeError, KeyError, AttributeError, DecodeError) as exc:
            # The engine's data no longer fits its typed messages: play on in JSON and notation
            # (the SDK reads both) rather than stall the match; the round-trip test flags it.
            if self._wire is not None:
                log.warning("typed_messages_disabled", match_id=self.id, game=game, error=str(exc)[:500])
                self._wire = None
            turn["observation"] = convert.observation_kwargs(game, request.observation, None)
            turn["legal_actions"] = [{"notation": str(a)} for a in request.legal_actions]
            turn_bytes = _TURN_REQUEST(**turn).SerializeToString()
        now = self._loop.time()
        deadline = now + deadline_s
        seat.awaiting = Awaiting(request.turn, turn_bytes, now, deadline)
        timer = seat.timer
        if timer is None or seat.timer_at > deadline:  # else the armed timer fires first and re-arms
            if timer is not None:
                timer.cancel()
            seat.timer_at = deadline
            seat.timer = self._loop.call_at(deadline, self._deadline_timer, seat)
        if seat.outbox is not None:
            seat.outbox.put(seat.turn_frame(turn_bytes))

    def _resend(self, seat: Seat) -> None:
        awaiting = seat.awaiting
        assert awaiting is not None and seat.outbox is not None
        left = max(0.0, awaiting.deadline - self._loop.time())
        seat.outbox.put(seat.turn_frame(awaiting.turn + DEADLINE_TAG + struct.pack("<d", left)))

    def on_answer(self, seat_index: int, outbox: Outbox, answer: pb.Answer) -> None:
        """A seat's Answer frame."""
        now = self._loop.time()
        seat = self.seats[seat_index]
        if seat.outbox is not outbox:
            return  # a stream that was replaced; ignore its stragglers
        awaiting = seat.awaiting
        if self.phase is not Phase.RUNNING or awaiting is None or answer.turn != awaiting.number:
            self._refuse(seat, answer.turn, awaiting)
            return
        seat.awaiting = None  # its deadline timer stays armed for the next decision (see Seat)
        elapsed = now - awaiting.sent_at
        self._stats.decided(elapsed)
        self._guarded(self._decide, seat_index, answer, elapsed)

    def _decide(self, seat_index: int, answer: pb.Answer, elapsed: float) -> None:
        """Resolve an answer (any failure to is the bot's ``unparseable`` strike, so the seat
        always ends this decision with a move or a fault) and move the match on."""
        runner = self.runner
        fault: Fault | None
        try:
            choice = answers.resolve(self.game, self._wire, answer, runner.legal_actions(seat_index))
        except answers.AnswerFault as exc:
            fault = runner.fail(seat_index, exc.kind, exc.reason, elapsed)
        except Exception as exc:
            fault = runner.fail(seat_index, FaultKind.UNPARSEABLE,
                                f"the answer could not be checked against the legal actions: {type(exc).__name__}",
                                elapsed)
        else:
            fault = runner.submit(seat_index, choice, elapsed)
        if fault is not None:
            self._faulted(fault)
        self._progress()

    def _refuse(self, seat: Seat, turn: int, awaiting: Awaiting | None) -> None:
        if self.phase is Phase.WAITING:
            text = "the match has not started: wait for a TurnRequest before answering."
        elif awaiting is None:
            text = (f"an answer for turn {turn} arrived, but no decision is awaited from seat {seat.index} now "
                    f"(the match is on turn {self.runner.turn}); if it was late, the fallback action was played.")
        elif turn < awaiting.number:
            text = (f"the answer for turn {turn} arrived late: the referee is waiting for turn {awaiting.number} now "
                    "and played the fallback action for the earlier one.")
        else:
            text = f"an answer for turn {turn} arrived, but the referee is waiting for turn {awaiting.number}."
        notice = pb.Notice(code=_code(grpc.StatusCode.FAILED_PRECONDITION), message=text)
        self._send(seat, notice=notice)

    def _deadline_timer(self, seat: Seat) -> None:
        """A seat's deadline timer fired: the awaited decision's deadline passed, or the timer
        was armed for an earlier decision (answered in time) and re-arms for this one."""
        seat.timer = None
        awaiting = seat.awaiting
        if self.phase is not Phase.RUNNING or awaiting is None:
            return
        if awaiting.deadline > seat.timer_at:
            seat.timer_at = awaiting.deadline
            seat.timer = self._loop.call_at(awaiting.deadline, self._deadline_timer, seat)
            return
        self._guarded(self._deadline_passed, seat, awaiting)

    def _deadline_passed(self, seat: Seat, awaiting: Awaiting) -> None:
        seat.awaiting = None
        elapsed = self._loop.time() - awaiting.sent_at
        self._stats.decided(elapsed)
        if seat.outbox is None:
            kind = FaultKind.DISCONNECT
            reason = (f"disconnected and did not rejoin within the clock ({elapsed:.3f} s: the move limit plus "
                      "the bank)")
        else:
            kind = FaultKind.TIMEOUT
            reason = f"no answer within {elapsed:.3f} s (the move limit plus what was left of the time bank)"
        self._faulted(self.runner.fail(seat.index, kind, reason, elapsed))
        self._progress()

    def _faulted(self, fault: Fault) -> None:
        self._stats.faulted(fault.kind.value)
        log.info("fault", match_id=self.id, seat=fault.seat, turn=fault.turn, kind=fault.kind.value,
                 strike=fault.strike, forfeit=fault.forfeit, reason=fault.reason)
        seat = self.seats[fault.seat]
        notice = pb.Notice(code=_code(FAULT_CODES[fault.kind]), message=fault.reason,
                           fault=fault_message(fault, with_reason=True))
        self._send(seat, notice=notice)
        public = fault_message(fault, with_reason=False)
        for other in self.seats:
            if other is not seat:
                other.event({"turn": fault.turn, "fault": public})
        for watcher in self.watchers:
            watcher.put(pb.WatchEvent(fault=public))
        if self.public_log is not None:
            self.public_log.live_fault(fault)

    def _publish_moves(self) -> None:
        """Turn the engine moves applied since the last call into public events."""
        state = self.runner.state
        count = state.decisions - self._seen_decisions
        first_turn = self._seen_decisions + 1
        self._seen_decisions = state.decisions
        moves = state.recent_moves(count)
        visible = self._visible
        forfeited = self.runner.forfeited
        # A forfeited seat that left will never read its events: keep none for it.
        told = [seat for seat in self.seats if seat.outbox is not None or seat.index not in forfeited]
        for offset, joint in enumerate(moves):
            turn = first_turn + offset
            for mover, action in joint.items():
                text = visible(mover, action)
                move = {"seat": mover, "hidden": True} if text is None else {"seat": mover, "action": text}
                event = {"turn": turn, "move": move}
                for seat in told:
                    if seat.index != mover:
                        seat.event(event)
        public_log = self.public_log
        if self.watchers or (public_log is not None and public_log.live):
            watch_event = step_event(state.decisions, state.public_view(), moves, visible)
            for watcher in self.watchers:
                watcher.put(watch_event)
            if public_log is not None:
                public_log.live_step(watch_event, state.decisions)

    # ----- sending -------------------------------------------------------------------------
    def _send(self, seat: Seat, **kind: Any) -> None:
        """One message to a seat: its pending public events plus ``kind``."""
        if seat.outbox is None:
            return
        seat.outbox.put(seat.message(**kind))

    # ----- views -----------------------------------------------------------------------------
    def end_message(self, for_seat: int | None) -> pb.MatchEnd:
        """The end as told to one seat (its own fault reasons only), to spectators (None), or
        to an operator (for_seat=-1: every reason)."""
        if self.phase is Phase.ABORTED:
            faults = [fault_message(f, with_reason=for_seat in (f.seat, -1)) for f in self.runner.faults]
            return pb.MatchEnd(state=pb.MATCH_STATE_ABORTED, reason=self.abort_reason, faults=faults,
                               forfeited=self.runner.forfeited, decisions=self.runner.state.decisions)
        record = self.record
        assert record is not None
        result = record.result
        return pb.MatchEnd(
            state=pb.MATCH_STATE_FINISHED,
            result=pb.GameResult(ranks=result.ranks, scores=result.scores, reason=result.reason,
                                 details_json=json.dumps(result.details, sort_keys=True, default=str)),
            faults=[fault_message(f, with_reason=for_seat in (f.seat, -1)) for f in record.faults],
            forfeited=record.forfeited, unrated=record.unrated, decisions=record.decisions,
        )

    def status(self, include_replay: bool, replay_offset: int = 0) -> pb.MatchStatus:
        """The match's status; with the replay (once over) as one page of whole JSON lines
        of at most ``limits.replay_page_bytes`` from ``replay_offset`` (see
        MatchStatus.replay_next_offset), so no status exceeds the send limit."""
        runner = self.runner
        message = pb.MatchStatus(
            match_id=self.id, game=self.game, players=self.players, seed=self.seed,
            options_json=json.dumps(self.options, sort_keys=True), state=self.phase.proto,
            decisions=runner.state.decisions, time_control=pb.TimeControl(**self.time_control.to_json()),
        )
        for seat in self.seats:
            message.seats.add(seat=seat.index, name=seat.name, joined=seat.joined, connected=seat.outbox is not None,
                              strikes=runner.strikes[seat.index], forfeited=seat.index in runner.forfeited,
                              time_used_s=runner.clocks[seat.index].used_s, bot_seed=self.bot_seeds[seat.index])
        if self.phase.over:
            message.end.CopyFrom(self.end_message(for_seat=-1))
            if include_replay:
                page, following = replay_page(self.replay_text(), replay_offset, self.limits.replay_page_bytes)
                message.replay_jsonl = page
                message.replay_next_offset = following
        return message

    def replay_text(self) -> bytes:
        """The finished match's replay as JSON lines (UTF-8), made once."""
        if self._replay_text is None:
            records = self.record.replay_records() if self.record is not None else self.runner.state.replay()
            self._replay_text = replay_io.dumps(records).encode()
        return self._replay_text

    def header(self) -> pb.MatchHeader:
        return pb.MatchHeader(match_id=self.id, game=self.game, players=self.players,
                              seat_names=[s.name for s in self.seats], options_json=self.public_options_json,
                              state=self.phase.proto)

    # ----- spectators ------------------------------------------------------------------------
    def add_watcher(self, privileged: bool, live: bool = True) -> Outbox:
        """Register a spectator (``live``: fed through its outbox; else it reads the public
        log and the outbox only holds its slot). Anonymous ones get the slots the privileged
        share (``limits.reserved_watchers``, for service- or spectator-token holders) leaves."""
        limit = self.limits.max_watchers if privileged else self.limits.max_watchers - self.limits.reserved_watchers
        if len(self.watchers) + len(self.log_readers) >= limit:
            kept = "" if privileged else (f" ({self.limits.reserved_watchers} more are kept for holders of the "
                                          "spectator or service token)")
            raise RequestError(grpc.StatusCode.RESOURCE_EXHAUSTED,
                               f"match {self.id} already has {limit} spectators{kept}; try later.")
        outbox = Outbox(self.limits.watcher_queue)
        if not live:
            self.log_readers.add(outbox)
            self.metrics.watchers.inc()
        elif self.phase.over:
            outbox.put(pb.WatchEvent(end=self.end_message(for_seat=None)))
            outbox.close()
        else:
            self.watchers.add(outbox)
            self.metrics.watchers.inc()
        return outbox

    def remove_watcher(self, outbox: Outbox) -> None:
        for group in (self.watchers, self.log_readers):
            if outbox in group:
                group.discard(outbox)
                self.metrics.watchers.dec()

    def history(self) -> PublicLog:
        """The match's public log from the start, made on first use (see spectators.py)."""
        if self.public_log is None:
            self.public_log = PublicLog(self.game, self.players, self.seed, self.options, visibility.policy)
        return self.public_log

    def catch_up_history(self) -> None:
        """One bounded chunk of the public log's catching up with the match."""
        log_ = self.history()
        log_.catch_up(self.runner.state, self.runner.faults,
                      lambda: pb.WatchEvent(end=self.end_message(for_seat=None)) if self.phase.over else None)

    def current_step(self) -> pb.WatchEvent:
        state = self.runner.state
        return pb.WatchEvent(step=pb.PublicStep(decisions=state.decisions,
                                                public_view_json=json.dumps(state.public_view())))


def replay_page(text: bytes, offset: int, page_bytes: int) -> tuple[str, int]:
    """Whole lines of ``text`` from byte ``offset``, at most ``page_bytes`` (at least one line),
    and the offset of the next page (0 once the page reaches the end)."""
    if offset >= len(text):
        return "", 0
    if offset and text[offset - 1:offset] != b"\n":
        raise RequestError(grpc.StatusCode.INVALID_ARGUMENT,
                           f"replay_offset {offset} is not the start of a line; pass 0 or a replay_next_offset.")
    end = offset + page_bytes
    if end >= len(text):
        return text[offset:].decode(), 0
    cut = text.rfind(b"\n", offset, end)
    cut = text.find(b"\n", end) if cut < 0 else cut  # one line longer than a page still goes whole
    cut = len(text) - 1 if cut < 0 else cut
    following = cut + 1
    return text[offset:following].decode(), following if following < len(text) else 0


# ----- the registry ------------------------------------------------------------------------

class MatchRegistry:
    """Every match of this process, the seat tokens, and their lifetimes."""

    def __init__(self, limits: Limits, metrics: Metrics, seeds: SeatSeeds | None = None) -> None:
        self.limits = limits
        self.metrics = metrics
        self.matches: dict[str, Match] = {}
        self.tokens = SeatTokens()
        self.seeds = seeds or SeatSeeds()
        # Ids of forgotten matches and when they were forgotten, kept limits.match_id_retain_s
        # more: a match id is never started twice by this process within that window.
        self.used_ids: dict[str, float] = {}
        self.started_at = time.time()
        self.accepting = True

    def running(self) -> list[Match]:
        return [m for m in self.matches.values() if not m.phase.over]

    def start(self, request: pb.StartMatchRequest) -> tuple[Match, list[str]]:
        """Validate a StartMatch request and create the match; returns it and the seat tokens."""
        if not self.accepting:
            raise RequestError(grpc.StatusCode.UNAVAILABLE,
                               "the referee is shutting down and starts no new match; use another referee.")
        if len(self.running()) >= self.limits.max_matches:
            raise RequestError(grpc.StatusCode.RESOURCE_EXHAUSTED,
                               f"this referee already runs {self.limits.max_matches} matches; retry later or use "
                               "another referee.")
        match_id = request.match_id or f"m-{secrets.token_hex(8)}"
        if not MATCH_ID_RE.match(match_id):
            raise RequestError(grpc.StatusCode.INVALID_ARGUMENT,
                               f"match_id {match_id!r} must be 1-64 characters of A-Z a-z 0-9 . _ -")
        if match_id in self.matches:
            raise RequestError(grpc.StatusCode.ALREADY_EXISTS,
                               f"match {match_id} already exists on this referee; a retried StartMatch must not "
                               "start it twice. Use GetMatch to follow it, or start a new attempt under a new id "
                               f"(e.g. {match_id}.a2).")
        if match_id in self.used_ids:
            raise RequestError(grpc.StatusCode.ALREADY_EXISTS,
                               f"match id {match_id} was already used on this referee (its match is forgotten); start "
                               f"each attempt under a new id (e.g. {match_id}.a2), with the same seed to replay it.")
        players = request.players
        if players != len(request.seats):
            raise RequestError(grpc.StatusCode.INVALID_ARGUMENT,
                               f"players is {players} but {len(request.seats)} seats were given; give one SeatSpec "
                               "per seat.")
        options = self._options(request.options_json)
        seed = request.seed if request.HasField("seed") else secrets.randbelow(1 << 62)
        control = self._time_control(request)
        strike_limit = request.strike_limit or 3
        if strike_limit > self.limits.max_strikes:
            raise RequestError(grpc.StatusCode.INVALID_ARGUMENT,
                               f"strike_limit {strike_limit} is above this referee's ceiling of "
                               f"{self.limits.max_strikes}.")
        join_timeout = request.join_timeout_s or self.limits.join_timeout_s
        if not 0 < join_timeout <= self.limits.max_join_timeout_s:
            raise RequestError(grpc.StatusCode.INVALID_ARGUMENT,
                               f"join_timeout_s must be above 0 and at most {self.limits.max_join_timeout_s:g} s.")
        try:
            state = make(request.game, players, seed, options)
        except Exception as exc:  # OptionError, PlayerCountError, a game's setup validation
            raise RequestError(grpc.StatusCode.INVALID_ARGUMENT, str(exc)) from None
        names = [s.name or f"seat {i}" for i, s in enumerate(request.seats)]
        match = Match(match_id, state, names, control, strike_limit, join_timeout, self.limits, self.metrics,
                      self._ended, self.seeds)
        self.matches[match_id] = match
        self.metrics.matches_running.inc()
        tokens = [self.tokens.issue(match_id, seat) for seat in range(players)]
        return match, tokens

    @staticmethod
    def _options(text: str) -> dict[str, Any]:
        if not text.strip():
            return {}
        try:
            options = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RequestError(grpc.StatusCode.INVALID_ARGUMENT, f"options_json is not JSON: {exc.msg}") from None
        if not isinstance(options, dict):
            raise RequestError(grpc.StatusCode.INVALID_ARGUMENT,
                               'options_json must be a JSON object such as {"max_rounds": 20}')
        return options

    def _time_control(self, request: pb.StartMatchRequest) -> TimeControl:
        if not request.HasField("time_control"):
            return DEFAULT_TIME_CONTROL
        tc = request.time_control
        lim = self.limits
        checks = (("move_s", tc.move_s, lim.max_move_s), ("first_move_s", tc.first_move_s, lim.max_move_s),
                  ("bank_s", tc.bank_s, lim.max_bank_s))
        for name, value, ceiling in checks:
            if not 0 <= value <= ceiling:
                raise RequestError(grpc.StatusCode.INVALID_ARGUMENT,
                                   f"time_control.{name} must be from 0 to {ceiling:g} s, got {value}")
        if tc.move_s <= 0:
            raise RequestError(grpc.StatusCode.INVALID_ARGUMENT, "time_control.move_s must be above 0")
        return TimeControl(move_s=tc.move_s, bank_s=tc.bank_s, first_move_s=tc.first_move_s or tc.move_s)

    def get(self, match_id: str) -> Match:
        match = self.matches.get(match_id)
        if match is None:
            shown = cap(match_id, 64)
            if match_id in self.used_ids:
                raise RequestError(grpc.StatusCode.NOT_FOUND,
                                   f"match {shown} ended more than {self.limits.retain_s:g} s ago and is forgotten "
                                   "(--retain): its result was only kept that long.")
            raise RequestError(grpc.StatusCode.NOT_FOUND,
                               f"this referee does not know match {shown!r}: it never started it, or it ran before "
                               f"the referee restarted (this process started at {_utc(self.started_at)}; matches do "
                               "not survive a restart).")
        return match

    def by_token(self, token: str) -> tuple[Match, int]:
        key = self.tokens.lookup(token)
        if key is None and self.tokens.issued_elsewhere(token):
            raise RequestError(grpc.StatusCode.UNAUTHENTICATED,
                               "this seat token was issued by another run of the referee (it restarted at "
                               f"{_utc(self.started_at)}, or this is a different referee): it no longer knows that "
                               "match. The platform must start the match again (a new StartMatch gives new tokens).")
        match = self.matches.get(key.match_id) if key is not None else None
        if match is None:
            raise RequestError(grpc.StatusCode.UNAUTHENTICATED,
                               "unknown seat token: join with the token StartMatch returned for your seat (a match's "
                               f"tokens are forgotten {self.limits.retain_s:g} s after it ends).")
        assert key is not None
        return match, key.seat

    def _ended(self, match: Match) -> None:
        self.metrics.matches_running.dec()
        asyncio.get_running_loop().call_later(self.limits.retain_s, self._forget, match.id)

    def _forget(self, match_id: str) -> None:
        self.matches.pop(match_id, None)
        self.tokens.revoke_match(match_id)
        now = time.time()
        self.used_ids[match_id] = now
        horizon = now - self.limits.match_id_retain_s
        while self.used_ids:  # oldest first (insertion order): drop the ids past the window
            oldest, at = next(iter(self.used_ids.items()))
            if at >= horizon:
                break
            del self.used_ids[oldest]

    async def shutdown(self, grace_s: float) -> None:
        """Start no new match; let running ones finish within ``grace_s``; abort the rest."""
        self.accepting = False
        running = self.running()
        if running:
            log.info("shutdown_waiting", matches=len(running), grace_s=grace_s)
            await asyncio.wait([asyncio.ensure_future(m.done.wait()) for m in running], timeout=grace_s)
        for match in self.running():
            match.abort(f"the referee shut down before the match ended (grace period {grace_s:g} s).")
