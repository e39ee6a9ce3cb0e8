"""What a match shows beyond its seats: spectators' public history, kept once, and who may
watch how often; operators' replay, in pages.

A spectator watching from the start used to make the referee re-play the whole match on
the event loop (a fresh engine state stepped through every move) for every such Watch: a
loop of anonymous watchers on a long match stalled every other match. Now each match keeps
one :class:`PublicLog`, created by its first from-start spectator: it is filled from a
fresh state in bounded chunks (the handler yields between them), then kept current from the
live state at every step, so later spectators only read it. Entries are serialized
``WatchEvent`` frames: a spectator costs writes, never recomputation.

Anonymous spectators are rate-limited per peer address (:class:`PeerRate`), and part of a
match's spectator slots is kept for holders of the service or spectator token, so the
dashboard always gets in.

A finished match's replay (all hidden information: only for the service token) goes out
in pages of whole JSON lines (:func:`replay_page`), so no status exceeds the send limit.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from typing import Any

import grpc

from referee.games import State, make
from referee.match import Fault
from skyarena.v1 import referee_pb2 as pb

from .errors import RequestError

# Moves re-played per chunk while a log catches up with its match (each chunk is a few
# milliseconds at most; the handler yields to the event loop between chunks).
CATCH_UP_CHUNK = 64


def fault_message(fault: Fault, with_reason: bool) -> pb.Fault:
    return pb.Fault(seat=fault.seat, turn=fault.turn, kind=fault.kind.value,
                    reason=fault.reason if with_reason else "", strike=fault.strike, forfeit=fault.forfeit)


def public_move(visible: Callable[[int, Any], str | None], seat: int, action: Any) -> pb.Move:
    text = visible(seat, action)
    return pb.Move(seat=seat, action=text or "", hidden=text is None)


def step_event(decisions: int, view: dict[str, Any], moves: list[dict[int, Any]],
               visible: Callable[[int, Any], str | None]) -> pb.WatchEvent:
    step = pb.PublicStep(decisions=decisions, public_view_json=json.dumps(view))
    for joint in moves:
        step.moves.extend(public_move(visible, seat, action) for seat, action in sorted(joint.items()))
    return pb.WatchEvent(step=step)


class PublicLog:
    """Serialized public events of one match from its start: a step per decision (while
    catching up) or per runner step (once live), public faults, and the end.

    ``catch_up`` re-plays the live match's moves on a fresh state, a chunk at a time, until
    the log reaches the live position; from then on the match appends (``live`` is True)
    and the fresh state is dropped."""

    def __init__(self, game: str, players: int, seed: int, options: dict[str, Any],
                 visible_for: Callable[[State], Callable[[int, Any], str | None]]) -> None:
        self._shadow: State | None = make(game, players, seed, options)
        self._visible = visible_for(self._shadow)
        self._moves: list[dict[int, Any]] = []
        self.events: list[bytes] = []
        self.decisions = 0       # decisions covered by the log
        self.faults = 0          # runner faults covered by the log
        self.live = False
        self.ended = False
        self._grew = asyncio.Event()
        self.append(step_event(0, self._shadow.public_view(), [], self._visible))

    def append(self, event: pb.WatchEvent) -> None:
        self.events.append(event.SerializeToString())
        if event.WhichOneof("kind") == "end":
            self.ended = True
        self._grew.set()
        self._grew = asyncio.Event()

    async def grown(self, length: int) -> None:
        """Wait until the log holds more than ``length`` events (or has ended)."""
        while len(self.events) <= length and not self.ended:
            await self._grew.wait()

    def catch_up(self, state: State, faults: list[Fault], end: Callable[[], pb.WatchEvent | None]) -> None:
        """Re-play at most CATCH_UP_CHUNK moves of ``state`` (the live match); once the log
        has reached it, append what is left (faults, the end if over) and go live."""
        shadow = self._shadow
        if self.live or shadow is None:
            return
        missing = state.decisions - self.decisions - len(self._moves)
        if missing > 0:
            self._moves += state.recent_moves(missing)
        chunk, self._moves = self._moves[:CATCH_UP_CHUNK], self._moves[CATCH_UP_CHUNK:]
        for joint in chunk:
            turn = self.decisions + 1
            self._faults_upto(faults, turn)
            shadow.apply_legal(joint)
            self.decisions = turn
            self.append(step_event(turn, shadow.public_view(), [joint], self._visible))
        if self._moves or self.decisions < state.decisions:
            return
        self._faults_upto(faults, self.decisions + 1)
        self.live = True
        self._shadow = None
        final = end()
        if final is not None:
            self.append(final)

    def _faults_upto(self, faults: list[Fault], turn: int) -> None:
        while self.faults < len(faults) and faults[self.faults].turn <= turn:
            self.append(pb.WatchEvent(fault=fault_message(faults[self.faults], with_reason=False)))
            self.faults += 1

    # ----- kept current by the match once live -----------------------------------------------
    def live_fault(self, fault: Fault) -> None:
        if self.live and not self.ended:
            self.append(pb.WatchEvent(fault=fault_message(fault, with_reason=False)))
            self.faults += 1

    def live_step(self, event: pb.WatchEvent, decisions: int) -> None:
        if self.live and not self.ended:
            self.append(event)
            self.decisions = decisions

    def live_end(self, event: pb.WatchEvent) -> None:
        if self.live and not self.ended:
            self.append(event)


class PeerRate:
    """A token bucket per peer host for anonymous calls: ``rate`` per second, bursts of
    ``burst``. Buckets of peers quiet for a minute are forgotten, so the table stays small."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self._clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}

    def allow(self, peer: str) -> bool:
        now = self._clock()
        tokens, last = self._buckets.get(peer, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - last) * self.rate)
        allowed = tokens >= 1.0
        self._buckets[peer] = (tokens - 1.0 if allowed else tokens, now)
        if len(self._buckets) > 10_000:
            self._buckets = {p: b for p, b in self._buckets.items() if now - b[1] < 60.0}
        return allowed


def peer_host(peer: str) -> str:
    """The host part of a gRPC peer string (``ipv4:127.0.0.1:5555``, ``ipv6:[::1]:5555``):
    a client's connections share one bucket whatever their ports."""
    kind, _, rest = peer.partition(":")
    if kind == "ipv6" and rest.startswith("["):
        return rest[1:].partition("]")[0]
    if kind == "ipv4":
        return rest.rpartition(":")[0]
    return peer


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
