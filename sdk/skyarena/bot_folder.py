"""A version's bot as an author has it at home: its folder, or the archive it was submitted as.

The platform runs a hosted bot from its unpacked archive, in its folder, with the entry point
its ``skyarena.toml`` names (``bot.py`` or ``bot.py:Class``). Re-running a version locally
(``skyarena reproduce``) loads it the same way: an archive is unpacked into a temporary folder
by the standard library's safe rule (tar's ``data`` filter; zip names kept inside the folder),
and a manifest naming another game than the match's is refused before any code of it runs.
"""

from __future__ import annotations

import hashlib
import tarfile
import tempfile
import tomllib
import zipfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from .bot import Bot
from .loader import BotLoadError, create_bot, load_bot
from .starter import MANIFEST_NAME

ARCHIVE_SUFFIXES = (".tar.gz", ".tgz", ".tar", ".zip")


@dataclass(frozen=True)
class LocalBot:
    """A loaded bot: how to make one, the folder it runs in, and the archive's digest if it was one."""

    make: Callable[[], Bot]
    folder: Path
    name: str
    archive_sha256: str | None = None


def is_archive(path: Path) -> bool:
    return path.is_file() and path.name.endswith(ARCHIVE_SUFFIXES)


def _unpack(archive: Path, into: Path) -> Path:
    """The archive unpacked into ``into``; the folder holding its manifest (the top, or its one folder)."""
    try:
        if archive.name.endswith(".zip"):
            with zipfile.ZipFile(archive) as packed:
                packed.extractall(into)
        else:
            with tarfile.open(archive) as packed:
                packed.extractall(into, filter="data")
    except (tarfile.TarError, zipfile.BadZipFile, OSError) as exc:
        raise BotLoadError(f"{archive} cannot be unpacked ({exc}): give the version's .tar.gz/.zip or its "
                           "folder") from None
    entries = list(into.iterdir())
    if not (into / MANIFEST_NAME).exists() and len(entries) == 1 and entries[0].is_dir():
        return entries[0]
    return into


def manifest_of(folder: Path) -> dict[str, str]:
    path = folder / MANIFEST_NAME
    if not path.is_file():
        return {}
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise BotLoadError(f"{path} cannot be read ({exc}): fix it (game, entry and name)") from None
    return {k: str(v) for k, v in data.items() if isinstance(v, str)}


@contextmanager
def open_bot(path: Path, game: str, seat_hint: str = "") -> Iterator[LocalBot]:
    """The bot in folder or archive ``path`` for a match of ``game`` (refused if its manifest names
    another game); an archive's temporary folder lasts as long as the context."""
    if not path.exists():
        raise BotLoadError(f"no bot folder or archive at {path}: give the folder of your bot{seat_hint} "
                           "(with its skyarena.toml) or the .tar.gz you submitted")
    with tempfile.TemporaryDirectory(prefix="skyarena-bot-") as scratch:
        digest = None
        folder = path
        if is_archive(path):
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
            folder = _unpack(path, Path(scratch))
        elif not path.is_dir():
            raise BotLoadError(f"{path} is neither a bot folder nor an archive ({', '.join(ARCHIVE_SUFFIXES)}): "
                               f"give the folder of your bot{seat_hint} or its archive")
        manifest = manifest_of(folder)
        declared = manifest.get("game")
        if declared and declared != game:
            raise BotLoadError(f"{path} is a {declared} bot (its {MANIFEST_NAME} says so) but the match is {game}: "
                               f"give the folder of the {game} bot{seat_hint}")
        entry = manifest.get("entry", "bot.py")
        file_part, sep, cls_part = entry.partition(":")
        name, cls = load_bot(str(folder.resolve() / file_part) + sep + cls_part, game)
        yield LocalBot(lambda: create_bot(cls), folder.resolve(), manifest.get("name") or name, digest)
