"""A version's code on the worker's disk: its archive from the store, unpacked once.

Versions are immutable and content-addressed, so a worker unpacks each archive once into a
folder named by its SHA-256 (in a private, 0700 cache folder of the worker) and every match
of that version reads the same files; the sandbox mounts the folder read-only. The bytes are
checked against their hash before use, and entries that could escape the folder (absolute
paths, ``..``, links, devices) are refused even though the Arena refused them at submission:
the worker does not trust what it reads from the database more than it must.
"""

from __future__ import annotations

import hashlib
import io
import os
import shutil
import tarfile
import tempfile
import zipfile
from collections.abc import Callable
from pathlib import Path, PurePosixPath

from workers.errors import WorkerError


class ArchiveMissing(WorkerError):
    """A version's archive is not in the store (or its bytes do not match its hash)."""


class ArchiveRejected(WorkerError):
    """A version's archive cannot be unpacked safely."""


def _safe_name(name: str) -> PurePosixPath:
    path = PurePosixPath(name)
    if path.is_absolute() or ".." in path.parts or not path.parts:
        raise ArchiveRejected(f"archive entry {name!r} would land outside the bot's folder")
    return path


def unpack(data: bytes, dest: Path) -> None:
    """Unpack a tar (optionally compressed) or zip archive into ``dest`` (regular files and folders only)."""
    if zipfile.is_zipfile(io.BytesIO(data)):
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            for info in archive.infolist():
                target = dest / _safe_name(info.filename)
                if info.is_dir():
                    target.mkdir(parents=True, exist_ok=True)
                    continue
                if (info.external_attr >> 16) & 0o170000 not in (0, 0o100000):
                    raise ArchiveRejected(f"archive entry {info.filename!r} is not a regular file")
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(archive.read(info))
        return
    try:
        with tarfile.open(fileobj=io.BytesIO(data)) as archive:
            _unpack_tar(archive, dest)
    except tarfile.TarError:
        raise ArchiveRejected("the archive is neither a tar nor a zip file") from None


def _unpack_tar(archive: tarfile.TarFile, dest: Path) -> None:
    for member in archive.getmembers():
        target = dest / _safe_name(member.name)
        if member.isdir():
            target.mkdir(parents=True, exist_ok=True)
        elif member.isfile():
            source = archive.extractfile(member)
            assert source is not None
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(source.read())
        else:
            raise ArchiveRejected(f"archive entry {member.name!r} is a link or device, not a regular file")


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
