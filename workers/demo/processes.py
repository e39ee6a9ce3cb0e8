"""The demo's child processes: each in its own process group, its output in a log file.

A child gets a new session (so a Ctrl-C in the terminal reaches only the launcher, which
then stops the children in order) and, on Linux, a parent-death signal (so a launcher that
is itself killed does not leave a league running without it). Stopping is SIGTERM to the
whole group, a grace period for the orderly shutdowns (a Celery worker finishes or hands
back its matches, Postgres connections close), then SIGKILL for whatever is left.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

SKYARENA = str(Path(sys.executable).parent / "skyarena")
PR_SET_PDEATHSIG = 1
LISTENING = re.compile(rb"listening on (\S+:\d+)")


class ChildFailed(RuntimeError):
    """A child exited before it was ready; the message names it and ends with its log."""


def _die_with_parent() -> None:  # runs in the child between fork and exec
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


def log_tail(path: Path, lines: int = 15) -> str:
    try:
        text = path.read_text(errors="replace")
    except FileNotFoundError:
        return "(no log)"
    return "\n".join(text.splitlines()[-lines:])


def open_private_log(path: Path) -> BinaryIO:
    """``path`` for appending, readable by its owner only (0600, also when an older run made it 0644):
    a platform log names accounts, matches and errors that are nobody else's business."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    os.fchmod(fd, 0o600)
    return os.fdopen(fd, "ab")


@dataclass
class Child:
    """One ``skyarena`` command the demo runs, restartable with the same arguments."""

    name: str
    args: Sequence[str]
    env: dict[str, str]
    log_path: Path
    proc: subprocess.Popen[bytes] | None = None
    restarts: int = 0
    log_offset: int = 0   # where this start's output begins: logs are appended across starts and runs

    def start(self) -> None:
        with open_private_log(self.log_path) as log:
            self.log_offset = log.tell()
            log.write(f"--- {time.strftime('%Y-%m-%d %H:%M:%S')} skyarena {' '.join(self.args)}\n".encode())
            log.flush()
            preexec: Callable[[], None] | None = _die_with_parent if sys.platform == "linux" else None
            self.proc = subprocess.Popen([SKYARENA, *self.args], stdin=subprocess.DEVNULL, stdout=log,
                                         stderr=subprocess.STDOUT, env=self.env, start_new_session=True,
                                         preexec_fn=preexec)

    @property
    def pid(self) -> int:
        assert self.proc is not None, f"{self.name} was never started"
        return self.proc.pid

    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def failure(self, what: str) -> ChildFailed:
        code = self.proc.returncode if self.proc is not None else None
        return ChildFailed(f"{self.name} {what} (exit status {code}); its log {self.log_path} ends:\n"
                           f"{log_tail(self.log_path)}")

    def wait_listening(self, timeout_s: float) -> str:
        """The HOST:PORT the child printed in its ``... listening on HOST:PORT`` line."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            with open(self.log_path, "rb") as log:
                log.seek(self.log_offset)
                found = LISTENING.search(log.read())
            if found:
                return found.group(1).decode()
            if not self.running():
                raise self.failure("exited before it was listening")
            time.sleep(0.2)
        raise self.failure(f"was not listening after {timeout_s:.0f} s")

    def signal_group(self, sig: int) -> None:
        if self.proc is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.proc.pid, sig)


def stop_all(children: Sequence[Child], grace_s: float) -> list[str]:
    """SIGTERM every child's group, wait up to ``grace_s``, SIGKILL the rest; the names that needed it."""
    started = [c for c in children if c.proc is not None]
    for child in started:
        child.signal_group(signal.SIGTERM)
    deadline = time.monotonic() + grace_s
    for child in started:
        assert child.proc is not None
        with contextlib.suppress(subprocess.TimeoutExpired):
            child.proc.wait(max(0.0, deadline - time.monotonic()))
    killed = []
    for child in started:
        assert child.proc is not None
        # The group may outlive its leader (a bot process the leader started): kill it either way.
        if child.proc.poll() is None:
            killed.append(child.name)
        child.signal_group(signal.SIGKILL)
        child.proc.wait()
    return killed
