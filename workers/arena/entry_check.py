"""Does the entry point define a playable ``Bot``? Asked of the bot itself, inside the sandbox.

The Arena never imports an author's code. It starts the bot exactly as a match would
(``python -m skyarena.remote ENTRY --stdio`` in the hosted-bot sandbox, no network,
rlimits) with its stdin closed. The SDK loads the bot file first, before speaking: a bot
that loads (a ``Bot`` subclass with ``act``, found where the manifest says) writes its
``Join`` frame on stdout; one that does not exits with ``error: <what to fix>`` on stderr
and nothing on stdout. So "some bytes on stdout" is the whole test, and the SDK's own
loader message is what the author reads.
"""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import Mapping
from pathlib import Path

from skyarena.loader import FIX_AND_RUN
from workers.archive_rules import ArchiveRefused, write_files
from workers.sandbox import EntryError, SandboxLimits, start_hosted_bot

# Loading a bot is importing a few modules: these bound a bot whose import spins or hangs.
CHECK_LIMITS = SandboxLimits(cpu_s=20, wall_s=30.0, grace_s=0.5, log_bytes=16 * 1024)
CHECK_TIMEOUT_S = 30.0


async def check_entry(files: Mapping[str, bytes], entry: str, limits: SandboxLimits = CHECK_LIMITS,
                      backend: str = "auto", game: str = "GAME") -> None:
    """Raise ArchiveRefused when the sandboxed bot does not load; return when it does. The
    SDK names the bot's files as they are in the author's folder (``bot.py, line 20``)."""
    with tempfile.TemporaryDirectory(prefix="skyarena-intake-") as tmp:
        folder = Path(tmp)
        write_files(files, folder)
        try:
            bot = await start_hosted_bot(folder, entry, limits, backend=backend)
        except EntryError as exc:
            raise ArchiveRefused(str(exc)) from None
        try:
            bot.stdin.close()
            try:
                spoke = await asyncio.wait_for(bot.stdout.read(1), CHECK_TIMEOUT_S)
            except TimeoutError:
                spoke = b""
            bot.discard_stdout()
            status = await bot.wait(limits.grace_s if spoke else CHECK_TIMEOUT_S)
        finally:
            await bot.close()
    if spoke:
        return
    log, _ = bot.log()
    lines = [line.strip() for line in log.decode(errors="replace").splitlines() if line.strip()]
    errors = [line.removeprefix("error: ") for line in lines if line.startswith("error: ")]
    check = f"`skyarena play {game} {entry} random` in your bot's folder"
    if errors:
        what = errors[-1].removesuffix(FIX_AND_RUN).strip().rstrip(".")
        raise ArchiveRefused(f"your bot does not load ({what}); fix it, check it with {check}, and submit again")
    detail = lines[-1] if lines else f"exit status {status}" if status is not None else "it did not answer in time"
    raise ArchiveRefused(f"your bot's entry point {entry} did not start in the sandbox ({detail}); "
                         f"check that {check} runs, and submit again")
