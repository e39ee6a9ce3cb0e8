"""The one rule for what a bot archive may hold, read by the Arena at intake and by the worker
when it unpacks: if the two disagreed, the Arena would accept a version the worker then fails
with a message blaming its author (``tar -C mybot -czf mybot.tgz .`` makes a ``./`` entry that
once went exactly that way).

Nothing here runs the author's code or touches a disk: the archive is read in memory, every
limit is checked before the next entry is read, and so is every tar header *as it is read*.
``tarfile`` reads a pax extended header's or a GNU long name's whole body before handing the
member over, so a 130 KB gzip holding a 128 MiB pax header would cost 128 MiB of memory before
any size check ran; `_GuardedTarInfo` refuses such a header at its announced size instead.

The archive may be a tar (plain or gzip) or a zip file; ``skyarena submit`` sends a gzip tar.
"""

from __future__ import annotations

import io
import stat
import tarfile
import zipfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from referee.match.faults import cap

# A pax extended header or GNU long name/link holds a path and a few attributes: a few hundred
# bytes in any real archive. Anything past this is refused before its body is read.
MAX_HEADER_BYTES = 16 * 1024
# The tar header types whose body tarfile reads whole while parsing the next member.
_LONG_HEADER_TYPES = (tarfile.XHDTYPE, tarfile.XGLTYPE, tarfile.SOLARIS_XHDTYPE, tarfile.GNUTYPE_LONGNAME,
                      tarfile.GNUTYPE_LONGLINK)


class ArchiveRefused(ValueError):
    """The archive cannot become (or be unpacked as) a version; the message says what to change."""


@dataclass(frozen=True)
class ArchiveLimits:
    """What one submission may hold (the Arena's flags and SKYARENA_ARENA_* variables set them)."""

    max_archive_bytes: int = 4 << 20    # the upload itself: a bot is source code, not data
    max_unpacked_bytes: int = 32 << 20  # every file together, once unpacked (stops compression bombs)
    max_files: int = 500                # entries, folders included


class _GuardedTarInfo(tarfile.TarInfo):
    """A tar member that refuses an oversized extended header before tarfile reads its body."""

    def _proc_member(self, tarfile_: tarfile.TarFile) -> tarfile.TarInfo:  # type: ignore[override]
        if self.type in _LONG_HEADER_TYPES and self.size > MAX_HEADER_BYTES:
            raise ArchiveRefused(f"the archive has a {self.size}-byte extended tar header (the limit is "
                                 f"{MAX_HEADER_BYTES}): pack the folder with skyarena submit DIR or a plain tar")
        return super()._proc_member(tarfile_)  # type: ignore[misc]


def entry_path(name: str) -> str:
    """The entry's path inside the bot's folder, ``./`` and empty parts dropped ("" for the folder itself)."""
    path = PurePosixPath(name)
    if name.startswith("/") or path.is_absolute():
        raise ArchiveRefused(f"the archive entry {cap(name)!r} has an absolute path: pack the bot's folder with "
                             "paths relative to it (skyarena submit DIR does)")
    if ".." in path.parts:
        raise ArchiveRefused(f"the archive entry {cap(name)!r} climbs out of the bot's folder with '..': "
                             "remove it and pack paths relative to the folder")
    if "\\" in name or "\0" in name:
        raise ArchiveRefused(f"the archive entry {cap(name)!r} has a backslash or NUL in its name: rename the file")
    return "/".join(p for p in path.parts if p not in ("", "."))


class _Budget:
    def __init__(self, limits: ArchiveLimits) -> None:
        self.limits = limits
        self.files = 0
        self.bytes = 0

    def entry(self) -> None:
        self.files += 1
        if self.files > self.limits.max_files:
            raise ArchiveRefused(f"the archive has more than {self.limits.max_files} entries: leave out what the "
                                 "bot does not need (data sets, virtual environments, .git)")

    def grow(self, size: int) -> None:
        self.bytes += size
        if self.bytes > self.limits.max_unpacked_bytes:
            raise ArchiveRefused(f"the archive unpacks to more than {self.limits.max_unpacked_bytes >> 20} MiB: "
                                 "leave out large files (a bot is its source code)")


# An entry as the readers yield it: its path, and its bytes (None for a folder).
_Entry = tuple[str, bytes | None]


def _tar_entries(data: bytes, budget: _Budget) -> Iterator[_Entry]:
    try:
        archive = tarfile.open(fileobj=io.BytesIO(data), mode="r:*",  # noqa: SIM115 (closed by the with below)
                               tarinfo=_GuardedTarInfo)
    except (tarfile.TarError, EOFError, OSError):
        raise ArchiveRefused("the upload is not a tar, tar.gz or zip archive: pack the folder with "
                             "skyarena submit DIR") from None
    with archive:
        try:
            for member in archive:
                budget.entry()
                path = entry_path(member.name)
                if member.issym() or member.islnk():
                    raise ArchiveRefused(f"the archive entry {cap(member.name)!r} is a link: replace it with the "
                                         "file itself")
                if member.isdir():
                    yield path, None
                    continue
                if member.type not in (tarfile.REGTYPE, tarfile.AREGTYPE, tarfile.CONTTYPE) or member.issparse():
                    raise ArchiveRefused(f"the archive entry {cap(member.name)!r} is a device, fifo or other special "
                                         "file: only regular files and folders are allowed")
                budget.grow(member.size)
                source = archive.extractfile(member)
                assert source is not None
                yield path, source.read(member.size)
        except (tarfile.TarError, EOFError, OSError, ValueError) as exc:
            if isinstance(exc, ArchiveRefused):
                raise
            raise ArchiveRefused(f"the archive is damaged ({cap(str(exc))}): pack it again") from None


def _zip_entries(data: bytes, budget: _Budget) -> Iterator[_Entry]:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        raise ArchiveRefused("the zip archive is damaged: pack it again") from None
    with archive:
        for info in archive.infolist():
            budget.entry()
            path = entry_path(info.filename)
            kind = stat.S_IFMT(info.external_attr >> 16)
            if kind == stat.S_IFLNK:
                raise ArchiveRefused(f"the archive entry {cap(info.filename)!r} is a link: replace it with the file "
                                     "itself")
            if info.is_dir():
                yield path, None
                continue
            if kind not in (0, stat.S_IFREG):
                raise ArchiveRefused(f"the archive entry {cap(info.filename)!r} is a device, fifo or other special "
                                     "file: only regular files and folders are allowed")
            budget.grow(info.file_size)
            try:
                with archive.open(info) as source:  # zipfile stops at the declared size and checks the CRC
                    yield path, source.read(info.file_size + 1)[: info.file_size]
            except (zipfile.BadZipFile, OSError, ValueError) as exc:
                raise ArchiveRefused(f"the archive entry {cap(info.filename)!r} is damaged ({cap(str(exc))}): "
                                     "pack it again") from None


def read_archive(data: bytes, limits: ArchiveLimits) -> dict[str, bytes]:
    """The archive's regular files by path; refuses links, devices, escaping paths, oversized
    headers, bombs, a file named like the folder itself, and a name that is both a file and a folder."""
    if len(data) > limits.max_archive_bytes:
        raise ArchiveRefused(f"the archive is {len(data)} bytes, above the cap of {limits.max_archive_bytes} bytes")
    budget = _Budget(limits)
    reader = _zip_entries if zipfile.is_zipfile(io.BytesIO(data)) else _tar_entries
    files: dict[str, bytes] = {}
    folders: set[str] = set()
    for path, content in reader(data, budget):
        if content is None:
            if path:
                folders.add(path)
            continue
        if not path:
            raise ArchiveRefused("the archive has a file entry named '.' (the bot's folder itself): pack the folder "
                                 "with skyarena submit DIR")
        if len(content) > limits.max_unpacked_bytes:  # a member that lies about its size
            raise ArchiveRefused(f"the archive unpacks to more than {limits.max_unpacked_bytes >> 20} MiB")
        if path in files:
            raise ArchiveRefused(f"the archive holds {cap(path)!r} twice: pack each file once")
        files[path] = content
    for path in files:
        folders.update(str(parent) for parent in PurePosixPath(path).parents if str(parent) != ".")
    clash = sorted(folders & files.keys())
    if clash:
        raise ArchiveRefused(f"the archive holds {cap(clash[0])!r} both as a file and as a folder: rename one")
    return files


def write_files(files: Mapping[str, bytes], folder: Path) -> None:
    """Write what `read_archive` returned under ``folder`` (paths already checked to stay inside it)."""
    for name, content in files.items():
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content)
