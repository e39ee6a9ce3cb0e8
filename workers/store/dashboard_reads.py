"""What the dashboard reads: every query bounded, every long list a page, every plan on an index.

A million stored matches must not make a page slow, so nothing here reads a whole table:
lists take ``limit``/``offset`` (small tables: seasons, bots) or a keyset (a version's
matches, newest first, before a ``seq``); per-version figures over many matches read the
covering index ``rating_history_version_outcome`` (migration 0002) or a bounded window of
the latest ``WINDOW`` matches. ``bench/dashboard.py`` times every page at a million matches and
checks that none of them scanned the big tables.
"""

from __future__ import annotations

import hashlib

from .database import Conn, Row

WINDOW = 500          # head-to-head: over a version's latest matches on a ladder, not its whole past
TREND_POINTS = 20     # the ladder's trend column: μ after each of the latest matches (μ − 3σ only climbs)
IN_FLIGHT = ("queued", "running")


def seasons(conn: Conn) -> list[Row]:
    """Every season, newest first, with its ladders as {player count: ladder id} (a small table)."""
    return list(conn.execute(
        """SELECT s.id, s.name, s.game, s.state, s.player_counts, s.created_at, s.started_at, s.closed_at,
                  coalesce(jsonb_object_agg(l.players, l.id) FILTER (WHERE l.id IS NOT NULL), '{}') AS ladders
           FROM seasons s LEFT JOIN ladders l ON l.season_id = s.id
           GROUP BY s.id ORDER BY s.id DESC"""))


def season_progress(conn: Conn, season_id: int) -> dict[str, int]:
    """Matches of the season by status (index-only on ``matches_season_status``)."""
    counts = {status: 0 for status in ("queued", "running", "finished", "void")}
    for row in conn.execute("SELECT status, count(*) AS n FROM matches WHERE season_id = %s GROUP BY status",
                            (season_id,)):
        counts[row["status"]] = row["n"]
    return counts


_LADDER_FILTERS = """(%(bot)s::text IS NULL OR b.name ILIKE '%%' || %(bot)s || '%%')
                     AND (%(author)s::text IS NULL OR a.name ILIKE '%%' || %(author)s || '%%')"""
_STANDING_FIGURES = """
    LEFT JOIN LATERAL (SELECT count(*) FILTER (WHERE h.rank = 0) AS wins, count(*) AS rated
                       FROM rating_history h WHERE h.version_id = page.version_id AND h.ladder_id = %(ladder)s
                       ) w ON true
    LEFT JOIN LATERAL (SELECT array_agg(t.mu ORDER BY t.seq) AS trend
                       FROM (SELECT h.seq, h.mu_after AS mu FROM rating_history h
                             WHERE h.version_id = page.version_id AND h.ladder_id = %(ladder)s
                             ORDER BY h.seq DESC LIMIT %(trend)s) t) tr ON true"""


def ladder_page(conn: Conn, ladder_id: int, *, limit: int, offset: int = 0, bot: str | None = None,
                author: str | None = None) -> list[Row]:
    """One page of the live ladder by μ − 3σ, with names, wins among rated matches and the trend.

    ``position`` is the place on the whole ladder, also when a filter hides the others.
    """
    return list(conn.execute(
        f"""WITH ranked AS (
                SELECT r.version_id, r.mu, r.sigma, r.matches,
                       row_number() OVER (ORDER BY r.mu - 3 * r.sigma DESC, r.mu DESC, r.version_id) AS position
                FROM ratings r WHERE r.ladder_id = %(ladder)s AND r.matches > 0),
            page AS (
                SELECT ranked.*, b.id AS bot_id, b.name AS bot, v.number AS version, v.status, a.name AS author
                FROM ranked JOIN bot_versions v ON v.id = ranked.version_id JOIN bots b ON b.id = v.bot_id
                     JOIN accounts a ON a.id = b.account_id
                WHERE {_LADDER_FILTERS}
                ORDER BY ranked.position LIMIT %(limit)s OFFSET %(offset)s)
            SELECT page.*, page.mu - 3 * page.sigma AS score, w.wins, w.rated, tr.trend
            FROM page {_STANDING_FIGURES}
            ORDER BY page.position""",
        {"ladder": ladder_id, "limit": limit, "offset": offset, "bot": bot or None, "author": author or None,
         "trend": TREND_POINTS}))


def ladder_size(conn: Conn, ladder_id: int, *, bot: str | None = None, author: str | None = None) -> int:
    """How many versions the (filtered) ladder lists, for its pager."""
    row = conn.execute(
        f"""SELECT count(*) AS n FROM ratings r JOIN bot_versions v ON v.id = r.version_id
                   JOIN bots b ON b.id = v.bot_id JOIN accounts a ON a.id = b.account_id
            WHERE r.ladder_id = %(ladder)s AND r.matches > 0 AND {_LADDER_FILTERS}""",
        {"ladder": ladder_id, "bot": bot or None, "author": author or None}).fetchone()
    return int(row["n"]) if row else 0


def frozen_page(conn: Conn, ladder_id: int, *, limit: int, offset: int = 0) -> list[Row]:
    """One page of a closed season's frozen standings, with names (wins and trend as of now)."""
    return list(conn.execute(
        f"""WITH page AS (
                SELECT st.position, st.version_id, st.mu, st.sigma, st.matches, b.id AS bot_id, b.name AS bot,
                       v.number AS version, v.status, a.name AS author
                FROM season_standings st JOIN bot_versions v ON v.id = st.version_id JOIN bots b ON b.id = v.bot_id
                     JOIN accounts a ON a.id = b.account_id
                WHERE st.ladder_id = %(ladder)s ORDER BY st.position LIMIT %(limit)s OFFSET %(offset)s)
            SELECT page.*, page.mu - 3 * page.sigma AS score, w.wins, w.rated, tr.trend
            FROM page {_STANDING_FIGURES}
            ORDER BY page.position""",
        {"ladder": ladder_id, "limit": limit, "offset": offset, "trend": TREND_POINTS}))


def frozen_size(conn: Conn, ladder_id: int) -> int:
    row = conn.execute("SELECT count(*) AS n FROM season_standings WHERE ladder_id = %s", (ladder_id,)).fetchone()
    return int(row["n"]) if row else 0


def find_bots(conn: Conn, name: str | None, *, limit: int, offset: int = 0) -> list[Row]:
    """Bots whose name or author contains ``name``, by name (bots: one row per author's bot, a small table)."""
    return list(conn.execute(
        """SELECT b.id, b.name, b.game, a.name AS author, b.retired_at
           FROM bots b JOIN accounts a ON a.id = b.account_id
           WHERE %(name)s::text IS NULL OR b.name ILIKE '%%' || %(name)s || '%%'
                 OR a.name ILIKE '%%' || %(name)s || '%%'
           ORDER BY b.name, b.id LIMIT %(limit)s OFFSET %(offset)s""",
        {"name": name or None, "limit": limit, "offset": offset}))


def bot(conn: Conn, bot_id: int) -> Row | None:
    return conn.execute(
        """SELECT b.id, b.name, b.game, b.account_id, a.name AS author, b.created_at, b.retired_at
           FROM bots b JOIN accounts a ON a.id = b.account_id WHERE b.id = %s""", (bot_id,)).fetchone()


def bot_versions(conn: Conn, bot_id: int) -> list[Row]:
    """The bot's versions, newest first, with their status and its reason."""
    return list(conn.execute(
        """SELECT id, number, status, status_message, created_at, status_changed_at
           FROM bot_versions WHERE bot_id = %s ORDER BY number DESC""", (bot_id,)))


def version_ladders(conn: Conn, version_id: int) -> list[Row]:
    """The ladders the version is rated on: active seasons first, then the newest."""
    return list(conn.execute(
        """SELECT r.ladder_id, l.players, s.id AS season_id, s.name AS season, s.game, s.state, r.mu, r.sigma,
                  r.matches
           FROM ratings r JOIN ladders l ON l.id = r.ladder_id JOIN seasons s ON s.id = l.season_id
           WHERE r.version_id = %s ORDER BY s.state = 'active' DESC, s.id DESC, l.players""", (version_id,)))


def version_matches(conn: Conn, version_id: int, ladder_id: int, *, limit: int, before_seq: int | None = None
                    ) -> list[Row]:
    """The version's rated matches on the ladder, newest first, ``limit`` at a time (keyset on seq)."""
    return list(conn.execute(
        """SELECT h.seq, h.match_id, h.rank, h.mu_after, h.sigma_after, h.mu_after - h.mu_before AS mu_change,
                  m.end_reason, m.finished_at, p.score, p.seat, p.strikes, p.forfeited
           FROM (SELECT seq, match_id, rank, mu_before, mu_after, sigma_after FROM rating_history
                 WHERE version_id = %(version)s AND ladder_id = %(ladder)s
                       AND (%(before)s::bigint IS NULL OR seq < %(before)s)
                 ORDER BY seq DESC LIMIT %(limit)s) h
           JOIN matches m ON m.id = h.match_id
           JOIN participants p ON p.match_id = h.match_id AND p.version_id = %(version)s
           ORDER BY h.seq DESC""",
        {"version": version_id, "ladder": ladder_id, "before": before_seq, "limit": limit}))


def head_to_head(conn: Conn, version_id: int, ladder_id: int, window: int = WINDOW) -> list[Row]:
    """Every version met in the latest ``window`` matches: meetings, finishing ahead, behind, level."""
    return list(conn.execute(
        """WITH recent AS (SELECT match_id FROM rating_history WHERE version_id = %(version)s AND ladder_id = %(ladder)s
                           ORDER BY seq DESC LIMIT %(window)s),
                mine AS (SELECT p.match_id, p.rank FROM participants p JOIN recent USING (match_id)
                         WHERE p.version_id = %(version)s)
           SELECT o.version_id, b.id AS bot_id, b.name AS bot, v.number AS version, count(*) AS meetings,
                  count(*) FILTER (WHERE mine.rank < o.rank) AS ahead,
                  count(*) FILTER (WHERE mine.rank > o.rank) AS behind,
                  count(*) FILTER (WHERE mine.rank = o.rank) AS level
           FROM mine JOIN participants o ON o.match_id = mine.match_id AND o.version_id <> %(version)s
                JOIN bot_versions v ON v.id = o.version_id JOIN bots b ON b.id = v.bot_id
           WHERE mine.rank IS NOT NULL AND o.rank IS NOT NULL
           GROUP BY o.version_id, b.id, b.name, v.number
           ORDER BY count(*) DESC, o.version_id""",
        {"version": version_id, "ladder": ladder_id, "window": window}))


def faults_by_kind(conn: Conn, version_id: int) -> list[Row]:
    """The version's faults over all its matches, by kind (``participants_faulty``: faulty seats only)."""
    return list(conn.execute(
        """SELECT f ->> 'kind' AS kind, count(*) AS faults, count(DISTINCT p.match_id) AS matches,
                  max(p.match_id) AS example_match
           FROM participants p, jsonb_array_elements(p.faults) AS f
           WHERE p.version_id = %s AND p.faults <> '[]'::jsonb
           GROUP BY 1 ORDER BY count(*) DESC, 1""", (version_id,)))


def match(conn: Conn, match_id: str) -> Row | None:
    """A match with its season's name and whether a replay is stored."""
    return conn.execute(
        """SELECT m.id, m.kind, m.game, m.players, m.status, m.end_reason, m.void_reason, m.seed, m.attempts,
                  m.referee, m.created_at, m.started_at, m.finished_at, m.season_id, s.name AS season,
                  m.ladder_id, r.steps AS replay_steps, (r.match_id IS NOT NULL) AS has_replay
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


def replay_data(conn: Conn, match_id: str) -> bytes | None:
    """The stored (compressed) replay; ``results.decompress_replay`` opens it."""
    row = conn.execute("SELECT data FROM replays WHERE match_id = %s", (match_id,)).fetchone()
    return bytes(row["data"]) if row else None


def bot_log(conn: Conn, match_id: str, seat: int) -> Row | None:
    """A hosted seat's stderr for one match: show it only to the bot's author."""
    return conn.execute("""SELECT l.log, l.truncated, b.account_id FROM bot_logs l
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


def token_account(conn: Conn, token: str, scope: str) -> Row | None:
    """The account a live token of ``scope`` belongs to (tokens are kept as SHA-256 only), or None."""
    digest = hashlib.sha256(token.strip().encode()).digest()
    return conn.execute(
        """SELECT a.id, a.name FROM api_tokens t JOIN accounts a ON a.id = t.account_id
           WHERE t.token_hash = %s AND t.scope = %s AND t.revoked_at IS NULL
                 AND (t.expires_at IS NULL OR t.expires_at > now())""", (digest, scope)).fetchone()


def versions_by_status(conn: Conn, status: str, *, bot: str | None = None, limit: int, offset: int = 0
                       ) -> list[Row]:
    """Versions in one status (``bot_versions_status``), by bot name, for the organiser's pause and
    reinstate lists."""
    return list(conn.execute(
        """SELECT v.id, b.name AS bot, v.number, b.game, a.name AS author, v.status, v.status_message,
                  v.status_changed_at
           FROM bot_versions v JOIN bots b ON b.id = v.bot_id JOIN accounts a ON a.id = b.account_id
           WHERE v.status = %(status)s AND (%(bot)s::text IS NULL OR b.name ILIKE '%%' || %(bot)s || '%%')
           ORDER BY b.name, v.number LIMIT %(limit)s OFFSET %(offset)s""",
        {"status": status, "bot": bot or None, "limit": limit, "offset": offset}))

