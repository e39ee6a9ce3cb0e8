"""The CPU time a bot's process tree used, read from /proc (Linux), for CPU-time clocks.

A bot is charged its own CPU time (user + system, every process it started) rather than
the wall time between a turn's sending and its answer, which grows with everything else on
the machine. The figure is read by whoever runs the bot (a worker's relay, ``skyarena
play``), never reported by the bot. ``wait_s`` is the time the tree's threads were runnable
but waiting for a core (``/proc/<pid>/task/<tid>/schedstat``): the machine's load, which
tells a starved bot from one that slept.

Resolution: utime/stime count clock ticks (``SC_CLK_TCK``, 100 per second on Linux), so a
figure is exact to 10 ms per process; reaped children are included (cutime/cstime).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

PROC = "/proc"
TICK_S = 1.0 / (os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100)


@dataclass(frozen=True)
class CpuSample:
    cpu_s: float   # user + system seconds of the tree (reaped children included)
    wait_s: float  # seconds its live threads waited on a run queue

    def since(self, start: CpuSample) -> CpuSample:
        return CpuSample(max(0.0, self.cpu_s - start.cpu_s), max(0.0, self.wait_s - start.wait_s))


def supported() -> bool:
    """Whether this host can measure a process tree (Linux /proc with per-task stats)."""
    return os.path.exists(f"{PROC}/self/stat") and os.path.exists(f"{PROC}/self/schedstat")


def _read(path: str) -> bytes | None:
    """A small /proc file in one read. A relay samples a bot twice per decision, so this is
    on the answer's path: raw descriptors cost a fifth of pathlib's open-and-decode."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return None
    try:
        return os.read(fd, 4096)
    except OSError:
        return None
    finally:
        os.close(fd)


def _cpu_ticks(pid: int) -> int | None:
    text = _read(f"{PROC}/{pid}/stat")
    if text is None:
        return None
    # The command name is in parentheses and may hold spaces: fields start after the last ')'.
    # After the name: state(0) ppid(1) ... utime(11) stime(12) cutime(13) cstime(14).
    fields = text[text.rindex(b")") + 2:].split()
    return int(fields[11]) + int(fields[12]) + int(fields[13]) + int(fields[14])


def _tasks(pid: int) -> list[str]:
    try:
        return os.listdir(f"{PROC}/{pid}/task")
    except OSError:
        return []


def _children(pid: int, tasks: list[str]) -> list[int]:
    found: list[int] = []
    for tid in tasks:
        text = _read(f"{PROC}/{pid}/task/{tid}/children")
        if text:
            found.extend(int(c) for c in text.split())
    return found


def _waited_ns(pid: int, tasks: list[str]) -> int:
    total = 0
    for tid in tasks:
        text = _read(f"{PROC}/{pid}/task/{tid}/schedstat")
        if text:
            parts = text.split()
            if len(parts) > 1:
                total += int(parts[1])
    return total


def tree_sample(root: int) -> CpuSample:
    """CPU time of ``root`` and every process below it, and how long their threads have
    waited for a core, now."""
    cpu_ticks = 0
    waited_ns = 0
    pending = [root]
    seen: set[int] = set()
    while pending:
        pid = pending.pop()
        if pid in seen:
            continue
        seen.add(pid)
        ticks = _cpu_ticks(pid)
        if ticks is None:
            continue
        cpu_ticks += ticks
        tasks = _tasks(pid)
        waited_ns += _waited_ns(pid, tasks)
        pending.extend(_children(pid, tasks))
    return CpuSample(cpu_ticks * TICK_S, waited_ns / 1e9)


class TreeClock:
    """Measures one decision at a time of the process tree under ``root``.

    A decision runs from the end of the previous one (its answer) to its own answer: what a
    bot computes between its answers (pondering on the others' time, in a thread or a
    child) is its thinking too, and is charged to its next move, not given free. This also
    halves the measuring: one sample per decision, at the answer. Only the first decision,
    and one that follows a decision left unanswered (timed out), start from a fresh sample
    at the turn's delivery."""

    def __init__(self, root: int) -> None:
        self.root = root
        self._start: CpuSample | None = None
        self._end: CpuSample | None = None  # the sample at the last answer, if the last decision ended so

    def start(self) -> None:
        self._start = self._end if self._end is not None else tree_sample(self.root)
        self._end = None

    def used(self) -> CpuSample:
        """What the tree used since ``start`` so far (zero if never started)."""
        now = tree_sample(self.root)
        return now.since(self._start or now)

    def finish(self) -> CpuSample:
        """What the tree used for the decision that has just been answered; the next starts here."""
        now = tree_sample(self.root)
        self._end = now
        return now.since(self._start or now)
