"""The deployment's path end to end, every piece its own process: `skyarena arena serve` sends the
smoke match through a real broker to a `skyarena worker`, which plays it on a referee process in the
sandbox; the version it passes enters the active season, whose rated matches the same worker plays.
The author sees it all through `skyarena submit --wait` and `skyarena standings --json`."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from workers.store import Database
from workers.store.accounts import issue_token

from ..services import SKYARENA, CeleryProcess, RedisProcess, RefereeProcess, house_league, platform_env
from .support import cli


@pytest.fixture
def short_dir() -> Iterator[Path]:
    """A folder with a short path: unix socket paths are limited to about 100 bytes."""
    with tempfile.TemporaryDirectory(prefix="sk-arena-", dir="/tmp") as folder:
        yield Path(folder)


def test_a_submission_is_smoked_by_a_worker_and_climbs_the_ladder(db: Database, database_url: str,
                                                                  short_dir: Path) -> None:
    house_league(db, "autumn", "sky-team", (2,), 2, move_s=2.0, bank_s=5.0, first_move_s=10.0, matches_in_flight=2)
    with db.connection() as conn:
        token = issue_token(conn, "grace", "author")
    broker = RedisProcess(short_dir)
    referee = RefereeProcess(short_dir)
    env = platform_env(database_url, broker, referee, short_dir / "d")
    worker = CeleryProcess("worker", env, short_dir / "worker.log", "--concurrency", "2")
    with open(short_dir / "arena.log", "wb") as log:
        arena = subprocess.Popen([SKYARENA, "arena", "serve", "--listen", "127.0.0.1:0"], stdout=subprocess.PIPE,
                                 stderr=log, env=env, start_new_session=True)
    try:
        assert arena.stdout is not None
        line = arena.stdout.readline().decode()
        assert "arena listening on" in line, (short_dir / "arena.log").read_text()
        address = line.split()[-1]
        bot_dir = short_dir / "gbot"
        assert cli(short_dir, "new", "sky-team", str(bot_dir)).exit_code == 0
        args = ("--arena", address, "--token", token, "--json")
        submitted = cli(short_dir, "submit", str(bot_dir), "--wait", "--wait-timeout", "120", *args)
        assert submitted.exit_code == 0, submitted.output + (short_dir / "worker.log").read_text()[-3000:]
        version = json.loads(submitted.stdout)["version"]
        assert version["status"] == "active", version

        deadline = time.monotonic() + 120
        while True:  # the worker tops the season up as soon as the version is active, and plays it
            standings = json.loads(cli(short_dir, "standings", "autumn", *args).stdout)
            ours = [r for r in standings["ladders"][0]["rows"] if r["version_id"] == version["id"]]
            if ours:
                break
            assert time.monotonic() < deadline, (short_dir / "worker.log").read_text()[-3000:]
            time.sleep(1)
        assert ours[0]["bot"] == "gbot" and ours[0]["matches"] >= 1
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(arena.pid, signal.SIGTERM)
        arena.wait(30)
        worker.stop()
        referee.stop()
        broker.stop()
