"""A version's code on the worker's disk: its archive from the store, unpacked once.

Versions are immutable and content-addressed, so a worker unpacks each archive once into a
folder named by its SHA-256 (in a private, 0700 cache folder of the worker) and every match
of that version reads the same files; the sandbox mounts the folder read-only. The bytes are
checked against their hash before use, and the archive is read by the very rule the Arena
accepted it by (`workers.archive_rules`: no absolute paths, ``..``, links, devices, oversized
tar headers): the worker does not trust what it reads from the database more than it must,
and never refuses what the Arena accepted.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

from workers.archive_rules import ArchiveLimits, ArchiveRefused, read_archive, write_files
from workers.errors import WorkerError

# The Arena's caps were applied at intake (and an organiser may raise them there); these only
# bound what a worker holds in memory for an archive that reached the store some other way.
UNPACK_LIMITS = ArchiveLimits(max_archive_bytes=256 << 20, max_unpacked_bytes=1 << 30, max_files=100_000)


class ArchiveMissing(WorkerError):
    """A version's archive is not in the store (or its bytes do not match its hash)."""


class ArchiveRejected(WorkerError):
    """A version's archive cannot be unpacked safely."""


def unpack(data: bytes, dest: Path) -> None:
    """Unpack a tar (optionally compressed) or zip archive into ``dest`` by the Arena's own rule."""
    try:
        files = read_archive(data, UNPACK_LIMITS)
    except ArchiveRefused as exc:
        raise ArchiveRejected(f"the version's archive cannot be unpacked safely: {exc}") from None
    write_files(files, dest)


class CodeCache:
    """Unpacked versions of one worker process, by archive hash."""

    def __init__(self, fetch: Callable[[str], bytes | None], root: Path | None = None) -> None:
        self._fetch = fetch
        self.root = root or Path(tempfile.mkdtemp(prefix="skyarena-code-"))
        self.root.mkdir(mode=0o700, parents=True, exist_ok=True)

    def folder(self, sha256: str) -> Path:
        """The unpacked code of the archive ``sha256``, fetched and unpacked on first use."""
        done = self.root / sha256
        if done.is_dir():
            return done
        data = self._fetch(sha256)
        if data is None:
            raise ArchiveMissing(f"the archive {sha256[:12]}… of this version is missing from the store; "
                                 "resubmit the bot (the match is void)")
        if hashlib.sha256(data).hexdigest() != sha256:
            raise ArchiveMissing(f"the archive {sha256[:12]}… in the store does not match its hash; resubmit the "
                                 "bot (the match is void)")
        staging = Path(tempfile.mkdtemp(prefix=f".{sha256[:12]}-", dir=self.root))
        try:
            unpack(data, staging)
            for path in [staging, *staging.rglob("*")]:
                os.chmod(path, 0o555 if path.is_dir() else 0o444)  # nothing a bot run may change
            os.rename(staging, done)  # atomic: a folder is either complete or absent
        except OSError:
            if not done.is_dir():  # else a concurrent match unpacked it first
                raise
        finally:
            if staging.exists():
                _remove(staging)
        return done

    def close(self) -> None:
        _remove(self.root)


def _remove(path: Path) -> None:
    for p in [path, *path.rglob("*")]:
        if p.is_dir():
            os.chmod(p, 0o700)
    shutil.rmtree(path, ignore_errors=True)
