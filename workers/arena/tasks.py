"""The intake's Celery task: a thin shell over `smoke.run_smoke`, safe to run twice.

The Arena enqueues ``skyarena.smoke`` once a version's row and its smoke match are
committed. A second delivery finds the match finished (the claim skips it) or the version
already concluded, and changes nothing.
"""

from __future__ import annotations

import logging
from typing import Any

from workers.celery_app import app
from workers.tasks import enqueue, match_player

from .smoke import run_smoke

log = logging.getLogger(__name__)


@app.task(name="skyarena.smoke")
def smoke_task(version_id: int) -> dict[str, Any]:
    result = run_smoke(match_player(), version_id)
    log.info("version %s: %s %s", version_id, result.status, result.message)
    if result.retry_after_s is not None:
        smoke_task.apply_async((version_id,), countdown=result.retry_after_s)
    enqueue(result.scheduled)
    return {"version_id": version_id, "status": result.status}


def enqueue_smoke(version_id: int) -> None:
    """Send the smoke task for a committed version (the Arena's default dispatcher)."""
    smoke_task.apply_async((version_id,))
