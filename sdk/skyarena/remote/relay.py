"""Relay a hosted bot's stdio frames to a referee's Play stream.

A sandboxed bot has no network: it speaks length-delimited ``BotMessage`` frames on its
stdout and reads ``RefereeMessage`` frames on its stdin (``python -m skyarena.remote BOT
--stdio``). The relay, outside the sandbox, owns the seat token: it puts it into the bot's
Join, forwards everything else unchanged in both directions, and reports a gRPC error
status to the bot as a Notice before closing its stdin. Frames are capped both ways.

With a :class:`~skyarena.cputime.TreeClock` and the service token (a worker's relay for a
seat on a CPU clock), the relay also measures each decision's CPU time and tells the
referee: in each Answer (``cpu_s``), and in ClockReports while the bot thinks (see
``CpuWatch``). A figure the bot wrote itself is never forwarded.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable

import grpc
from grpc import aio

from ..cputime import TreeClock
from ..v1 import referee_pb2 as pb
from ..v1 import referee_pb2_grpc as pb_grpc
from .frames import DEFAULT_MAX_FRAME, FrameError, encode_frame

MAX_BOT_FRAME = 1 << 20  # what a bot may send: answers are small
MIN_POLL_S = 0.005       # the shortest wait between two looks at a thinking bot's CPU time


class CpuWatch:
    """The decision a hosted bot is thinking over, measured: started when its TurnRequest is
    delivered, read when it answers, and looked at meanwhile so that a bot that spins is cut
    off at its CPU deadline (a ClockReport past it) and the referee hears, every half
    deadline of wall time, how much CPU the bot had and how long it waited for a core.

    The looks are timer callbacks on the event loop, not a task per decision: most answers
    come before half the deadline and then cost one measurement, with the answer, and no
    wake-up at all (the watch is on every decision of every hosted seat)."""

    def __init__(self, clock: TreeClock, send: Callable[[pb.BotMessage], Awaitable[None]]) -> None:
        self.clock = clock
        self.send = send
        self.turn: int | None = None
        self.deadline_s = 0.0
        self.report_every_s = 0.0
        self.next_report = 0.0
        self.first_look_at = 0.0
        self._timer: asyncio.TimerHandle | None = None
        self._reports: set[asyncio.Future[None]] = set()

    def delivered(self, turn: pb.TurnRequest) -> None:
        self.clock.start()
        self.turn = turn.turn
        self.deadline_s = turn.deadline_s
        self.report_every_s = max(turn.deadline_s / 2, MIN_POLL_S)
        self.next_report = self.first_look_at = time.monotonic() + self.report_every_s
        # Nothing can be over before half the deadline has passed. A timer still armed from an
        # earlier decision that fires sooner is kept: it finds this decision young and re-arms
        # for it, so a bot answering in microseconds costs no timer per decision.
        if self._timer is None or self._timer.when() > asyncio.get_running_loop().time() + self.report_every_s:
            self._cancel_timer()
            self._look_in(self.report_every_s)

    def answered(self, answer: pb.Answer) -> None:
        """Put the relay's own figure into the bot's answer (or none, if it is not for the turn watched)."""
        answer.ClearField("cpu_s")
        if self.turn is not None and answer.turn == self.turn:
            answer.cpu_s = self.clock.finish().cpu_s
            self.turn = None

    def close(self) -> None:
        self.turn = None
        self._cancel_timer()
        self.clock.close()
        for report in self._reports:
            report.cancel()

    def _settled(self, report: asyncio.Future[None]) -> None:
        """A report that could not be sent (the stream closed) is dropped: the referee's
        wall backstop still ends the decision."""
        self._reports.discard(report)
        if not report.cancelled():
            report.exception()

    def _look_in(self, seconds: float) -> None:
        self._timer = asyncio.get_running_loop().call_later(max(seconds, MIN_POLL_S), self._look)

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _look(self) -> None:
        self._timer = None
        turn = self.turn
        if turn is None:
            return
        now = time.monotonic()
        if now < self.first_look_at:
            self._look_in(self.first_look_at - now)  # armed for an earlier decision: this one is young
            return
        used = self.clock.used()
        over = used.cpu_s > self.deadline_s
        now = time.monotonic()
        if over or now >= self.next_report:
            report = asyncio.ensure_future(self.send(pb.BotMessage(clock=pb.ClockReport(
                turn=turn, cpu_s=used.cpu_s, wait_s=used.wait_s))))
            self._reports.add(report)
            report.add_done_callback(self._settled)
            self.next_report = now + self.report_every_s
            if over:
                self.turn = None  # the referee ends this decision; nothing more to watch
                return
        # CPU time grows no faster than wall time for one thread: look again when the
        # deadline could be reached, or at the next report.
        self._look_in(min(self.deadline_s - used.cpu_s, self.next_report - now))


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
                channel: aio.Channel | None = None, *, cpu_clock: TreeClock | None = None,
                service_token: str | None = None) -> grpc.StatusCode:
    """Relay until the match ends or either side stops; returns the stream's final status.
    With ``cpu_clock`` and ``service_token``, each decision's CPU time is measured and
    reported (see CpuWatch); the referee trusts the figures for the service token's sake."""
    own_channel = channel is None
    chan = channel if channel is not None else aio.insecure_channel(referee, options=[
        ("grpc.max_send_message_length", MAX_BOT_FRAME), ("grpc.max_receive_message_length", DEFAULT_MAX_FRAME)])
    metadata = (("authorization", f"Bearer {service_token}"),) if service_token else None
    call = pb_grpc.RefereeStub(chan).Play(wait_for_ready=True, metadata=metadata)
    writing = asyncio.Lock()  # the bot's frames and the watch's reports share the stream

    async def send(message: pb.BotMessage) -> None:
        async with writing:
            await call.write(message)

    watch = CpuWatch(cpu_clock, send) if cpu_clock is not None and service_token else None

    async def upstream() -> None:
        joined = False
        while True:
            message = await read_frame_async(bot_stdout, MAX_BOT_FRAME)
            if message is None:
                break
            kind = message.WhichOneof("kind")
            if not joined:
                if kind != "join":
                    raise FrameError("the bot's first frame must be a Join")
                message.join.token = token
                joined = True
            elif kind == "clock":
                continue  # only the relay measures the bot
            elif kind == "answer":
                if watch is not None:
                    watch.answered(message.answer)
                else:
                    message.answer.ClearField("cpu_s")
            await send(message)
        async with writing:
            await call.done_writing()

    async def downstream() -> None:
        while True:
            message = await call.read()
            if message is aio.EOF:
                break
            assert isinstance(message, pb.RefereeMessage)
            bot_stdin.write(encode_frame(message))
            await bot_stdin.drain()
            if watch is not None and message.WhichOneof("kind") == "turn":
                watch.delivered(message.turn)  # once the bot can read it: its thinking starts

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
        if watch is not None:
            watch.close()
        for task in (up, down):
            task.cancel()
            with contextlib.suppress(BaseException):
                await task
        call.cancel()
        with contextlib.suppress(Exception):
            bot_stdin.close()
        if own_channel:
            await chan.close()
