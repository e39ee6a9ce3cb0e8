"""Reading ladders and ratings: the live leaderboard and its pages, a closed season's frozen
standings, a version's ladders, rated matches, rating history and head-to-head record.

Leaderboards order by μ − 3σ (the ``ratings_leaderboard`` index), ties by μ then version id
so the order is total and the same on every read. Only versions that played on the
ladder appear (a carried-over rating with no match this season is a start, not a result).
Per-version figures over many matches read the covering index
``rating_history_version_outcome`` (migration 0002) or a bounded window of the latest
``WINDOW`` matches; ``bench/dashboard.py`` checks that no page scans the big tables.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .database import Conn, Row

DEFAULT_HISTORY_LIMIT = 1000  # a chart's worth of points; older rows stay stored
WINDOW = 500          # head-to-head: over a version's latest matches on a ladder, not its whole past
TREND_POINTS = 20     # the ladder's trend column: μ after each of the latest matches (μ − 3σ only climbs)

# Named so bench/ratings.py can show their query plans.
LEADERBOARD_SQL = """
    SELECT r.version_id, b.name AS bot, v.number AS version, a.name AS account, r.mu, r.sigma,
           r.mu - 3 * r.sigma AS score, r.matches, r.last_match_id
    FROM ratings r JOIN bot_versions v ON v.id = r.version_id JOIN bots b ON b.id = v.bot_id
         JOIN accounts a ON a.id = b.account_id
    WHERE r.ladder_id = %s AND r.matches > 0
    ORDER BY r.mu - 3 * r.sigma DESC, r.mu DESC, r.version_id
    LIMIT %s"""
RATING_HISTORY_SQL = """
    SELECT * FROM (
        SELECT match_id, seq, mu_before, sigma_before, mu_after, sigma_after, quality, rank, weight,
               unrated_reason, created_at
        FROM rating_history WHERE version_id = %s AND ladder_id = %s
        ORDER BY seq DESC LIMIT %s) latest
    ORDER BY seq"""


@dataclass(frozen=True)
class Standing:
    position: int
    version_id: int
    mu: float
    sigma: float
    matches: int

    @property
    def score(self) -> float:
        return self.mu - 3 * self.sigma


def standings(conn: Conn, ladder_id: int, limit: int | None = None) -> list[Standing]:
    """The ladder's current order (positions from 1)."""
    rows = conn.execute(
        """SELECT version_id, mu, sigma, matches FROM ratings
           WHERE ladder_id = %s AND matches > 0
           ORDER BY mu - 3 * sigma DESC, mu DESC, version_id
           LIMIT %s""", (ladder_id, limit))
    return [Standing(i, r["version_id"], r["mu"], r["sigma"], r["matches"]) for i, r in enumerate(rows, start=1)]


def frozen_standings(conn: Conn, ladder_id: int) -> list[Standing]:
    """A closed season's standings as they stood when it closed."""
    rows = conn.execute("""SELECT position, version_id, mu, sigma, matches FROM season_standings
                           WHERE ladder_id = %s ORDER BY position""", (ladder_id,))
    return [Standing(r["position"], r["version_id"], r["mu"], r["sigma"], r["matches"]) for r in rows]


def leaderboard(conn: Conn, ladder_id: int, limit: int = 100) -> list[dict[str, Any]]:
    """The top of the ladder with bot names, for the dashboard and the Arena."""
    rows = conn.execute(LEADERBOARD_SQL, (ladder_id, limit))
    return [{"position": i, **r} for i, r in enumerate(rows, start=1)]


def rating_history(conn: Conn, version_id: int, ladder_id: int, limit: int = DEFAULT_HISTORY_LIMIT
                   ) -> list[dict[str, Any]]:
    """The version's latest rating changes on the ladder, oldest first, each with its reason."""
    rows = conn.execute(RATING_HISTORY_SQL, (version_id, ladder_id, limit))
    return list(rows)


_LADDER_FILTERS = """(%(bot)s::text IS NULL OR b.name ILIKE '%%' || %(bot)s || '%%')
                     AND (%(author)s::text IS NULL OR a.name ILIKE '%%' || %(author)s || '%%')"""
_STANDING_FIGURES = """
    LEFT JOIN LATERAL (SELECT count(*) FILTER (WHERE h.rank = 0) AS wins, count(*) AS rated,
                              avg(h.rank) FILTER (WHERE h.unrated_reason IS NULL) AS mean_rank
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


def version_ladders(conn: Conn, version_id: int, season_id: int | None = None) -> list[Row]:
    """The ladders the version is rated on (of ``season_id`` only, if given): active seasons first,
    then the newest."""
    return list(conn.execute(
        """SELECT r.ladder_id, l.players, s.id AS season_id, s.name AS season, s.game, s.state, r.mu, r.sigma,
                  r.matches
           FROM ratings r JOIN ladders l ON l.id = r.ladder_id JOIN seasons s ON s.id = l.season_id
           WHERE r.version_id = %(version)s AND (%(season)s::bigint IS NULL OR s.id = %(season)s)
           ORDER BY s.state = 'active' DESC, s.id DESC, l.players""", {"version": version_id, "season": season_id}))


def rated_matches(conn: Conn, version_id: int, ladder_id: int, *, limit: int, before_seq: int | None = None
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
           JOIN LATERAL (SELECT * FROM participants q WHERE q.match_id = h.match_id AND q.version_id = %(version)s
                         ORDER BY q.seat LIMIT 1) p ON true  -- a co-op self-play match lists once
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


def ladder_ratings(conn: Conn, ladder_id: int, *, frozen: bool = False) -> list[tuple[int, float, float]]:
    """Every listed version's (id, μ, σ) in ladder order: what its rank intervals are drawn from
    (``frozen``: a closed season's standings)."""
    if frozen:
        rows = conn.execute("SELECT version_id, mu, sigma FROM season_standings WHERE ladder_id = %s"
                            " ORDER BY position", (ladder_id,))
    else:
        rows = conn.execute("""SELECT version_id, mu, sigma FROM ratings WHERE ladder_id = %s AND matches > 0
                               ORDER BY mu - 3 * sigma DESC, mu DESC, version_id""", (ladder_id,))
    return [(r["version_id"], r["mu"], r["sigma"]) for r in rows]


RATE_WINDOW = 100  # the match rate is read over the ladder's latest this many completed matches


def match_rate_per_hour(conn: Conn, ladder_id: int) -> float | None:
    """Completed matches per hour over the ladder's latest ``RATE_WINDOW`` (None before two)."""
    row = conn.execute(
        """SELECT count(*) AS n, extract(epoch FROM max(finished_at) - min(finished_at)) AS span
           FROM (SELECT finished_at FROM matches WHERE ladder_id = %s AND completed_seq IS NOT NULL
                 ORDER BY completed_seq DESC LIMIT %s) latest""", (ladder_id, RATE_WINDOW)).fetchone()
    if row is None or row["n"] < 2 or not row["span"]:
        return None
    return (row["n"] - 1) * 3600 / float(row["span"])


def mark_settled(conn: Conn, ladder_id: int, settled: bool) -> None:
    """Record the verdict: the moment the top settled (kept while it stays settled), or none."""
    conn.execute("""UPDATE ladders SET settled_at = CASE WHEN %s THEN coalesce(settled_at, now()) END
                    WHERE id = %s AND (settled_at IS NULL) = %s""", (settled, ladder_id, settled))


def matches_created_since(conn: Conn, ladder_id: int, seconds: float) -> int:
    """Matches scheduled on the ladder in the last ``seconds`` (index ``matches_ladder_created``)."""
    row = conn.execute("""SELECT count(*) AS n FROM matches WHERE ladder_id = %s
                          AND created_at > now() - make_interval(secs => %s)""", (ladder_id, seconds)).fetchone()
    return int(row["n"]) if row else 0


def settled_at(conn: Conn, ladder_id: int) -> Any:
    """When the ladder's top settled in its current settled stretch (a datetime), or None."""
    row = conn.execute("SELECT settled_at FROM ladders WHERE id = %s", (ladder_id,)).fetchone()
    return row["settled_at"] if row else None


def partner_landings(conn: Conn, version_id: int, ladder_id: int, window: int = WINDOW) -> list[Row]:
    """A co-operative version's landings by partner over its latest ``window`` matches on the ladder:
    itself (self-play: every seat its own) and each other version it flew with."""
    return list(conn.execute(
        """WITH recent AS (SELECT match_id FROM rating_history WHERE version_id = %(version)s
                           AND ladder_id = %(ladder)s ORDER BY seq DESC LIMIT %(window)s),
                flights AS (SELECT p.match_id, bool_and(p.rank = 0 AND p.score > 0) AS landed,
                                   coalesce(min(p.version_id) FILTER (WHERE p.version_id <> %(version)s),
                                            %(version)s) AS partner
                            FROM participants p JOIN recent USING (match_id) GROUP BY p.match_id)
           SELECT f.partner AS version_id, f.partner = %(version)s AS itself, b.id AS bot_id, b.name AS bot,
                  v.number AS version, count(*) AS matches, count(*) FILTER (WHERE f.landed) AS landed
           FROM flights f JOIN bot_versions v ON v.id = f.partner JOIN bots b ON b.id = v.bot_id
           GROUP BY f.partner, b.id, b.name, v.number
           ORDER BY f.partner = %(version)s DESC, count(*) DESC, f.partner""",
        {"version": version_id, "ladder": ladder_id, "window": window}))
