"""The process-tree clock that CPU-time charging rests on: it counts every process a bot
starts, loses no CPU time when its quick re-reads miss a new process, and keeps a bounded
number of /proc files open whatever the bot does."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest

from skyarena import cputime
from skyarena.cputime import MAX_OPEN_FILES, TreeClock, supported, tree_sample

pytestmark = pytest.mark.skipif(not supported(), reason="CPU clocks need Linux /proc (a worker's host has it)")

# A parent that waits for a line on stdin, then starts a child burning 0.3 s of CPU, waits
# for it (so the child's time moves into the parent's cutime), and waits for a line again.
PARENT = """
import subprocess, sys
sys.stdin.readline()
BURN = "import time\\nt = time.process_time()\\nwhile time.process_time() - t < 0.3: pass"
subprocess.run([sys.executable, "-c", BURN])
print("done", flush=True)
sys.stdin.readline()
"""

# A process with many threads, each parked.
THREADS = """
import sys, threading
event = threading.Event()
for _ in range(100):
    threading.Thread(target=event.wait, daemon=True).start()
print("ready", flush=True)
sys.stdin.readline()
"""


def _open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


@pytest.fixture
def parent() -> Iterator[subprocess.Popen[str]]:
    process = subprocess.Popen([sys.executable, "-c", PARENT], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               text=True)
    yield process
    process.kill()
    process.wait()


def test_a_child_started_and_reaped_between_two_walks_is_charged_once_and_in_full(
        parent: subprocess.Popen[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cputime, "REFRESH_S", 3600.0)  # answers re-read only what the first walk found
    clock = TreeClock(parent.pid)
    clock.start()
    assert parent.stdin is not None and parent.stdout is not None
    parent.stdin.write("go\n")
    parent.stdin.flush()
    assert parent.stdout.readline() == "done\n"
    answered = clock.finish()  # a quick re-read: the child the walk never saw may be left for later
    clock.start()               # the next decision starts from that answer
    walked = clock.used()       # a walk: the child's time, in its parent's cutime, is found
    assert answered.cpu_s + walked.cpu_s >= 0.29, (answered, walked)
    assert answered.cpu_s + walked.cpu_s < 0.29 + 0.2  # and not counted twice
    clock.close()


def test_a_thinking_child_is_found_by_a_look_while_the_bot_thinks(parent: subprocess.Popen[str]) -> None:
    clock = TreeClock(parent.pid)
    clock.start()
    assert parent.stdin is not None
    parent.stdin.write("go\n")
    parent.stdin.flush()
    seen = 0.0
    deadline = time.monotonic() + 10
    while seen < 0.1 and time.monotonic() < deadline:  # the child is alive and burning: only a walk finds it
        time.sleep(0.02)
        seen = clock.used().cpu_s
    assert seen >= 0.1
    clock.close()


def test_the_files_kept_open_are_bounded_and_closed_with_the_clock() -> None:
    before = _open_fds()
    process = subprocess.Popen([sys.executable, "-c", THREADS], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               text=True)
    try:
        assert process.stdout is not None and process.stdout.readline() == "ready\n"
        clock = TreeClock(process.pid)
        clock.start()
        clock.used()
        assert _open_fds() - before <= MAX_OPEN_FILES + 3  # the pipes to the process, and the bound
        assert clock.finish() == clock.finish()  # parked threads: nothing used between two re-reads
        assert tree_sample(process.pid).cpu_s >= clock.used().cpu_s  # the threads past the bound are still read
        clock.close()
        assert _open_fds() - before <= 3
    finally:
        process.kill()
        process.wait()


def test_a_clock_of_a_process_that_is_gone_reads_nothing_and_closes_cleanly() -> None:
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    clock = TreeClock(process.pid)
    clock.start()
    process.wait()
    assert clock.finish().cpu_s >= 0.0
    assert clock.used().cpu_s == 0.0  # a walk drops the gone process's files
    clock.close()
