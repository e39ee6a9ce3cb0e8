"""Counting what an account stored recently, for the Arena's daily quota of new versions.

The count comes from ``bot_versions`` itself (its ``created_at``), not from a counter of its
own: it cannot drift from what is stored, holds across Arena restarts, and needs no migration.
"""

from __future__ import annotations

from .database import Conn

QUOTA_WINDOW_S = 24 * 3600

# The created_at of the account's version just past ``limit`` (newest first) inside the window, as
# the seconds until it leaves the window: no row means the account is within its quota.
_FREES_IN_SQL = """
    SELECT extract(epoch FROM v.created_at + make_interval(secs => %(window)s) - now())::float8 AS frees_in
    FROM bot_versions v JOIN bots b ON b.id = v.bot_id
    WHERE b.account_id = %(account)s AND v.created_at > now() - make_interval(secs => %(window)s)
    ORDER BY v.created_at DESC
    OFFSET %(offset)s LIMIT 1"""


def over_quota_frees_in_s(conn: Conn, account_id: int, limit: int, window_s: int = QUOTA_WINDOW_S) -> float | None:
    """Called in the transaction that just stored a version: None while the account's versions in the
    last ``window_s`` (that one included) are at most ``limit``; else the seconds until one more fits.

    The account's row is locked first, so two submissions of one account at once are counted one
    after the other (the second sees the first's version once it commits) and never both slip in."""
    conn.execute("SELECT id FROM accounts WHERE id = %s FOR UPDATE", (account_id,))
    row = conn.execute(_FREES_IN_SQL, {"window": window_s, "account": account_id, "offset": limit}).fetchone()
    return None if row is None else max(0.0, float(row["frees_in"]))
