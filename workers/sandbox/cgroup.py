"""Whether cgroup v2 limits could be added on this host (detected, never required).

The rlimits bound each process; a delegated cgroup v2 subtree would also bound the bot's
whole tree (memory including page cache and tmpfs, a pids ceiling the kernel enforces
without counting per uid). The worker needs write access to its own cgroup's directory and
the memory and pids controllers enabled there. Until the sandbox creates a child cgroup per
bot, the match record says what the host offers, so an operator can see it.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

MOUNT = Path("/sys/fs/cgroup")


@cache
def cgroup_v2_status() -> str:
    """A few words for the confinement string: 'delegated', or why not."""
    try:
        lines = Path("/proc/self/cgroup").read_text().split()
    except OSError:
        return "no /proc/self/cgroup"
    unified = [line[3:] for line in lines if line.startswith("0::")]
    if not (MOUNT / "cgroup.controllers").exists() or len(lines) != len(unified):
        return "cgroup v2 not the only hierarchy (hybrid or v1)"
    own = MOUNT / unified[0].lstrip("/")
    controllers = set((own / "cgroup.controllers").read_text().split()) if (own / "cgroup.controllers").exists() \
        else set()
    if not {"memory", "pids"} <= controllers:
        return "cgroup v2 without memory+pids controllers here"
    if not os.access(own, os.W_OK):
        return "cgroup v2 not delegated to this user"
    return "cgroup v2 delegated (unused: rlimits only)"
