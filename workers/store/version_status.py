"""An organiser's hand on a version: pause it (with the reason shown on its bot page) or reinstate it.

The matchmaker pauses versions on its own (`scheduling.pause_versions`, too many recent
faults); these are the same move made by a person, and its undoing. A paused version is
not scheduled; reinstating makes it active again and clears the reason.
"""

from __future__ import annotations

from .database import Conn
from .errors import Conflict, NotFound


def _status(conn: Conn, version_id: int) -> str:
    row = conn.execute("SELECT status FROM bot_versions WHERE id = %s FOR UPDATE", (version_id,)).fetchone()
    if row is None:
        raise NotFound(f"unknown version id {version_id}")
    return str(row["status"])


def pause_version(conn: Conn, version_id: int, reason: str) -> None:
    """Stop scheduling an active version; ``reason`` is what its author reads."""
    if not reason.strip():
        raise ValueError("say why the version is paused: its author reads the reason on the bot page")
    status = _status(conn, version_id)
    if status != "active":
        raise Conflict(f"version {version_id} is {status}: only an active version can be paused")
    conn.execute("""UPDATE bot_versions SET status = 'paused', status_message = %s, status_changed_at = now()
                    WHERE id = %s""", (reason.strip(), version_id))


def reinstate_version(conn: Conn, version_id: int) -> None:
    """Make a paused version active again (the matchmaker schedules it from its next run)."""
    status = _status(conn, version_id)
    if status != "paused":
        raise Conflict(f"version {version_id} is {status}: only a paused version can be reinstated")
    conn.execute("""UPDATE bot_versions SET status = 'active', status_message = '', status_changed_at = now()
                    WHERE id = %s""", (version_id,))
