"""Start one hosted bot in its sandbox, and end it: the handle the relay and the worker use."""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import logging
import os
import signal
from pathlib import Path, PurePosixPath

from .backend import bot_environment, select_backend, selected_backend, take_owner
from .limits import SandboxLimits
from .logcapture import LogCapture
from .runtime import current_runtime
from .stage import Stage, make_stage
from .uids import UidLease

log = logging.getLogger("workers.sandbox")
PIPE_LIMIT = 1 << 20  # the stdout reader's buffer: a frame the relay reads at once may be this big


class EntryError(ValueError):
    """The bot's entry point is not a Python file inside its code directory."""


def check_entry(bot_dir: Path, entry: str) -> str:
    """``entry`` is ``file.py`` or ``file.py:ClassName``, relative to ``bot_dir``."""
    file, _, _cls = entry.partition(":")
    path = PurePosixPath(file)
    if not file.endswith(".py") or path.is_absolute() or ".." in path.parts:
        raise EntryError(f"the entry point {entry!r} must be a .py file inside the bot's directory "
                         "(like bot.py or bot.py:MyBot)")
    if not (bot_dir / path).is_file():
        raise EntryError(f"the entry point {file!r} is not a file in {bot_dir}; check the manifest's entry")
    return entry


class HostedBot:
    """A running sandboxed bot: frames on ``stdin``/``stdout``, its stderr kept as its log."""

    def __init__(self, process: asyncio.subprocess.Process, capture: LogCapture, stage: Stage,
                 lease: UidLease | None, confinement: str) -> None:
        assert process.stdin is not None and process.stdout is not None
        self.process = process
        self.stdin: asyncio.StreamWriter = process.stdin
        self.stdout: asyncio.StreamReader = process.stdout
        self.confinement = confinement
        self.killed = False
        self._capture = capture
        self._stage = stage
        self._lease = lease
        self._closed = False
        self._discard: asyncio.Future[None] | None = None

    def discard_stdout(self) -> None:
        """Read and drop whatever the bot still writes to stdout. Call it once the relay is
        done with the stream: asyncio reports the exit only when every pipe is at its end,
        and a bot blocked writing into a full pipe would never get there."""
        if self._discard is None:
            self._discard = asyncio.ensure_future(_drain(self.stdout))

    def kill(self) -> None:
        """SIGKILL the sandbox's process group. The launcher leads that group and its child
        (the bot, pid 1 of its pid namespace) dies with it, and with it every process the
        bot made, whatever session or group they moved to."""
        if self.process.returncode is None:
            self.killed = True
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)

    async def wait(self, timeout: float | None = None) -> int | None:
        """The exit status (negative: the signal), or None if still running after ``timeout``."""
        try:
            status = await asyncio.wait_for(self.process.wait(), timeout)
        except TimeoutError:
            return None
        return signal_status(status)

    def log(self) -> tuple[bytes, bool]:
        """(the log so far, whether it was truncated)."""
        return self._capture.text(), self._capture.truncated

    async def close(self) -> None:
        """Kill whatever is left, collect the log, remove the scratch and code copies."""
        if self._closed:
            return
        self._closed = True
        try:
            self.kill()
            self.discard_stdout()
            await self.process.wait()
            await self._capture.finish(timeout=2.0)
        finally:
            self._stage.remove()
            if self._lease is not None:
                self._lease.release()


def signal_status(status: int) -> int:
    """The bot's status as asyncio reports a process's own: negative for a signal.

    bwrap and unshare outlive the bot and report its death by signal N as status 128 + N
    (as shells do), so a bot stopped by its CPU limit (SIGXCPU) would read "exited with
    status 152" instead of "ended by signal 24"."""
    if status > 128 and status - 128 in signal.valid_signals():
        return -(status - 128)
    return status


def _widen_pipe(writer: asyncio.StreamWriter) -> None:
    """Give the bot's stdin the largest pipe the host allows (1 MiB by default, 64 KiB
    otherwise): the relay waits for room in it before it reads the referee's next message,
    so a bot that stops reading would otherwise hold its relay once 64 KiB are queued."""
    pipe = writer.transport.get_extra_info("pipe")
    with contextlib.suppress(OSError, ValueError, AttributeError):
        fcntl.fcntl(pipe.fileno(), fcntl.F_SETPIPE_SZ, int(Path("/proc/sys/fs/pipe-max-size").read_text()))


async def _drain(stream: asyncio.StreamReader) -> None:
    while await stream.read(1 << 16):
        pass


async def start_hosted_bot(bot_dir: Path, entry: str, limits: SandboxLimits | None = None, *,
                           backend: str = "auto") -> HostedBot:
    """Start ``python -m skyarena.remote ENTRY --stdio`` for one match in a sandbox.

    Raises :class:`~workers.sandbox.backend.SandboxUnavailable` when this host can confine
    nothing, :class:`EntryError` for a bad entry point.
    """
    limits = limits or SandboxLimits()
    bot_dir = Path(bot_dir)
    check_entry(bot_dir, entry)
    # The first bot of a process probes the host (a sandbox start, in a thread: it blocks).
    chosen = selected_backend(backend)
    if chosen is None:
        chosen = await asyncio.to_thread(select_backend, backend)
    with contextlib.ExitStack() as undo:  # everything made so far goes again if a later step fails
        lease = take_owner(chosen, limits)
        if lease is not None:
            undo.callback(lease.release)
        owner = (lease.uid, lease.uid) if lease else None
        stage = make_stage(bot_dir, owner)
        undo.callback(stage.remove)
        env = bot_environment(chosen.home(stage))
        argv = chosen.command(current_runtime(), stage, env, [f"{chosen.code_dir(stage)}/{entry}", "--stdio"],
                              limits, owner)
        confinement = chosen.describe(limits, owner)
        if chosen.fallback:
            log.warning("hosted bot %s runs in the FALLBACK sandbox, weaker than bwrap: %s", entry, confinement)
        process = await asyncio.create_subprocess_exec(
            *argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
            env=env, cwd=stage.scratch, start_new_session=True, limit=PIPE_LIMIT)
        undo.pop_all()  # the handle owns the stage and the lease now
    assert process.stderr is not None and process.stdin is not None
    _widen_pipe(process.stdin)
    return HostedBot(process, LogCapture(process.stderr, limits.log_bytes), stage, lease, confinement)
