"""Every dashboard page's time with a million stored matches, and whether any read scanned a big table.

Builds (once, then reuses) a database holding one 4-player ladder of ``--matches``
generated matches over 2000 versions (`workers.store.synthetic`, as ``bench/ratings.py``)
plus the tests' league of real games (for replays, logs, faults, live matches). Each page
runs through Streamlit's AppTest in this process, its data caches and opened replays
dropped before every run (the first viewer's time, the worst case; the connection pool
stays, as in a running server), then once more with them warm. The big tables'
``seq_scan`` counters before and after say whether any page read a whole table; a table of
fewer than ``BIG_ROWS`` rows (here the ratings of 2,000 versions, and the league's few
replays: the generated matches have none) is one the planner rightly reads whole, so only
scans of bigger ones count against the target.

    python bench/dashboard.py                  # 1,000,000 matches, database skyarena_dash_1m
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import psycopg

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from streamlit.testing.v1 import AppTest  # noqa: E402

from tests.dashboard.league_seed import seed_league  # noqa: E402
from workers.seasons import SeasonSpec  # noqa: E402
from workers.store import Database, connect  # noqa: E402
from workers.store.schema import upgrade  # noqa: E402
from workers.store.seasons import create_season, start_season  # noqa: E402
from workers.store.synthetic import generate_history, register_versions  # noqa: E402

LOCAL_SERVER = "postgresql://postgres@127.0.0.1:5432/postgres"
BIG_TABLES = ("matches", "participants", "rating_history", "ratings", "replays")
BIG_ROWS = 100_000  # below this a sequential scan is the planner's right choice, not a missing index
TARGET_S = 1.0
REPEATS = 5


def _url(server: str, name: str) -> str:
    info = psycopg.conninfo.conninfo_to_dict(server)
    info["dbname"] = name
    return psycopg.conninfo.make_conninfo(**{k: str(v) for k, v in info.items() if v is not None})


def big_database(server: str, name: str, matches: int) -> str:
    """The benchmark's database, built under a temporary name and renamed when complete."""
    with psycopg.connect(server, autocommit=True) as admin:
        if admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone() is None:
            building = f"{name}_building"
            admin.execute(f'DROP DATABASE IF EXISTS "{building}" WITH (FORCE)')
            admin.execute(f'CREATE DATABASE "{building}"')
            url = _url(server, building)
            upgrade(url)
            with connect(url) as conn:
                season = create_season(conn, SeasonSpec("million", "skyjo-action", (4,)))
                start_season(conn, "million")
                ids = register_versions(conn, "skyjo-action", 2000, account="bench-million")
                conn.commit()
                generate_history(conn, season.id, season.ladders[4], ids, matches, 4, 1)
            with psycopg.connect(url, autocommit=True) as conn:
                conn.execute("VACUUM ANALYZE")
            admin.execute(f'ALTER DATABASE "{building}" RENAME TO "{name}"')
    url = _url(server, name)
    upgrade(url)  # a database built by an older checkout gets the newer indexes
    with connect(url) as conn:
        seeded = conn.execute("SELECT 1 FROM seasons WHERE name = 'skyjo-action-spring'").fetchone()
    if seeded is None:
        store = Database(url, max_size=2)
        seed_league(store)
        store.close()
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("VACUUM ANALYZE")
    return url


def _targets(url: str) -> list[tuple[str, str, dict[str, str]]]:
    with connect(url) as conn:
        middle = conn.execute(
            """SELECT v.bot_id, v.id FROM ratings r JOIN bot_versions v ON v.id = r.version_id
               JOIN ladders l ON l.id = r.ladder_id JOIN seasons s ON s.id = l.season_id
               WHERE s.name = 'million' ORDER BY r.matches DESC LIMIT 1""").fetchone()
        replayed = conn.execute("SELECT match_id FROM replays r JOIN matches m ON m.id = r.match_id "
                                "WHERE m.game = 'skybirds' LIMIT 1").fetchone()
        generated = conn.execute("SELECT id FROM matches WHERE id LIKE 'g%%' ORDER BY completed_seq DESC "
                                 "LIMIT 1").fetchone()
    assert middle and replayed and generated, "the benchmark database lacks its league"
    return [("ladders (1M-match ladder)", "ladders", {}),
            ("bot (version with the most matches)", "bot", {"bot": str(middle["bot_id"]),
                                                            "version": str(middle["id"])}),
            ("match (generated, no replay)", "match", {"match": generated["id"]}),
            ("match (Skybirds replay)", "match", {"match": replayed["match_id"]}),
            ("live", "live", {}),
            ("organiser", "organiser", {})]


def _run(page: str, query: dict[str, str], setup: Any = None) -> float:
    app = AppTest.from_file(str(ROOT / "dashboard" / "views" / f"{page}.py"), default_timeout=120)
    for key, value in query.items():
        app.query_params[key] = value
    start = time.perf_counter()
    app.run()
    if setup is not None:
        start = time.perf_counter()
        setup(app)
    elapsed = time.perf_counter() - start
    assert not app.exception, [e.value for e in app.exception]
    return elapsed


def _select_million(app: AppTest) -> None:
    box = app.selectbox(key="ladder_season")
    box.select_index(next(i for i, s in enumerate(box.options) if s.startswith("million "))).run()


def seq_scans(url: str) -> dict[str, tuple[int, int]]:
    """(sequential scans so far, live rows) per table."""
    with connect(url) as conn:
        rows = conn.execute("SELECT relname, seq_scan, n_live_tup FROM pg_stat_user_tables WHERE relname = ANY(%s)",
                            (list(BIG_TABLES),))
        return {r["relname"]: (int(r["seq_scan"]), int(r["n_live_tup"])) for r in rows}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", default=LOCAL_SERVER, help="an administrative URL on the server")
    parser.add_argument("--matches", type=int, default=1_000_000)
    parser.add_argument("--name", default="skyarena_dash_1m", help="the benchmark database (kept for reruns)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    url = big_database(args.database_url, args.name, args.matches)
    os.environ["DATABASE_URL"] = url
    import streamlit as st

    from dashboard.data import _replay as replay_cache

    _run("live", {})  # imports pandas, altair, the engines: not a page's time
    time.sleep(1.5)   # let the statistics of the setup's queries settle
    before = seq_scans(url)
    results: dict[str, dict[str, float]] = {}
    for label, page, query in _targets(url):
        setup = _select_million if page == "ladders" else None
        cold = []
        for _ in range(REPEATS):
            st.cache_data.clear()
            replay_cache.clear()  # re-open the replay; the pool stays, as in a running server
            cold.append(_run(page, query, setup))
        warm = _run(page, query, setup)
        results[label] = {"cold_median_s": round(statistics.median(cold), 3), "cold_max_s": round(max(cold), 3),
                          "warm_s": round(warm, 3)}
    time.sleep(1.5)  # pg_stat_user_tables lags the backends by up to a second
    after = seq_scans(url)
    scans = {table: after.get(table, (0, 0))[0] - before.get(table, (0, 0))[0] for table in BIG_TABLES}
    sizes = {table: after.get(table, (0, 0))[1] for table in BIG_TABLES}
    big_scans = {table: n for table, n in scans.items() if sizes[table] >= BIG_ROWS}
    with connect(url) as conn:
        row = conn.execute("SELECT count(*) AS n FROM matches").fetchone()
    report = {"matches": row["n"] if row else 0, "pages": results, "seq_scans": scans, "rows": sizes,
              "big_table_seq_scans": big_scans,
              "load_average_1min": round(os.getloadavg()[0], 1)}
    if args.json:
        print(json.dumps(report))
        return
    print(f"{report['matches']:,} stored matches; load average {report['load_average_1min']} "
          f"on {os.cpu_count()} cores; caches cleared before each of {REPEATS} runs")
    for label, figures in results.items():
        print(f"  {label:40s} cold median {figures['cold_median_s']:.3f} s  max {figures['cold_max_s']:.3f} s  "
              f"warm {figures['warm_s']:.3f} s")
    print(f"  sequential scans during the pages: {scans}; rows: {sizes}")
    print(f"  of tables with >= {BIG_ROWS:,} rows: {big_scans}  (target: none; "
          f"every page < {TARGET_S:g} s)")


if __name__ == "__main__":
    main()
