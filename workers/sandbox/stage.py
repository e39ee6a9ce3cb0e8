"""The host side of one bot's sandbox: a private copy of its code and an empty scratch
directory, under a directory only the worker controls.

The code is copied, not bound in place: the bot then sees exactly the version it was
started with, the copy's modes can be set so its own uid can read it (and no other bot's
uid can), and nothing the bot's archive points at is followed on the host (links are
copied as links and resolve inside the sandbox, where there is nothing to reach).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import tempfile
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

    def remove(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)


def make_stage(bot_dir: Path, owner: tuple[int, int] | None) -> Stage:
    """Copy ``bot_dir`` and make a scratch directory. ``owner`` (uid, gid) is the bot's own
    host identity when the worker is root: the scratch becomes its, the code readable by
    its group only."""
    if not bot_dir.is_dir():
        raise StageError(f"the bot's code directory {bot_dir} does not exist; unpack the version's archive first")
    root = Path(tempfile.mkdtemp(prefix="bot-", dir=sandbox_root()))
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
        return Stage(root, code, scratch)
    except BaseException:
        shutil.rmtree(root, ignore_errors=True)
        raise
