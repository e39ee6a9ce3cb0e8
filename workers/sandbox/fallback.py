"""The fallback confinement, for hosts where bwrap is missing or cannot start: util-linux
``unshare`` with new network, pid, ipc, uts and mount namespaces, plus the rlimits.

What is lost against bwrap, and why the worker warns about it on every bot it starts: the
bot sees the host's file system (with its own uid's rights when the worker is root, else the
worker's: it can then read what the worker can), and there is no seccomp filter (the one
maintained Python binding, libseccomp's own, comes with the system Python only; the PyPI
ctypes wrapper has had no release since 2021). It still has no network, no view of other
processes, a private cwd/HOME/TMPDIR, and the same limits.
"""

from __future__ import annotations

import shutil

NAMESPACES = ("net", "pid", "ipc", "uts", "mount")


def find_unshare() -> str | None:
    return shutil.which("unshare")


def unshare_argv(unshare: str, as_root: bool) -> list[str]:
    args = [unshare, "--net", "--pid", "--ipc", "--uts", "--mount", "--mount-proc",
            "--fork",          # the bot is pid 1 of its namespace: when it goes, its children go
            "--kill-child"]    # unshare dies (killed with the match): the bot gets SIGKILL
    if not as_root:
        args += ["--user", "--map-root-user"]  # root inside its own user namespace only
    return [*args, "--"]
