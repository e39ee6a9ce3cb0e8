"""One match in a referee process: the asyncio driver of its MatchRunner.

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
give (through each stream's writer task, or directly from the reader on the hot path: see
outbox.py). The registry (registry.py) creates matches and finds them by id and token.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Sequence
from enum import StrEnum
from typing import Any

import grpc

from referee.games import State
from referee.games.core import replay as replay_io
from referee.games.core import visibility
from referee.match import DecisionRequest, Fault, FaultKind, MatchRecord, MatchRunner, TimeControl
from referee.match.clock import CPU
from referee.match.faults import cap
from skyarena.v1 import referee_pb2 as pb
from skyarena.wire import wire_for

from . import answers, cpu_clock, turns
from .errors import RequestError, status_number
from .limits import Limits
from .logs import log
from .metrics import Metrics
from .outbox import Outbox
from .seats import Awaiting, Seat
from .seeds import SeatSeeds
from .spectators import PublicLog, fault_message, replay_page, step_event

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


class Match:
    """One match: its runner, its seats and their streams, its spectators, its end."""

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
        cpu_seats: Sequence[int] = (),
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
        self.runner = MatchRunner(state, time_control, strike_limit, match_id=match_id, cpu_seats=cpu_seats)
        self.seats = [Seat(i, name, cpu_clock=i in cpu_seats) for i, name in enumerate(seat_names)]
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
        self._wire = wire_for(self.game)
        self._visible = visibility.policy(state)
        self._stats = metrics.stats
        self._join_timer = self._loop.call_later(join_timeout_s, self._join_timeout, join_timeout_s)
        log.info("match_created", match_id=match_id, game=self.game, players=self.players,
                 time_control=time_control.to_json(), strike_limit=strike_limit)

    # ----- seats joining and leaving ---------------------------------------------------
    def attach(self, seat_index: int, outbox: Outbox, client: str, trusted: bool = False) -> None:
        """A seat's stream joined (``trusted``: it carried the service token, so its CPU
        figures count). Raises RequestError if it cannot play now."""
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
        seat.trusted = trusted
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
        cpu_deadline = request.time_limit_s + request.bank_s
        wall_deadline = cpu_deadline * self.time_control.wall_backstop if seat.cpu_clock else None
        try:
            turn_bytes = turns.turn_request(self.game, self._wire, request, wall_deadline)
        except turns.CONVERSION_ERRORS as exc:
            # The engine's data no longer fits its typed messages: play on in JSON and notation
            # (the SDK reads both) rather than stall the match; the round-trip test flags it.
            if self._wire is not None:
                log.warning("typed_messages_disabled", match_id=self.id, game=self.game, error=str(exc)[:500])
                self._wire = None
            turn_bytes = turns.turn_request(self.game, None, request, wall_deadline)
        now = self._loop.time()
        deadline = now + (cpu_deadline if wall_deadline is None else wall_deadline)
        seat.awaiting = Awaiting(request.turn, turn_bytes, now, deadline, cpu_deadline)
        seat.report = None
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
        seat.outbox.put(seat.turn_frame(turns.with_deadline(awaiting.turn, left)))


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
        always ends this decision with a move or a fault) and move the match on. The time
        charged is the wall time, or on a CPU clock the worker's figure (cpu_clock.py)."""
        runner = self.runner
        charged, kind, note = cpu_clock.answer_charge(self.seats[seat_index], answer, elapsed)
        how: dict[str, Any] = {"clock_kind": kind, "wall_s": elapsed, "note": note}
        fault: Fault | None
        try:
            choice = answers.resolve(self.game, self._wire, answer, runner.legal_actions(seat_index))
        except answers.AnswerFault as exc:
            fault = runner.fail(seat_index, exc.kind, exc.reason, charged, **how)
        except Exception as exc:
            fault = runner.fail(seat_index, FaultKind.UNPARSEABLE,
                                f"the answer could not be checked against the legal actions: {type(exc).__name__}",
                                charged, **how)
        else:
            fault = runner.submit(seat_index, choice, charged, **how)
        if fault is not None:
            self._faulted(fault)
        self._progress()

    def on_clock_report(self, seat_index: int, outbox: Outbox, message: pb.ClockReport) -> None:
        """A worker's measure of a seat still thinking; past the CPU deadline, a timeout now."""
        seat = self.seats[seat_index]
        if seat.outbox is not outbox or self.phase is not Phase.RUNNING:
            return
        awaiting = seat.awaiting
        report = cpu_clock.take_report(seat, message, self._loop.time())
        if report is None or awaiting is None or report.cpu_s <= awaiting.cpu_deadline_s:
            return
        seat.awaiting = None
        elapsed = report.at - awaiting.sent_at
        self._stats.decided(elapsed)
        self._guarded(self._cpu_overrun, seat, awaiting, report, elapsed)

    def _cpu_overrun(self, seat: Seat, awaiting: Awaiting, report: Any, elapsed: float) -> None:
        self._faulted(self.runner.fail(seat.index, FaultKind.TIMEOUT, cpu_clock.cpu_overrun_reason(report, awaiting),
                                       report.cpu_s, clock_kind=CPU, wall_s=elapsed))
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
        notice = pb.Notice(code=status_number(grpc.StatusCode.FAILED_PRECONDITION), message=text)
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
        now = self._loop.time()
        elapsed = now - awaiting.sent_at
        self._stats.decided(elapsed)
        if seat.cpu_clock and seat.trusted and seat.outbox is not None:
            platform, used, reason = cpu_clock.backstop_verdict(seat, awaiting, now)
            if platform:
                self.abort(reason)  # no bot's fault: nothing is rated, the worker replays the seed
                return
            self._faulted(self.runner.fail(seat.index, FaultKind.TIMEOUT, reason, used, clock_kind=CPU,
                                           wall_s=elapsed))
            self._progress()
            return
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
        notice = pb.Notice(code=status_number(FAULT_CODES[fault.kind]), message=fault.reason,
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
