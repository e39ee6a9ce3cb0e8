"""The Celery side: the embedded broker, scheduling under concurrency, the commands' checks, and a
season that runs itself on a real worker and beat with no broker configured."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import psutil
import pytest
from click.testing import CliRunner

from skyarena.cli import main
from workers.broker import BrokerUnavailable, broker_url, embedded_broker_url
from workers.scheduling import schedule_active
from workers.store import Database
from workers.store.accounts import account_id, issue_token
from workers.store.challenges import ChallengeLimits, queue_challenges
from workers.store.seasons import season_match_counts

from .conftest import stop_embedded_servers
from .services import SERVICE_TOKEN, SKYARENA, CeleryProcess, RefereeProcess, house_league


def test_the_embedded_broker_is_started_once_and_shared_by_the_processes_of_a_data_dir(short_dir: Path) -> None:
    url = embedded_broker_url(short_dir)
    assert url.startswith("redis+socket:///") and embedded_broker_url(short_dir) == url
    other = subprocess.run([sys.executable, "-c", "import sys; from pathlib import Path; from workers.broker import "
                            "embedded_broker_url; print(embedded_broker_url(Path(sys.argv[1])))", str(short_dir)],
                           capture_output=True, text=True, check=True)
    assert other.stdout.strip() == url  # the second process joined the running server


def test_an_embedded_broker_left_by_a_killed_process_is_stopped_with_its_test_folder(short_dir: Path) -> None:
    """The worker tests SIGKILL processes that share an embedded broker; the folder fixture's
    clean-up must stop what they leave (it used to outlive the test run)."""
    starter = subprocess.Popen([sys.executable, "-c", "import sys, time; from pathlib import Path; "
                                "from workers.broker import embedded_broker_url; "
                                "print(embedded_broker_url(Path(sys.argv[1])), flush=True); time.sleep(60)",
                                str(short_dir)], stdout=subprocess.PIPE, text=True)
    assert starter.stdout is not None and starter.stdout.readline().startswith("redis+socket:///")
    starter.kill()
    starter.wait()
    stopped = stop_embedded_servers(short_dir)
    assert len(stopped) == 1 and not psutil.pid_exists(stopped[0])


def test_a_broker_url_that_is_not_rabbitmq_or_redis_is_refused_with_examples(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CELERY_BROKER_URL", "http://user:secret@somewhere")
    with pytest.raises(BrokerUnavailable, match="amqp://guest:guest@127.0.0.1:5672//") as caught:
        broker_url()
    assert "secret" not in str(caught.value)


def test_concurrent_schedulers_never_overfill_a_ladder(db: Database) -> None:
    season, _ = house_league(db, "busy", "skyjo-action", (2, 4), 12, matches_in_flight=3)
    passes: list[int] = []

    def one_pass() -> None:
        passes.append(sum(len(s.match_ids) for s in schedule_active(db)))

    threads = [threading.Thread(target=one_pass) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sum(passes) == 6  # 3 per ladder, however many schedulers raced
    with db.connection() as conn:
        assert season_match_counts(conn, season.id) == {"queued": 6}


@pytest.fixture
def organiser_token(db: Database) -> str:
    with db.connection() as conn:
        return issue_token(conn, "org", "organiser")


def test_season_commands_refuse_bad_input_and_write_nothing(db: Database, database_url: str,
                                                            organiser_token: str) -> None:
    runner = CliRunner()
    with db.connection() as conn:
        author = issue_token(conn, "someone", "author")

    def create(*args: str, token: str = organiser_token) -> tuple[int, str]:
        result = runner.invoke(main, ["season", "create", "s", "--database-url", database_url, "--token", token,
                                      *args])
        return result.exit_code, result.output

    for args, token, message in [
        (("--game", "chess"), organiser_token, "unknown game 'chess': choose one of"),
        (("--game", "sky-team", "--players", "2,4"), organiser_token, "sky-team is played by 2 players, not 4"),
        (("--game", "skybirds", "--move-time", "0"), organiser_token, "0.0 is not in the range x>=0.001"),
        (("--game", "skybirds", "--move-time", "900"), organiser_token, "above the referee's limit of 600 s"),
        (("--game", "skybirds", "-o", "no_such_option=1"), organiser_token, "unknown option 'no_such_option'"),
        (("--game", "skybirds", "--rating", "beta=fast"), organiser_token, "beta='fast' must be a number"),
        (("--game", "skybirds",), "not-a-token", "the API token is not known"),
        (("--game", "skybirds",), author, "has the author scope; this needs a token with the organiser scope"),
    ]:
        code, out = create(*args, token=token)
        assert code == 2 and message in out, (args, out)
    listed = runner.invoke(main, ["season", "list", "--json", "--database-url", database_url, "--token",
                                  organiser_token])
    assert listed.exit_code == 0 and listed.output.strip() == "[]"


def test_a_worker_without_its_services_says_which_is_missing(database_url: str, short_dir: Path) -> None:
    runner = CliRunner()
    ok_env = {"DATABASE_URL": database_url, "CELERY_BROKER_URL": "redis://127.0.0.1:6379/15",
              "SKYARENA_REFEREES": "127.0.0.1:9", "SKYARENA_SERVICE_TOKEN": SERVICE_TOKEN}
    referee = RefereeProcess(short_dir)
    try:
        ok_env["SKYARENA_REFEREES"] = referee.address
        checked = runner.invoke(main, ["worker", "--check", "--json"], env=ok_env)
        assert checked.exit_code == 0, checked.output
        many = runner.invoke(main, ["worker", "--check", "--concurrency", "999"], env=ok_env)
        assert many.exit_code == 0 and "warning: --concurrency 999 plays more than 2 matches per core" in many.output
        assert "warning" not in runner.invoke(main, ["worker", "--check", "-c", "1"], env=ok_env).output
        for change, message in [
            ({"CELERY_BROKER_URL": "redis://127.0.0.1:1/0"}, "the broker at redis://127.0.0.1:1/0 does not answer"),
            ({"DATABASE_URL": "postgresql://postgres@127.0.0.1:1/x"}, "cannot connect to the database"),
            ({"SKYARENA_REFEREES": "127.0.0.1:9"}, "no referee answers (127.0.0.1:9: UNAVAILABLE)"),
            ({"SKYARENA_REFEREES": "nowhere"}, "entry 'nowhere' is not HOST:PORT"),
            ({"SKYARENA_SERVICE_TOKEN": ""}, "no service token"),
            ({"SKYARENA_LEASE_S": "soon"}, "SKYARENA_LEASE_S='soon' is not a number of seconds"),
        ]:
            result = runner.invoke(main, ["worker", "--check"], env={**ok_env, **change})
            assert result.exit_code == 2 and "worker not started" in result.output and message in result.output, \
                (change, result.output)
    finally:
        referee.stop()


def test_a_season_runs_itself_on_a_worker_and_beat_with_the_embedded_broker(
        db: Database, database_url: str, organiser_token: str, short_dir: Path) -> None:
    referee = RefereeProcess(short_dir)
    with db.connection() as conn:
        from workers.house_bots import register_house_versions

        versions = register_house_versions(conn, "sky-team", "random", 3)
        # Two challenges wait in the store, unsent: the worker and beat release them as room opens.
        challenges = queue_challenges(conn, account_id(conn, "ada"), "sky-team", [versions[:2], versions[1:]],
                                      [1, 2], ChallengeLimits())
    env = {**{k: v for k, v in os.environ.items() if not k.startswith(("SKYARENA_", "CELERY_"))},
           "DATABASE_URL": database_url, "SKYARENA_DATA_DIR": str(short_dir / "data"),
           "SKYARENA_REFEREES": referee.address, "SKYARENA_SERVICE_TOKEN": SERVICE_TOKEN,
           "SKYARENA_TOKEN": organiser_token, "SKYARENA_SCHEDULE_S": "1"}
    created = subprocess.run([SKYARENA, "season", "create", "auto", "--game", "sky-team", "--in-flight", "2",
                              "--start", "--json"], env=env, capture_output=True, text=True)
    assert created.returncode == 0, created.stderr
    processes = [CeleryProcess("worker", env, short_dir / "worker.log", "--concurrency", "2"),
                 CeleryProcess("beat", env, short_dir / "beat.log")]
    try:
        deadline = time.monotonic() + 120
        while True:
            with db.connection() as conn:
                done = season_match_counts(conn, 1).get("finished", 0)
                challenged = conn.execute("SELECT count(*) AS n FROM matches WHERE id = ANY(%s) AND status = "
                                          "'finished' AND released_at IS NOT NULL", (challenges,)).fetchone()["n"]
            if done >= 4 and challenged == 2:
                break
            assert time.monotonic() < deadline, (short_dir / "worker.log").read_text()[-3000:]
            time.sleep(0.3)
    finally:
        for process in processes:
            process.stop()
        referee.stop()
    closed = subprocess.run([SKYARENA, "season", "close", "auto", "--json"], env=env, capture_output=True, text=True)
    assert closed.returncode == 0, closed.stderr
    check = subprocess.run([SKYARENA, "ratings", "recompute", "auto", "--check"], env=env, capture_output=True,
                           text=True)
    assert check.returncode == 0, check.stdout + check.stderr
