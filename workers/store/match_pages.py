"""A version's matches a page at a time, newest first, for the Arena's ``ListMatches``.

A busy version plays thousands of matches, more than one answer may hold, so a page ends
with a cursor: the id of its last match. The next page is the matches after that one in
the listing's order (unfinished first, by creation, then finished ones by completion),
found by keyset on the cursor match's own position: no offset, so a page costs the same
however deep it is, and a match finishing meanwhile does not shift the pages after it.
"""

from __future__ import annotations

from .database import Conn, Row
from .errors import NotFound
from .matches import MATCHES_WITH_SEATS_SQL

_PAGE_SQL = MATCHES_WITH_SEATS_SQL + """
    WHERE m.id IN (SELECT match_id FROM participants WHERE version_id = %(version)s)
      AND (%(before)s::text IS NULL OR EXISTS (
            SELECT 1 FROM matches c WHERE c.id = %(before)s AND (
              CASE WHEN c.completed_seq IS NULL
                   THEN m.completed_seq IS NOT NULL OR (m.created_at, m.id) < (c.created_at, c.id)
                   ELSE m.completed_seq < c.completed_seq END)))
    ORDER BY m.completed_seq DESC NULLS FIRST, m.created_at DESC, m.id DESC
    LIMIT %(limit)s"""


def version_match_page(conn: Conn, version_id: int, limit: int, before: str = "") -> tuple[list[Row], str]:
    """Up to ``limit`` of the version's matches after the match ``before`` (from the newest when
    empty), and the cursor of the next page ("" on the last page)."""
    if before and conn.execute("SELECT 1 FROM participants WHERE match_id = %s AND version_id = %s",
                               (before, version_id)).fetchone() is None:
        raise NotFound(f"version {version_id} did not play match {before!r}: --before takes a match id from "
                       "that version's list (the last one shown)")
    rows = list(conn.execute(_PAGE_SQL, {"version": version_id, "before": before or None, "limit": limit + 1}))
    more = len(rows) > limit
    return rows[:limit], rows[limit - 1]["id"] if more else ""
