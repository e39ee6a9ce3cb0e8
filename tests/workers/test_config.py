"""The platform's settings: read once through one parse path, refused in one line, and agreeing by construction."""

from __future__ import annotations

import dataclasses
import logging
import math
import re

import pytest
from click.testing import CliRunner

from referee.service.limits import Limits
from skyarena.cli import main
from skyarena.settings import Settings
from tests.config_reference import KINDS
from workers.arena.config import ArenaSettings
from workers.celery_app import app, configure
from workers.config import QueueSettings, WorkerSettings
from workers.play import PlaySettings

NUMERIC = [(kind, f) for kind in KINDS for f in dataclasses.fields(kind)  # type: ignore[arg-type]
           if f.metadata["low"] is not None]


def _one_line_error(kind: type[Settings], environ: dict[str, str]) -> str:
    with pytest.raises(ValueError) as caught:
        kind.from_env(environ)
    message = str(caught.value)
    assert "\n" not in message, message
    return message


@pytest.mark.parametrize(("kind", "f"), NUMERIC, ids=[f"{k.__name__}.{f.name}" for k, f in NUMERIC])
def test_every_numeric_setting_out_of_range_is_one_line_naming_the_variable_and_the_range(
        kind: type[Settings], f: dataclasses.Field[object]) -> None:
    name, low, high = kind.env_name(f.name), f.metadata["low"], f.metadata["high"]
    below = low - 1 if isinstance(f.default, int) else low - abs(low) / 2 - 0.001
    above = high + 1 if isinstance(f.default, int) else high * 2 + 1
    for text in (str(below), str(above)):
        message = _one_line_error(kind, {name: text})
        assert message.startswith(f"{name} must be from ") and re.search(r"from \S+ to \S+", message), message
    assert _one_line_error(kind, {name: "soon"}).startswith(f"{name}='soon' is not a ")
    if not isinstance(f.default, int):
        assert "finite" in _one_line_error(kind, {name: "inf"})
    default = kind.from_env({})
    assert getattr(default, f.name) == f.default and math.isfinite(float(getattr(default, f.name)))


def test_a_worker_with_a_bad_setting_says_which_variable_and_range_in_one_line(database_url: str) -> None:
    for change, message in [
        ({"SKYARENA_MATCH_TIMEOUT_S": "0"}, "SKYARENA_MATCH_TIMEOUT_S must be from 1 to 604800 seconds, got 0"),
        ({"SKYARENA_MATCH_TIMEOUT_S": "soon"}, "SKYARENA_MATCH_TIMEOUT_S='soon' is not a number of seconds"),
        ({"SKYARENA_QUEUE_PATIENCE_S": "-5"}, "SKYARENA_QUEUE_PATIENCE_S must be from 1 to 86400 seconds, got -5"),
        ({"SKYARENA_MAX_ATTEMPTS": "2.5"}, "SKYARENA_MAX_ATTEMPTS='2.5' is not a whole number of attempts"),
    ]:
        result = CliRunner().invoke(main, ["worker", "--check"], env={"DATABASE_URL": database_url, **change})
        lines = result.output.strip().splitlines()
        assert result.exit_code == 2 and len(lines) == 1 and "worker not started" in lines[0] \
            and message in lines[0], (change, result.output)


def test_the_arena_refuses_a_bad_cap_in_one_line_naming_its_variable() -> None:
    result = CliRunner().invoke(main, ["arena", "serve"], env={"SKYARENA_ARENA_MAX_FILES": "0"})
    assert result.exit_code == 2 and "arena not started: SKYARENA_ARENA_MAX_FILES must be from 1 to 10000000 " \
        "entries, got 0" in result.output, result.output
    flagged = ArenaSettings.from_sources({"max_files": "7"}, {"SKYARENA_ARENA_MAX_FILES": "9"})
    assert flagged.archive_limits().max_files == 7  # the flag wins over the variable


def test_the_match_timeouts_of_the_celery_app_and_the_worker_are_one_setting() -> None:
    settings = QueueSettings.from_env({"SKYARENA_MATCH_TIMEOUT_S": "100"})
    try:
        configure("amqp://guest:guest@127.0.0.1:5672//", settings)
        (queue,) = app.conf.task_queues
        assert app.conf.task_time_limit == 400
        assert app.conf.broker_transport_options == {"visibility_timeout": 200}
        assert queue.queue_arguments == {"x-consumer-timeout": 200_000}
        assert PlaySettings.from_settings(WorkerSettings(), settings).match_timeout_s == 100
        assert PlaySettings.from_env({"SKYARENA_MATCH_TIMEOUT_S": "100"}).match_timeout_s == 100
        # The defaults are one default: the worker's give-up time and the broker's timeouts.
        assert PlaySettings().match_timeout_s == QueueSettings().match_timeout_s == 3600
    finally:
        app.conf.task_queues = None
        configure("redis://127.0.0.1:6379/15", QueueSettings())
    assert app.conf.task_time_limit == 3600 + 300


def test_the_referee_and_the_worker_join_timeouts_have_two_names(caplog: pytest.LogCaptureFixture) -> None:
    both = {"SKYARENA_JOIN_TIMEOUT_S": "45", "SKYARENA_HOSTED_JOIN_TIMEOUT_S": "5"}
    assert Limits.from_env(both).join_timeout_s == 45
    assert WorkerSettings.from_env(both).hosted_join_timeout_s == 5
    assert PlaySettings.from_env(both).join_timeout_s == 5
    assert Limits.from_env({"SKYARENA_HOSTED_JOIN_TIMEOUT_S": "5"}).join_timeout_s == Limits().join_timeout_s
    with caplog.at_level(logging.WARNING, logger="skyarena.settings"):
        old = WorkerSettings.from_env({"SKYARENA_JOIN_TIMEOUT_S": "45"})
    assert old.hosted_join_timeout_s == 45  # a worker configured with the old name keeps its value ...
    assert [r.getMessage() for r in caplog.records] == [  # ... and is told, in one line, what to set
        "the worker reads SKYARENA_JOIN_TIMEOUT_S as SKYARENA_HOSTED_JOIN_TIMEOUT_S for now: set "
        "SKYARENA_HOSTED_JOIN_TIMEOUT_S instead (the old name will stop being read here)"]


def test_online_bots_are_told_each_referees_public_address_and_a_bad_pair_is_one_line() -> None:
    from workers.play import PlaySettings
    from workers.referees import RefereeConfigError

    settings = PlaySettings.from_env({"SKYARENA_PUBLIC_REFEREES": "10.0.0.5:50051=referee.example.org:443"})
    assert settings.public_referees == {"10.0.0.5:50051": "referee.example.org:443"}
    assert PlaySettings.from_env({}).public_referees == {}
    for bad, words in (("nope", "is not REFEREE=PUBLIC"), ("10.0.0.5:50051=far", "'far' is not HOST:PORT")):
        with pytest.raises(RefereeConfigError, match=words) as caught:
            PlaySettings.from_env({"SKYARENA_PUBLIC_REFEREES": bad})
        assert "SKYARENA_PUBLIC_REFEREES" in str(caught.value) and "\n" not in str(caught.value)
