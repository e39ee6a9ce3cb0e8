"""Synthetic leagues for tests and benchmarks: accounts, bots and active versions in bulk.

Real submissions arrive through the Arena (archive checks, smoke match); these rows skip
all of that and exist so the store's own tests and ``bench/ratings.py`` have versions to
rate. Every bot shares one tiny placeholder archive.
"""

from __future__ import annotations

from psycopg.types.json import Jsonb

from .accounts import account_id
from .database import Conn
from .versions import store_blob

PLACEHOLDER_ARCHIVE = b"synthetic bot: no code"


def register_versions(conn: Conn, game: str, count: int, account: str = "synthetic") -> list[int]:
    """``count`` new active versions of ``game`` (one bot each), returned in creation order."""
    sha = store_blob(conn, PLACEHOLDER_ARCHIVE)
    owner = account_id(conn, account)
    first = conn.execute("SELECT count(*) AS n FROM bots WHERE account_id = %s", (owner,)).fetchone()
    assert first is not None
    bots = conn.execute(
        """INSERT INTO bots (account_id, name, game)
           SELECT %s, %s || '-' || n, %s FROM generate_series(%s::int, %s::int) AS n RETURNING id""",
        (owner, game, game, first["n"], first["n"] + count - 1)).fetchall()
    versions = conn.execute(
        """INSERT INTO bot_versions (bot_id, number, archive_sha256, manifest, status)
           SELECT id, 1, %s, %s, 'active' FROM unnest(%s::bigint[]) AS id ORDER BY id RETURNING id""",
        (sha, Jsonb({"game": game, "entry": "bot.py"}), [b["id"] for b in bots])).fetchall()
    return sorted(v["id"] for v in versions)


def generate_history(conn: Conn, season_id: int, ladder_id: int, versions: list[int], total: int, players: int,
                     seed: int) -> None:
    """``total`` finished matches of the ladder with participants, ratings and history rows.

    Generated inside the server (``generate_series``): a million matches in minutes, not the
    hours a million applies take. Seat ``s`` of match ``n`` is version
    ``versions[(7919 n + s * (V // players)) mod V]``, distinct within a match; the rating
    numbers are random but well-formed.
    """
    if len(versions) < players:
        raise ValueError(f"{players} seats need at least {players} versions, not {len(versions)}")
    conn.execute("SET LOCAL statement_timeout = 0")  # minutes of bulk work, not a runaway query
    conn.execute("SELECT setseed(%s)", (((seed % 1000) / 1000.0),))
    row = conn.execute("SELECT coalesce(max(completed_seq), 0) AS base FROM matches").fetchone()
    assert row is not None
    base = int(row["base"])
    arguments = {"season": season_id, "ladder": ladder_id, "players": players, "total": total, "base": base,
                 "versions": versions, "count": len(versions), "step": len(versions) // players,
                 "prefix": f"g{ladder_id}x"}
    conn.execute(
        """INSERT INTO matches (id, kind, season_id, ladder_id, game, players, seed, status, completed_seq,
                                end_reason, started_at, finished_at)
           SELECT %(prefix)s || n, 'rated', %(season)s, %(ladder)s, 'skyjo-action', %(players)s, n, 'finished',
                  %(base)s + n, 'finished', now(), now()
           FROM generate_series(1, %(total)s) AS n""", arguments)
    seats = """FROM generate_series(1, %(total)s) AS n, generate_series(0, %(players)s - 1) AS s,
               LATERAL (SELECT (%(versions)s::bigint[])[1 + ((7919::bigint * n + s * %(step)s) %% %(count)s)]
                        AS version) v"""
    conn.execute(f"""INSERT INTO participants (match_id, seat, version_id, rank, score)
                     SELECT %(prefix)s || n, s, v.version, s, -s {seats}""", arguments)
    conn.execute(f"""INSERT INTO rating_history (match_id, ladder_id, version_id, seq, mu_before, sigma_before,
                                                 mu_after, sigma_after, quality, rank, weight)
                     SELECT %(prefix)s || n, %(ladder)s, v.version, %(base)s + n, 20 + 10 * random(),
                            1 + random(), 20 + 10 * random(), 1 + random(), random(), s, 1 {seats}""", arguments)
    conn.execute("""INSERT INTO ratings (ladder_id, version_id, mu, sigma, matches, last_match_id)
                    SELECT %(ladder)s, version_id, 20 + 10 * random(), 1 + random(), count(*), max(match_id)
                    FROM participants p JOIN matches m ON m.id = p.match_id WHERE m.ladder_id = %(ladder)s
                    GROUP BY version_id
                    ON CONFLICT (ladder_id, version_id) DO UPDATE SET matches = excluded.matches""", arguments)
    conn.execute("SELECT setval('match_completion_seq', %s)", (base + total,))


def scratch_table_insert(conn: Conn, create: bool = False) -> None:
    """The bare-transaction baseline: one row into a table of its own (``create`` makes the table)."""
    if create:
        conn.execute("CREATE TABLE IF NOT EXISTS bench_bare (id bigserial PRIMARY KEY, at timestamptz DEFAULT now())")
    else:
        conn.execute("INSERT INTO bench_bare DEFAULT VALUES")
