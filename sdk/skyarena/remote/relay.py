"""Relay a hosted bot's stdio frames to a referee's Play stream.

A sandboxed bot has no network: it speaks length-delimited ``BotMessage`` frames on its
stdout and reads ``RefereeMessage`` frames on its stdin (``python -m skyarena.remote BOT
--stdio``). The relay, outside the sandbox, owns the seat token: it puts it into the bot's
Join, forwards everything else unchanged in both directions, and reports a gRPC error
status to the bot as a Notice before closing its stdin. Frames are capped both ways.
"""

from __future__ import annotations

import asyncio
import contextlib

import grpc
from grpc import aio

from ..v1 import referee_pb2 as pb
from ..v1 import referee_pb2_grpc as pb_grpc
from .frames import DEFAULT_MAX_FRAME, FrameError, encode_frame

MAX_BOT_FRAME = 1 << 20  # what a bot may send: answers are small


async def read_frame_async(reader: asyncio.StreamReader, max_bytes: int) -> pb.BotMessage | None:
    """The next BotMessage frame from a bot's stdout, or None at a clean end."""
    length = 0
    shift = 0
    first = True
    while True:
        byte = await reader.read(1)
        if not byte:
            if first:
                return None
            raise FrameError("the bot's output ended in the middle of a frame length")
        first = False
        length |= (byte[0] & 0x7F) << shift
        if not byte[0] & 0x80:
            break
        shift += 7
        if shift > 63:
            raise FrameError("the bot wrote a frame length that is not a varint; does it print to stdout?")
    if length > max_bytes:
        raise FrameError(f"the bot wrote a frame of {length} bytes, over the cap of {max_bytes}; does it print to "
                         "stdout? Bots must print to stderr in stdio mode.")
    try:
        data = await reader.readexactly(length)
    except asyncio.IncompleteReadError:
        raise FrameError("the bot's output ended in the middle of a frame") from None
    message = pb.BotMessage()
    try:
        message.ParseFromString(data)
    except Exception as exc:
        raise FrameError(f"the bot wrote a frame that is not a BotMessage: {exc}") from None
    return message


async def relay(bot_stdout: asyncio.StreamReader, bot_stdin: asyncio.StreamWriter, referee: str, token: str,
                channel: aio.Channel | None = None) -> grpc.StatusCode:
    """Relay until the match ends or either side stops; returns the stream's final status."""
    own_channel = channel is None
    chan = channel if channel is not None else aio.insecure_channel(referee, options=[
        ("grpc.max_send_message_length", MAX_BOT_FRAME), ("grpc.max_receive_message_length", DEFAULT_MAX_FRAME)])
    call = pb_grpc.RefereeStub(chan).Play(wait_for_ready=True)

    async def upstream() -> None:
        joined = False
        while True:
            message = await read_frame_async(bot_stdout, MAX_BOT_FRAME)
            if message is None:
                break
            if not joined:
                if message.WhichOneof("kind") != "join":
                    raise FrameError("the bot's first frame must be a Join")
                message.join.token = token
                joined = True
            await call.write(message)
        await call.done_writing()

    async def downstream() -> None:
        while True:
            message = await call.read()
            if message is aio.EOF:
                break
            assert isinstance(message, pb.RefereeMessage)
            bot_stdin.write(encode_frame(message))
            await bot_stdin.drain()

    async def downstream_status() -> grpc.StatusCode:
        try:
            await downstream()
            return await call.code()
        except aio.AioRpcError as exc:
            notice = pb.Notice(code=exc.code().value[0], message=exc.details() or "")
            with contextlib.suppress(Exception):
                bot_stdin.write(encode_frame(pb.RefereeMessage(notice=notice)))
                await bot_stdin.drain()
            return exc.code()
        except ConnectionError:  # the bot's stdin closed: it is gone
            return grpc.StatusCode.UNAVAILABLE

    up = asyncio.ensure_future(upstream())
    down = asyncio.ensure_future(downstream_status())
    try:
        await asyncio.wait({up, down}, return_when=asyncio.FIRST_COMPLETED)
        if not down.done() and up.exception() is not None:
            # The bot broke its side (garbage frames): drop the stream; the referee sees a
            # disconnection and its clock decides.
            call.cancel()
            down.cancel()
            return grpc.StatusCode.UNAVAILABLE
        return await down
    finally:
        for task in (up, down):
            task.cancel()
            with contextlib.suppress(BaseException):
                await task
        call.cancel()
        with contextlib.suppress(Exception):
            bot_stdin.close()
        if own_channel:
            await chan.close()
