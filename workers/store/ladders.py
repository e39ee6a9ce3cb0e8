"""Reading ladders: the live leaderboard, a closed season's frozen standings, a version's history.

Leaderboards order by μ − 3σ (the ``ratings_leaderboard`` index), ties by μ then version id
so the order is total and the same on every read. Only versions that played on the
ladder appear (a carried-over rating with no match this season is a start, not a result).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .database import Conn

DEFAULT_HISTORY_LIMIT = 1000  # a chart's worth of points; older rows stay stored

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
