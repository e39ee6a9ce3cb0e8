"""Reading a submitted archive without trusting it: entries, sizes and the manifest.

Nothing here runs the author's code; it only reads the archive's headers and the bytes of
its regular files, with every limit checked before the next entry is read, so a bomb is
stopped at the cap and not after it has filled a disk. The archive may be a tar (plain or
gzip) or a zip file; ``skyarena submit`` sends a gzip tar.

The manifest is ``skyarena.toml`` at the archive's top::

    game = "sky-team"        # a registered game
    entry = "bot.py"         # the bot's file, or "bot.py:ClassName"
    name = "my-bot"          # the bot's name on the ladders
"""

from __future__ import annotations

import io
import re
import stat
import tarfile
import tomllib
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from referee.games import GAMES

from .errors import ArenaError

MANIFEST = "skyarena.toml"
NAME_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")  # the bots table's CHECK
MANIFEST_KEYS = ("game", "entry", "name")


class ArchiveRefused(ArenaError, ValueError):
    """The archive cannot become a version; the message says what to change."""


@dataclass(frozen=True)
class ArchiveLimits:
    """What one submission may hold (the Arena's flags and SKYARENA_ARENA_* variables set them)."""

    max_archive_bytes: int = 4 << 20    # the upload itself: a bot is source code, not data
    max_unpacked_bytes: int = 32 << 20  # every file together, once unpacked (stops compression bombs)
    max_files: int = 500                # entries, folders included


@dataclass(frozen=True)
class Manifest:
    game: str
    entry: str
    name: str

    def to_json(self) -> dict[str, str]:
        return {"game": self.game, "entry": self.entry, "name": self.name}


@dataclass(frozen=True)
class CheckedArchive:
    """An archive whose entries are all safe to unpack, with its parsed manifest."""

    files: dict[str, bytes]   # path -> contents, regular files only
    manifest: Manifest


def _entry_path(name: str) -> str:
    path = PurePosixPath(name)
    if name.startswith("/") or path.is_absolute():
        raise ArchiveRefused(f"the archive entry {name!r} has an absolute path: pack the bot's folder with "
                             "paths relative to it (skyarena submit DIR does)")
    if ".." in path.parts:
        raise ArchiveRefused(f"the archive entry {name!r} climbs out of the bot's folder with '..': "
                             "remove it and pack paths relative to the folder")
    if "\\" in name or "\0" in name:
        raise ArchiveRefused(f"the archive entry {name!r} has a backslash or NUL in its name: rename the file")
    parts = [p for p in path.parts if p not in ("", ".")]
    if not parts:
        return ""
    return "/".join(parts)


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


def _tar_files(data: bytes, budget: _Budget) -> Iterator[tuple[str, bytes]]:
    try:
        archive = tarfile.open(fileobj=io.BytesIO(data), mode="r:*")  # noqa: SIM115 (closed by the with below)
    except (tarfile.TarError, EOFError, OSError):
        raise ArchiveRefused("the upload is not a tar, tar.gz or zip archive: pack the folder with "
                             "skyarena submit DIR") from None
    with archive:
        try:
            for member in archive:
                budget.entry()
                path = _entry_path(member.name)
                if member.issym() or member.islnk():
                    raise ArchiveRefused(f"the archive entry {member.name!r} is a link: replace it with the file "
                                         "itself")
                if member.isdir():
                    continue
                if not member.isreg():
                    raise ArchiveRefused(f"the archive entry {member.name!r} is a device, fifo or other special "
                                         "file: only regular files and folders are allowed")
                budget.grow(member.size)
                source = archive.extractfile(member)
                assert source is not None
                yield path, source.read(member.size)
        except (tarfile.TarError, EOFError, OSError, ValueError) as exc:
            if isinstance(exc, ArchiveRefused):
                raise
            raise ArchiveRefused(f"the archive is damaged ({exc}): pack it again") from None


def _zip_files(data: bytes, budget: _Budget) -> Iterator[tuple[str, bytes]]:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        raise ArchiveRefused("the zip archive is damaged: pack it again") from None
    with archive:
        for info in archive.infolist():
            budget.entry()
            path = _entry_path(info.filename)
            kind = stat.S_IFMT(info.external_attr >> 16)
            if kind == stat.S_IFLNK:
                raise ArchiveRefused(f"the archive entry {info.filename!r} is a link: replace it with the file itself")
            if info.is_dir():
                continue
            if kind not in (0, stat.S_IFREG):
                raise ArchiveRefused(f"the archive entry {info.filename!r} is a device, fifo or other special file: "
                                     "only regular files and folders are allowed")
            budget.grow(info.file_size)
            try:
                with archive.open(info) as source:  # zipfile stops at the declared size and checks the CRC
                    yield path, source.read(info.file_size + 1)[: info.file_size]
            except (zipfile.BadZipFile, OSError, ValueError) as exc:
                raise ArchiveRefused(f"the archive entry {info.filename!r} is damaged ({exc}): pack it again") from None


def read_archive(data: bytes, limits: ArchiveLimits) -> dict[str, bytes]:
    """The archive's regular files by path; refuses links, devices, escaping paths and bombs."""
    if len(data) > limits.max_archive_bytes:
        raise ArchiveRefused(f"the archive is {len(data)} bytes, above the cap of {limits.max_archive_bytes} bytes")
    budget = _Budget(limits)
    reader = _zip_files if zipfile.is_zipfile(io.BytesIO(data)) else _tar_files
    files: dict[str, bytes] = {}
    for path, content in reader(data, budget):
        if len(content) > limits.max_unpacked_bytes:  # a member that lies about its size
            raise ArchiveRefused(f"the archive unpacks to more than {limits.max_unpacked_bytes >> 20} MiB")
        if path in files:
            raise ArchiveRefused(f"the archive holds {path!r} twice: pack each file once")
        files[path] = content
    return files


def parse_manifest(files: dict[str, bytes], bot: str = "", game: str = "") -> Manifest:
    """The manifest, with the upload's own ``bot`` and ``game`` (from the command line) applied."""
    raw = files.get(MANIFEST)
    if raw is None:
        raise ArchiveRefused(f"the archive has no {MANIFEST} at its top: add one with game, entry and name "
                             "(skyarena new GAME DIR writes one)")
    try:
        data: dict[str, Any] = tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ArchiveRefused(f"{MANIFEST} is not valid TOML ({exc}): fix it") from None
    for key in MANIFEST_KEYS:
        if key in data and not isinstance(data[key], str):
            raise ArchiveRefused(f"{MANIFEST}: {key} must be a string, like {key} = \"...\"")
    manifest_game = data.get("game", "")
    if game and manifest_game and game != manifest_game:
        raise ArchiveRefused(f"--game {game} disagrees with {MANIFEST}'s game = {manifest_game!r}: fix one of them")
    chosen_game = game or manifest_game
    if not chosen_game:
        raise ArchiveRefused(f"{MANIFEST} names no game: add game = \"...\" ({', '.join(sorted(GAMES))})")
    if chosen_game not in GAMES:
        raise ArchiveRefused(f"unknown game {chosen_game!r} in {MANIFEST}: choose one of {', '.join(sorted(GAMES))}")
    name = bot or data.get("name", "")
    if not name:
        raise ArchiveRefused(f"{MANIFEST} names no bot: add name = \"my-bot\" (or pass --name)")
    if not NAME_PATTERN.match(name):
        raise ArchiveRefused(f"the bot name {name!r} is not allowed: use 1-64 letters, digits, '_', '.' or '-', "
                             "starting with a letter or digit")
    entry = data.get("entry", "")
    if not entry:
        raise ArchiveRefused(f"{MANIFEST} names no entry point: add entry = \"bot.py\"")
    file = entry.partition(":")[0]
    if not file.endswith(".py"):
        raise ArchiveRefused(f"the entry point {entry!r} must be a .py file (like bot.py or bot.py:MyBot)")
    try:
        path = _entry_path(file)
    except ArchiveRefused:
        raise ArchiveRefused(f"the entry point {entry!r} must be a path inside the bot's folder") from None
    if path not in files:
        raise ArchiveRefused(f"the entry point {file!r} named in {MANIFEST} is not in the archive: add the file "
                             "or fix entry")
    return Manifest(chosen_game, entry, name)


def check_archive(data: bytes, limits: ArchiveLimits, bot: str = "", game: str = "") -> CheckedArchive:
    """Everything that can be checked without running the bot's code."""
    files = read_archive(data, limits)
    return CheckedArchive(files, parse_manifest(files, bot, game))
