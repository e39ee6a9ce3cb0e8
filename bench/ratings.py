"""Rated matches per second through the store's exactly-once path, beside a bare Postgres transaction.

Each figure applies pre-scheduled matches with ``workers.store.results.apply_outcome``, the
production path: match row lock, ladder advisory lock, participants, a compressed replay,
TrueSkill and a history row per seat, one committed transaction per match. Several appliers
run at once (threads, each with its own pooled connection), as several workers would. The
baseline, in the same run, on the same server and with as many threads, is the smallest
durable transaction: one INSERT and a COMMIT.

``--matches N`` also fills a ladder with N stored matches (generated inside the server with
``generate_series``: far faster than shipping rows over COPY, and the same rows) and times
the two reads the dashboard makes most: a ladder's leaderboard and one version's rating
history, with the indexes their query plans use.

Everything runs in a scratch database created on the server and dropped afterwards.

    python bench/ratings.py                       # table
    python bench/ratings.py --json                # {"rated_per_s": {"2", "4", "8"}, "bare_tx_per_s", ...}
    python bench/ratings.py --matches 1000000     # plus the million-match reads
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import re
import statistics
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from workers.matchmaking import PlannedMatch  # noqa: E402
from workers.seasons import SeasonSpec  # noqa: E402
from workers.store import Database, connect  # noqa: E402
from workers.store.ladders import leaderboard, rating_history  # noqa: E402
from workers.store.outcome import MatchOutcome, SeatOutcome  # noqa: E402
from workers.store.replay_document import replay_document  # noqa: E402
from workers.store.results import apply_outcome  # noqa: E402
from workers.store.scheduling import schedule_matches  # noqa: E402
from workers.store.schema import upgrade  # noqa: E402
from workers.store.seasons import create_season, start_season  # noqa: E402
from workers.store.synthetic import generate_history, register_versions, scratch_table_insert  # noqa: E402

LOCAL_SERVER = "postgresql://postgres@127.0.0.1:5432/postgres"
TARGET_RATED_4P = 300.0
TARGET_QUERY_MS = 50.0
VERSIONS = 40
REPLAY_MOVES = 60   # a short game's replay: what gets compressed and stored per match


def admin_url(explicit: str | None) -> str:
    """A server to benchmark on: --database-url, DATABASE_URL, the local Postgres, or the embedded one."""
    chosen = explicit or os.environ.get("DATABASE_URL")
    if chosen:
        return chosen
    try:
        psycopg.connect(LOCAL_SERVER, connect_timeout=2).close()
        return LOCAL_SERVER
    except psycopg.OperationalError:
        from workers.store.embedded import embedded_database_url

        return embedded_database_url()


@contextmanager
def scratch_database(server: str) -> Iterator[str]:
    name = f"skyarena_bench_{uuid.uuid4().hex[:12]}"
    info = psycopg.conninfo.conninfo_to_dict(server)
    with psycopg.connect(server, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    url = psycopg.conninfo.make_conninfo(**{**{k: str(v) for k, v in info.items() if v is not None}, "dbname": name})
    try:
        upgrade(url)
        yield url
    finally:
        with psycopg.connect(server, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _apply_share(url: str, threads: int, work: Sequence[Any], job_name: str, ready: Any, go: Any, done: Any) -> None:
    """One applier process: ``threads`` threads, each with its own pooled connection."""
    db = Database(url, min_size=threads, max_size=threads)
    job = {"apply": lambda item: apply_outcome(db, item), "bare": lambda item: _bare(db)}[job_name]
    with db.connection():
        pass  # open the pool before the clock starts
    errors: list[BaseException] = []

    def worker(share: Sequence[Any]) -> None:
        try:
            for item in share:
                job(item)
        except BaseException as exc:  # surfaced below: a thread's exception would otherwise vanish
            errors.append(exc)

    pool = [threading.Thread(target=worker, args=(work[k::threads],)) for k in range(threads)]
    ready.release()
    go.wait()
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    done.put((time.monotonic(), repr(errors[0]) if errors else None))
    db.close()


def _bare(db: Database) -> None:
    with db.connection() as conn:
        scratch_table_insert(conn)


def run_appliers(url: str, work: Sequence[Any], job_name: str, processes: int, threads: int) -> float:
    """Seconds for ``processes`` x ``threads`` appliers to get through ``work`` (as several workers would)."""
    context = multiprocessing.get_context("spawn")
    ready, go, done = context.Semaphore(0), context.Event(), context.Queue()
    children = [context.Process(target=_apply_share, args=(url, threads, work[k::processes], job_name, ready, go, done))
                for k in range(processes)]
    for child in children:
        child.start()
    for _ in children:
        ready.acquire()
    start = time.monotonic()
    go.set()
    results = [done.get() for _ in children]
    for child in children:
        child.join()
    failures = [error for _, error in results if error]
    if failures:
        raise RuntimeError(f"an applier failed: {failures[0]}")
    return max(end for end, _ in results) - start


def rated_per_s(url: str, players: int, matches: int, processes: int, threads: int, seed: int) -> float:
    """Apply ``matches`` scheduled matches of a fresh ``players``-seat ladder; matches per second."""
    rng = random.Random(seed)
    db = Database(url, max_size=1)
    try:
        with db.connection() as conn:
            season = create_season(conn, SeasonSpec(f"bench-{players}p-{seed}", "skyjo-action", (players,)))
            start_season(conn, season.name)
            versions = register_versions(conn, "skyjo-action", VERSIONS, account=f"bench-{players}-{seed}")
            plan = [PlannedMatch(tuple(rng.sample(versions, players)), 0.0, 0) for _ in range(matches)]
            ids = schedule_matches(conn, season.ladders[players], plan, [rng.randrange(2**31) for _ in plan])
        replay = replay_document([{"type": "header", "game": "skyjo-action", "players": players},
                                  *({"type": "move", "n": i + 1, "actions": {str(i % players): f"flip {i % 12}"}}
                                    for i in range(REPLAY_MOVES))])
        outcomes = []
        for match_id, planned in zip(ids, plan):
            ranks = list(range(players))
            rng.shuffle(ranks)
            seats = tuple(SeatOutcome(seat, version, rank, float(-rank)) for seat, (version, rank)
                          in enumerate(zip(planned.seats, ranks)))
            outcomes.append(MatchOutcome(match_id, seats, "finished", replay, uuid.uuid4().hex))
    finally:
        db.close()
    elapsed = run_appliers(url, outcomes, "apply", processes, threads)
    return matches / elapsed


def bare_tx_per_s(url: str, transactions: int, processes: int, threads: int) -> float:
    with connect(url) as conn:
        scratch_table_insert(conn, create=True)
    return transactions / run_appliers(url, list(range(transactions)), "bare", processes, threads)


def timed_ms(read: Callable[[], object], repeats: int = 15) -> float:
    """The median of ``repeats`` timings after a warm-up read (the dashboard reads a warm cache too)."""
    read()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        read()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def plan_indexes(conn: Any, query: str, params: Sequence[Any]) -> list[str]:
    plan = "\n".join(r["QUERY PLAN"] for r in conn.execute("EXPLAIN " + query, params))
    return sorted(set(re.findall(r"(?:Index|Index Only|Bitmap Index) Scan(?: Backward)? (?:using|on) (\w+)", plan)))


def million(url: str, total: int, players: int, versions: int, seed: int) -> dict[str, Any]:
    """Fill one ladder with ``total`` matches, then time its leaderboard and one version's history."""
    with connect(url) as conn:
        season = create_season(conn, SeasonSpec("bench-million", "skyjo-action", (players,)))
        ladder = season.ladders[players]
        ids = register_versions(conn, "skyjo-action", versions, account="bench-million")
        conn.commit()
        start = time.perf_counter()
        generate_history(conn, season.id, ladder, ids, total, players, seed)
        conn.commit()
        generated_s = time.perf_counter() - start
        conn.execute("ANALYZE")
        version = ids[len(ids) // 2]
        history_rows = len(rating_history(conn, version, ladder))
        board_ms = timed_ms(lambda: leaderboard(conn, ladder))
        history_ms = timed_ms(lambda: rating_history(conn, version, ladder))
        from workers.store.ladders import LEADERBOARD_SQL, RATING_HISTORY_SQL

        indexes = {"leaderboard": plan_indexes(conn, LEADERBOARD_SQL, (ladder, 100)),
                   "rating_history": plan_indexes(conn, RATING_HISTORY_SQL, (version, ladder, 1000))}
    return {"matches": total, "versions": versions, "players": players, "generate_s": round(generated_s, 1),
            "leaderboard_ms": round(board_ms, 2), "rating_history_ms": round(history_ms, 2),
            "rating_history_rows": history_rows, "indexes": indexes}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", help="a server to run on (default: DATABASE_URL, local, embedded)")
    parser.add_argument("--rated", type=int, default=1500, help="matches applied per player count (default 1500)")
    parser.add_argument("--processes", type=int, default=2, help="applier processes, like workers (default 2)")
    parser.add_argument("--threads", type=int, default=4, help="applier threads per process (default 4)")
    parser.add_argument("--matches", type=int, help="also time the reads over this many stored matches")
    parser.add_argument("--versions", type=int, default=2000, help="versions in the --matches ladder (default 2000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args()
    if args.rated < 1 or args.threads < 1 or args.processes < 1 or (args.matches is not None and args.matches < 1):
        parser.error("--rated, --threads and --matches must be at least 1")
    server = admin_url(args.database_url)
    with scratch_database(server) as url:
        bare = bare_tx_per_s(url, args.rated, args.processes, args.threads)
        rated = {str(p): round(rated_per_s(url, p, args.rated, args.processes, args.threads, args.seed + p), 1)
                 for p in (2, 4, 8)}
        reads = million(url, args.matches, 4, args.versions, args.seed) if args.matches else None
    result: dict[str, Any] = {"rated_per_s": rated, "bare_tx_per_s": round(bare, 1),
                              "load_average_1min": round(os.getloadavg()[0], 1),
                              "appliers": f"{args.processes} processes x {args.threads} threads",
                              "rated_4p_vs_bare": round(rated["4"] / bare, 3)}
    if reads:
        result["reads"] = reads
    if args.json:
        print(json.dumps(result))
        return
    print(f"rated matches/s through apply_outcome, {result['appliers']}, {args.rated} matches each")
    for players, rate in rated.items():
        print(f"  {players} players: {rate:8.1f} /s")
    print(f"  bare transaction (INSERT + COMMIT): {bare:8.1f} /s   4-player / bare = {result['rated_4p_vs_bare']}")
    print(f"  target: >= {TARGET_RATED_4P:g} rated 4-player matches/s "
          f"(machine load average {result['load_average_1min']} on {os.cpu_count()} cores)")
    if reads:
        print(f"{reads['matches']} stored matches ({reads['versions']} versions, generated in {reads['generate_s']} s)")
        print(f"  leaderboard (top 100):       {reads['leaderboard_ms']:7.2f} ms  {reads['indexes']['leaderboard']}")
        print(f"  rating history ({reads['rating_history_rows']} rows): {reads['rating_history_ms']:7.2f} ms  "
              f"{reads['indexes']['rating_history']}")
        print(f"  target: < {TARGET_QUERY_MS:g} ms each")


if __name__ == "__main__":
    main()
