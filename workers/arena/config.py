"""The Arena's own settings: the caps on a submitted archive (flags and ``SKYARENA_ARENA_*``).

Read once by ``skyarena arena serve`` through the shared settings machinery
(`skyarena/settings.py`), so a bad variable is refused in one line naming it and the
range; the defaults are `ArchiveLimits`'s, which the Arena's checks use.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from skyarena.settings import Settings, setting
from workers.arena.archive import ArchiveLimits

ARCHIVE_DEFAULTS = ArchiveLimits()


@dataclass(frozen=True)
class ArenaSettings(Settings):
    READ_BY: ClassVar[str] = "arena"
    PREFIX: ClassVar[str] = "SKYARENA_ARENA_"

    max_archive_bytes: int = setting(ARCHIVE_DEFAULTS.max_archive_bytes, 1, 1 << 40, unit="bytes",
                                     flag="--max-archive-bytes", help="largest upload")
    max_unpacked_bytes: int = setting(ARCHIVE_DEFAULTS.max_unpacked_bytes, 1, 1 << 40, unit="bytes",
                                      flag="--max-unpacked-bytes", help="largest unpacked total")
    max_files: int = setting(ARCHIVE_DEFAULTS.max_files, 1, 10_000_000, unit="entries", flag="--max-files",
                             help="most archive entries")

    def archive_limits(self) -> ArchiveLimits:
        return ArchiveLimits(self.max_archive_bytes, self.max_unpacked_bytes, self.max_files)
