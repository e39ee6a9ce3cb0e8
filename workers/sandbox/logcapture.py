"""The bot's stderr, kept as its log for its author: the first ``cap`` bytes, then a marker.

The pipe is drained to the end whatever the bot writes, so a bot flooding stderr never
blocks on a full pipe (it would stall its own match) and never grows the worker's memory.
"""

from __future__ import annotations

import asyncio

CHUNK = 64 * 1024


class LogCapture:
    def __init__(self, stream: asyncio.StreamReader, cap: int) -> None:
        self.cap = cap
        self._kept = bytearray()
        self.dropped = 0
        self.task = asyncio.ensure_future(self._drain(stream))

    async def _drain(self, stream: asyncio.StreamReader) -> None:
        while chunk := await stream.read(CHUNK):
            kept = chunk[:max(0, self.cap - len(self._kept))]
            self._kept += kept
            self.dropped += len(chunk) - len(kept)

    @property
    def truncated(self) -> bool:
        return self.dropped > 0

    def text(self) -> bytes:
        """The kept bytes, with the truncation marked at the end when anything was dropped."""
        if not self.truncated:
            return bytes(self._kept)
        return bytes(self._kept) + (f"\n[skyarena: log truncated: {self.dropped} more bytes were dropped; the cap is "
                                    f"{self.cap} bytes per match]\n").encode()

    async def finish(self, timeout: float) -> None:
        """Wait for the end of the stream (every writer gone), at most ``timeout`` seconds."""
        try:
            await asyncio.wait_for(asyncio.shield(self.task), timeout)
        except TimeoutError:
            self.task.cancel()
