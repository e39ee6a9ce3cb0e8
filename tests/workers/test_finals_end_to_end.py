"""A real season to its finish line: house bots on a real worker, beat and referee reach "settled",
the organiser calls a final, the worker is killed mid-final, and the final still closes the season
with every final match rated exactly once."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

from workers.house_bots import register_house_versions
from workers.store import Database
from workers.store.accounts import issue_token

from .services import SERVICE_TOKEN, SKYARENA, CeleryProcess, RefereeProcess

GAME = "skybirds"
DEADLINE_S = 240


def wait_for(what: str, check: Callable[[], bool], log: Path) -> None:
    deadline = time.monotonic() + DEADLINE_S
    while not check():
        assert time.monotonic() < deadline, f"{what} did not happen; worker log:\n{log.read_text()[-3000:]}"
        time.sleep(0.5)


def test_a_season_settles_and_its_final_closes_it_through_a_killed_worker(db: Database, database_url: str,
                                                                          short_dir: Path) -> None:
    with db.connection() as conn:
        token = issue_token(conn, "organiser", "organiser")
        strong, = register_house_versions(conn, GAME, "heuristic", 1)
        weak, = register_house_versions(conn, GAME, "random", 1)
    referee = RefereeProcess(short_dir)
    env = {**{k: v for k, v in os.environ.items() if not k.startswith(("SKYARENA_", "CELERY_"))},
           "DATABASE_URL": database_url, "SKYARENA_DATA_DIR": str(short_dir / "data"),
           "SKYARENA_REFEREES": referee.address, "SKYARENA_SERVICE_TOKEN": SERVICE_TOKEN,
           "SKYARENA_TOKEN": token, "SKYARENA_SCHEDULE_S": "1", "SKYARENA_LEASE_S": "4", "SKYARENA_REAP_S": "1"}

    def cli(*args: str) -> dict[str, object]:
        done = subprocess.run([SKYARENA, "season", *args, "--json"], env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stdout + done.stderr
        parsed: dict[str, object] = json.loads(done.stdout)
        return parsed

    cli("create", "cup", "--game", GAME, "--in-flight", "2", "--matchmaking", "placement_matches=2", "--start")
    log = short_dir / "worker.log"
    worker = CeleryProcess("worker", env, log, "--concurrency", "2")
    beat = CeleryProcess("beat", env, short_dir / "beat.log")
    try:
        def settled() -> bool:
            settling = cli("standings", "cup")["settling"]
            return bool(settling["2"]["settled"])  # type: ignore[index]

        wait_for("the ladder settling", settled, log)
        shown = cli("standings", "cup")
        assert [r["version_id"] for r in shown["standings"]["2"]] == [strong, weak]  # type: ignore[index]
        assert shown["settling"]["2"]["settled_at"]  # type: ignore[index]

        cli("close", "cup", "--finals", "2", "--games-per-pair", "4")

        def final_running() -> bool:
            with db.connection() as conn:
                row = conn.execute("""SELECT count(*) AS n FROM matches m JOIN ladders l ON l.id = m.ladder_id
                                      WHERE l.stage = 'final' AND m.status = 'running'""").fetchone()
            return bool(row and row["n"])

        wait_for("a final match running", final_running, log)
        for child in worker.children():        # the pool processes playing the final die mid-match
            os.kill(child, signal.SIGKILL)
        worker.proc.send_signal(signal.SIGKILL)
        worker.proc.wait()
        worker = CeleryProcess("worker", env, log, "--concurrency", "2")

        def closed() -> bool:
            return cli("show", "cup")["state"] == "closed"

        wait_for("the final closing the season", closed, log)
    finally:
        worker.stop()
        beat.stop()
        referee.stop()
    final = cli("standings", "cup")
    assert final["state"] == "closed"
    assert [r["version_id"] for r in final["final_standings"]["2"]] == [strong, weak]  # type: ignore[index]
    with db.connection() as conn:
        rows = conn.execute(
            """SELECT m.id, m.status, m.attempts,
                      (SELECT count(*) FROM rating_history h WHERE h.match_id = m.id) AS rated
               FROM matches m JOIN ladders l ON l.id = m.ladder_id WHERE l.stage = 'final'""").fetchall()
    finished = [r for r in rows if r["status"] == "finished"]
    assert len(finished) == 4 and all(r["rated"] == 2 for r in finished)    # one history row per seat, once
    assert all(r["rated"] == 0 for r in rows if r["status"] != "finished")
    assert any(r["attempts"] > 1 for r in rows) or any(r["status"] == "void" for r in rows)  # the kill was felt
