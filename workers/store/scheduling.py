"""The store's side of matchmaking: what the matchmaker needs to know, and its plan written down.

The scheduler (a Celery beat task) reads ``ladder_versions`` and ``in_flight_seats``, calls
the pure ``workers.matchmaking.plan_matches``, and writes the plan back with
``schedule_matches`` (match rows 'queued' with their seats fixed, id and seed chosen now so
a retry replays the same game) and ``pause_versions`` (status 'paused', the reason kept in
``status_message``). Do it in one transaction holding ``scheduling_lock`` (an advisory lock of its own, so
scheduling never waits for the appliers), so two schedulers never over-fill a ladder.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence

from psycopg.types.json import Jsonb

from workers.matchmaking import LadderVersion, PausedVersion, PlannedMatch
from workers.ratings import Rating, RatingParameters

from .database import Conn
from .online import OFFLINE_AFTER_S

RECENT_MATCHES = 10  # the window the fault-pause rule looks at, per version and ladder
SEED_RANGE = 2**62  # match seeds fit the matches table's bigint and the referee's int64
SCHEDULING_LOCK_CLASS = 0x5C14  # first key of the schedulers' two-key advisory lock (second: the ladder id)


def scheduling_lock(conn: Conn, ladder_id: int) -> None:
    """One scheduler per ladder at a time, until this transaction ends."""
    conn.execute("SELECT pg_advisory_xact_lock(%s, %s)", (SCHEDULING_LOCK_CLASS, ladder_id))


def ladder_versions(conn: Conn, ladder_id: int, params: RatingParameters) -> list[LadderVersion]:
    """The active versions of the ladder's game, each with its rating and recent record here.

    An online version is one only while it is connected (a fresh ``online_sessions`` row), and
    it may be seated in as many more matches as its declared ``max_games`` leaves free once its
    matches elsewhere (other ladders, its smoke match) are counted."""
    rows = conn.execute(
        """SELECT v.id, r.mu, r.sigma, coalesce(r.matches, 0) AS matches, o.max_games,
                  (SELECT count(DISTINCT m.id) FROM participants p JOIN matches m ON m.id = p.match_id
                   WHERE p.version_id = v.id AND m.status IN ('queued', 'running')
                   AND m.ladder_id IS DISTINCT FROM l.id) AS busy_elsewhere
           FROM ladders l JOIN seasons s ON s.id = l.season_id
           JOIN bots b ON b.game = s.game AND b.retired_at IS NULL
           JOIN bot_versions v ON v.bot_id = b.id AND v.status = 'active'
           LEFT JOIN online_sessions o ON o.version_id = v.id AND v.hosting = 'online'
           LEFT JOIN ratings r ON r.ladder_id = l.id AND r.version_id = v.id
           WHERE l.id = %s AND (v.hosting = 'hosted' OR o.seen_at > now() - make_interval(secs => %s))
           ORDER BY v.id""", (ladder_id, OFFLINE_AFTER_S)).fetchall()
    ids = [r["id"] for r in rows]
    seats: dict[int, dict[int, int]] = {}
    for r in conn.execute(
            """SELECT p.version_id, p.seat, count(*) AS n FROM participants p JOIN matches m ON m.id = p.match_id
               WHERE m.ladder_id = %s AND m.status = 'finished' AND p.version_id = ANY(%s)
               GROUP BY p.version_id, p.seat""", (ladder_id, ids)):
        seats.setdefault(r["version_id"], {})[r["seat"]] = r["n"]
    recent = {r["version_id"]: (r["n"], r["faulted"]) for r in conn.execute(
        """SELECT version_id, count(*) AS n, count(*) FILTER (WHERE faulted) AS faulted FROM (
               SELECT p.version_id, jsonb_array_length(p.faults) > 0 AS faulted,
                      row_number() OVER (PARTITION BY p.version_id ORDER BY m.completed_seq DESC) AS age
               FROM participants p JOIN matches m ON m.id = p.match_id
               WHERE m.ladder_id = %s AND m.status = 'finished' AND p.version_id = ANY(%s)) recent
           WHERE age <= %s GROUP BY version_id""", (ladder_id, ids, RECENT_MATCHES))}
    out = []
    for r in rows:
        rating = params.fresh() if r["mu"] is None else Rating(r["mu"], r["sigma"])
        counts = seats.get(r["id"], {})
        seat_counts = tuple(counts.get(seat, 0) for seat in range(max(counts, default=-1) + 1))
        n, faulted = recent.get(r["id"], (0, 0))
        limit = None if r["max_games"] is None else max(0, r["max_games"] - r["busy_elsewhere"])
        out.append(LadderVersion(r["id"], rating, r["matches"], seat_counts, n, faulted, limit))
    return out


def in_flight_seats(conn: Conn, ladder_id: int) -> list[tuple[int, ...]]:
    """The seats (version ids) of the ladder's queued and running matches."""
    rows = conn.execute(
        """SELECT array_agg(p.version_id ORDER BY p.seat) AS seats
           FROM matches m JOIN participants p ON p.match_id = m.id
           WHERE m.ladder_id = %s AND m.status IN ('queued', 'running') GROUP BY m.id""", (ladder_id,))
    return [tuple(r["seats"]) for r in rows]


def ladder_match_count(conn: Conn, ladder_id: int) -> int:
    """Matches ever scheduled on the ladder: the matchmaker's seed moves on with it."""
    row = conn.execute("SELECT count(*) AS n FROM matches WHERE ladder_id = %s", (ladder_id,)).fetchone()
    return int(row["n"]) if row else 0


def new_match_id() -> str:
    """A match id chosen at scheduling (the matches table's pattern: URL-safe, at most 64)."""
    return secrets.token_hex(12)


def schedule_matches(conn: Conn, ladder_id: int, planned: Sequence[PlannedMatch], seeds: Sequence[int]) -> list[str]:
    """Queue the planned matches on the ladder; returns their ids."""
    ladder = conn.execute(
        """SELECT l.season_id, l.players, s.game, s.options FROM ladders l JOIN seasons s ON s.id = l.season_id
           WHERE l.id = %s""", (ladder_id,)).fetchone()
    assert ladder is not None, f"ladder {ladder_id} does not exist"
    ids = [new_match_id() for _ in planned]
    with conn.cursor() as cur:
        cur.executemany(
            """INSERT INTO matches (id, kind, season_id, ladder_id, game, players, options, seed)
               VALUES (%s, 'rated', %s, %s, %s, %s, %s, %s)""",
            [(match_id, ladder["season_id"], ladder_id, ladder["game"], ladder["players"], Jsonb(ladder["options"]),
              seed) for match_id, seed in zip(ids, seeds)])
        cur.executemany("INSERT INTO participants (match_id, seat, version_id) VALUES (%s, %s, %s)",
                        [(match_id, seat, version) for match_id, match in zip(ids, planned)
                         for seat, version in enumerate(match.seats)])
    return ids


def pause_versions(conn: Conn, paused: Sequence[PausedVersion]) -> None:
    with conn.cursor() as cur:
        cur.executemany("""UPDATE bot_versions SET status = 'paused', status_message = %s, status_changed_at = now()
                           WHERE id = %s AND status = 'active'""", [(p.reason, p.version_id) for p in paused])
