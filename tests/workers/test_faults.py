"""A season of 300+ matches that survives a killed worker, a killed referee and a restarted broker.

Everything is a real process: two `skyarena worker` instances and a `skyarena beat` on a
redis-server this test owns, two `skyarena referee serve`, hosted house bots from stored
archives, the test's own Postgres database. Mid-season the test SIGKILLs a worker's whole
process group while it plays a match, SIGKILLs a referee while a match runs on it (and
starts it again), and restarts the broker. At the end every scheduled match is finished or
void with a reason, no match moved ratings twice, and `skyarena ratings recompute --check`
finds the stored ratings equal to a replay of the stored results.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from workers.store import Database, queue
from workers.store.seasons import season_match_counts, set_matches_in_flight

from .services import SERVICE_TOKEN, SKYARENA, CeleryProcess, RedisProcess, RefereeProcess, house_league

MATCHES = 300
DEADLINE_S = 900.0  # a bound, not the usual time: ~4 min here, ~8 min with the 2 cores shared by many more jobs
LEASE_S = 6.0       # short, so the killed worker's match comes back within seconds


def wait_for(what: str, condition: Callable[[], bool], deadline: float, logs: list[Path]) -> None:
    while not condition():
        if time.monotonic() > deadline:
            tails = "\n".join(f"--- {p.name}\n{p.read_text(errors='replace')[-3000:]}" for p in logs if p.exists())
            pytest.fail(f"timed out waiting for {what}\n{tails}")
        time.sleep(0.2)


def test_a_season_survives_a_killed_worker_a_killed_referee_and_a_restarted_broker(
        db: Database, database_url: str, short_dir: Path) -> None:
    deadline = time.monotonic() + DEADLINE_S
    broker = RedisProcess(short_dir)
    referees = [RefereeProcess(short_dir, f"referee{i}") for i in range(2)]
    season, _ = house_league(db, "faults", "sky-team", (2,), 8, matches_in_flight=8, move_s=2.0, bank_s=5.0,
                             first_move_s=15.0)
    env = {**{k: v for k, v in os.environ.items() if not k.startswith(("SKYARENA_", "CELERY_"))},
           "DATABASE_URL": database_url, "CELERY_BROKER_URL": broker.url, "SKYARENA_SERVICE_TOKEN": SERVICE_TOKEN,
           "SKYARENA_REFEREES": ",".join(r.address for r in referees), "SKYARENA_LEASE_S": str(LEASE_S),
           "SKYARENA_REAP_S": "2", "SKYARENA_SCHEDULE_S": "2", "SKYARENA_QUEUE_PATIENCE_S": "20",
           "SKYARENA_MAX_ATTEMPTS": "3", "SKYARENA_DATA_DIR": str(short_dir / "data")}
    logs = [short_dir / "worker0.log", short_dir / "worker1.log", short_dir / "beat.log"]

    def worker(i: int) -> CeleryProcess:
        return CeleryProcess("worker", env, logs[i], "--concurrency", "2", "--hostname", f"w{i}-{time.time()}@%h")

    workers = [worker(0), worker(1)]
    beat = CeleryProcess("beat", env, logs[2], "--schedule", str(short_dir / "beat-schedule"))
    processes: list[CeleryProcess] = [*workers, beat]

    def counts() -> dict[str, int]:
        with db.connection() as conn:
            return season_match_counts(conn, season.id)

    def finished_at_least(n: int) -> Callable[[], bool]:
        return lambda: counts().get("finished", 0) >= n

    def running_where(predicate: Callable[[dict[str, object]], bool]) -> Callable[[], bool]:
        return lambda: any(predicate(m) for m in queue.running_matches(db))

    try:
        # 1. SIGKILL a worker's whole process group while one of its children plays a match. The
        #    matches it held are the rows still running under its children's names after the kill.
        wait_for("20 finished matches", finished_at_least(20), deadline, logs)
        orphaned: list[str] = []
        while not orphaned:
            victim = workers[0]
            children = {str(pid) for pid in victim.children()}

            def owned(m: dict[str, object], children: set[str] = children) -> bool:
                return str(m["lease_owner"]).rpartition(":")[2] in children

            wait_for("a match on the first worker", running_where(owned), deadline, logs)
            os.killpg(victim.proc.pid, signal.SIGKILL)
            victim.proc.wait()
            orphaned = [str(m["id"]) for m in queue.running_matches(db) if owned(m)]
            workers[0] = worker(0)
            processes.append(workers[0])

        # 2. SIGKILL a referee while matches run on it, then bring it back on the same port.
        wait_for("60 finished matches", finished_at_least(60), deadline, logs)
        doomed = referees[0]
        wait_for("a match on the first referee", running_where(lambda m: m["referee"] == doomed.address),
                 deadline, logs)
        on_doomed = [str(m["id"]) for m in queue.running_matches(db) if m["referee"] == doomed.address]
        doomed.kill()
        time.sleep(2.0)
        doomed.start()

        # 3. Restart the broker under the running season.
        wait_for("100 finished matches", finished_at_least(100), deadline, logs)
        broker.restart()

        # 4. Let the season reach its size, stop scheduling and let it drain.
        wait_for(f"{MATCHES} scheduled matches", lambda: sum(counts().values()) >= MATCHES, deadline, logs)
        with db.connection() as conn:
            set_matches_in_flight(conn, season.id, 0)
        wait_for("the season to drain", lambda: not ({"queued", "running"} & set(counts())), deadline, logs)
    finally:
        for process in processes:
            process.stop()
        for ref in referees:
            ref.stop()
        broker.stop()

    final = counts()
    assert sum(final.values()) >= MATCHES and set(final) <= {"finished", "void"}, final
    with db.connection() as conn:
        rows = conn.execute("""SELECT m.id, m.status, m.attempts, m.void_reason, m.completed_seq,
                                      (SELECT count(DISTINCT p.version_id) FROM participants p
                                       WHERE p.match_id = m.id) AS versions FROM matches m""").fetchall()
        history = {r["match_id"]: r["n"] for r in conn.execute(
            "SELECT match_id, count(*) AS n FROM rating_history GROUP BY match_id")}
    by_id = {r["id"]: r for r in rows}
    for row in rows:
        if row["status"] == "finished":
            # Every version rated (or explained) exactly once: two partners, or one flying with itself.
            assert history.get(row["id"]) == row["versions"], row
        else:
            assert row["void_reason"] and row["id"] not in history, row
    finished = [r for r in rows if r["status"] == "finished"]
    assert len({r["completed_seq"] for r in finished}) == len(finished)
    # The killed worker's matches came back with their seed and ended one way or the other; of the
    # matches on the killed referee (some may have ended just before the kill) at least one was retried.
    assert all(by_id[m]["attempts"] >= 2 for m in orphaned), [by_id[m] for m in orphaned]
    assert any(by_id[m]["attempts"] >= 2 for m in on_doomed), [by_id[m] for m in on_doomed]
    retried = sum(1 for r in rows if r["attempts"] >= 2)
    print(f"season of {len(rows)} matches: {final}; {retried} retried; killed worker held {len(orphaned)}, "
          f"killed referee ran {len(on_doomed)}")
    check = subprocess.run([SKYARENA, "ratings", "recompute", "faults", "--check", "--database-url", database_url],
                           capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr
