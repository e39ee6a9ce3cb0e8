"""The outgoing side of the referee's streams: each stream's outbox and the direct writes.

A seat's messages go out through its stream's writer task, or, on the hot path, straight
from the reader of the frame that caused them: a bot's answer moves its match on, and the
reader that got the answer writes the next turn requests to the other seats' streams itself,
saving a task switch per message. :class:`DirectWrites` gathers those messages while the
reader works and writes them after; :class:`Outbox` keeps the two ways in order. Direct
writes are a server's setting (``Limits.direct_writes``), on unless turned off for a
comparison.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import grpc

# A stream gets direct writes only while less than this many bytes were written to it since
# its bot last sent a frame: a bot that stops reading cannot stall another seat's reader for
# long (the bytes fit in its flow-control window); it falls back to its own writer task.
DIRECT_BYTES = 32 * 1024


class DirectWrites:
    """One server's direct writes: while a stream's reader handles a frame (``collect``),
    messages for idle streams are gathered here, and that reader writes them right after
    (``flush``), saving a task switch per message on the hot path. When not ``enabled``,
    nothing is gathered and every message goes through its stream's writer task."""

    __slots__ = ("enabled", "pending")

    def __init__(self, enabled: bool = True) -> None:
        self.enabled = enabled
        self.pending: list[Outbox] | None = None

    def collect(self) -> None:
        self.pending = [] if self.enabled else None

    async def flush(self) -> None:
        """Write what was gathered. Every stream concerned is reserved (``writing``) before
        the first write, so none can end or write out of order while this reader works
        through the others."""
        outboxes, self.pending = self.pending, None
        reserved = []
        for outbox in outboxes or ():
            messages, outbox.direct = outbox.direct, []
            if outbox.writing:  # its writer task got there first: queue behind it, in order
                for message in messages:
                    outbox.queue.put_nowait(message)
                continue
            outbox.writing = True
            reserved.append((outbox, messages))
        try:
            while reserved:
                outbox, messages = reserved[0]
                try:
                    while messages:
                        await outbox.context.write(messages[0])
                        outbox.unread_bytes += frame_size(messages.pop(0))
                except asyncio.CancelledError:
                    raise
                except Exception:  # that stream broke; its handler sees it and detaches the seat
                    messages.clear()
                reserved.pop(0)
                outbox.writing = False
                outbox.idle.set()
        finally:  # this reader was cancelled: hand what is left to the streams' own writers
            for outbox, messages in reserved:
                for message in messages:
                    outbox.queue.put_nowait(message)
                outbox.writing = False
                outbox.idle.set()


class Outbox:
    """The outgoing side of one stream. Messages go out through the stream's writer task
    (a queue the handler drains) or, on the hot path, directly from the reader of the frame
    that caused them (:class:`DirectWrites`), never both at once: ``writing`` serialises the
    two and keeps the order.

    ``close()`` ends the stream normally after what is queued; ``fail()`` ends it with a
    status. A consumer that stops reading is cut off once ``limit`` messages pile up.
    """

    __slots__ = ("queue", "closed", "status", "limit", "context", "writing", "idle", "direct", "unread_bytes",
                 "writes")

    def __init__(self, limit: int, context: Any = None, writes: DirectWrites | None = None) -> None:
        self.queue: asyncio.Queue[Any] = asyncio.Queue()
        self.closed = False
        self.status: tuple[grpc.StatusCode, str] | None = None
        self.limit = limit
        self.context = context
        self.writing = False
        self.idle = asyncio.Event()
        self.direct: list[Any] = []
        self.unread_bytes = 0
        self.writes = writes

    def put(self, message: Any) -> None:
        if self.closed:
            return
        collecting = self.writes.pending if self.writes is not None else None
        if self.direct or (collecting is not None and not self.writing and self.queue.empty()
                           and self.unread_bytes < DIRECT_BYTES):
            if not self.direct and collecting is not None:
                collecting.append(self)
            self.direct.append(message)
            return
        if self.queue.qsize() >= self.limit:
            self.fail(grpc.StatusCode.RESOURCE_EXHAUSTED,
                      f"more than {self.limit} messages were waiting for this stream: read it faster")
            return
        self.queue.put_nowait(message)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.queue.put_nowait(None)

    def fail(self, code: grpc.StatusCode, message: str) -> None:
        if not self.closed:
            self.status = (code, message)
            self.close()

    async def _wait_idle(self) -> None:
        while self.writing:
            self.idle.clear()
            await self.idle.wait()

    async def write(self, message: Any) -> None:
        self.writing = True
        try:
            await self.context.write(message)
            self.unread_bytes += frame_size(message)
        finally:
            self.writing = False
            self.idle.set()

    async def drain(self) -> AsyncIterator[Any]:
        """The writer task's messages (for a context-less outbox, e.g. a spectator's)."""
        while True:
            message = await self.queue.get()
            await self._wait_idle()
            if message is None:
                return
            yield message

    async def run_writer(self) -> None:
        """Write queued messages until closed (after any direct write in progress)."""
        while True:
            message = await self.queue.get()
            await self._wait_idle()
            if message is None:
                return
            await self.write(message)


def frame_size(frame: Any) -> int:
    """Bytes of an outgoing frame: a message, or one the referee serialized itself."""
    return len(frame) if isinstance(frame, bytes) else int(frame.ByteSize())

