"""Matches in the store: one match, its seats, its replay and logs, a version's matches, the live ones.

One read per question, for every caller: the dashboard's pages and the Arena's calls read
the same rows (DESIGN.md: only the store writes SQL). Lists are bounded (``limit``) and
planned on indexes, so a million stored matches do not slow a page (``bench/dashboard.py``).
"""

from __future__ import annotations

from .database import Conn, Row
from .errors import NotFound

IN_FLIGHT = ("queued", "running")

# Matches with their seats as a JSON list, each seat with match_participants' names.
MATCHES_WITH_SEATS_SQL = """
    SELECT m.id, m.kind, s.name AS season, m.game, m.players, m.status, m.end_reason, m.void_reason, m.finished_at,
           m.completed_seq,
           (SELECT jsonb_agg(jsonb_build_object('seat', p.seat, 'version_id', p.version_id, 'bot', b.name,
                   'version', v.number, 'rank', p.rank, 'score', p.score, 'strikes', p.strikes,
                   'forfeited', p.forfeited, 'author', a.name, 'account_id', a.id, 'faults', p.faults)
                   ORDER BY p.seat)
              FROM participants p JOIN bot_versions v ON v.id = p.version_id JOIN bots b ON b.id = v.bot_id
              JOIN accounts a ON a.id = b.account_id WHERE p.match_id = m.id) AS seats
    FROM matches m LEFT JOIN seasons s ON s.id = m.season_id"""
# A version's matches after the cursor match, in the listing's order (see version_match_page).
_PAGE_SQL = MATCHES_WITH_SEATS_SQL + """
    WHERE m.id IN (SELECT match_id FROM participants WHERE version_id = %(version)s)
      AND (%(before)s::text IS NULL OR EXISTS (
            SELECT 1 FROM matches c WHERE c.id = %(before)s AND (
              CASE WHEN c.completed_seq IS NULL
                   THEN m.completed_seq IS NOT NULL OR (m.created_at, m.id) < (c.created_at, c.id)
                   ELSE m.completed_seq < c.completed_seq END)))
    ORDER BY m.completed_seq DESC NULLS FIRST, m.created_at DESC, m.id DESC
    LIMIT %(limit)s"""


def match(conn: Conn, match_id: str) -> Row | None:
    """A match with its season's name and whether a replay is stored (None: no such match)."""
    return conn.execute(
        """SELECT m.id, m.kind, m.game, m.players, m.status, m.end_reason, m.void_reason, m.seed, m.attempts,
                  m.referee, m.created_at, m.started_at, m.finished_at, m.season_id, s.name AS season,
                  m.ladder_id, m.completed_seq, r.steps AS replay_steps, (r.match_id IS NOT NULL) AS has_replay
           FROM matches m LEFT JOIN seasons s ON s.id = m.season_id LEFT JOIN replays r ON r.match_id = m.id
           WHERE m.id = %s""", (match_id,)).fetchone()


def match_participants(conn: Conn, match_id: str) -> list[Row]:
    """The seats in seat order, with bot names, results, faults and the rating change."""
    return list(conn.execute(
        """SELECT p.seat, p.version_id, v.number AS version, b.id AS bot_id, b.name AS bot, b.account_id,
                  a.name AS author, p.rank, p.score, p.faults, p.strikes, p.forfeited, p.unrated,
                  h.mu_before, h.mu_after, h.sigma_after, h.unrated_reason
           FROM participants p JOIN bot_versions v ON v.id = p.version_id JOIN bots b ON b.id = v.bot_id
                JOIN accounts a ON a.id = b.account_id
                LEFT JOIN rating_history h ON h.match_id = p.match_id AND h.version_id = p.version_id
           WHERE p.match_id = %s ORDER BY p.seat""", (match_id,)))


def version_match_page(conn: Conn, version_id: int, limit: int, before: str = "") -> tuple[list[Row], str]:
    """Up to ``limit`` of the version's matches after the match ``before`` (from the newest when
    empty), each with its seats, and the cursor of the next page ("" on the last page).

    The cursor is the id of a page's last match; the next page is found by keyset on that
    match's own position in the listing's order (unfinished first, by creation, then finished
    ones by completion): no offset, so a page costs the same however deep it is, and a match
    finishing meanwhile does not shift the pages after it."""
    if before and conn.execute("SELECT 1 FROM participants WHERE match_id = %s AND version_id = %s",
                               (before, version_id)).fetchone() is None:
        raise NotFound(f"version {version_id} did not play match {before!r}: --before takes a match id from "
                       "that version's list (the last one shown)")
    rows = list(conn.execute(_PAGE_SQL, {"version": version_id, "before": before or None, "limit": limit + 1}))
    more = len(rows) > limit
    return rows[:limit], rows[limit - 1]["id"] if more else ""


def version_challenges(conn: Conn, version_id: int, limit: int) -> list[Row]:
    """The version's latest ``limit`` challenges (unrated matches someone asked for), newest first, with seats."""
    return list(conn.execute(
        MATCHES_WITH_SEATS_SQL + """
        WHERE m.kind = 'challenge' AND m.id IN (SELECT match_id FROM participants WHERE version_id = %(version)s)
        ORDER BY m.created_at DESC, m.id DESC LIMIT %(limit)s""", {"version": version_id, "limit": limit}))


def replay_data(conn: Conn, match_id: str) -> bytes | None:
    """The stored (compressed) replay; ``results.decompress_replay`` opens it."""
    row = conn.execute("SELECT data FROM replays WHERE match_id = %s", (match_id,)).fetchone()
    return bytes(row["data"]) if row else None


def bot_seed(conn: Conn, match_id: str, seat: int) -> int | None:
    """The seed the referee gave a seat's bot (None: not stored, as for matches before it was kept).
    Private to the seat's owner, like its log."""
    row = conn.execute("SELECT bot_seed FROM participants WHERE match_id = %s AND seat = %s",
                       (match_id, seat)).fetchone()
    return None if row is None or row["bot_seed"] is None else int(row["bot_seed"])


def bot_log(conn: Conn, match_id: str, seat: int) -> Row | None:
    """A hosted seat's stderr for one match, with the account of its bot: show it only to that author."""
    return conn.execute("""SELECT l.seat, l.version_id, l.log, l.truncated, b.account_id FROM bot_logs l
                           JOIN bot_versions v ON v.id = l.version_id JOIN bots b ON b.id = v.bot_id
                           WHERE l.match_id = %s AND l.seat = %s""", (match_id, seat)).fetchone()


def matches_in_flight(conn: Conn, *, limit: int, offset: int = 0) -> list[Row]:
    """Running matches (newest first), then queued ones, with their seats' bot names."""
    return list(conn.execute(
        """WITH live AS (
               (SELECT id, status, started_at, created_at FROM matches WHERE status = 'running'
                ORDER BY started_at DESC NULLS LAST LIMIT %(end)s)
               UNION ALL
               (SELECT id, status, started_at, created_at FROM matches WHERE status = 'queued'
                ORDER BY created_at DESC LIMIT %(end)s)),
             page AS (SELECT * FROM live ORDER BY status = 'queued', started_at DESC NULLS LAST, created_at DESC, id
                      LIMIT %(limit)s OFFSET %(offset)s)
           SELECT m.id, m.status, m.game, m.players, m.attempts, m.referee, m.started_at, m.created_at,
                  s.name AS season,
                  (SELECT string_agg(b.name || ' v' || v.number, ', ' ORDER BY p.seat)
                   FROM participants p JOIN bot_versions v ON v.id = p.version_id JOIN bots b ON b.id = v.bot_id
                   WHERE p.match_id = m.id) AS seats
           FROM page JOIN matches m ON m.id = page.id LEFT JOIN seasons s ON s.id = m.season_id
           ORDER BY m.status = 'queued', m.started_at DESC NULLS LAST, m.created_at DESC, m.id""",
        {"limit": limit, "offset": offset, "end": limit + offset}))


def in_flight_counts(conn: Conn) -> dict[str, int]:
    """Matches queued and running, platform-wide (the partial index ``matches_in_flight``)."""
    counts = dict.fromkeys(IN_FLIGHT, 0)
    for row in conn.execute("SELECT status, count(*) AS n FROM matches WHERE status IN ('queued', 'running') "
                            "GROUP BY status"):
        counts[row["status"]] = row["n"]
    return counts
