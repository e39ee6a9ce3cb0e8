"""The seats of a local match: who answers each decision, and how a deadline cuts it off.

A bot on the platform answers over the network; when its deadline passes the referee plays
the fallback and moves on, whatever the bot is still doing. Local play does the same with
a **worker process per bot** (:class:`WorkerSeat`): the match waits for an answer until the
seat's deadline (move limit plus bank) and not a moment longer, so a bot stuck in a loop
costs strikes, never a hung ``skyarena play``. A process, not a thread, because only a
process can be stopped for good, and because it gives each bot its own ``sys.path``, modules
and working directory (the bot's folder), exactly as a remote bot process has.

:class:`InProcessSeat` calls a Bot object directly: fast and without pickling, for house bots
and library use, but a slow answer is only timed after it returns.

A worker seat is on a **CPU clock**, as a hosted bot is on the platform: it is charged the
CPU time of its process tree (:mod:`skyarena.cputime`), cut off once that passes the
deadline, and cut off by wall time only at the backstop (``TimeControl.wall_backstop`` times
the deadline), so an author sees the clock the platform will apply. (On a host without
Linux /proc it keeps a wall clock.) A bot that reaches the backstop having waited for a
core most of that time (the laptop was busy) is given another backstop's worth, where the
platform would void the match as its own fault.

A seat answers one request at a time, in order. A late answer is discarded when it comes (it
carries its turn), so a bot that overran starts the next decision late, as a remote bot
whose answer the referee refused would.
"""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection, wait
from typing import Any, NamedTuple

from referee.games.core.views import private_copy  # in-process bots share the engine's process
from referee.match import DecisionRequest, FaultKind
from referee.match.clock import CPU, DEFAULT_WALL_BACKSTOP, STARVED_SHARE, WALL

from .bot import Bot, Clock, MatchInfo
from .cputime import TreeClock, supported
from .games import observation_class
from .loader import BotLoadError
from .worker import BotSource, FaultReport, Hooks

LOAD_TIMEOUT_S = 60.0   # loading a bot (imports, models) before its first match
STOP_GRACE_S = 1.0      # a worker asked to stop gets this long before it is killed
MAX_LATE_LOOKS = 3       # a late look at the backstop extends it this often at most per decision
MIN_POLL_S = 0.005      # the shortest wait between two looks at a thinking worker's CPU time


class Reply(NamedTuple):
    """What a seat produced for one decision: an answer, or a fault (kind, reason)."""

    seat: int
    answer: Any
    elapsed_s: float               # what is charged: wall seconds, or CPU seconds on a CPU clock
    fault: FaultReport | None = None
    clock: str = WALL
    wall_s: float | None = None    # on a CPU clock, the wall seconds the decision took


class Seat:
    """One bot in a local match: ``new_match``, ``start``, then ``ask`` for each decision
    (:func:`collect` gathers the replies of a step), ``end``; ``close`` after the last match."""

    name: str = ""
    cpu_clock: bool = False  # charged its CPU time (a worker process), not the wall time

    def new_match(self) -> None:
        """Before each match: a fresh bot object."""

    def start(self, info: MatchInfo, limit_s: float) -> FaultReport | None:
        """Call on_match_start; the fault if it raised or overran ``limit_s``."""
        raise NotImplementedError

    def ask(self, request: DecisionRequest, wall_backstop: float = DEFAULT_WALL_BACKSTOP) -> None:
        raise NotImplementedError

    def end(self, info: MatchInfo, result: dict[str, Any], limit_s: float) -> FaultReport | None:
        """Call on_match_end; the fault if it raised or overran ``limit_s``."""
        raise NotImplementedError

    def close(self) -> None:
        """After the last match."""


class InProcessSeat(Seat):
    """A Bot object called in this process. The answer is timed when it returns."""

    def __init__(self, bot: Bot | Callable[[], Bot], game: str, full_tracebacks: bool = False) -> None:
        self.observation_type = observation_class(game)
        self._factory = None if isinstance(bot, Bot) else bot
        self.full = full_tracebacks
        self.hooks = Hooks(bot if isinstance(bot, Bot) else bot(), full_tracebacks)
        self.name = self.hooks.bot.display_name()
        self.used = False
        self.reply: Reply | None = None

    def new_match(self) -> None:
        if self.used and self._factory is not None:
            self.hooks = Hooks(self._factory(), self.full)
        self.used = True

    def start(self, info: MatchInfo, limit_s: float) -> FaultReport | None:
        return self.hooks.start(info)

    def ask(self, request: DecisionRequest, wall_backstop: float = DEFAULT_WALL_BACKSTOP) -> None:
        observation = self.observation_type.from_json(private_copy(request.observation))
        started = time.perf_counter()
        clock = Clock(request.time_limit_s, request.bank_s, request.deadline_s)
        answer, fault = self.hooks.act(observation, request.legal_actions, clock)
        self.reply = Reply(request.seat, answer, time.perf_counter() - started, fault)

    def end(self, info: MatchInfo, result: dict[str, Any], limit_s: float) -> FaultReport | None:
        return self.hooks.end(info, result)


class WorkerSeat(Seat):
    """A bot in its own process, cut off at each deadline.

    The worker loads the bot at once (its load errors raise BotLoadError here, before any
    match), makes a fresh bot object for every match, and runs in the bot's folder."""

    def __init__(self, source: BotSource, game: str, full_tracebacks: bool = False) -> None:
        self.source = source
        self.game = game
        self.full = full_tracebacks
        self._spawn()

    # ----- the process ------------------------------------------------------------------
    def _spawn(self) -> None:
        ours, theirs = socket.socketpair()
        self.process = subprocess.Popen([sys.executable, "-m", "skyarena.worker", str(theirs.fileno())],
                                        pass_fds=[theirs.fileno()], stdin=subprocess.DEVNULL)
        theirs.close()
        self.clock = TreeClock(self.process.pid) if supported() else None
        self.cpu_clock = self.clock is not None
        self.conn = Connection(ours.detach())
        self.turn = 0          # the turn of the last request sent
        self.busy = False      # a request (or hook) is still running after its deadline
        self.fresh = True      # the bot object made at load time has not played yet
        self.conn.send((sys.path, self.source, self.game, self.full))
        if not self.conn.poll(LOAD_TIMEOUT_S):
            self._kill()
            raise BotLoadError(f"{self.source}: loading the bot took more than {LOAD_TIMEOUT_S:g} s; "
                               "load less at import time (or in on_match_start, which has the first-move time).")
        try:
            kind, payload = self.conn.recv()
        except (EOFError, OSError):
            self._kill()
            raise BotLoadError(f"{self.source}: the bot's process died while loading it (exit status "
                               f"{self.process.returncode}).") from None
        if kind == "error":
            self._kill()
            raise BotLoadError(payload)
        self.name = payload

    @property
    def alive(self) -> bool:
        return self.process.poll() is None

    def _kill(self) -> None:
        if self.alive:
            self.process.kill()
        self.process.wait()
        self.conn.close()
        if self.clock is not None:
            self.clock.close()

    def _receive(self, kind: str, deadline: float) -> tuple[Any, ...] | None:
        """The worker's next message of this kind by ``deadline`` (perf_counter time), late
        answers skipped; None when the deadline passes or the worker died."""
        while True:
            timeout = deadline - time.perf_counter()
            if timeout <= 0 or not self.conn.poll(timeout):
                return None
            try:
                message = self.conn.recv()
            except (EOFError, OSError):
                return None
            if message[0] == kind:
                self.busy = False
                return message
            # a late answer: its decision was already played by the fallback

    def _hook(self, message: tuple[Any, ...], kind: str, hook: str, limit_s: float) -> FaultReport | None:
        if not self.alive:
            return FaultKind.EXCEPTION, (f"{hook} was not called: the bot's process had died (exit status "
                                         f"{self.process.returncode})")
        self.conn.send(message)
        reply = self._receive(kind, time.perf_counter() + limit_s)
        if reply is None:
            self.busy = True
            return FaultKind.TIMEOUT, f"{hook} did not return within {limit_s:.3f} s"
        report: FaultReport | None = reply[1]
        return report

    # ----- the Seat interface -----------------------------------------------------------
    def new_match(self) -> None:
        if self.busy or not self.alive:
            self._kill()   # still stuck in the last match, or dead: a new process for this one
            self._spawn()

    def start(self, info: MatchInfo, limit_s: float) -> FaultReport | None:
        fresh, self.fresh = self.fresh, False
        return self._hook(("start", info, fresh), "started", "on_match_start", limit_s)

    def ask(self, request: DecisionRequest, wall_backstop: float = DEFAULT_WALL_BACKSTOP) -> None:
        self.turn = request.turn
        self.seat = request.seat
        self.cpu_deadline_s = request.deadline_s
        if self.clock is not None:
            self.clock.start()
        self.sent_at = time.perf_counter()
        self.wall_span_s = request.deadline_s * (wall_backstop if self.clock is not None else 1.0)
        self.deadline_at = self.sent_at + self.wall_span_s
        self.waited_s = 0.0  # seconds of the decision spent waiting for a core, as of the last look
        self.late_looks = 0  # backstops this watcher came late to (bounded: a sleeping bot still ends)
        self.look_at = self.sent_at + request.deadline_s  # when the CPU deadline could first be reached
        if self.alive:
            self.conn.send(("act", request.turn, request.observation, request.legal_actions,
                            (request.time_limit_s, request.bank_s, request.deadline_s)))

    def reply_if_ready(self, now: float) -> Reply | None:
        """The answer to the last request if it has come (reading what waits in the pipe),
        a fault if the deadline passed or the worker died, else None."""
        while self.conn.poll():
            try:
                message = self.conn.recv()
            except (EOFError, OSError):
                break
            if message[0] == "answer" and message[1] == self.turn:
                self.busy = False
                _, _, answer, fault = message
                return self._reply(answer, now, fault)
            # a late answer to an earlier turn: its decision was already played by the fallback
        elapsed = now - self.sent_at
        if not self.alive:
            return self._reply(None, now, (FaultKind.EXCEPTION,
                                           f"the bot's process died (exit status {self.process.returncode})"))
        if self.clock is not None and now >= self.look_at:
            used = self.clock.used().cpu_s
            if used > self.cpu_deadline_s:
                self.busy = True
                return Reply(self.seat, None, used, (FaultKind.TIMEOUT, f"used {used:.3f} s of CPU without "
                                                     "answering, past the move limit and the rest of the time "
                                                     "bank"), CPU, elapsed)
            # CPU time grows no faster than wall time for one thread: look again when it could be over.
            self.look_at = now + max(self.cpu_deadline_s - used, MIN_POLL_S)
        if now >= self.deadline_at and self.clock is not None and self._starved(now):
            # The machine, not the bot, held it back (it waited for a core most of the time):
            # where the referee would void the match, a local seat is given its time instead.
            self.deadline_at = now + self.wall_span_s
        if now >= self.deadline_at:
            self.busy = True
            if self.clock is not None:
                return self._reply(None, now, (FaultKind.TIMEOUT, f"no answer within {elapsed:.3f} s of wall time "
                                               "(the backstop of this CPU clock): the bot slept or blocked"))
            return self._reply(None, now, (FaultKind.TIMEOUT, f"no answer within {elapsed:.3f} s (the "
                                           "move limit plus what was left of the time bank)"))
        return None

    def _starved(self, now: float) -> bool:
        """Whether the machine held the bot back since the last backstop: it waited for a core
        for most of that time, or this watcher itself came that late to look (a loaded
        machine delays both; the referee likewise blames a relay whose reports stop)."""
        assert self.clock is not None
        waited = self.clock.used().wait_s
        late = now - self.deadline_at >= STARVED_SHARE * self.wall_span_s and self.late_looks < MAX_LATE_LOOKS
        starved = late or waited - self.waited_s >= STARVED_SHARE * self.wall_span_s
        self.late_looks += late
        self.waited_s = waited
        return starved

    def _reply(self, answer: Any, now: float, fault: FaultReport | None) -> Reply:
        """The reply charged by this seat's clock: the CPU time of its process, or the wall time."""
        elapsed = now - self.sent_at
        if self.clock is None:
            return Reply(self.seat, answer, elapsed, fault)
        used = self.clock.finish() if fault is None else self.clock.used()
        return Reply(self.seat, answer, used.cpu_s, fault, CPU, elapsed)

    @property
    def wake_at(self) -> float:
        """When collect() must look at this seat again, with nothing in its pipe."""
        return min(self.deadline_at, self.look_at) if self.clock is not None else self.deadline_at

    def end(self, info: MatchInfo, result: dict[str, Any], limit_s: float) -> FaultReport | None:
        if self.busy:
            return None  # stuck past a deadline: it is replaced before the next match anyway
        return self._hook(("end", info, result), "ended", "on_match_end", limit_s)

    def close(self) -> None:
        if self.alive and not self.busy:
            self.conn.send(("stop",))
            with contextlib.suppress(subprocess.TimeoutExpired):  # then it is killed below
                self.process.wait(STOP_GRACE_S)
        self._kill()


def collect(seats: Sequence[Seat], requests: Sequence[DecisionRequest],
            wall_backstop: float = DEFAULT_WALL_BACKSTOP) -> list[Reply]:
    """Ask every request of a step at once (workers think in parallel), then gather the
    replies as they come; each worker is waited for until its own deadline only."""
    for request in requests:
        seats[request.seat].ask(request, wall_backstop)
    replies: list[Reply] = []
    waiting: list[WorkerSeat] = []
    for request in requests:
        seat = seats[request.seat]
        if isinstance(seat, WorkerSeat):
            waiting.append(seat)
        else:
            assert isinstance(seat, InProcessSeat) and seat.reply is not None
            replies.append(seat.reply._replace(seat=request.seat))
    while waiting:
        now = time.perf_counter()
        for seat in list(waiting):
            reply = seat.reply_if_ready(now)
            if reply is not None:
                replies.append(reply)
                waiting.remove(seat)
        if waiting:
            wait([seat.conn for seat in waiting], max(0.0, min(seat.wake_at for seat in waiting) - now))
    return replies
