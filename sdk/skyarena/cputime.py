"""The CPU time a bot's process tree used, read from /proc (Linux), for CPU-time clocks.

A bot is charged its own CPU time (user + system, every process it started) rather than
the wall time between a turn's sending and its answer, which grows with everything else on
the machine. The figure is read by whoever runs the bot (a worker's relay, ``skyarena
play``), never reported by the bot. ``wait_s`` is the time the tree's threads were runnable
but waiting for a core (``/proc/<pid>/task/<tid>/schedstat``): the machine's load, which
tells a starved bot from one that slept.

Resolution: a clock's live processes are read from their POSIX CPU clocks, exact to the
nanosecond; reaped children are included through their parent's cutime/cstime, which count
clock ticks (``SC_CLK_TCK``, 100 per second on Linux), so they are exact to 10 ms each.
"""

from __future__ import annotations

import os
import time
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


MAX_OPEN_FILES = 32  # /proc files one clock keeps open: a bot with a thousand threads cannot use up the worker's
REFRESH_S = 0.05     # at an answer, the tree's shape found by the last walk is used for this long


def _pread(fd: int) -> bytes | None:
    try:
        return os.pread(fd, 4096, 0)
    except OSError:  # the process is gone (ESRCH): its time is in its parent's cutime once reaped
        return None


def _process_cpu_ns(pid: int) -> int | None:
    """A live process's CPU time (all its threads, exited ones too) from its POSIX CPU clock:
    nanosecond-exact and one system call, a tenth of reading its ``stat``. The clock id is
    the kernel's encoding of "the process clock of pid" (``CPUCLOCK_SCHED``)."""
    try:
        return time.clock_gettime_ns(((~pid) << 3) | 2)
    except OSError:  # gone (reaped), or not visible from here
        return None


def _reaped_ticks_of(stat: bytes) -> int:
    # The command name is in parentheses and may hold spaces: fields start after the last ')'.
    # After the name: state(0) ppid(1) ... cutime(13) cstime(14), in clock ticks.
    fields = stat[stat.rindex(b")") + 2:].split()
    return int(fields[13]) + int(fields[14])


class _OpenTree:
    """A process tree's processes and threads, found by a walk and re-read quickly between walks.

    A walk of the tree (every process's task list and children, their ``stat`` and
    ``schedstat``) costs tens of microseconds, and a relay samples at every answer; so an
    answer's sample re-reads only the CPU clocks of the processes the last walk found (one
    system call each) and adds what their reaped children had used as of that walk. The
    wait for a core is read at walks only (a look while the bot thinks is a walk). If a
    process found by the walk is gone, the quick sample gives way to a walk, so a reaped
    child's time is never counted twice. A process started since the last walk is counted
    at the next walk (its time is cumulative), so no CPU time is lost, only charged a
    decision late. The files opened are ``schedstat`` per thread, bounded, and ``stat`` per
    process; an open /proc file stays bound to its process, never reading a stranger that
    reuses the pid."""

    def __init__(self, root: int) -> None:
        self.root = root
        self.stat: dict[int, int] = {}     # pid -> fd of /proc/pid/stat
        self.sched: dict[str, int] = {}    # "pid/tid" -> fd of its schedstat
        self.walked_at = -REFRESH_S
        self.live: list[int] = []          # the processes the last walk found
        self.reaped_ns = 0                 # their reaped children's CPU time then
        self.waited_ns = 0                 # their threads' wait for a core then

    def walk(self, now: float) -> CpuSample:
        """A full walk: every process and thread found now, their files opened, the gone ones closed."""
        self.walked_at = now
        cpu_ns = reaped_ticks = waited_ns = 0
        pending, seen, alive, threads = [self.root], set(), [], set()
        while pending:
            pid = pending.pop()
            if pid in seen:
                continue
            seen.add(pid)
            text = self._stat_text(pid)
            if text is None:
                continue
            own = _process_cpu_ns(pid)
            if own is None:
                continue  # reaped between the two reads: its time is in its parent's
            alive.append(pid)
            cpu_ns += own
            reaped_ticks += _reaped_ticks_of(text)
            tasks = _tasks(pid)
            for tid in tasks:
                key = f"{pid}/{tid}"
                threads.add(key)
                fd = self.sched.get(key)
                if fd is None:
                    fd = self._open(f"{PROC}/{pid}/task/{tid}/schedstat")
                if fd is not None:
                    self.sched[key] = fd
                waited_ns += _waited_of(_pread(fd) if fd is not None else
                                        _read(f"{PROC}/{pid}/task/{tid}/schedstat"))
            pending.extend(_children(pid, tasks))
        self._forget(set(self.stat) - set(alive), set(self.sched) - threads)
        self.live, self.reaped_ns, self.waited_ns = alive, round(reaped_ticks * TICK_S * 1e9), waited_ns
        return CpuSample((cpu_ns + self.reaped_ns) / 1e9, waited_ns / 1e9)

    def quick(self, now: float) -> CpuSample:
        """The processes of the last walk, their CPU clocks re-read; a walk if one of them is gone."""
        cpu_ns = self.reaped_ns
        for pid in self.live:
            own = _process_cpu_ns(pid)
            if own is None:
                return self.walk(now)
            cpu_ns += own
        return CpuSample(cpu_ns / 1e9, self.waited_ns / 1e9)

    def close(self) -> None:
        self._forget(set(self.stat), set(self.sched))

    def _stat_text(self, pid: int) -> bytes | None:
        fd = self.stat.get(pid)
        if fd is None:
            fd = self._open(f"{PROC}/{pid}/stat")
            if fd is None:
                return _read(f"{PROC}/{pid}/stat")
            self.stat[pid] = fd
        return _pread(fd)

    def _open(self, path: str) -> int | None:
        if len(self.stat) + len(self.sched) >= MAX_OPEN_FILES:
            return None  # read by opening each time instead
        try:
            return os.open(path, os.O_RDONLY)
        except OSError:
            return None

    def _forget(self, pids: set[int], threads: set[str]) -> None:
        for fd in [*(self.stat.pop(pid) for pid in pids), *(self.sched.pop(key) for key in threads)]:
            os.close(fd)


def tree_sample(root: int) -> CpuSample:
    """CPU time of ``root`` and every process below it, and how long their threads have
    waited for a core, now: one walk, as a clock makes it."""
    tree = _OpenTree(root)
    try:
        return tree.walk(time.monotonic())
    finally:
        tree.close()


def _waited_of(schedstat: bytes | None) -> int:
    parts = schedstat.split() if schedstat else []
    return int(parts[1]) if len(parts) > 1 else 0


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
        self._tree = _OpenTree(root)
        self._start: CpuSample | None = None
        self._end: CpuSample | None = None  # the sample at the last answer, if the last decision ended so

    def start(self) -> None:
        self._start = self._end if self._end is not None else self._tree.walk(time.monotonic())
        self._end = None

    def used(self) -> CpuSample:
        """What the tree used since ``start`` so far (zero if never started): a full walk, so
        a child the bot started to think in is found at once."""
        now = self._tree.walk(time.monotonic())
        return now.since(self._start or now)

    def finish(self) -> CpuSample:
        """What the tree used for the decision that has just been answered; the next starts
        here. A quick re-read of the files the last walk opened, unless that walk is older
        than ``REFRESH_S``."""
        moment = time.monotonic()
        now = self._tree.walk(moment) if moment - self._tree.walked_at > REFRESH_S else self._tree.quick(moment)
        self._end = now
        return now.since(self._start or now)

    def close(self) -> None:
        """Close the /proc files kept open (the clock can still be used: it opens them again)."""
        self._tree.close()
