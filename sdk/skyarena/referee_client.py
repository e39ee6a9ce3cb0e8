"""A client of the referee's service API: start a match, follow it to its end, read its
status with the whole replay, cancel it.

The command line (``skyarena start``, ``watch``, ``fetch-replay``, ``match``), the worker
(``workers/play.py``) and the benchmarks (``bench/referee.py``) all talk to a referee through
this one class, so each rule of the API is kept in one place. The one that matters most:
``GetMatch`` sends a long replay in pages (at most the referee's ``--replay-page-bytes`` per
answer, ``replay_next_offset`` saying where the next one starts), and :meth:`status` follows
every page, so no caller can save a replay cut short.

It imports grpc at once: it is only ever loaded by a command or service that calls a
referee, never on a hosted bot's start path (``python -m skyarena.remote``), which stays
grpc-free.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Sequence
from typing import Any

import grpc
from grpc import aio

from referee.match import TimeControl

from .v1 import referee_pb2 as pb
from .v1 import referee_pb2_grpc as pb_grpc

log = logging.getLogger(__name__)

RPC_TIMEOUT_S = 15.0            # StartMatch, GetMatch and CancelMatch answer in milliseconds when the referee is well
MAX_RECEIVE_BYTES = 64 << 20    # a replay page is 1 MiB by default; a referee may be configured for more
ENDED = (pb.MATCH_STATE_FINISHED, pb.MATCH_STATE_ABORTED)


class RefereeCallError(Exception):
    """A call to the referee failed; ``code`` is gRPC's status code, so a caller can tell a
    referee that is gone (retry elsewhere) from one that refused the request."""

    def __init__(self, call: str, code: grpc.StatusCode, details: str) -> None:
        super().__init__(f"{call} failed: {code.name}: {details}")
        self.call = call
        self.code = code
        self.details = details

    @classmethod
    def of(cls, call: str, exc: aio.AioRpcError) -> RefereeCallError:
        return cls(call, exc.code(), exc.details() or "")


def start_request(game: str, players: int, options: dict[str, Any], clock: TimeControl, strikes: int | None,
                  names: Sequence[str], seed: int | None = None, match_id: str = "",
                  join_timeout_s: float | None = None, cpu_clock: bool | Sequence[bool] = False
                  ) -> pb.StartMatchRequest:
    """A StartMatch request; what is left out (seed, strikes, match id, join timeout) the
    referee chooses. ``cpu_clock``: every seat (or, a sequence, each seat marked True) is a
    hosted bot whose relay reports CPU time."""
    clocks = [cpu_clock] * len(names) if isinstance(cpu_clock, bool) else list(cpu_clock)
    request = pb.StartMatchRequest(
        game=game, players=players, options_json=json.dumps(options), match_id=match_id,
        time_control=pb.TimeControl(move_s=clock.move_s, bank_s=clock.bank_s, first_move_s=clock.first_move_s,
                                    wall_backstop=clock.wall_backstop),
        seats=[pb.SeatSpec(name=name, cpu_clock=cpu) for name, cpu in zip(names, clocks)])
    if strikes is not None:
        request.strike_limit = strikes
    if seed is not None:
        request.seed = seed
    if join_timeout_s is not None:
        request.join_timeout_s = join_timeout_s
    return request


def fault_json(fault: Any) -> dict[str, Any]:
    """A fault of a MatchEnd as JSON: what ``skyarena match --json`` prints and the store keeps."""
    return {"seat": fault.seat, "turn": fault.turn, "kind": fault.kind, "reason": fault.reason,
            "strike": fault.strike, "forfeit": fault.forfeit}


def state_name(status: pb.MatchStatus) -> str:
    """``finished``, ``aborted`` or ``running`` (a match not yet started counts as running)."""
    return {pb.MATCH_STATE_FINISHED: "finished", pb.MATCH_STATE_ABORTED: "aborted"}.get(status.state, "running")


class RefereeClient:
    """The service calls of one referee, over a ``grpc.aio`` channel.

    Give it a channel the caller owns (the worker keeps one per referee), or use
    :meth:`connect` for one that lives as long as an ``async with`` block."""

    def __init__(self, channel: aio.Channel, service_token: str, timeout_s: float | None = RPC_TIMEOUT_S) -> None:
        self.channel = channel
        self.stub: Any = pb_grpc.RefereeStub(channel)  # the generated stubs are typed for the blocking API
        self.metadata = (("authorization", f"Bearer {service_token}"),)
        self.timeout_s = timeout_s
        self._owns_channel = False

    @classmethod
    def connect(cls, address: str, service_token: str, timeout_s: float | None = RPC_TIMEOUT_S) -> RefereeClient:
        client = cls(aio.insecure_channel(address, options=[("grpc.max_receive_message_length", MAX_RECEIVE_BYTES)]),
                     service_token, timeout_s)
        client._owns_channel = True
        return client

    async def __aenter__(self) -> RefereeClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._owns_channel:
            await self.channel.close()

    async def ready(self, timeout_s: float) -> bool:
        """Whether the referee answers within ``timeout_s`` (False: nothing listens there)."""
        try:
            await asyncio.wait_for(self.channel.channel_ready(), timeout_s)
        except TimeoutError:
            return False
        return True

    async def start(self, request: pb.StartMatchRequest) -> pb.StartMatchResponse:
        try:
            started: pb.StartMatchResponse = await self.stub.StartMatch(request, metadata=self.metadata,
                                                                         timeout=self.timeout_s)
        except aio.AioRpcError as exc:
            raise RefereeCallError.of("StartMatch", exc) from None
        return started

    async def status(self, match_id: str, include_replay: bool = False) -> pb.MatchStatus:
        """The match's status; with ``include_replay``, its whole replay in ``replay_jsonl``
        (every page fetched and joined, ``replay_next_offset`` then 0)."""
        return await self._whole(await self._get(pb.GetMatchRequest(match_id=match_id, include_replay=include_replay)))

    async def _whole(self, status: pb.MatchStatus) -> pb.MatchStatus:
        pages = [status.replay_jsonl]
        offset = status.replay_next_offset
        while offset:
            page = await self._get(pb.GetMatchRequest(match_id=status.match_id, include_replay=True,
                                                      replay_offset=offset))
            pages.append(page.replay_jsonl)
            offset = page.replay_next_offset
        status.replay_jsonl = "".join(pages)
        status.replay_next_offset = 0
        return status

    async def _get(self, request: pb.GetMatchRequest) -> pb.MatchStatus:
        try:
            status: pb.MatchStatus = await self.stub.GetMatch(request, metadata=self.metadata, timeout=self.timeout_s)
        except aio.AioRpcError as exc:
            call = f"GetMatch {request.match_id}" + (f" (replay from byte {request.replay_offset})"
                                                      if request.replay_offset else "")
            raise RefereeCallError.of(call, exc) from None
        return status

    async def events(self, match_id: str, from_start: bool = False) -> AsyncIterator[pb.WatchEvent]:
        """The match's public events as a spectator sees them, until its end."""
        try:
            async for event in self.stub.Watch(pb.WatchRequest(match_id=match_id, from_start=from_start)):
                yield event
        except aio.AioRpcError as exc:
            raise RefereeCallError.of(f"Watch {match_id}", exc) from None

    async def wait_end(self, match_id: str) -> None:
        """Return once the match has ended (finished or aborted)."""
        async for event in self.events(match_id):
            if event.WhichOneof("kind") == "end":
                return

    async def final_status(self, match_id: str, include_replay: bool = True) -> pb.MatchStatus:
        """The status once the match has ended: waits for the end if it has not yet (the
        replay's later pages are fetched only once it has)."""
        status = await self._get(pb.GetMatchRequest(match_id=match_id, include_replay=include_replay))
        if status.state in ENDED:
            return await self._whole(status)
        await self.wait_end(match_id)
        return await self.status(match_id, include_replay)

    async def cancel(self, match_id: str, reason: str) -> None:
        """Ask the referee to end the match; a failure is logged, not raised (the caller is
        already giving up on the match, and a referee that is gone has ended it anyway)."""
        try:
            await self.stub.CancelMatch(pb.CancelMatchRequest(match_id=match_id, reason=reason),
                                        metadata=self.metadata, timeout=self.timeout_s)
        except aio.AioRpcError as exc:
            log.info("cancelling %s failed: %s", match_id, exc.code().name)
