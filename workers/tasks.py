"""The Celery tasks: thin shells over plain functions, each safe to run twice.

| task | plain function | why it is idempotent |
| --- | --- | --- |
| ``skyarena.play_match`` | `play.play_match` | the claim lets one attempt hold a match; the apply writes it once |
| ``skyarena.schedule`` | `scheduling.schedule_active` | ladders are topped up under their lock, never over-filled |
| (after both) | `release_challenges` | challenges are released under one lock, each once |
| ``skyarena.reap`` | `reap` | only expired leases and long-waiting rows are touched |
| ``skyarena.season_open`` / ``season_close`` | `seasons.start_season` / `close_season` | a season moves forward only |

Per-process resources (the store's pool, the match player with its referee channels and
event loop) are opened after the fork (`celery_app`'s ``worker_process_init``) or on first
use in a process that has none.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from skyarena.settings import current
from workers.arena.smoke import conclude_match
from workers.celery_app import app
from workers.config import PlatformSettings, QueueSettings, WorkerSettings
from workers.play import MatchPlayer, PlaySettings, play_match
from workers.referees import Referees, parse_referees, service_token
from workers.scheduling import schedule_active, top_up_after
from workers.store import Database, open_database, queue
from workers.store.challenges import release_waiting
from workers.store.seasons import close_season, start_season

log = logging.getLogger(__name__)


@dataclass
class _Resources:
    pid: int
    db: Database
    player: MatchPlayer | None = None


_resources: _Resources | None = None
_opening = threading.Lock()  # the threads pool runs several tasks at once in one process


def open_resources() -> _Resources:
    """This process's store pool and match player, opened once per process (never inherited)."""
    global _resources
    with _opening:
        if _resources is None or _resources.pid != os.getpid():
            platform = current(PlatformSettings)  # what the worker read at start, inherited through the fork
            db = open_database(platform.database_url or None, data_dir=platform.data_path, max_size=4)
            _resources = _Resources(os.getpid(), db)
        return _resources


def match_player() -> MatchPlayer:
    """This worker process's match player (store pool, referees, settings), made once per process."""
    resources = open_resources()
    with _opening:
        if resources.player is None:
            referees = Referees(parse_referees(), service_token())
            resources.player = MatchPlayer(resources.db, referees, PlaySettings.from_env())
        return resources.player


def close_resources() -> None:
    global _resources
    if _resources is not None and _resources.pid == os.getpid():
        if _resources.player is not None:
            _resources.player.close()
        _resources.db.close()
    _resources = None


def enqueue(match_ids: Iterable[str], countdown: float | None = None) -> int:
    """Send a play_match message per match (after its row is committed)."""
    count = 0
    for match_id in match_ids:
        play_match_task.apply_async((match_id,), countdown=countdown)
        count += 1
    return count


@app.task(name="skyarena.play_match")
def play_match_task(match_id: str) -> dict[str, Any]:
    result = play_match(match_player(), match_id)
    log.info("match %s: %s %s %s", match_id, result.status, result.detail,
             " ".join(f"{name}={seconds:.3f}s" for name, seconds in result.phases.items()))
    if result.retry_after_s is not None:
        enqueue([match_id], countdown=result.retry_after_s)
    elif result.status in ("finished", "void"):
        topped = top_up_after(open_resources().db, match_id)
        if topped is not None:
            enqueue(topped.match_ids)
        smoked = conclude_match(open_resources().db, match_id)  # a smoke match: its version's verdict
        if smoked is not None:
            enqueue(smoked.scheduled)
        enqueue(release_challenges(open_resources().db))  # the rated ones first: they are queued already
    return {"match_id": match_id, "status": result.status, "detail": result.detail}


@app.task(name="skyarena.schedule")
def schedule_task() -> int:
    scheduled = schedule_active(open_resources().db)
    rated = enqueue(match_id for s in scheduled for match_id in s.match_ids)
    return rated + enqueue(release_challenges(open_resources().db))


def release_challenges(db: Database) -> list[str]:
    """The waiting challenges the platform has room for now (`workers.challenge_release`), released."""
    with db.connection() as conn:
        return release_waiting(conn, current(QueueSettings).release_policy())


@dataclass(frozen=True)
class Reaping:
    requeued: tuple[str, ...]
    voided: tuple[str, ...]
    resent: tuple[str, ...]


def reap(db: Database, max_attempts: int, patience_s: float) -> Reaping:
    """Expired leases back to the queue (or void), and queued rows whose message may be lost."""
    reaped = queue.reap_expired(db, max_attempts)
    waiting = [m for m in queue.waiting_matches(db, patience_s) if m not in reaped.requeued]
    queue.mark_waiting(db, [*reaped.requeued, *waiting])
    return Reaping(reaped.requeued, reaped.voided, tuple(waiting))


@app.task(name="skyarena.reap")
def reap_task() -> dict[str, int]:
    # A queued match nobody claimed for queue_patience_s has probably lost its message: send it again.
    settings = current(WorkerSettings)
    reaping = reap(open_resources().db, settings.max_attempts, settings.queue_patience_s)
    enqueue([*reaping.requeued, *reaping.resent])
    if reaping.requeued or reaping.voided:
        log.warning("reaped: %d re-queued, %d void", len(reaping.requeued), len(reaping.voided))
    return {"requeued": len(reaping.requeued), "voided": len(reaping.voided), "resent": len(reaping.resent)}


@app.task(name="skyarena.noop", ignore_result=False)
def noop_task() -> None:
    """Nothing: the benchmark's baseline, a bare Celery round trip through the same broker and worker."""


@app.task(name="skyarena.season_open")
def season_open_task(name: str) -> int:
    with open_resources().db.connection() as conn:
        start_season(conn, name)
    return schedule_task()


@app.task(name="skyarena.season_close")
def season_close_task(name: str) -> None:
    with open_resources().db.connection() as conn:
        close_season(conn, name)
