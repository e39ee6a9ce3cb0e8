"""Playing one seat with a hosted bot: start its process, relay its frames, keep its log.

``play_hosted_seat`` is the one place the worker starts bot code. Until the sandbox
(`workers/sandbox/`) lands it runs the bot as a plain child process with a clean
environment, and says so: the confinement it reports ("none") goes into the match record
and every run logs a warning, because an unconfined hosted bot must never pass unnoticed.
The bot speaks the stdio frames (``python -m skyarena.remote ENTRY --stdio``); the relay
outside it (`skyarena.remote.relay`) holds the seat token.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from grpc import aio

from skyarena.remote.relay import relay

log = logging.getLogger(__name__)

LOG_CAP = 256 << 10          # a hosted bot's stderr kept per match; the rest is dropped and marked
EXIT_GRACE_S = 5.0           # a bot whose stream ended gets this long to exit before it is killed
UNCONFINED = "none: the sandbox is not installed; the bot ran as a plain child process of the worker"


@dataclass(frozen=True)
class SeatRun:
    """What one hosted bot left behind (the fields `workers.sandbox`'s HostedSeatOutcome has too)."""

    exit_status: int | None
    log: bytes
    log_truncated: bool
    confinement: str


def bot_command(bot_dir: Path, entry: str) -> list[str]:
    """The stdio runner for the manifest's entry point (``file.py`` or ``file.py:ClassName``)."""
    path, sep, cls = entry.partition(":")
    return [sys.executable, "-m", "skyarena.remote", f"{bot_dir / path}{sep}{cls}", "--stdio"]


def clean_environment(scratch: Path) -> dict[str, str]:
    """What a bot may see: no secrets, no database, broker, referee or token settings."""
    keep = {k: os.environ[k] for k in ("PATH", "LANG", "LC_ALL", "PYTHONPATH") if k in os.environ}
    return {**keep, "HOME": str(scratch), "TMPDIR": str(scratch), "PYTHONDONTWRITEBYTECODE": "1"}


async def _read_capped(stream: asyncio.StreamReader, cap: int) -> tuple[bytes, bool]:
    kept = bytearray()
    truncated = False
    while chunk := await stream.read(65536):
        room = cap - len(kept)
        if len(chunk) > room:
            truncated = True
        kept += chunk[:max(room, 0)]
    return bytes(kept), truncated


async def play_hosted_seat(bot_dir: Path, entry: str, referee: str, seat_token: str, *,
                           channel: aio.Channel | None = None) -> SeatRun:
    """Run the bot for one seat until the match ends for it; never raises for the bot's faults."""
    log.warning("hosted bot %s runs UNCONFINED (no sandbox installed)", bot_dir / entry)
    with tempfile.TemporaryDirectory(prefix="skyarena-seat-") as scratch:
        proc = await asyncio.create_subprocess_exec(
            *bot_command(bot_dir, entry), cwd=scratch, env=clean_environment(Path(scratch)),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
            start_new_session=True)  # its own process group: killed as a whole with its match
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        stderr = asyncio.ensure_future(_read_capped(proc.stderr, LOG_CAP))
        try:
            await relay(proc.stdout, proc.stdin, referee, seat_token, channel=channel)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(proc.wait(), EXIT_GRACE_S)
        finally:
            if proc.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
                await proc.wait()
            text, truncated = await stderr
    if truncated:
        text += b"\n[log truncated at %d bytes]\n" % LOG_CAP
    return SeatRun(proc.returncode, text, truncated, UNCONFINED)
