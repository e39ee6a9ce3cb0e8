"""`skyarena demo` end to end, headless, on a fresh data folder with the embedded services.

The first run goes from nothing (no database, no broker) to a rated match of every game and
stops by itself (``--until-rated 1``); the second is interrupted with SIGINT, as Ctrl-C
would, and must find the first run's data: the same seasons, the house bots' versions
recognised by their content hash rather than stored again, the same author token for the
person running it. Meanwhile that person follows the printed hint as an author would: logs
in with it and submits a bot, which must be theirs, not the organiser's. After each run no
process it started may be left: not its children's process groups, not the embedded servers.
"""

from __future__ import annotations

import io
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import psycopg
import pytest
from rich.console import Console

from referee.games import GAMES
from workers.demo.launcher import Demo, DemoSettings
from workers.demo.league import Submitted, demo_author_name, demo_house_bots, demo_player_counts
from workers.store import Database, submissions
from workers.store.versions import add_active_version

SKYARENA = str(Path(sys.executable).parent / "skyarena")
RUN_TIMEOUT_S = 420      # two minutes is the target on a quiet machine; CI shares two cores with the suite
HOUSE_BOTS = {f"{game}-{bot}" for game in GAMES for bot in demo_house_bots(game)}   # the demo's bot names
HOUSE_VERSIONS = len(HOUSE_BOTS)
LOGIN_HINT = re.compile(r"to submit your bots: (skyarena login --arena \S+ --token \S+)")


@pytest.fixture
def data_dir(short_dir: Path) -> Path:
    return short_dir


def demo_command(data_dir: Path, *extra: str) -> list[str]:
    return [SKYARENA, "demo", "--data-dir", str(data_dir), "--no-browser", "--arena-port", "0",
            "--dashboard-port", "0", *extra]


def fresh_machine_env() -> dict[str, str]:
    """No services configured: the demo must bring its own."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CELERY_BROKER_URL", "SKYARENA_REFEREES",
                                                             "SKYARENA_SERVICE_TOKEN", "SKYARENA_DATA_DIR")}
    return env


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie is gone for every purpose but its table entry.
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().rsplit(")", 1)[1].split()[0] != "Z"


def leftovers(data_dir: Path) -> list[str]:
    """Processes of the run still there: its children's groups, and anything naming the data folder."""
    state = json.loads((data_dir / "demo" / "processes.json").read_text())
    found = [f"{c['name']} (pid {c['pid']})" for c in state["children"] if alive(c["pid"])]
    for child in state["children"]:
        group = subprocess.run(["pgrep", "-g", str(child["pid"])], capture_output=True, text=True).stdout.split()
        found += [f"pid {pid} in {child['name']}'s group" for pid in group if alive(int(pid))]
    named = subprocess.run(["pgrep", "-f", str(data_dir)], capture_output=True, text=True).stdout.split()
    found += [f"pid {pid} using {data_dir}" for pid in named if alive(int(pid))]
    return found


def wait_gone(data_dir: Path, timeout_s: float = 30) -> list[str]:
    """Leftovers after a grace (the embedded servers stop as the launcher exits, asynchronously)."""
    deadline = time.monotonic() + timeout_s
    while (left := leftovers(data_dir)) and time.monotonic() < deadline:
        time.sleep(0.5)
    return left


def store_counts(data_dir: Path) -> tuple[dict[str, tuple[int, int]], dict[str, int]]:
    """(season id, finished matches) per demo season's game, and the versions of each house bot."""
    with psycopg.connect(host=str(data_dir / "postgres"), user="postgres", dbname="postgres") as conn:
        seasons = {game: (sid, n) for game, sid, n in conn.execute(
            "SELECT s.game, s.id, count(m.id) FILTER (WHERE m.status = 'finished')"
            " FROM seasons s LEFT JOIN matches m ON m.season_id = s.id WHERE s.name LIKE 'demo-%'"
            " GROUP BY s.game, s.id")}
        versions = dict(conn.execute(
            "SELECT b.name, count(v.id) FROM bots b JOIN bot_versions v ON v.bot_id = b.id"
            " JOIN accounts a ON a.id = b.account_id WHERE a.name = 'house' AND b.name = ANY(%s) GROUP BY b.name",
            (sorted(HOUSE_BOTS),)).fetchall())
    return seasons, versions


def login_hint(output: str) -> list[str]:
    """The command the demo prints for submitting, as arguments."""
    found = LOGIN_HINT.search(output)
    assert found, f"no login hint in the demo's output:\n{output}"
    return shlex.split(found.group(1))


def submit_as_the_author_would(data_dir: Path, login: list[str], env: dict[str, str]) -> str:
    """``skyarena login`` with the printed hint, then ``skyarena submit`` a bot of one's own: its account."""
    config = data_dir / "author-config"
    author_env = {**env, "SKYARENA_CONFIG_DIR": str(config)}
    logged_in = subprocess.run([SKYARENA, *login[1:]], env=author_env, capture_output=True, text=True, timeout=60)
    assert logged_in.returncode == 0, logged_in.stdout + logged_in.stderr
    folder = data_dir / "my-bot"
    shutil.copytree(data_dir / "demo" / "house-bots" / "sky-team-random", folder)
    (folder / "skyarena.toml").write_text('game = "sky-team"\nentry = "bot.py"\nname = "my-first-bot"\n')
    submitted = subprocess.run([SKYARENA, "submit", str(folder), "--json"], env=author_env, capture_output=True,
                               text=True, timeout=120)
    assert submitted.returncode == 0, submitted.stdout + submitted.stderr
    with psycopg.connect(host=str(data_dir / "postgres"), user="postgres", dbname="postgres") as conn:
        row = conn.execute("SELECT a.name FROM bots b JOIN accounts a ON a.id = b.account_id"
                           " WHERE b.name = 'my-first-bot'").fetchone()
    assert row is not None, "the submitted bot is not in the store"
    return str(row[0])


def test_demo_reaches_rated_matches_of_every_game_then_stops_everything_and_reuses_its_data(data_dir: Path) -> None:
    env = fresh_machine_env()
    first = subprocess.run(demo_command(data_dir, "--until-rated", "1", "--duration", str(RUN_TIMEOUT_S - 60)),
                           env=env, capture_output=True, text=True, timeout=RUN_TIMEOUT_S)
    assert first.returncode == 0, first.stdout + first.stderr
    assert f"house bots: {HOUSE_VERSIONS} versions ({HOUSE_VERSIONS} new" in first.stdout
    assert "stopped every process" in first.stderr
    assert wait_gone(data_dir) == []
    tokens = json.loads((data_dir / "demo" / "tokens.json").read_text())
    first_login = login_hint(first.stdout)
    assert first_login[-1] == tokens["author"] and first_login[-1] not in (tokens["organiser"], tokens["house"])

    second = subprocess.Popen(demo_command(data_dir), env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True)
    assert second.stdout is not None
    output = []
    try:
        deadline = time.monotonic() + RUN_TIMEOUT_S
        for line in second.stdout:
            output.append(line)
            if "rated matches:" in line or time.monotonic() > deadline:
                break
        assert any("rated matches:" in line for line in output), "".join(output)
        second_login = login_hint("".join(output))
        author = submit_as_the_author_would(data_dir, second_login, env)
        seasons, versions = store_counts(data_dir)
    finally:
        second.send_signal(signal.SIGINT)
        rest, _ = second.communicate(timeout=120)
    text = "".join(output) + rest
    assert second.returncode == 0, text
    assert f"house bots: {HOUSE_VERSIONS} versions (0 new, {HOUSE_VERSIONS} already submitted)" in text
    assert "stopped every process" in text
    assert set(seasons) == set(GAMES), seasons                         # one season per game, the same ones
    assert all(finished >= 1 for _, finished in seasons.values()), seasons  # the first run's rated matches
    assert versions == dict.fromkeys(HOUSE_BOTS, 1)                    # content-hashed: no second copy
    assert second_login[-1] == first_login[-1], "a second run reuses the author's account and token"
    assert author == demo_author_name() and author not in ("organiser", "house"), author
    assert wait_gone(data_dir) == []


def test_a_house_bot_that_fails_its_smoke_test_is_named_with_the_reason(db: Database, short_dir: Path) -> None:
    """A failed house version leaves its game's ladder short of players: the demo says which
    and why, once, instead of waiting silently for rated matches that cannot come."""
    with db.connection() as conn:
        good = add_active_version(conn, "house", "sky-team-random", "sky-team", b"a", {"entry": "bot.py"})
        bad = add_active_version(conn, "house", "sky-team-heuristic", "sky-team", b"b", {"entry": "bot.py"})
        submissions.set_status(conn, bad, "failed", "failed its smoke match m1: turn 3: exception")
    demo = Demo(DemoSettings(data_dir=short_dir), Console(file=io.StringIO()))
    submitted = [Submitted("sky-team", "sky-team-random", good, "active", False),
                 Submitted("sky-team", "sky-team-heuristic", bad, "smoke", False)]
    assert demo.failed_house_bots(db, submitted) == [
        "house bot sky-team-heuristic (sky-team) failed its smoke test, so its ladder may not fill: "
        "failed its smoke match m1: turn 3: exception"]


def test_the_embedded_store_starts_without_a_runtime_folder_warning(short_dir: Path) -> None:
    """``make demo`` on a machine without XDG_RUNTIME_DIR (a container, ssh): the embedded Postgres
    starts without platformdirs' warning, in whichever command starts it first."""
    env = {k: v for k, v in fresh_machine_env().items() if k != "XDG_RUNTIME_DIR"}
    upgraded = subprocess.run([SKYARENA, "db", "upgrade", "--data-dir", str(short_dir)], env=env,
                              capture_output=True, text=True, timeout=180)
    assert upgraded.returncode == 0, upgraded.stdout + upgraded.stderr
    assert "XDG_RUNTIME_DIR" not in upgraded.stderr + upgraded.stdout, upgraded.stderr


def test_the_demo_runs_a_four_player_ladder_of_four_distinct_house_versions_per_free_for_all_game() -> None:
    four = {game for game in GAMES if 4 in demo_player_counts(game)}
    assert four == {"skyjo-action", "skybirds", "fly-away"}
    for game in four:
        assert len(demo_house_bots(game)) >= 4, game
    assert demo_player_counts("sky-team") == [2] and demo_player_counts("oddball-aeronauts") == [2]
