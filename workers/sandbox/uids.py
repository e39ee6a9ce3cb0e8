"""A host uid of its own for each bot running at once, when the worker is root.

As root the worker could run every bot as the same unprivileged user, but then RLIMIT_NPROC
(and the kernel's other per-user counts) would be shared: one bot's fork bomb would starve
every other bot. So each bot takes a free uid from a range for as long as it runs. A uid is
taken by holding an exclusive ``flock`` on its lock file, which the kernel releases when the
holder closes it or dies, so a crashed worker never leaks uids and two workers never share one.
"""

from __future__ import annotations

import fcntl
import os
import random
from dataclasses import dataclass
from pathlib import Path


class NoFreeUid(RuntimeError):
    pass


@dataclass
class UidLease:
    uid: int
    _fd: int

    def release(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)  # closing drops the flock
            self._fd = -1


def lease_uid(lock_dir: Path, base: int, count: int) -> UidLease:
    """A uid in [base, base + count) that no other live bot holds. The search starts at a
    random place so concurrent workers rarely contend for the same lock files."""
    lock_dir.mkdir(mode=0o700, exist_ok=True)
    start = random.randrange(count)
    for step in range(count):
        uid = base + (start + step) % count
        fd = os.open(lock_dir / f"{uid}.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            continue
        except BaseException:
            os.close(fd)
            raise
        return UidLease(uid, fd)
    raise NoFreeUid(f"all {count} sandbox uids from {base} are in use: raise SandboxLimits.sandbox_uid_count or run "
                    "fewer bots at once")

