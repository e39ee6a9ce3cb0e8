"""A submission from the first chunk to a stored version with its smoke match queued.

Order matters, because nothing may be stored for an archive that is refused:

1. the header names the bot, game, size and hash; a size above the cap is refused before
   any data is read, and the bytes are counted as they arrive (a client that lies about
   the size is cut off at the cap, not after it);
2. the archive is read without unpacking it to disk or running anything
   (`archive.check_archive`: entries, links, devices, file count, unpacked total, manifest);
3. the entry point is loaded by the bot itself in the sandbox (`entry_check.check_entry`);
4. one transaction stores the blob, the bot (if new) and the version (status ``smoke``)
   and queues its smoke match; the same archive again for the same bot is that version;
5. after the commit, the smoke match is dispatched (a Celery task by default).
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from referee.match.faults import cap as echoed
from serving.logs import EventLog
from skyarena.v1 import arena_pb2 as pb
from workers.store import Database
from workers.store import submissions as store
from workers.store.database import Conn

from .archive import ArchiveLimits, ArchiveRefused, check_archive
from .entry_check import check_entry
from .smoke import queue_smoke

FORMATS = ("", "tar.gz", "tar", "zip")
log = EventLog("skyarena.arena")

Dispatch = Callable[[int], None]  # sends a committed version's smoke match to be played
Enqueue = Callable[[list[str]], object]  # sends committed matches (challenges) to the workers


class UploadTooLarge(ArchiveRefused):
    """The upload is past the archive cap (gRPC: RESOURCE_EXHAUSTED)."""


@dataclass(frozen=True)
class Upload:
    header: pb.SubmitHeader
    data: bytes


def receive(chunks: Iterable[pb.SubmitChunk], limits: ArchiveLimits) -> Upload:
    """The header and the archive's bytes, refusing an upload past the cap as soon as it is."""
    stream = iter(chunks)
    first = next(stream, None)
    if first is None or first.WhichOneof("kind") != "header":
        raise ArchiveRefused("a SubmitVersion stream starts with a header (bot, game, size, sha256), then the data")
    header = first.header
    cap = limits.max_archive_bytes
    if header.size > cap:
        raise UploadTooLarge(f"the archive is {header.size} bytes, above the cap of {cap} bytes: leave out what the "
                             "bot does not need")
    if header.format not in FORMATS:
        raise ArchiveRefused(f"unknown archive format {echoed(header.format)!r}: send tar.gz, tar or zip")
    parts: list[bytes] = []
    received = 0
    for chunk in stream:
        if chunk.WhichOneof("kind") != "data":
            raise ArchiveRefused("only one header may be sent, first; the rest of the stream is data chunks")
        received += len(chunk.data)
        if received > cap:
            raise UploadTooLarge(f"the upload passed the cap of {cap} bytes: leave out what the bot does not need")
        parts.append(chunk.data)
    data = b"".join(parts)
    if header.size and received != header.size:
        raise ArchiveRefused(f"the upload ended after {received} of {header.size} bytes: send it again")
    if header.sha256 and hashlib.sha256(data).hexdigest() != header.sha256.lower():
        raise ArchiveRefused("the archive's SHA-256 differs from the header's: the upload was damaged, send it again")
    return Upload(header, data)


@dataclass(frozen=True)
class Intake:
    db: Database
    limits: ArchiveLimits
    dispatch: Dispatch
    sandbox_backend: str = "auto"

    def submit(self, account: str, upload: Upload, quota: Callable[[Conn], None] | None = None) -> store.Submitted:
        """Check, store and dispatch; ``quota`` may refuse a new version inside the storing transaction."""
        checked = check_archive(upload.data, self.limits, upload.header.bot, upload.header.game)
        manifest = checked.manifest
        asyncio.run(check_entry(checked.files, manifest.entry, backend=self.sandbox_backend, game=manifest.game))
        with self.db.connection() as conn:
            submitted = store.submit_version(conn, account, manifest.name, manifest.game, upload.data,
                                             manifest.to_json())
            if not submitted.existing:
                store.refuse_during_finals(conn, manifest.game)   # the whole transaction is undone
                if quota is not None:
                    quota(conn)
                queue_smoke(conn, submitted.version_id, manifest.game)
        if not submitted.existing:
            try:
                self.dispatch(submitted.version_id)
            except Exception as exc:  # the broker is down: the reaper sends the queued smoke match again later
                log.warning("smoke_dispatch_failed", version_id=submitted.version_id,
                            error=f"{type(exc).__name__}: {exc}")
        return submitted
