"""The JavaScript online bot (examples/js-bot) through full rated matches on a real stack: `skyarena
arena serve`, a `skyarena worker` behind a real broker, a referee process and Postgres. It registers
through `skyarena submit --online`, connects with a play token, plays its smoke match and then a
rated match against a hosted house bot, in Sky Team and in Skyjo Action, with legal moves only."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from workers.store import Database
from workers.store.accounts import issue_token

from ..services import SKYARENA, CeleryProcess, RedisProcess, RefereeProcess, house_league, platform_env
from .support import cli

ROOT = Path(__file__).resolve().parents[3]
JS_BOT = ROOT / "examples" / "js-bot"
GAMES = ("sky-team", "skyjo-action")
CLOCKS = {"move_s": 2.0, "bank_s": 5.0, "first_move_s": 10.0}

pytestmark = pytest.mark.skipif(shutil.which("node") is None or shutil.which("npm") is None,
                                reason="node and npm are not installed (.ci/run installs them with apt)")


def installed_js_bot(folder: Path) -> Path:
    """The example's files in ``folder`` with its locked packages installed (npm ci)."""
    for name in ("bot.js", "package.json", "package-lock.json"):
        shutil.copy(JS_BOT / name, folder / name)
    done = subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--prefer-offline"], cwd=folder,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return folder / "bot.js"


def test_the_javascript_bot_plays_rated_matches_against_a_hosted_house_bot(db: Database, database_url: str,
                                                                           short_dir: Path) -> None:
    for game in GAMES:
        house_league(db, f"js-{game}", game, (2,), 1, matches_in_flight=1, **CLOCKS)
    with db.connection() as conn:
        author = issue_token(conn, "jo", "author")
    bot_js = installed_js_bot(short_dir)
    broker = RedisProcess(short_dir)
    referee = RefereeProcess(short_dir)
    env = platform_env(database_url, broker, referee, short_dir / "d")
    worker = CeleryProcess("worker", env, short_dir / "worker.log", "--concurrency", "2")
    with open(short_dir / "arena.log", "wb") as log:
        arena = subprocess.Popen([SKYARENA, "arena", "serve", "--listen", "127.0.0.1:0"], stdout=subprocess.PIPE,
                                 stderr=log, env=env, start_new_session=True)
    bots: list[subprocess.Popen[bytes]] = []
    try:
        assert arena.stdout is not None
        line = arena.stdout.readline().decode()
        assert "arena listening on" in line, (short_dir / "arena.log").read_text()
        address = line.split()[-1]
        args = ("--arena", address, "--token", author, "--json")
        play = json.loads(cli(short_dir, "token", "create", "--scope", "play", *args).stdout)["token"]
        version_ids = {}
        for game in GAMES:
            name = f"js-{game}"
            registered = cli(short_dir, "submit", "--online", name, "--game", game, *args)
            assert registered.exit_code == 0, registered.output
            version_ids[game] = json.loads(registered.stdout)["version"]["id"]
            with open(short_dir / f"{name}.log", "wb") as out:  # its smoke match, then one rated match
                bots.append(subprocess.Popen(["node", str(bot_js), "--arena", address, "--token", play, "--bot", name,
                                              "--games", "2"], stdout=out, stderr=subprocess.STDOUT,
                                             env={**os.environ, "SKYARENA_PROTO_ROOT": str(ROOT / "proto")},
                                             start_new_session=True))
        for bot in bots:
            assert bot.wait(240) == 0, [(short_dir / f"js-{g}.log").read_text() for g in GAMES]
        for game, version_id in version_ids.items():
            status = json.loads(cli(short_dir, "status", str(version_id), *args).stdout)
            assert status["status"] == "active", status
            seats = finished_seats(db, version_id)
            kinds = [s["kind"] for s in seats]
            assert kinds.count("smoke") == 1 and kinds.count("rated") >= 1, (game, seats)
            rated = next(s for s in seats if s["kind"] == "rated")
            assert rated["rated"] == 2 and rated["hosted"] == 1 and rated["rank"] is not None, (game, rated)
            assert all(s["faults"] == [] for s in seats), (game, seats)  # legal moves, in time
    finally:
        for bot in bots:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(bot.pid, signal.SIGTERM)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(arena.pid, signal.SIGTERM)
        arena.wait(30)
        worker.stop()
        referee.stop()
        broker.stop()


def finished_seats(db: Database, version_id: int, timeout_s: float = 60.0) -> list[dict[str, Any]]:
    """The version's finished matches, once its rated one is stored (the bot hears the end before the
    worker has written it)."""
    deadline = time.monotonic() + timeout_s
    while True:
        with db.connection() as conn:
            seats = conn.execute(
                "SELECT m.id, m.kind, p.faults, p.rank, (SELECT count(*) FROM rating_history h"
                " WHERE h.match_id = m.id) AS rated, (SELECT count(*) FROM participants o JOIN bot_versions v"
                " ON v.id = o.version_id WHERE o.match_id = m.id AND v.hosting = 'hosted') AS hosted"
                " FROM participants p JOIN matches m ON m.id = p.match_id"
                " WHERE p.version_id = %s AND m.status = 'finished' ORDER BY m.kind", (version_id,)).fetchall()
        if any(s["kind"] == "rated" for s in seats) or time.monotonic() > deadline:
            return [dict(s) for s in seats]
        time.sleep(0.2)
