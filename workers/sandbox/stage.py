"""The host side of one bot's sandbox: a private copy of its code and an empty scratch
directory, under a directory only the worker controls.

The code is copied, not bound in place: the bot then sees exactly the version it was
started with, the copy's modes can be set so its own uid can read it (and no other bot's
uid can), and nothing the bot's archive points at is followed on the host (links are
copied as links and resolve inside the sandbox, where there is nothing to reach).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import stat
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path


class StageError(RuntimeError):
    pass


def sandbox_root() -> Path:
    """``$TMPDIR/skyarena-sandbox-<uid>``, made 0711 (others may pass, not list) and
    checked to be ours: a directory someone else made in /tmp must not be trusted."""
    root = Path(tempfile.gettempdir()) / f"skyarena-sandbox-{os.getuid()}"
    with contextlib.suppress(FileExistsError):
        root.mkdir(mode=0o711)
    info = os.lstat(root)
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid():
        raise StageError(f"{root} is not a directory owned by this user; remove it and retry")
    os.chmod(root, 0o711)
    return root


@dataclass
class Stage:
    root: Path       # the bot's own directory: 0750, group = the bot's gid
    code: Path       # the copy of its code, bound read-only at /bot
    scratch: Path    # its writable cwd, HOME and TMPDIR, bound at /scratch
    lock_fd: int     # an flock on ``root`` for as long as the stage is in use

    def remove(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)
        if self.lock_fd >= 0:
            os.close(self.lock_fd)
            self.lock_fd = -1


def _lock(directory: Path) -> int | None:
    """An exclusive flock on ``directory``, or None if a live stage holds it. The kernel drops
    it when its holder dies, so a stage whose lock is free is one a killed worker left."""
    fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    return fd


def sweep_abandoned(root: Path, min_age_s: float = 60.0) -> int:
    """Remove the stages of bots whose worker died (SIGKILL leaves no time to clean up). A
    stage younger than ``min_age_s`` is left alone: it may be one being made right now,
    between its directory and its lock."""
    removed = 0
    for stage in root.glob("bot-*"):
        with contextlib.suppress(OSError):
            if time.time() - stage.stat().st_mtime < min_age_s:
                continue
            fd = _lock(stage)
            if fd is not None:
                shutil.rmtree(stage, ignore_errors=True)
                os.close(fd)
                removed += 1
    return removed


def make_stage(bot_dir: Path, owner: tuple[int, int] | None) -> Stage:
    """Copy ``bot_dir`` and make a scratch directory. ``owner`` (uid, gid) is the bot's own
    host identity when the worker is root: the scratch becomes its, the code readable by
    its group only."""
    if not bot_dir.is_dir():
        raise StageError(f"the bot's code directory {bot_dir} does not exist; unpack the version's archive first")
    parent = sandbox_root()
    sweep_abandoned(parent)
    root = Path(tempfile.mkdtemp(prefix="bot-", dir=parent))
    lock_fd = _lock(root)
    assert lock_fd is not None  # a new directory: nobody else can hold it
    try:
        code, scratch = root / "code", root / "scratch"
        shutil.copytree(bot_dir, code, symlinks=True)
        for path in [code, *code.rglob("*")]:
            if not path.is_symlink():
                os.chmod(path, 0o750 if path.is_dir() else 0o640)
        scratch.mkdir(mode=0o700)
        if owner is not None:
            uid, gid = owner
            for path in [root, code, *code.rglob("*")]:
                os.lchown(path, 0, gid)
            os.chown(scratch, uid, gid)
        os.chmod(root, 0o750)
        return Stage(root, code, scratch, lock_fd)
    except BaseException:
        shutil.rmtree(root, ignore_errors=True)
        os.close(lock_fd)
        raise
