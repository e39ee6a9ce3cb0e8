"""Leagues in the store: a season's leagues and bosses, each version's league per ladder, promotions.

Three callers share it: season creation (``create_leagues``: the leagues and their bosses'
memberships), the apply path (``apply_leagues``, in the transaction that applies a rated match,
so a promotion happens exactly once, right after the match that earned it) and the scheduler
(``ladder_leagues``: which league every active version plays in). The recompute replays the
same rule (`workers.leagues.advance`) and compares with what is stored here (``stored_members``,
``stored_promotions``) or rewrites it (``rewrite_leagues``).

Appliers on a ladder with leagues hold the ladder row exclusively (`results._lock_ratings`), so
the bosses' ratings read here are those of every match completed before, in completion order:
what the recompute sees at the same point.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from workers.leagues import League, Member, Promotion, advance, starting_league
from workers.ratings import RatedMatch, Rating, RatingParameters

from .database import Conn, Row


def create_leagues(conn: Conn, season_id: int, ladder_ids: Sequence[int], bosses: Sequence[tuple[str, str, int]]
                   ) -> None:
    """The season's leagues, lowest first (name, house bot, boss version), each boss placed on every ladder."""
    for position, (name, boss, version_id) in enumerate(bosses):
        row = conn.execute("""INSERT INTO leagues (season_id, position, name, boss, boss_version_id)
                              VALUES (%s, %s, %s, %s, %s) RETURNING id""",
                           (season_id, position, name, boss, version_id)).fetchone()
        assert row is not None
        with conn.cursor() as cur:
            cur.executemany("""INSERT INTO league_members (ladder_id, version_id, league_id, entered)
                               VALUES (%s, %s, %s, 'boss')""",
                            [(ladder, version_id, row["id"]) for ladder in ladder_ids])


def season_leagues(conn: Conn, season_id: int) -> list[League]:
    """The season's leagues, lowest first (empty: the season has none)."""
    return [League(r["id"], r["position"], r["name"], r["boss"], r["boss_version_id"]) for r in conn.execute(
        "SELECT id, position, name, boss, boss_version_id FROM leagues WHERE season_id = %s ORDER BY position",
        (season_id,))]


def league_settings(conn: Conn, season_id: int) -> dict[str, Any]:
    """The season's leagues and promotion settings as JSON, for `season show` and the Arena."""
    row = conn.execute("SELECT promotion_matches, league_start FROM seasons WHERE id = %s", (season_id,)).fetchone()
    leagues = season_leagues(conn, season_id)
    return {"leagues": [{"name": lg.name, "boss": lg.boss, "boss_version_id": lg.boss_version_id} for lg in leagues],
            "promotion_matches": row["promotion_matches"] if row else None,
            "league_start": row["league_start"] if row else None}


def ladder_season(conn: Conn, ladder_id: int) -> tuple[int, int, str]:
    """The ladder's season: its id, promotion threshold and where a new version starts."""
    row = conn.execute("""SELECT s.id, s.promotion_matches, s.league_start FROM ladders l
                          JOIN seasons s ON s.id = l.season_id WHERE l.id = %s""", (ladder_id,)).fetchone()
    assert row is not None, f"ladder {ladder_id} does not exist"
    return row["id"], row["promotion_matches"], row["league_start"]


def bot_lineage(conn: Conn, version_ids: Sequence[int]) -> dict[int, list[int]]:
    """For each version, the earlier versions of its bot, newest first: where 'keep' looks for a league."""
    rows = conn.execute(
        """SELECT v.id, array_agg(o.id ORDER BY o.number DESC) FILTER (WHERE o.id IS NOT NULL) AS earlier
           FROM bot_versions v LEFT JOIN bot_versions o ON o.bot_id = v.bot_id AND o.number < v.number
           WHERE v.id = ANY(%s) GROUP BY v.id""", (list(version_ids),))
    return {r["id"]: list(r["earlier"] or []) for r in rows}


def entering(members: dict[int, Member], earlier: list[int], league_start: str) -> Member:
    """The membership a version without one takes: its newest earlier version's league, or the lowest."""
    predecessor = next((members[v] for v in earlier if v in members), None)
    return starting_league(predecessor, league_start)


def ladder_leagues(conn: Conn, ladder_id: int, version_ids: Sequence[int]) -> dict[int, int]:
    """The league (position) each of ``version_ids`` plays in on the ladder: stored, or where it would enter."""
    _, _, league_start = ladder_season(conn, ladder_id)
    members = stored_members(conn, ladder_id)
    missing = [v for v in version_ids if v not in members]
    lineage = bot_lineage(conn, missing) if missing else {}
    return {v: members[v].league if v in members else entering(members, lineage.get(v, []), league_start).league
            for v in version_ids}


def stored_members(conn: Conn, ladder_id: int) -> dict[int, Member]:
    """Every stored membership of the ladder (version -> its league's position, run, how it entered)."""
    rows = conn.execute("""SELECT m.version_id, g.position, m.streak, m.entered FROM league_members m
                           JOIN leagues g ON g.id = m.league_id WHERE m.ladder_id = %s""", (ladder_id,))
    return {r["version_id"]: Member(r["position"], r["streak"], r["entered"]) for r in rows}


def apply_leagues(conn: Conn, ladder_id: int, season_id: int, match_id: str, seq: int, rated: RatedMatch,
                  params: RatingParameters) -> list[Promotion]:
    """After a rated match's ratings are stored: enter new versions, move each run on, promote (same transaction)."""
    leagues = season_leagues(conn, season_id)
    if not leagues:
        return []
    _, threshold, league_start = ladder_season(conn, ladder_id)
    seated = sorted({c.version_id for c in rated.changes if c.version_id is not None})
    members = stored_members(conn, ladder_id)
    new = [v for v in seated if v not in members]
    lineage = bot_lineage(conn, new) if new else {}
    for version in new:
        members[version] = entering(members, lineage.get(version, []), league_start)
    before = {v: (members[v].league, members[v].streak) for v in seated}
    ratings = {r["version_id"]: Rating(r["mu"], r["sigma"]) for r in conn.execute(
        "SELECT version_id, mu, sigma FROM ratings WHERE ladder_id = %s AND version_id = ANY(%s)",
        (ladder_id, seated + [lg.boss_version_id for lg in leagues]))}
    fresh = params.fresh()
    rated_versions = [c.version_id for c in rated.changes if c.rated and c.version_id is not None]
    promotions = advance(members, leagues, rated_versions, lambda v: ratings.get(v, fresh).leaderboard_score, threshold,
                         match_id, seq)
    ids = [lg.id for lg in leagues]
    changed = [v for v in seated if v in new or (members[v].league, members[v].streak) != before[v]]
    with conn.cursor() as cur:
        cur.executemany(
            """INSERT INTO league_members (ladder_id, version_id, league_id, streak, entered)
               VALUES (%s, %s, %s, %s, %s)
               ON CONFLICT (ladder_id, version_id)
               DO UPDATE SET league_id = excluded.league_id, streak = excluded.streak""",
            [(ladder_id, v, ids[members[v].league], members[v].streak, members[v].entered) for v in changed])
    insert_promotions(conn, ladder_id, ids, promotions, None)
    return promotions


def insert_promotions(conn: Conn, ladder_id: int, league_ids: list[int], promotions: Sequence[Promotion],
                      moments: dict[str, Any] | None) -> None:
    """Promotion rows; ``moments`` (match id -> when it finished) for a recompute, else now (the apply)."""
    if not promotions:
        return
    with conn.cursor() as cur:
        cur.executemany(
            """INSERT INTO league_promotions (ladder_id, version_id, from_league_id, to_league_id, match_id, seq, score,
                                              boss_version_id, boss_score, streak, promoted_at)
               VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, coalesce(%s, now()))""",
            [(ladder_id, p.version_id, league_ids[p.from_league], league_ids[p.to_league], p.match_id, p.seq, p.score,
              p.boss_version_id, p.boss_score, p.streak, (moments or {}).get(p.match_id)) for p in promotions])


def stored_promotions(conn: Conn, ladder_id: int, leagues: list[League]) -> list[Promotion]:
    """The ladder's promotions in the order they happened."""
    position = {lg.id: lg.position for lg in leagues}
    return [Promotion(r["version_id"], position[r["from_league_id"]], position[r["to_league_id"]], r["match_id"],
                      r["seq"], r["score"], r["boss_version_id"], r["boss_score"], r["streak"]) for r in conn.execute(
        """SELECT version_id, from_league_id, to_league_id, match_id, seq, score, boss_version_id, boss_score, streak
           FROM league_promotions WHERE ladder_id = %s ORDER BY seq, version_id""", (ladder_id,))]


def rewrite_leagues(conn: Conn, ladder_id: int, leagues: list[League], members: dict[int, Member],
                    promotions: Sequence[Promotion]) -> None:
    """Replace the ladder's memberships (the bosses' stay) and promotions with recomputed ones."""
    ids = [lg.id for lg in leagues]
    conn.execute("DELETE FROM league_promotions WHERE ladder_id = %s", (ladder_id,))
    conn.execute("DELETE FROM league_members WHERE ladder_id = %s AND entered <> 'boss'", (ladder_id,))
    with conn.cursor() as cur:
        cur.executemany("""INSERT INTO league_members (ladder_id, version_id, league_id, streak, entered)
                           VALUES (%s, %s, %s, %s, %s)""",
                        [(ladder_id, v, ids[m.league], m.streak, m.entered) for v, m in sorted(members.items())
                         if m.entered != "boss"])
    moments = {r["id"]: r["finished_at"] for r in conn.execute(
        "SELECT id, finished_at FROM matches WHERE id = ANY(%s)", (sorted({p.match_id for p in promotions}),))}
    insert_promotions(conn, ladder_id, ids, promotions, moments)


def standing_leagues(conn: Conn, ladder_id: int, version_ids: Sequence[int]) -> dict[int, dict[str, Any]]:
    """Each version's league on the ladder (its name, and whether it is that league's boss), for standings;
    empty for a ladder without leagues (a season without them, or a final's)."""
    row = conn.execute("SELECT season_id, stage FROM ladders WHERE id = %s", (ladder_id,)).fetchone()
    leagues = season_leagues(conn, row["season_id"]) if row and row["stage"] == "regular" else []
    if not leagues:
        return {}
    positions = ladder_leagues(conn, ladder_id, version_ids)
    bosses = {lg.boss_version_id: lg.position for lg in leagues}
    return {v: {"league": leagues[p].name, "boss": bosses.get(v) == p} for v, p in positions.items()}


def version_promotions(conn: Conn, version_id: int) -> list[Row]:
    """A version's promotions on every ladder, oldest first, with the evidence: for its bot page."""
    return list(conn.execute(
        """SELECT p.promoted_at, s.name AS season, l.players, f.name AS from_league, t.name AS to_league, p.match_id,
                  p.seq, p.score, p.boss_score, p.boss_version_id, t.boss AS next_boss, f.boss AS boss, p.streak
           FROM league_promotions p JOIN ladders l ON l.id = p.ladder_id JOIN seasons s ON s.id = l.season_id
           JOIN leagues f ON f.id = p.from_league_id JOIN leagues t ON t.id = p.to_league_id
           WHERE p.version_id = %s ORDER BY p.seq""", (version_id,)))


def ladder_league_table(conn: Conn, ladder_id: int) -> list[Row]:
    """The ladder's leagues, top first, for the dashboard: each boss and its line (its μ − 3σ, the score
    a version must stay above to move up; None before the boss's first match), who stands in it and
    how many were promoted out of it. Empty for a ladder without leagues."""
    return list(conn.execute(
        """SELECT g.position, g.name, g.boss, g.boss_version_id, b.id AS boss_bot_id, v.number AS boss_number,
                  r.mu - 3 * r.sigma AS boss_score, s.promotion_matches,
                  (SELECT count(*) FROM league_members m WHERE m.ladder_id = l.id AND m.league_id = g.id
                   AND m.entered <> 'boss') AS members,
                  (SELECT count(*) FROM league_promotions p WHERE p.ladder_id = l.id AND p.from_league_id = g.id)
                  AS promoted
           FROM ladders l JOIN seasons s ON s.id = l.season_id JOIN leagues g ON g.season_id = s.id
           JOIN bot_versions v ON v.id = g.boss_version_id JOIN bots b ON b.id = v.bot_id
           LEFT JOIN ratings r ON r.ladder_id = l.id AND r.version_id = g.boss_version_id
           WHERE l.id = %s AND l.stage = 'regular' ORDER BY g.position DESC""", (ladder_id,)))


def page_leagues(conn: Conn, ladder_id: int, version_ids: tuple[int, ...]) -> dict[int, dict[str, Any]]:
    """``standing_leagues`` for a page of the dashboard's ladder (a tuple: part of the cache key)."""
    return standing_leagues(conn, ladder_id, list(version_ids))
