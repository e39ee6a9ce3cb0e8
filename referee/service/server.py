"""The referee's gRPC server (``grpc.aio``): the Referee service, health and reflection.

One process serves many matches at once on one event loop; a match never blocks another
because engine steps are short and every wait (a bot thinking, a deadline) is a timer or
a stream read, never a sleep. See matches.py for the driver of the match runner.

    server = RefereeServer(service_token="...", limits=Limits())
    port = await server.start("127.0.0.1:0")
    ...
    await server.stop()          # graceful: running matches finish or abort cleanly
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import AsyncIterator
from typing import Any

import grpc
from grpc import aio
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from skyarena.v1 import referee_pb2 as pb
from skyarena.v1 import referee_pb2_grpc as pb_grpc

from .limits import Limits
from .logs import log
from .matches import DirectWrites, MatchRegistry, Outbox, RequestError
from .metrics import Metrics
from .tokens import ServiceToken, bearer

SERVICE_NAME = pb.DESCRIPTOR.services_by_name["Referee"].full_name
# A stream that opens and never joins would hold resources: it must send Join within this.
JOIN_READ_TIMEOUT_S = 30.0
# Messages that may pile up for one seat stream before the referee cuts it off.
SEAT_OUTBOX_LIMIT = 10_000
# How long a stream that ends waits for its reader to finish writing what the reader's last
# answer caused to other seats (direct writes fit in flow-control windows: this is a bound,
# not an expected wait).
READER_FLUSH_GRACE_S = 5.0


class RefereeService(pb_grpc.RefereeServicer):
    def __init__(self, registry: MatchRegistry, service_token: ServiceToken) -> None:
        self.registry = registry
        self.service_token = service_token
        self.direct = DirectWrites()

    async def _authorise(self, context: aio.ServicerContext) -> None:
        if not self.service_token.check(bearer(context.invocation_metadata())):
            await context.abort(grpc.StatusCode.UNAUTHENTICATED,
                                "this call needs the service token: send metadata 'authorization: Bearer <token>' "
                                "with the referee's SKYARENA_SERVICE_TOKEN.")

    async def StartMatch(self, request: pb.StartMatchRequest, context: aio.ServicerContext) -> pb.StartMatchResponse:
        await self._authorise(context)
        try:
            match, tokens = self.registry.start(request)
        except RequestError as exc:
            await context.abort(exc.code, exc.message)
        response = pb.StartMatchResponse(match_id=match.id, seed=match.seed)
        for seat, token in enumerate(tokens):
            response.seats.add(seat=seat, token=token)
        return response

    async def GetMatch(self, request: pb.GetMatchRequest, context: aio.ServicerContext) -> pb.MatchStatus:
        await self._authorise(context)
        try:
            return self.registry.get(request.match_id).status(request.include_replay)
        except RequestError as exc:
            await context.abort(exc.code, exc.message)
        raise AssertionError("unreachable")

    async def CancelMatch(self, request: pb.CancelMatchRequest, context: aio.ServicerContext) -> pb.MatchStatus:
        await self._authorise(context)
        try:
            match = self.registry.get(request.match_id)
        except RequestError as exc:
            await context.abort(exc.code, exc.message)
        match.abort(f"cancelled by the operator: {request.reason or 'no reason given'}")
        return match.status(include_replay=False)

    async def Play(self, request_iterator: AsyncIterator[pb.BotMessage],  # type: ignore[override]
                   context: aio.ServicerContext) -> None:
        """Reads and writes through ``context`` (not the iterators): answers arrive while
        messages are being written, so reading and writing run as two tasks; on the hot path
        the reader of an answer writes the resulting messages itself (DirectWrites)."""
        try:
            first = await asyncio.wait_for(context.read(), JOIN_READ_TIMEOUT_S)
        except TimeoutError:
            await context.abort(grpc.StatusCode.DEADLINE_EXCEEDED,
                                f"no Join message within {JOIN_READ_TIMEOUT_S:g} s of opening the stream.")
        if first is aio.EOF:
            return
        assert isinstance(first, pb.BotMessage)
        if first.WhichOneof("kind") != "join":
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT,
                                "the first message of a Play stream must be Join with your seat token.")
        try:
            match, seat = self.registry.by_token(first.join.token)
            outbox = Outbox(SEAT_OUTBOX_LIMIT, context, self.direct)
            match.attach(seat, outbox, first.join.client[:200])
        except RequestError as exc:
            await context.abort(exc.code, exc.message)
        flushed = asyncio.Event()  # clear while the reader writes to other seats' streams
        flushed.set()
        reader = asyncio.ensure_future(self._read_answers(context, match, seat, outbox, flushed))
        try:
            await outbox.run_writer()
        finally:
            # This seat's end may have come from its own last answer, whose reader is still
            # writing every other seat's end: cancelling it then would lose those messages.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(flushed.wait(), READER_FLUSH_GRACE_S)
            reader.cancel()
            match.detach(seat, outbox)
        if outbox.status is not None:
            await context.abort(*outbox.status)

    async def _read_answers(self, context: aio.ServicerContext, match: Any, seat: int, outbox: Outbox,
                            flushed: asyncio.Event) -> None:
        try:
            while True:
                message = await context.read()
                if message is aio.EOF:
                    break
                outbox.unread_bytes = 0  # the bot is reading and answering
                kind = message.WhichOneof("kind")
                if kind == "answer":
                    self.direct.collect()
                    flushed.clear()
                    try:
                        match.on_answer(seat, outbox, message.answer)
                    finally:
                        try:
                            await self.direct.flush()
                        finally:
                            flushed.set()
                else:
                    outbox.fail(grpc.StatusCode.INVALID_ARGUMENT,
                                "after Join, send only Answer messages; this stream already joined "
                                f"seat {seat} of match {match.id}.")
                    return
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a broken stream: the seat is disconnected, its clock runs on
            log.debug("seat_stream_error", match_id=match.id, seat=seat, error=str(exc))
        # The bot closed its side (or the stream broke): treat it as a disconnection.
        outbox.close()

    async def Watch(self, request: pb.WatchRequest, context: aio.ServicerContext) -> AsyncIterator[pb.WatchEvent]:
        try:
            match = self.registry.get(request.match_id)
            outbox, upto, faults = match.add_watcher()
        except RequestError as exc:
            await context.abort(exc.code, exc.message)
        try:
            yield pb.WatchEvent(header=match.header())
            if request.from_start:
                for event in match.public_history(upto, faults):
                    yield event
            elif not match.phase.over:
                yield match.current_step()
            async for event in outbox.drain():
                yield event
        finally:
            match.remove_watcher(outbox)
        if outbox.status is not None:
            await context.abort(*outbox.status)


class RefereeServer:
    """A referee process's server: the Referee service plus health and reflection."""

    def __init__(self, service_token: str, limits: Limits | None = None, metrics: Metrics | None = None) -> None:
        self.limits = limits or Limits()
        self.metrics = metrics or Metrics()
        self.registry = MatchRegistry(self.limits, self.metrics)
        self.health = health.aio.HealthServicer()
        self.service = RefereeService(self.registry, ServiceToken(service_token))
        self.server: aio.Server | None = None
        self.port = 0

    async def start(self, listen: str) -> int:
        """Bind and serve; returns the bound port (``listen`` may end in ``:0``)."""
        limits = self.limits
        server = aio.server(options=[
            ("grpc.max_receive_message_length", limits.max_receive_bytes),
            ("grpc.max_send_message_length", limits.max_send_bytes),
            # Find dead peers (a bot's machine gone without closing) within a minute.
            ("grpc.keepalive_time_ms", 30_000),
            ("grpc.keepalive_timeout_ms", 10_000),
            ("grpc.http2.min_ping_interval_without_data_ms", 5_000),
            ("grpc.keepalive_permit_without_calls", 1),
            ("grpc.so_reuseport", 0),
        ])
        pb_grpc.add_RefereeServicer_to_server(self.service, server)
        health_pb2_grpc.add_HealthServicer_to_server(self.health, server)
        reflection.enable_server_reflection(
            (SERVICE_NAME, health_pb2.DESCRIPTOR.services_by_name["Health"].full_name, reflection.SERVICE_NAME),
            server,
        )
        self.port = server.add_insecure_port(listen)
        if self.port == 0:
            raise OSError(f"cannot listen on {listen}")
        await server.start()
        await self.health.set(SERVICE_NAME, health_pb2.HealthCheckResponse.SERVING)
        await self.health.set("", health_pb2.HealthCheckResponse.SERVING)
        self.server = server
        log.info("referee_listening", listen=listen, port=self.port, limits=limits.to_json())
        return self.port

    async def stop(self, grace_s: float | None = None) -> None:
        """Graceful shutdown: NOT_SERVING, no new matches, running ones finish within the
        grace period or end ABORTED (their seats and spectators are told), then close."""
        grace = self.limits.shutdown_grace_s if grace_s is None else grace_s
        await self.health.enter_graceful_shutdown()
        await self.registry.shutdown(grace)
        if self.server is not None:
            await self.server.stop(2.0)
        log.info("referee_stopped")

    async def wait(self) -> None:
        if self.server is not None:
            await self.server.wait_for_termination()


async def serve(listen: str, service_token: str, limits: Limits, metrics_listen: str | None = None,
                ready: asyncio.Event | None = None) -> None:
    """Run a referee until SIGINT/SIGTERM, then shut down gracefully."""
    server = RefereeServer(service_token, limits)
    await server.start(listen)
    if metrics_listen:
        host, _, port = metrics_listen.rpartition(":")
        bound = server.metrics.serve(host or "127.0.0.1", int(port))
        log.info("metrics_listening", listen=f"{host or '127.0.0.1'}:{bound}")
        print(f"metrics on http://{host or '127.0.0.1'}:{bound}/metrics", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    if ready is not None:
        ready.set()
    print(f"referee listening on {listen.rpartition(':')[0]}:{server.port}", flush=True)
    waiter = asyncio.ensure_future(server.wait())
    stopper = asyncio.ensure_future(stop.wait())
    await asyncio.wait([waiter, stopper], return_when=asyncio.FIRST_COMPLETED)
    log.info("shutdown_requested", matches_running=len(server.registry.running()))
    graceful = asyncio.ensure_future(server.stop())
    # A second signal cuts the grace period short: running matches are aborted at once.
    again = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, again.set)
    hurry = asyncio.ensure_future(again.wait())
    await asyncio.wait([graceful, hurry], return_when=asyncio.FIRST_COMPLETED)
    if not graceful.done():
        log.warning("shutdown_forced", matches_running=len(server.registry.running()))
        for match in server.registry.running():
            match.abort("the referee was stopped before the match ended.")
        await graceful
    hurry.cancel()
    waiter.cancel()
    for sig in (signal.SIGINT, signal.SIGTERM):  # shut down: a late signal must not kill the exit
        loop.remove_signal_handler(sig)
        signal.signal(sig, signal.SIG_IGN)
