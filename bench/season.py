"""Rated matches per minute end to end, beside a bare Celery round trip, and where the time goes.

End to end means what a season does on its own: the scheduler inserts match rows, a
``skyarena worker`` claims each one, unpacks the versions' archives, starts one hosted bot
process per seat (``python -m skyarena.remote bot.py --stdio`` in the sandbox), relays them
to a ``skyarena referee serve``, reads the result and replay back and applies it, ratings
and all, in one Postgres transaction. The figure is the rate of rated matches once the
season is warm, for Sky Team (2 seats) and Skyjo Action (4 seats) with house random bots,
with 1 and 2 worker processes (each ``--pool threads --concurrency 4``: a match mostly
waits on its bots and the referee).

Baselines in the same run:
- ``noop_roundtrip_ms``: a bare Celery task (``skyarena.noop``) sent and its result awaited
  through the same broker and worker, median of many;
- ``bot_start_ms``: a hosted bot from spawn to its first frame, unconfined and sandboxed
  (medians, from `bench/sandbox.py`): the wait every seat of every match pays;
- ``sandbox_start_ms``: what the sandbox adds to that per bot (median of paired differences);
- ``phases_ms``: a few Sky Team matches played in this process with ``play_match``, the
  median wall time of each step (claim, unpack, StartMatch, play = bots start + the game,
  GetMatch with replay, building the outcome, the rated apply).

Services: two referees, a private redis-server broker on a unix socket, Postgres at
``DATABASE_URL`` or 127.0.0.1:5432 (a fresh database per run) or the embedded one.

    python bench/season.py                # table
    python bench/season.py --json         # {"matches_per_min": {...}, "noop_roundtrip_ms", "sandbox_start_ms", ...}
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.ratings import admin_url, scratch_database  # noqa: E402
from tests.workers.services import (  # noqa: E402
    SERVICE_TOKEN,
    CeleryProcess,
    RedisProcess,
    RefereeProcess,
    house_league,
)
from workers.store import Database  # noqa: E402
from workers.store.seasons import season_match_counts  # noqa: E402

GAMES = (("sky-team", 2, 8), ("skyjo-action", 4, 8))  # game, seats, versions on the ladder
CONCURRENCY = 4  # matches at once per worker process
CLOCK: dict[str, Any] = {"move_s": 2.0, "bank_s": 5.0, "first_move_s": 15.0}


@contextmanager
def fresh_database() -> Iterator[str]:
    """A migrated database of this run's own, dropped afterwards (bench/ratings.py's scratch database)."""
    with scratch_database(admin_url(None)) as url:
        yield url


def service_env(database_url: str, broker: RedisProcess, referees: list[RefereeProcess], folder: Path,
                **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SKYARENA_", "CELERY_"))}
    return {**env, "DATABASE_URL": database_url, "CELERY_BROKER_URL": broker.url,
            "SKYARENA_SERVICE_TOKEN": SERVICE_TOKEN, "SKYARENA_REFEREES": ",".join(r.address for r in referees),
            "SKYARENA_DATA_DIR": str(folder / "data"), "SKYARENA_SCHEDULE_S": "1", **extra}


def matches_per_min(game: str, seats: int, versions: int, workers: int, broker: RedisProcess,
                    referees: list[RefereeProcess], folder: Path, warmup: int, measure_s: float,
                    during: Callable[[Database, list[int], float], None] | None = None,
                    after: Callable[[Database], None] | None = None) -> float:
    """Rated matches per minute once ``warmup`` matches have finished, over ``measure_s`` seconds;
    ``during(db, version_ids, seconds)`` runs beside the season for the measured seconds, and ``after(db)``
    once they are counted, before the season's processes stop (bench/challenges.py)."""
    with fresh_database() as url:
        db = Database(url, max_size=2)
        season, version_ids = house_league(db, "bench", game, (seats,), versions,
                                           matches_in_flight=workers * CONCURRENCY + 2,
                                           matchmaking=_spread(versions, seats, workers), **CLOCK)
        env = service_env(url, broker, referees, folder)
        processes = [CeleryProcess("worker", env, folder / f"{game}-{workers}-w{i}.log", "--pool", "threads",
                                   "--concurrency", str(CONCURRENCY), "--hostname", f"b{i}-{uuid.uuid4().hex[:6]}@%h")
                     for i in range(workers)]
        processes.append(CeleryProcess("beat", env, folder / f"{game}-{workers}-beat.log",
                                       "--schedule", str(folder / f"beat-{uuid.uuid4().hex[:6]}")))

        def finished() -> int:
            with db.connection() as conn:
                return season_match_counts(conn, season.id).get("finished", 0)

        try:
            deadline = time.monotonic() + 180
            while (start_count := finished()) < warmup:
                if time.monotonic() > deadline:
                    raise SystemExit(f"{game}: fewer than {warmup} matches in 180 s; see {folder}")
                time.sleep(0.2)
            started = time.monotonic()
            if during is not None:
                during(db, version_ids, measure_s)
            time.sleep(max(0.0, measure_s - (time.monotonic() - started)))
            done = finished() - start_count
            elapsed = time.monotonic() - started
            if after is not None:
                after(db)
        finally:
            for process in processes:
                process.stop()
            db.close()
    return done / elapsed * 60


def _spread(versions: int, seats: int, workers: int) -> Any:
    """Enough matches per version at once that the ladder can keep every worker slot busy."""
    from workers.matchmaking import MatchmakingParameters

    wanted = workers * CONCURRENCY + 2
    return MatchmakingParameters(max_in_flight=max(2, -(-wanted * seats // versions)))


def noop_roundtrip_ms(broker: RedisProcess, referees: list[RefereeProcess], folder: Path, count: int) -> float:
    """Median send-to-result time of a task that does nothing, through the same broker and a worker."""
    with fresh_database() as url:
        env = service_env(url, broker, referees, folder, SKYARENA_RESULT_BACKEND=broker.url)
        worker = CeleryProcess("worker", env, folder / "noop-worker.log", "--pool", "threads", "--concurrency", "1",
                               "--hostname", f"noop-{uuid.uuid4().hex[:6]}@%h")
        os.environ["SKYARENA_RESULT_BACKEND"] = broker.url
        try:
            from workers.celery_app import configure
            from workers.tasks import noop_task

            configure(broker.url)
            noop_task.delay().get(timeout=60)  # the worker is up
            times = []
            for _ in range(count):
                started = time.perf_counter()
                noop_task.delay().get(timeout=30)
                times.append((time.perf_counter() - started) * 1000)
        finally:
            os.environ.pop("SKYARENA_RESULT_BACKEND", None)
            worker.stop()
    return statistics.median(times)


def sandbox_figures(repeats: int) -> dict[str, float]:
    """The sandbox's own benchmark (`bench/sandbox.py`): a bot's start-up sandboxed and not, alternated."""
    from bench.sandbox import measure_start_ms

    return measure_start_ms(repeats)


def phases_ms(referees: list[RefereeProcess], count: int) -> dict[str, float]:
    """Median milliseconds of each step of a Sky Team match played here, one at a time."""
    from workers.play import MatchPlayer, PlaySettings, play_match
    from workers.referees import Referees
    from workers.scheduling import schedule_active

    with fresh_database() as url:
        db = Database(url, max_size=2)
        house_league(db, "phases", "sky-team", (2,), 2 * count, matches_in_flight=count, **CLOCK)
        ids = [m for s in schedule_active(db) for m in s.match_ids]
        player = MatchPlayer(db, Referees([r.address for r in referees], SERVICE_TOKEN), PlaySettings(owner="bench"))
        samples: dict[str, list[float]] = {}
        try:
            for match_id in ids:
                result = play_match(player, match_id)
                for name, seconds in result.phases.items():
                    samples.setdefault(name, []).append(seconds * 1000)
        finally:
            player.close()
            db.close()
    return {name: round(statistics.median(values), 1) for name, values in samples.items()}


def run(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="sk-bench-", dir="/tmp") as name:
        folder = Path(name)
        broker = RedisProcess(folder)
        referees = [RefereeProcess(folder, f"referee{i}") for i in range(2)]
        try:
            results: dict[str, Any] = {"matches_per_min": {}}
            results["noop_roundtrip_ms"] = round(noop_roundtrip_ms(broker, referees, folder, args.noops), 2)
            sandbox = sandbox_figures(args.bots)
            results["sandbox_start_ms"] = sandbox["sandbox_overhead_ms"]  # what the sandbox adds per bot
            results["bot_start_ms"] = {"unconfined": sandbox["unconfined_start_ms"],
                                       "sandboxed": sandbox["sandbox_start_ms"]}
            results["phases_ms"] = phases_ms(referees, args.phase_matches)
            for game, seats, versions in GAMES:
                results["matches_per_min"][game] = {
                    str(workers): round(matches_per_min(game, seats, versions, workers, broker, referees, folder,
                                                        args.warmup, args.seconds), 1)
                    for workers in (1, 2)}
        finally:
            for ref in referees:
                ref.stop()
            broker.stop()
    results["load_average"] = round(os.getloadavg()[0], 1)  # what else the machine was doing meanwhile
    return results


def print_table(results: dict[str, Any]) -> None:
    print("rated matches per minute (end to end)")
    for game, by_workers in results["matches_per_min"].items():
        print(f"  {game:<14} 1 worker: {by_workers['1']:>6.1f}   2 workers: {by_workers['2']:>6.1f}")
    print(f"bare Celery no-op round trip: {results['noop_roundtrip_ms']:.2f} ms")
    starts = results["bot_start_ms"]
    print(f"hosted bot start-up to its first frame: {starts['unconfined']:.0f} ms unconfined, "
          f"{starts['sandboxed']:.0f} ms sandboxed; the sandbox adds {results['sandbox_start_ms']:.0f} ms per bot")
    print("one Sky Team match, step by step (median ms): "
          + ", ".join(f"{k} {v:.0f}" for k, v in results["phases_ms"].items()))
    print(f"load average during the run: {results['load_average']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0, help="measured seconds per configuration")
    parser.add_argument("--warmup", type=int, default=4, help="matches finished before measuring")
    parser.add_argument("--noops", type=int, default=200, help="no-op round trips")
    parser.add_argument("--bots", type=int, default=15, help="bot start-ups timed (each sandboxed and not)")
    parser.add_argument("--phase-matches", type=int, default=6, help="matches timed step by step")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--json-out", type=Path, help="also write the JSON here")
    args = parser.parse_args()
    results = run(args)
    if args.json_out:
        args.json_out.write_text(json.dumps(results, indent=2) + "\n")
    if args.json:
        print(json.dumps(results))
    else:
        print_table(results)


if __name__ == "__main__":
    main()
