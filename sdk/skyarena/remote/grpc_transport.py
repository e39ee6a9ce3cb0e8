"""The gRPC transport of a seat: the ``Play`` stream to a referee, with rejoining.

Kept apart from :mod:`.runner` so that a hosted bot, which speaks stdio frames, never
imports grpc or asyncio (about half of its start-up); ``run_bot`` imports this module only
for a seat that connects over gRPC.
"""

from __future__ import annotations

import asyncio
import contextlib

import grpc
from grpc import aio

from ..v1 import referee_pb2 as pb
from ..v1 import referee_pb2_grpc as pb_grpc
from .runner import (
    CLIENT,
    CONNECT_TIMEOUT_S,
    MAX_RECEIVE_BYTES,
    MAX_SEND_BYTES,
    REJOIN_WINDOW_S,
    RemoteError,
    RemoteResult,
    SeatSession,
    unreachable,
)

# Status codes after which rejoining with the same token can help.
RETRYABLE = (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.ALREADY_EXISTS, grpc.StatusCode.INTERNAL,
             grpc.StatusCode.UNKNOWN)


async def play_grpc(session: SeatSession, address: str, token: str, client: str = CLIENT,
                    reconnects: int = 5, connect_timeout_s: float = CONNECT_TIMEOUT_S,
                    rejoin_window_s: float = REJOIN_WINDOW_S) -> RemoteResult:
    """Join with the seat token and play until the match ends; rejoin after a dropped stream
    (at most ``reconnects`` times in a row, within the rejoin window)."""
    options = [("grpc.max_send_message_length", MAX_SEND_BYTES),
               ("grpc.max_receive_message_length", MAX_RECEIVE_BYTES),
               ("grpc.keepalive_time_ms", 30_000), ("grpc.keepalive_timeout_ms", 10_000)]
    loop = asyncio.get_running_loop()
    failures = 0
    async with aio.insecure_channel(address, options=options) as channel:
        try:
            await asyncio.wait_for(channel.channel_ready(), connect_timeout_s)
        except TimeoutError:
            raise RemoteError(unreachable(address, connect_timeout_s)) from None
        stub = pb_grpc.RefereeStub(channel)
        deadline_at = 0.0  # when the referee stops waiting for this seat's pending decision
        while True:
            call = stub.Play()
            try:
                await call.write(pb.BotMessage(join=pb.Join(token=token, client=client)))
                while True:
                    message = await call.read()
                    if message is aio.EOF:
                        break
                    assert isinstance(message, pb.RefereeMessage)
                    failures = 0
                    if message.WhichOneof("kind") == "turn":
                        deadline_at = loop.time() + message.turn.deadline_s
                    reply = session.handle(message)
                    if reply is not None:
                        await call.write(reply)
                    if session.finished:
                        break
                if session.finished:
                    with contextlib.suppress(Exception):
                        await call.done_writing()
                    return session.conclude()
                code = await call.code()
                if code != grpc.StatusCode.OK:
                    raise RemoteError(await call.details() or "", code)
                raise RemoteError("the referee closed the stream before the match ended")
            except aio.AioRpcError as exc:
                code = exc.code()
                if code not in RETRYABLE or failures >= reconnects:
                    raise RemoteError(exc.details() or str(exc), code) from None
                failures += 1
                window = max(rejoin_window_s, deadline_at - loop.time())
                session.say(f"stream lost ({code.name}: {exc.details()}); rejoining ({failures}/{reconnects}, for "
                            f"up to {window:.0f} s)")
                await asyncio.sleep(min(0.1 * 2 ** failures, 2.0))
                try:
                    await asyncio.wait_for(channel.channel_ready(), window)
                except TimeoutError:
                    raise RemoteError(f"the referee at {address} is gone: the stream broke ({code.name}) and no "
                                      f"referee answered for {window:.0f} s (the rejoin window); this seat's match "
                                      "is lost here, the referee plays its fallback if it comes back.") from None
            finally:
                call.cancel()
