"""Reading a submitted archive without trusting it: entries, sizes and the manifest.

Nothing here runs the author's code. The entries are read by `workers.archive_rules`, the
rule the worker unpacks by too (every limit and header checked as it is read, so a bomb is
stopped at the cap and not after it has filled memory); this module adds the manifest.
Echoed input (names, entry points) is cut to the referee's echo limit: a refusal stays one
short line whatever the upload held.

The manifest is ``skyarena.toml`` at the archive's top::

    game = "sky-team"        # a registered game
    entry = "bot.py"         # the bot's file, or "bot.py:ClassName"
    name = "my-bot"          # the bot's name on the ladders
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from typing import Any

from referee.games import GAMES
from referee.match.faults import cap
from workers.archive_rules import ArchiveLimits, ArchiveRefused, entry_path, read_archive

MANIFEST = "skyarena.toml"
NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")  # the bots table's CHECK; use fullmatch
MANIFEST_KEYS = ("game", "entry", "name")


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


def parse_manifest(files: dict[str, bytes], bot: str = "", game: str = "") -> Manifest:
    """The manifest, with the upload's own ``bot`` and ``game`` (from the command line) applied."""
    raw = files.get(MANIFEST)
    if raw is None:
        raise ArchiveRefused(f"the archive has no {MANIFEST} at its top: add one with game, entry and name "
                             "(skyarena new GAME DIR writes one)")
    try:
        data: dict[str, Any] = tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ArchiveRefused(f"{MANIFEST} is not valid TOML ({cap(str(exc))}): fix it") from None
    for key in MANIFEST_KEYS:
        if key in data and not isinstance(data[key], str):
            raise ArchiveRefused(f"{MANIFEST}: {key} must be a string, like {key} = \"...\"")
    manifest_game = data.get("game", "")
    if game and manifest_game and game != manifest_game:
        raise ArchiveRefused(f"--game {cap(game)!r} disagrees with {MANIFEST}'s game = {cap(manifest_game)!r}: "
                             "fix one of them")
    chosen_game = game or manifest_game
    if not chosen_game:
        raise ArchiveRefused(f"{MANIFEST} names no game: add game = \"...\" ({', '.join(sorted(GAMES))})")
    if chosen_game not in GAMES:
        raise ArchiveRefused(f"unknown game {cap(chosen_game)!r} in {MANIFEST}: choose one of "
                             f"{', '.join(sorted(GAMES))}")
    name = bot or data.get("name", "")
    if not name:
        raise ArchiveRefused(f"{MANIFEST} names no bot: add name = \"my-bot\" (or pass --name)")
    if not NAME_PATTERN.fullmatch(name):
        raise ArchiveRefused(f"the bot name {cap(name)!r} is not allowed: use 1-64 letters, digits, '_', '.' or '-', "
                             "starting with a letter or digit")
    entry = data.get("entry", "")
    if not entry:
        raise ArchiveRefused(f"{MANIFEST} names no entry point: add entry = \"bot.py\"")
    file = entry.partition(":")[0]
    if not file.endswith(".py"):
        raise ArchiveRefused(f"the entry point {cap(entry)!r} must be a .py file (like bot.py or bot.py:MyBot)")
    try:
        path = entry_path(file)
    except ArchiveRefused:
        raise ArchiveRefused(f"the entry point {cap(entry)!r} must be a path inside the bot's folder") from None
    if path not in files:
        raise ArchiveRefused(f"the entry point {cap(file)!r} named in {MANIFEST} is not in the archive: add the file "
                             "or fix entry")
    return Manifest(chosen_game, entry, name)


def check_archive(data: bytes, limits: ArchiveLimits, bot: str = "", game: str = "") -> CheckedArchive:
    """Everything that can be checked without running the bot's code."""
    files = read_archive(data, limits)
    return CheckedArchive(files, parse_manifest(files, bot, game))
