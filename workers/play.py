"""Playing one scheduled match, start to rated finish; the body of the ``play_match`` task.

``play_match(player, match_id)`` is a plain function (tests call it directly): it claims
the match row with a lease, unpacks each seat's version, asks a referee to start the match
as ``<id>.a<attempt>`` with the row's seed and the season's clocks and strike limit, plays
every seat with a hosted bot relayed to the referee, reads the result and the replay back
(GetMatch) and hands the outcome to the store's exactly-once apply. It is safe to run twice
for one match, at once or one after the other: the claim lets one attempt hold the match,
and the apply writes a match at most once.

When things die: a referee that is unreachable before the match starts costs nothing (the
next referee is tried, and if none answers the match waits in the queue); a referee that
dies mid-match costs the attempt, and the match is retried at once on another referee with
the same seed; a worker that dies stops renewing its lease and the reaper re-queues the
match; after ``max_attempts`` the match is void with the reason.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import socket
import statistics
import threading
import time
from collections.abc import Awaitable, Callable, Coroutine, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import grpc

from referee.games.core import replay as replay_io
from referee.match import TimeControl
from referee.match.faults import PLATFORM_FAULT
from skyarena import cputime
from skyarena.referee_client import RefereeCallError, RefereeClient, fault_json, start_request
from skyarena.settings import current
from skyarena.v1 import referee_pb2 as pb
from workers.bot_code import ArchiveMissing, ArchiveRejected, CodeCache
from workers.config import QueueSettings, WorkerSettings
from workers.online_seat import NoShow, OnlineDeadlines, play_online_seat
from workers.referees import Referees, parse_public_referees
from workers.sandbox import HostedSeatOutcome, SandboxLimits, play_hosted_seat
from workers.store import Conflict, Database, queue
from workers.store import online as online_store
from workers.store import replay_document as stored_replay
from workers.store.outcome import MatchOutcome, SeatOutcome
from workers.store.results import apply_outcome

log = logging.getLogger(__name__)
T = TypeVar("T")

# The referee is unusable for this attempt: it cannot be reached or it stopped answering.
RETRY_ELSEWHERE = {grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.RESOURCE_EXHAUSTED,
                   grpc.StatusCode.CANCELLED, grpc.StatusCode.UNKNOWN, grpc.StatusCode.INTERNAL}
WAITING_RETRY_S = 5.0     # how soon a match no referee would take is offered again

HostSeat = Callable[..., Awaitable[HostedSeatOutcome]]  # workers.sandbox.play_hosted_seat's shape


def _default_owner() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


@dataclass(frozen=True)
class PlaySettings:
    """How a worker plays matches (from `WorkerSettings` and `QueueSettings`, see `from_env`)."""

    owner: str = field(default_factory=_default_owner)
    # The defaults are the settings' own (workers/config.py says what each means).
    lease_s: float = WorkerSettings.lease_s
    max_attempts: int = WorkerSettings.max_attempts
    join_timeout_s: float = WorkerSettings.hosted_join_timeout_s
    match_timeout_s: float = QueueSettings.match_timeout_s
    invitation_timeout_s: float = WorkerSettings.invitation_timeout_s
    online_join_timeout_s: float = WorkerSettings.online_join_timeout_s
    public_referees: Mapping[str, str] = field(default_factory=dict)  # referee -> the address online bots join

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> PlaySettings:
        """This worker's settings (`workers.config`): what the process read at start, or ``environ``."""
        worker = WorkerSettings.from_env(environ) if environ is not None else current(WorkerSettings)
        celery = QueueSettings.from_env(environ) if environ is not None else current(QueueSettings)
        return cls.from_settings(worker, celery)

    @classmethod
    def from_settings(cls, worker: WorkerSettings, celery: QueueSettings) -> PlaySettings:
        # The give-up time is the Celery app's longest match itself: one field, so they agree.
        return cls(lease_s=worker.lease_s, max_attempts=worker.max_attempts,
                   join_timeout_s=worker.hosted_join_timeout_s, match_timeout_s=celery.match_timeout_s,
                   invitation_timeout_s=worker.invitation_timeout_s,
                   online_join_timeout_s=worker.online_join_timeout_s,
                   public_referees=parse_public_referees(worker.public_referees))

    @property
    def online_deadlines(self) -> OnlineDeadlines:
        return OnlineDeadlines(self.invitation_timeout_s, self.online_join_timeout_s)

    def referee_join_timeout_s(self, online: bool) -> float:
        """How long the referee waits for every seat: an online seat's invitation and join come first."""
        if not online:
            return self.join_timeout_s
        return max(self.join_timeout_s, self.invitation_timeout_s + self.online_join_timeout_s + 5.0)

    @property
    def heartbeat_s(self) -> float:
        return self.lease_s / 4  # three heartbeats may be lost before the lease runs out


@dataclass(frozen=True)
class PlayResult:
    """What became of one ``play_match`` call."""

    match_id: str
    status: str                       # finished | skipped | waiting | void | lost
    detail: str = ""
    retry_after_s: float | None = None  # waiting: offer the match again after this long
    phases: dict[str, float] = field(default_factory=dict)  # seconds per step of the last attempt (where time goes)


class Phases:
    """Wall-clock seconds of each step of an attempt, for the log and the benchmark."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self._last = time.perf_counter()

    def mark(self, name: str) -> None:
        now = time.perf_counter()
        self.seconds[name] = now - self._last
        self._last = now


class RefereeLost(Exception):
    """The referee could not run this attempt (unreachable, or died mid-match)."""

    def __init__(self, message: str, started: bool) -> None:
        super().__init__(message)
        self.started = started


class PlatformStalled(RefereeLost):
    """The referee aborted the match because the platform, not a bot, ran a decision into the
    wall backstop (CPU clocks): the attempt is void and the match is replayed with the same
    seed; the referee is not to blame either, so it is not marked down."""


class MatchRefused(Exception):
    """The match cannot be played as scheduled (the referee refused its settings, a version has no
    entry point): retrying cannot help."""


class LeaseLost(Exception):
    """This attempt no longer holds the match (the reaper took it back, or it ended elsewhere)."""


class MatchPlayer:
    """A worker process's means of playing matches: store, referees, unpacked code, one event loop.

    The event loop runs on a thread of its own, created in the process that uses it, so the
    gRPC channels it owns are never inherited through a fork.
    """

    def __init__(self, db: Database, referees: Referees, settings: PlaySettings | None = None,
                 host: HostSeat = play_hosted_seat, code: CodeCache | None = None) -> None:
        self.db = db
        self.referees = referees
        self.settings = settings or PlaySettings()
        self.host = host
        self.code = code or CodeCache(lambda sha: queue.archive(db, sha))
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="skyarena-play", daemon=True)
        self._thread.start()

    def run(self, coro: Coroutine[Any, Any, T]) -> T:
        future: Future[T] = asyncio.run_coroutine_threadsafe(coro, self._loop)
        return future.result()

    def close(self) -> None:
        self.run(self.referees.close())
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5)
        self.code.close()


def play_match(player: MatchPlayer, match_id: str) -> PlayResult:
    """Play the match until it is finished, void, waiting for a referee, or held elsewhere."""
    settings = player.settings
    turn = 0
    while True:
        phases = Phases()
        claimed = queue.claim(player.db, match_id, settings.owner, settings.lease_s, settings.max_attempts)
        phases.mark("claim")
        if isinstance(claimed, queue.Skipped):
            status = "void" if claimed.reason.startswith("voided") else "skipped"
            return PlayResult(match_id, status, claimed.reason)
        try:
            folders = [None if seat.online else player.code.folder(seat.archive_sha256) for seat in claimed.seats]
            _check_entries(claimed, folders)
            phases.mark("unpack")
        except (ArchiveMissing, ArchiveRejected, MatchRefused) as exc:
            queue.void(player.db, match_id, str(exc), settings.owner, claimed.attempt)
            return PlayResult(match_id, "void", str(exc))
        try:
            outcome = _play_attempt(player, claimed, folders, turn, phases)
        except RefereeLost as exc:
            new_status = queue.release(player.db, match_id, settings.owner, claimed.attempt, str(exc),
                                       settings.max_attempts, started=exc.started)
            log.warning("match %s attempt %d: %s -> %s", match_id, claimed.attempt, exc, new_status)
            if new_status is None:
                return PlayResult(match_id, "lost", "the lease was taken back while the referee failed")
            if new_status == "void":
                return PlayResult(match_id, "void", str(exc))
            if not exc.started:
                return PlayResult(match_id, "waiting", str(exc), retry_after_s=WAITING_RETRY_S)
            turn += 1
            continue
        except MatchRefused as exc:
            queue.void(player.db, match_id, str(exc), settings.owner, claimed.attempt)
            return PlayResult(match_id, "void", str(exc))
        except NoShow as exc:
            void_no_show(player.db, claimed, exc, settings.owner)
            return PlayResult(match_id, "void", exc.reason)
        except LeaseLost as exc:
            return PlayResult(match_id, "lost", str(exc))
        except Exception as exc:  # a fault of this worker: the attempt is spent, the match goes back (or void)
            queue.release(player.db, match_id, settings.owner, claimed.attempt,
                          f"the worker failed: {type(exc).__name__}: {exc}", settings.max_attempts)
            raise
        try:
            applied = apply_outcome(player.db, outcome)
        except Conflict as exc:  # voided meanwhile (the season closed): the result is dropped
            return PlayResult(match_id, "void", str(exc))
        phases.mark("apply")
        return PlayResult(match_id, "finished", "applied" if applied.applied else "applied before",
                          phases=phases.seconds)


def _play_attempt(player: MatchPlayer, claimed: queue.ClaimedMatch, folders: Sequence[Path | None], turn: int,
                  phases: Phases) -> MatchOutcome:
    """One attempt; its invitations close with it (done, or void when it ended without a result)."""
    try:
        outcome = player.run(_attempt_on_some_referee(player, claimed, folders, turn, phases))
    except NoShow:
        raise  # void_no_show closes them with the no-show's reason
    except Exception as exc:
        _close_invitations(player.db, claimed, "void", f"the attempt ended without a result: {exc}")
        raise
    _close_invitations(player.db, claimed, "done")
    return outcome


def void_no_show(db: Database, claimed: queue.ClaimedMatch, exc: NoShow, owner: str) -> None:
    """An online version did not take its seat: the match is void (no rating, no strike), its
    invitations close, and the no-show counts against the version (paused at the limit)."""
    if not queue.void(db, claimed.match_id, exc.reason, owner, claimed.attempt):
        return
    with db.connection() as conn:
        online_store.close_invitations(conn, claimed.match_id, claimed.attempt, "void", exc.reason)
        if online_store.record_no_show(conn, exc.seat.version_id):
            log.warning("version %d paused after repeated no-shows", exc.seat.version_id)


def _close_invitations(db: Database, claimed: queue.ClaimedMatch, state: str, reason: str = "") -> None:
    if any(seat.online for seat in claimed.seats):
        with db.connection() as conn:
            online_store.close_invitations(conn, claimed.match_id, claimed.attempt, state, reason)


def _check_entries(claimed: queue.ClaimedMatch, folders: Sequence[Path | None]) -> None:
    """Every hosted seat's entry point exists in its unpacked code (before a referee waits for the bots)."""
    for seat, folder in zip(claimed.seats, folders):
        if folder is None:
            continue
        if not seat.entry:
            raise MatchRefused(f"version {seat.version_id} ({seat.name}) has no entry point in its manifest; "
                               "resubmit it with skyarena.toml naming one")
        path = seat.entry.partition(":")[0]
        if not (folder / path).is_file():
            raise MatchRefused(f"version {seat.version_id} ({seat.name}) names the entry point {path!r}, which its "
                               "archive does not contain; resubmit it")


async def _attempt_on_some_referee(player: MatchPlayer, claimed: queue.ClaimedMatch, folders: Sequence[Path | None],
                                   turn: int, phases: Phases) -> MatchOutcome:
    """Start the attempt on the first referee that takes it, then play it there."""
    problems = []
    for address in player.referees.order(hash(claimed.match_id) + turn):
        try:
            return await _attempt(player, claimed, folders, address, phases)
        except RefereeLost as exc:
            if not isinstance(exc, PlatformStalled):
                player.referees.mark_down(address)
            if exc.started:
                raise
            problems.append(str(exc))
    raise RefereeLost("no referee would start the match: " + "; ".join(problems), started=False)


async def _attempt(player: MatchPlayer, claimed: queue.ClaimedMatch, folders: Sequence[Path | None],
                   address: str, phases: Phases) -> MatchOutcome:
    settings = player.settings
    channel = player.referees.channel(address)
    client = RefereeClient(channel, player.referees.token)
    # CPU clocks need this worker to measure its bots (Linux /proc); else the seats keep wall clocks.
    cpu_clock = claimed.cpu_clock and cputime.supported()
    request = start_request(
        claimed.game, claimed.players, claimed.options,
        TimeControl(move_s=claimed.move_s, bank_s=claimed.bank_s, first_move_s=claimed.first_move_s,
                    wall_backstop=claimed.wall_backstop),
        claimed.strike_limit, [seat.name for seat in claimed.seats], seed=claimed.seed,
        match_id=claimed.referee_match_id,
        join_timeout_s=settings.referee_join_timeout_s(any(seat.online for seat in claimed.seats)),
        cpu_clock=[cpu_clock and not seat.online for seat in claimed.seats])  # online seats keep wall clocks
    try:
        started = await client.start(request)
    except RefereeCallError as exc:
        if exc.code in RETRY_ELSEWHERE:
            raise RefereeLost(f"referee {address} did not start the match: {exc.code.name}: {exc.details}",
                              started=False) from None
        raise MatchRefused(f"referee {address} refused the match: {exc.code.name}: {exc.details}") from None
    if not await asyncio.to_thread(queue.record_referee, player.db, claimed.match_id, settings.owner, claimed.attempt,
                                   address, started.match_id):
        await client.cancel(started.match_id, "the attempt lost its lease before it started")
        raise LeaseLost("the lease was taken back before the match started")
    phases.mark("start_match")
    limits = SandboxLimits(wall_s=settings.match_timeout_s)  # the sandbox's backstop is the worker's
    measured = {"service_token": player.referees.token} if cpu_clock else {}

    def play_seat(folder: Path | None, seat: queue.HostedSeat, token: str) -> Awaitable[HostedSeatOutcome]:
        if folder is None:  # an online seat: the seat token goes to the bot through its invitation
            invitation = online_store.NewInvitation(claimed.match_id, claimed.attempt, seat.seat, seat.version_id,
                                                    token, settings.public_referees.get(address, address),
                                                    started.match_id)
            return play_online_seat(player.db, client, seat, invitation, settings.online_deadlines)
        return player.host(folder, seat.entry, address, token, limits, channel=channel, **measured)

    seats = asyncio.gather(*(play_seat(folder, seat, token.token)
                             for folder, seat, token in zip(folders, claimed.seats, started.seats)))
    heart = asyncio.ensure_future(_keep_lease(player, claimed))
    ended = False
    try:
        either: set[asyncio.Future[Any]] = {seats, heart}
        done, _ = await asyncio.wait(either, timeout=settings.match_timeout_s, return_when=asyncio.FIRST_COMPLETED)
        if heart in done:
            raise LeaseLost("the lease was taken back while the match ran")
        if seats not in done:
            raise RefereeLost(f"the match ran past {settings.match_timeout_s:.0f} s on {address}", started=True)
        runs = seats.result()
        phases.mark("play")
        status = await _final_status(client, started.match_id, address)
        ended = True
        phases.mark("get_match")
    finally:
        heart.cancel()
        seats.cancel()
        if not ended:  # whatever went wrong, the referee must not keep the abandoned match waiting
            await client.cancel(started.match_id, "the worker gave this attempt up")
    outcome = outcome_from_status(claimed, status, runs, address)
    phases.mark("outcome")
    return outcome


async def _keep_lease(player: MatchPlayer, claimed: queue.ClaimedMatch) -> None:
    """Renew the lease until cancelled; returns when the lease is lost."""
    settings = player.settings
    while True:
        await asyncio.sleep(settings.heartbeat_s)
        try:
            held = await asyncio.to_thread(queue.heartbeat, player.db, claimed.match_id, settings.owner,
                                           claimed.attempt, settings.lease_s)
        except Exception as exc:  # the database blinked: keep playing, the next beat may get through
            log.warning("match %s: heartbeat failed: %s", claimed.match_id, exc)
            continue
        if not held:
            return


async def _final_status(client: RefereeClient, match_id: str, address: str) -> pb.MatchStatus:
    """The finished match with its whole replay; waits for the end if the bots left before it."""
    try:
        status = await client.final_status(match_id, include_replay=True)
    except RefereeCallError as exc:
        raise RefereeLost(f"referee {address} was lost mid-match: {exc}", started=True) from None
    if status.state != pb.MATCH_STATE_FINISHED and status.end.reason.startswith(PLATFORM_FAULT):
        raise PlatformStalled(status.end.reason, started=True)
    if status.state != pb.MATCH_STATE_FINISHED:
        raise RefereeLost(f"referee {address} ended the match without a result: {status.end.reason or 'aborted'}",
                          started=True)
    return status


def _seat_clocks(records: Sequence[dict[str, Any]]) -> list[str]:
    """Each seat's clock ("cpu" or "wall") as the referee's match record names it."""
    last = records[-1] if records else {}
    return list(last.get("clocks", [])) if last.get("type") == "match" else []


def answer_medians(records: Sequence[dict[str, Any]], players: int) -> list[float | None]:
    """Each seat's median answer time from the match record's charges: the wall time the referee
    measured from sending a turn request to receiving the answer (``wall_s`` on a CPU clock, where
    ``charged_s`` is CPU time), network latency included; None for a seat that never answered."""
    last = records[-1] if records else {}
    times: list[list[float]] = [[] for _ in range(players)]
    for charge in last.get("charges", []) if last.get("type") == "match" else []:
        seat = charge.get("seat")
        if isinstance(seat, int) and 0 <= seat < players:
            times[seat].append(float(charge.get("wall_s", charge.get("charged_s", 0.0))))
    return [statistics.median(t) if t else None for t in times]


def outcome_from_status(claimed: queue.ClaimedMatch, status: pb.MatchStatus, runs: Sequence[HostedSeatOutcome],
                        referee: str) -> MatchOutcome:
    """The store's MatchOutcome from the referee's record of the match and the bots' logs."""
    end = status.end
    records = replay_io.loads(status.replay_jsonl, f"the replay of {status.match_id}")
    document = stored_replay.replay_document(records)
    medians = answer_medians(records, claimed.players)
    seats = []
    for seat, run in zip(claimed.seats, runs):
        i = seat.seat
        faults = tuple({k: v for k, v in fault_json(f).items() if k != "seat"} for f in end.faults if f.seat == i)
        seats.append(SeatOutcome(seat=i, version_id=seat.version_id, rank=end.result.ranks[i],
                                 score=end.result.scores[i], faults=faults, strikes=status.seats[i].strikes,
                                 forfeited=i in end.forfeited, unrated=i in end.unrated, log=run.log,
                                 log_truncated=run.log_truncated, bot_seed=status.seats[i].bot_seed,
                                 answer_median_s=medians[i]))
    return MatchOutcome(
        match_id=claimed.match_id, seats=tuple(seats), end_reason=end.result.reason, replay=document,
        state_hash=stored_replay.end(document).get("hash", ""), referee=referee,
        confinement="; ".join(sorted({run.confinement for run in runs})),
        details={"attempt": claimed.attempt, "referee_match_id": status.match_id, "decisions": end.decisions,
                 "result": json.loads(end.result.details_json or "{}"),
                 "clocks": _seat_clocks(records),
                 "bots": [run.to_json() for run in runs]})
