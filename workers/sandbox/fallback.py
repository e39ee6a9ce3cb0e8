"""The fallback confinement, for hosts where bwrap is missing or cannot start: util-linux
``unshare`` with new network, pid, ipc, uts and mount namespaces, plus the rlimits.

What is lost against bwrap, and why the worker warns about it on every bot it starts: the
bot sees the host's file system (with its own uid's rights when the worker is root, else the
worker's: it can then read what the worker can). It still has no network, no view of other
processes, a private cwd/HOME/TMPDIR, the same limits and the same seccomp filter (the
bootstrap installs it in both modes).
"""

from __future__ import annotations

import os
import shutil
import stat
from collections.abc import Iterable
from pathlib import Path

NAMESPACES = ("net", "pid", "ipc", "uts", "mount")


def find_unshare() -> str | None:
    return shutil.which("unshare")


def unshare_argv(unshare: str, as_root: bool) -> list[str]:
    # setpriv (util-linux too) ties unshare's life to the worker's, as bwrap's --die-with-parent does.
    setpriv = shutil.which("setpriv")
    lead = [setpriv, "--pdeathsig", "KILL", "--"] if setpriv else []
    args = [*lead, unshare, "--net", "--pid", "--ipc", "--uts", "--mount", "--mount-proc",
            "--fork",          # the bot is pid 1 of its namespace: when it goes, its children go
            "--kill-child"]    # unshare dies (killed with the match): the bot gets SIGKILL
    if not as_root:
        args += ["--user", "--map-root-user"]  # root inside its own user namespace only
    return [*args, "--"]


def closed_to_others(paths: Iterable[str]) -> str | None:
    """The first directory on the way to ``paths`` that other users may not enter, if any:
    without bwrap's mounts, a bot with its own uid must reach the runtime on its own."""
    for path in paths:
        for directory in [*reversed(Path(path).parents), Path(path)]:
            if not os.stat(directory).st_mode & stat.S_IXOTH:
                return f"{directory} (mode {stat.filemode(os.stat(directory).st_mode)})"
    return None
