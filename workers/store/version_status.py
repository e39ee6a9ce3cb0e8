"""An organiser's hand on a version: pause it (with the reason shown on its bot page) or reinstate it.

The matchmaker pauses versions on its own (`scheduling.pause_versions`, too many recent
faults); these are the same move made by a person, and its undoing. A paused version is
not scheduled; reinstating makes it active again and replaces the reason (with the
reinstater's, or none). The Arena and the dashboard's Organiser page both call these.
"""

from __future__ import annotations

from .database import Conn
from .errors import Conflict
from .submissions import SMOKE_ACCOUNT, SMOKE_OPPONENT_NOTE, set_status
from .versions import version


def pause_version(conn: Conn, version_id: int, reason: str) -> None:
    """Stop scheduling an active version; ``reason`` is what its author reads."""
    if not reason.strip():
        raise ValueError("say why the version is paused: its author reads the reason on the bot page")
    status = version(conn, version_id, lock=True)["status"]
    if status != "active":
        raise Conflict(f"version {version_id} is {status}: only an active version can be paused")
    set_status(conn, version_id, "paused", reason.strip())


def reinstate_version(conn: Conn, version_id: int, reason: str = "") -> None:
    """Make a paused version active again (the matchmaker schedules it from its next run);
    ``reason``, if any, replaces the pause's on the bot page. The house opponent of smoke
    matches is paused for good: it must never be scheduled on a ladder."""
    row = version(conn, version_id, lock=True)
    if row["account"] == SMOKE_ACCOUNT and row["status_message"] == SMOKE_OPPONENT_NOTE:
        raise Conflict(f"version {version_id} is {SMOKE_OPPONENT_NOTE}: it stays paused")
    if row["status"] != "paused":
        raise Conflict(f"version {version_id} is {row['status']}: only a paused version can be reinstated")
    set_status(conn, version_id, "active", reason.strip())
