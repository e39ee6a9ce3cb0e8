"""The Arena's own settings: the caps on a submitted archive and the bounds on uploads and
submissions (flags and ``SKYARENA_ARENA_*``).

Read once by ``skyarena arena serve`` through the shared settings machinery
(`skyarena/settings.py`), so a bad flag or variable is refused in one line naming it and
the range; the defaults are those of `ArchiveLimits` and `UploadLimits`, which the Arena's
checks use.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from skyarena.settings import Settings, setting
from workers.arena.archive import ArchiveLimits
from workers.arena.online import DEFAULT_MAX_CONNECTIONS
from workers.arena.upload_limits import UploadLimits
from workers.store.challenges import ChallengeLimits

ARCHIVE_DEFAULTS = ArchiveLimits()
UPLOAD_DEFAULTS = UploadLimits()
CHALLENGE_DEFAULTS = ChallengeLimits()
DAY_S = 86_400


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
    max_uploads: int = setting(UPLOAD_DEFAULTS.max_uploads, 1, 10_000, unit="uploads", flag="--max-uploads",
                               help="uploads in progress at once, all accounts (one more is refused at once)")
    max_uploads_per_account: int = setting(UPLOAD_DEFAULTS.max_uploads_per_account, 1, 10_000, unit="uploads",
                                           flag="--max-uploads-per-account",
                                           help="uploads in progress at once for one account")
    stream_deadline_s: float = setting(UPLOAD_DEFAULTS.stream_deadline_s, 0.001, DAY_S, unit="seconds",
                                       flag="--stream-deadline-s",
                                       help="seconds an upload may take from its start to its last byte")
    max_chunks: int = setting(UPLOAD_DEFAULTS.max_chunks, 1, 1 << 30, unit="messages", flag="--max-chunks",
                              help="data messages per upload (skyarena submit sends 64 KiB each)")
    submissions_per_hour: int = setting(UPLOAD_DEFAULTS.submissions_per_hour, 1, 1_000_000, unit="calls",
                                        flag="--submissions-per-hour",
                                        help="SubmitVersion calls per account an hour, refused ones included")
    submission_burst: int = setting(UPLOAD_DEFAULTS.submission_burst, 1, 1_000_000, unit="calls",
                                    flag="--submission-burst",
                                    help="of those calls, how many one account may make at once (the bucket's size)")
    versions_per_day: int = setting(UPLOAD_DEFAULTS.versions_per_day, 1, 1_000_000, unit="versions",
                                    flag="--versions-per-day", help="new versions an account may store in any 24 hours")

    max_connections: int = setting(DEFAULT_MAX_CONNECTIONS, 1, 10_000, unit="streams", flag="--max-connections",
                                   help="online bots connected at once (each Connect stream holds a server thread)")

    challenges_per_day: int = setting(CHALLENGE_DEFAULTS.per_day, 1, 1_000_000, unit="matches",
                                      flag="--challenges-per-day",
                                      help="unrated challenge matches an account may ask for in any 24 hours")
    challenges_in_flight: int = setting(CHALLENGE_DEFAULTS.in_flight, 1, 10_000, unit="matches",
                                        flag="--challenges-in-flight",
                                        help="an account's challenges queued or running at once, so the seasons "
                                             "never starve")

    def challenge_limits(self) -> ChallengeLimits:
        return ChallengeLimits(self.challenges_per_day, self.challenges_in_flight)

    def archive_limits(self) -> ArchiveLimits:
        return ArchiveLimits(self.max_archive_bytes, self.max_unpacked_bytes, self.max_files)

    def upload_limits(self) -> UploadLimits:
        return UploadLimits(**{name: getattr(self, name) for name in vars(UPLOAD_DEFAULTS)})
