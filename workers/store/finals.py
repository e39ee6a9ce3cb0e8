"""A season's finals in the store: calling them (one transaction), and what the final's scheduler reads.

``start_finals`` checks everything before it writes anything: the season is active, has no
finals yet, and every regular ladder has at least K active versions that played. Then it
stops the regular ladders (their unfinished matches void, their standings frozen), creates
one final ladder per player count with τ = 0 and the finalists' regular ratings, and records
the finals on the season. The rules are `workers.finals`.
"""

from __future__ import annotations

from dataclasses import replace

from psycopg.types.json import Jsonb

from workers.finals import Finals
from workers.ratings import RatingParameters
from workers.seasons import SeasonError

from .database import Conn
from .seasons import Season, get_season, get_season_by_id, stop_ladders

FINALS_VOID_REASON = "the season went to its finals before the match finished"


def finalists(conn: Conn, ladder_id: int, top: int) -> list[tuple[int, float, float]]:
    """The ladder's best ``top`` active versions that played: (version id, μ, σ), best first."""
    rows = conn.execute(
        """SELECT r.version_id, r.mu, r.sigma FROM ratings r JOIN bot_versions v ON v.id = r.version_id
                  JOIN bots b ON b.id = v.bot_id
           WHERE r.ladder_id = %s AND r.matches > 0 AND v.status = 'active' AND b.retired_at IS NULL
           ORDER BY r.mu - 3 * r.sigma DESC, r.mu DESC, r.version_id LIMIT %s""", (ladder_id, top))
    return [(r["version_id"], r["mu"], r["sigma"]) for r in rows]


def start_finals(conn: Conn, name: str, finals: Finals) -> Season:
    """Stop the regular ladders of season ``name`` and open its finals; refused whole, with the reason."""
    season = get_season(conn, name, lock=True)
    if season.state != "active":
        what = "start it first" if season.state == "draft" else "its standings are frozen"
        raise SeasonError(f"season {name} is {season.state}: finals need an active season ({what})")
    if season.finals is not None:
        raise SeasonError(f"season {name} is in its finals already (top {season.finals['top']}): finals are "
                          "called once; wait for them to close the season")
    entries = {}
    for players, ladder_id in sorted(season.ladders.items()):
        best = finalists(conn, ladder_id, finals.top)
        if len(best) < finals.top:
            raise SeasonError(f"the {players}-player ladder of {name} has {len(best)} active version(s) that "
                              f"played, fewer than the {finals.top} finalists asked for: choose --finals "
                              f"{max(2, len(best))} or wait for more versions")
        entries[players] = best
    stop_ladders(conn, season, list(season.ladders.values()), FINALS_VOID_REASON)
    final_rating = replace(season.rating, tau=0.0)
    for players, best in entries.items():
        pseudo = conn.execute("SELECT pseudo_mu, pseudo_sigma FROM ladders WHERE id = %s",
                              (season.ladders[players],)).fetchone()
        assert pseudo is not None
        row = conn.execute(
            """INSERT INTO ladders (season_id, players, stage, rating, pseudo_mu, pseudo_sigma)
               VALUES (%s, %s, 'final', %s, %s, %s) RETURNING id""",
            (season.id, players, Jsonb(final_rating.to_mapping()), pseudo["pseudo_mu"],
             pseudo["pseudo_sigma"])).fetchone()
        assert row is not None
        with conn.cursor() as cur:
            cur.executemany("INSERT INTO ratings (ladder_id, version_id, mu, sigma) VALUES (%s, %s, %s, %s)",
                            [(row["id"], v, mu, sigma) for v, mu, sigma in best])
    conn.execute("UPDATE seasons SET finals = %s WHERE id = %s", (Jsonb(finals.to_mapping()), season.id))
    return get_season_by_id(conn, season.id)


def final_entries(conn: Conn, ladder_id: int) -> list[int]:
    """The final's finalists, in a fixed order (version id): its entries are frozen at the start."""
    return [r["version_id"] for r in
            conn.execute("SELECT version_id FROM ratings WHERE ladder_id = %s ORDER BY version_id", (ladder_id,))]


def final_matches(conn: Conn, ladder_id: int) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]], int]:
    """The seats of the final's matches that are not void, those of the finished ones, and how many run."""
    rows = conn.execute(
        """SELECT m.status, array_agg(p.version_id ORDER BY p.seat) AS seats
           FROM matches m JOIN participants p ON p.match_id = m.id
           WHERE m.ladder_id = %s AND m.status <> 'void' GROUP BY m.id, m.status""", (ladder_id,)).fetchall()
    live = [tuple(r["seats"]) for r in rows]
    finished = [tuple(r["seats"]) for r in rows if r["status"] == "finished"]
    return live, finished, len(live) - len(finished)


def ladder_rating(conn: Conn, ladder_id: int, season: Season) -> RatingParameters:
    """The ladder's own rating parameters (a final's τ = 0), else the season's."""
    row = conn.execute("SELECT rating FROM ladders WHERE id = %s", (ladder_id,)).fetchone()
    return RatingParameters.from_mapping(row["rating"]) if row and row["rating"] is not None else season.rating
