"""A remote bot's settings: one switch for the stdio transport, and bad values in one line."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from skyarena.remote.config import RemoteBotSettings


def _hosted_bot(**env: str) -> subprocess.CompletedProcess[bytes]:
    """``python -m skyarena.remote random`` without --stdio, stdin closed, with ``env`` over a clean environment."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith("SKYARENA_")}
    return subprocess.run([sys.executable, "-m", "skyarena.remote", "random"], input=b"", capture_output=True,
                          env={**clean, "SKYARENA_SEAT_TOKEN": "seat-token", **env}, timeout=60)


def test_skyarena_stdio_makes_a_bot_speak_frames_on_stdout_like_the_flag() -> None:
    done = _hosted_bot(SKYARENA_STDIO="1")
    assert done.stdout, done.stderr  # its Join frame, not a complaint about a missing referee address
    assert b"no referee address" not in done.stderr
    assert b"seat-token" in done.stdout


def test_the_old_transport_variable_still_means_stdio_with_a_deprecation_line() -> None:
    done = _hosted_bot(SKYARENA_TRANSPORT="stdio")
    assert b"seat-token" in done.stdout
    assert "SKYARENA_TRANSPORT=stdio is deprecated: set SKYARENA_STDIO=1 instead" in done.stderr.decode()


@pytest.mark.parametrize(("env", "message"), [
    ({"SKYARENA_STDIO": "maybe"}, "error: SKYARENA_STDIO='maybe' is not 1 or 0 (or on/off, true/false, yes/no)"),
    ({"SKYARENA_REJOIN_WINDOW_S": "soon"}, "error: SKYARENA_REJOIN_WINDOW_S='soon' is not a number of seconds"),
    ({"SKYARENA_REJOIN_WINDOW_S": "-1"}, "error: SKYARENA_REJOIN_WINDOW_S must be from 0 to 86400 seconds, got -1"),
])
def test_a_bad_remote_bot_variable_is_one_line(env: dict[str, str], message: str) -> None:
    done = _hosted_bot(SKYARENA_REFEREE="127.0.0.1:1", **env)
    assert done.returncode == 2 and done.stderr.decode().strip() == message, done.stderr


def test_the_switch_accepts_clicks_words_both_ways() -> None:
    for word in ("1", "true", "YES", "on"):
        assert RemoteBotSettings.from_env({"SKYARENA_STDIO": word}).stdio
    for word in ("0", "false", "no", "off"):
        assert not RemoteBotSettings.from_env({"SKYARENA_STDIO": word}).stdio
