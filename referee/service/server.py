"""The referee's gRPC server (``grpc.aio``): the Referee service, health and reflection.

One process serves many matches at once on one event loop; a match never blocks another
because engine steps are short and every wait (a bot thinking, a deadline) is a timer or
a stream read, never a sleep. See driver.py for the driver of the match runner.

    server = RefereeServer(service_token="...", limits=Limits())
    port = await server.start("127.0.0.1:0")
    ...
    await server.stop()          # graceful: running matches finish or abort cleanly
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import gc
import signal
import socket
from collections.abc import AsyncIterator
from typing import Any, TypeVar

import grpc
from google.protobuf.message import DecodeError, Message
from grpc import aio
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from serving.tokens import bearer
from skyarena.v1 import referee_pb2 as pb

from .driver import Match
from .errors import RequestError
from .limits import Limits, parse_listen
from .logs import log
from .metrics import Metrics
from .outbox import DirectWrites, Outbox
from .registry import MatchRegistry
from .seeds import SeatSeeds
from .spectators import PeerRate, peer_host
from .tokens import ServiceToken

M = TypeVar("M", bound=Message)

SERVICE_NAME = pb.DESCRIPTOR.services_by_name["Referee"].full_name
# A stream that opens and never joins would hold resources: it must send Join within this.
JOIN_READ_TIMEOUT_S = 30.0
# Messages that may pile up for one seat stream before the referee cuts it off.
SEAT_OUTBOX_LIMIT = 10_000
# How long a stream that ends waits for its reader to finish writing what the reader's last
# answer caused to other seats (direct writes fit in flow-control windows: this is a bound,
# not an expected wait).
READER_FLUSH_GRACE_S = 5.0
# Public-log events a from-start spectator is sent between two yields to the event loop.
WATCH_CHUNK = 64
# The collector's first-generation threshold in a serving referee (Python's default is 700).
GC_THRESHOLD = 20_000


def _parse(cls: type[M], data: bytes, what: str) -> M:
    """A request frame as ``cls``; a frame that does not decode is the caller's error
    (INVALID_ARGUMENT through RequestError), never an UNKNOWN status."""
    try:
        return cls.FromString(data)
    except DecodeError as exc:
        raise RequestError(grpc.StatusCode.INVALID_ARGUMENT,
                           f"{what} is not a valid skyarena.v1.{cls.__name__} message ({exc}); build it from "
                           "proto/skyarena/v1/referee.proto.") from None


class RefereeService:
    """The Referee service's handlers. Requests arrive as raw bytes and are parsed here, so
    a malformed frame gets INVALID_ARGUMENT with a message (see :meth:`handlers`)."""

    def __init__(self, registry: MatchRegistry, service_token: ServiceToken,
                 spectator_token: ServiceToken | None = None, limits: Limits | None = None) -> None:
        self.registry = registry
        self.service_token = service_token
        self.spectator_token = spectator_token
        limits = limits or registry.limits
        self.direct = DirectWrites(limits.direct_writes)
        self.watch_rate = PeerRate(limits.watch_rate, limits.watch_burst)

    def handlers(self) -> grpc.GenericRpcHandler:
        def out(message: Any) -> bytes:  # Watch yields kept frames (bytes) and messages alike
            return message if isinstance(message, bytes) else message.SerializeToString()

        methods: dict[str, grpc.RpcMethodHandler] = {
            "StartMatch": grpc.unary_unary_rpc_method_handler(self.StartMatch, response_serializer=out),
            "Play": grpc.stream_stream_rpc_method_handler(self.Play, response_serializer=out),
            "Watch": grpc.unary_stream_rpc_method_handler(self.Watch, response_serializer=out),
            "GetMatch": grpc.unary_unary_rpc_method_handler(self.GetMatch, response_serializer=out),
            "CancelMatch": grpc.unary_unary_rpc_method_handler(self.CancelMatch, response_serializer=out),
        }
        return grpc.method_handlers_generic_handler(SERVICE_NAME, methods)

    def _privileged(self, context: aio.ServicerContext, spectator: bool = False) -> bool:
        presented = bearer(context.invocation_metadata())
        if self.service_token.check(presented):
            return True
        return spectator and self.spectator_token is not None and self.spectator_token.check(presented)

    async def _authorise(self, context: aio.ServicerContext) -> None:
        if not self._privileged(context):
            await context.abort(grpc.StatusCode.UNAUTHENTICATED,
                                "this call needs the service token: send metadata 'authorization: Bearer <token>' "
                                "with the referee's SKYARENA_SERVICE_TOKEN.")

    async def StartMatch(self, data: bytes, context: aio.ServicerContext) -> pb.StartMatchResponse:
        await self._authorise(context)
        try:
            match, tokens = self.registry.start(_parse(pb.StartMatchRequest, data, "the request"))
        except RequestError as exc:
            await context.abort(exc.code, exc.message)
        response = pb.StartMatchResponse(match_id=match.id, seed=match.seed)
        for seat, token in enumerate(tokens):
            response.seats.add(seat=seat, token=token)
        return response

    async def GetMatch(self, data: bytes, context: aio.ServicerContext) -> pb.MatchStatus:
        await self._authorise(context)
        try:
            request = _parse(pb.GetMatchRequest, data, "the request")
            return self.registry.get(request.match_id).status(request.include_replay, request.replay_offset)
        except RequestError as exc:
            await context.abort(exc.code, exc.message)
        raise AssertionError("unreachable")

    async def CancelMatch(self, data: bytes, context: aio.ServicerContext) -> pb.MatchStatus:
        await self._authorise(context)
        try:
            request = _parse(pb.CancelMatchRequest, data, "the request")
            match = self.registry.get(request.match_id)
        except RequestError as exc:
            await context.abort(exc.code, exc.message)
        match.abort(f"cancelled by the operator: {request.reason[:200] or 'no reason given'}")
        return match.status(include_replay=False)

    async def Play(self, frames: AsyncIterator[bytes], context: aio.ServicerContext) -> None:
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
        try:
            join = _parse(pb.BotMessage, first, "the first frame of the Play stream")
            if join.WhichOneof("kind") != "join":
                raise RequestError(grpc.StatusCode.INVALID_ARGUMENT,
                                   "the first message of a Play stream must be Join with your seat token.")
            match, seat = self.registry.by_token(join.join.token)
            outbox = Outbox(SEAT_OUTBOX_LIMIT, context, self.direct)
            match.attach(seat, outbox, join.join.client[:200],
                         trusted=self.service_token.check(bearer(context.invocation_metadata())))
        except RequestError as exc:
            await context.abort(exc.code, exc.message)
        flushed = asyncio.Event()  # clear while the reader writes to other seats' streams
        flushed.set()
        reader = asyncio.ensure_future(self._read_answers(context, match, seat, outbox, flushed))
        try:
            await outbox.run_writer()
        finally:
            try:
                # This seat's end may have come from its own last answer, whose reader is still
                # writing every other seat's end: cancelling it then would lose those messages.
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(flushed.wait(), READER_FLUSH_GRACE_S)
            finally:  # even when the client's cancellation lands in the wait above
                reader.cancel()
                match.detach(seat, outbox)
        if outbox.status is not None:
            await context.abort(*outbox.status)

    async def _read_answers(self, context: aio.ServicerContext, match: Match, seat: int, outbox: Outbox,
                            flushed: asyncio.Event) -> None:
        try:
            while True:
                data = await context.read()
                if data is aio.EOF:
                    # Half-closed: the bot sends no more but may still read (its last answer
                    # is in, and the end is on its way). The stream stays open for writing;
                    # a decision still asked of it runs into its deadline like any other.
                    return
                outbox.unread_bytes = 0  # the bot is reading and answering
                try:
                    message = pb.BotMessage.FromString(data)
                except DecodeError as exc:
                    outbox.fail(grpc.StatusCode.INVALID_ARGUMENT,
                                f"a frame of this stream is not a valid skyarena.v1.BotMessage ({exc}); the stream "
                                f"is closed. Rejoin seat {seat} with its token to go on.")
                    return
                kind = message.WhichOneof("kind")
                if kind in ("answer", "clock"):
                    self.direct.collect()
                    flushed.clear()
                    try:
                        if kind == "answer":
                            match.on_answer(seat, outbox, message.answer)
                        else:  # refused unless the stream is trusted: see cpu_clock.py
                            match.on_clock_report(seat, outbox, message.clock)
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
            log.debug("seat_stream_error", match_id=match.id, seat=seat, error=str(exc)[:200])
        outbox.close()

    async def Watch(self, data: bytes, context: aio.ServicerContext) -> AsyncIterator[Any]:
        privileged = self._privileged(context, spectator=True)
        try:
            request = _parse(pb.WatchRequest, data, "the request")
            if not privileged and not self.watch_rate.allow(peer_host(context.peer())):
                limits = self.registry.limits
                raise RequestError(grpc.StatusCode.RESOURCE_EXHAUSTED,
                                   f"too many Watch calls from your address (at most {limits.watch_rate:g} a second, "
                                   f"bursts of {limits.watch_burst}); retry later, or present the spectator token.")
            match = self.registry.get(request.match_id)
        except RequestError as exc:
            await context.abort(exc.code, exc.message)
        try:
            outbox = match.add_watcher(privileged, live=not request.from_start)
        except RequestError as exc:
            await context.abort(exc.code, exc.message)
        try:
            yield pb.WatchEvent(header=match.header())
            if request.from_start:
                async for frame in self._history(match):
                    yield frame
                return
            if not match.phase.over:
                yield match.current_step()
            async for event in outbox.drain():
                yield event
        finally:
            match.remove_watcher(outbox)
        if outbox.status is not None:
            await context.abort(*outbox.status)

    async def _history(self, match: Match) -> AsyncIterator[bytes]:
        """A from-start spectator: the match's public log, read with a cursor to its end
        (catching it up a chunk at a time when it is behind), then followed live."""
        public = match.history()
        cursor = 0
        while True:
            if not public.live:
                match.catch_up_history()
            events = public.events
            upto = min(len(events), cursor + WATCH_CHUNK)
            while cursor < upto:
                yield events[cursor]
                cursor += 1
            if public.ended and cursor >= len(public.events):
                return
            if public.live and cursor >= len(public.events):
                await public.grown(cursor)
            else:
                await asyncio.sleep(0)  # a chunk done: let every other match run


class RefereeServer:
    """A referee process's server: the Referee service plus health and reflection."""

    def __init__(self, service_token: str, limits: Limits | None = None, metrics: Metrics | None = None,
                 spectator_token: str | None = None, seed_key: bytes | None = None) -> None:
        self.limits = limits or Limits()
        self.metrics = metrics or Metrics()
        self.registry = MatchRegistry(self.limits, self.metrics, SeatSeeds(seed_key))
        self.health = health.aio.HealthServicer()
        spectator = ServiceToken(spectator_token, "the spectator token") if spectator_token else None
        self.service = RefereeService(self.registry, ServiceToken(service_token), spectator, self.limits)
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
        server.add_generic_rpc_handlers((self.service.handlers(),))
        health_pb2_grpc.add_HealthServicer_to_server(self.health, server)
        reflection.enable_server_reflection(
            (SERVICE_NAME, health_pb2.DESCRIPTOR.services_by_name["Health"].full_name, reflection.SERVICE_NAME),
            server,
        )
        host, port = parse_listen(listen)
        _probe_bind(host, port, listen)
        try:
            self.port = server.add_insecure_port(listen)
        except RuntimeError:  # grpc raises this, with no reason, when the bind fails
            self.port = 0
        if self.port == 0:
            raise OSError(f"cannot listen on {listen}: gRPC could not bind it; check the address and port.")
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


def _probe_bind(host: str, port: int, listen: str) -> None:
    """Say in one line why ``listen`` cannot be bound (gRPC only says that it failed)."""
    if port == 0:
        return
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise OSError(f"cannot listen on {listen}: {host!r} is not a known host or address ({exc.strerror}).") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as gRPC binds: TIME_WAIT is no conflict
        try:
            probe.bind(address)
        except OSError as exc:
            reasons = {
                errno.EADDRINUSE: "the port is in use (another referee?); stop it or choose another port",
                errno.EADDRNOTAVAIL: "that address is not one of this machine's",
                errno.EACCES: "ports below 1024 need privileges; choose a port above 1023",
            }
            reason = reasons.get(exc.errno or 0, exc.strerror or str(exc))
            raise OSError(f"cannot listen on {listen}: {reason}.") from None


async def serve(listen: str, service_token: str, limits: Limits, metrics_listen: str | None = None,
                ready: asyncio.Event | None = None, spectator_token: str | None = None,
                seed_key: bytes | None = None) -> None:
    """Run a referee until SIGINT/SIGTERM, then shut down gracefully."""
    server = RefereeServer(service_token, limits, spectator_token=spectator_token, seed_key=seed_key)
    metrics_at = parse_listen(metrics_listen, "--metrics-listen") if metrics_listen else None
    if metrics_at is not None:
        _probe_bind(*metrics_at, metrics_listen or "")
    await server.start(listen)
    if metrics_at is not None:
        bound = server.metrics.serve(*metrics_at)
        log.info("metrics_listening", listen=f"{metrics_at[0]}:{bound}")
        print(f"metrics on http://{metrics_at[0]}:{bound}/metrics", flush=True)
    # What was loaded so far lives as long as the process: keep it out of every collection,
    # and collect the young generation less often (a decision allocates a few hundred objects).
    gc.collect()
    gc.freeze()
    gc.set_threshold(GC_THRESHOLD, *gc.get_threshold()[1:])
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
