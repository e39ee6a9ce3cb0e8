"""A real ``skyarena arena serve`` process with small limits, to attack from outside as issue 29's
runs did, and what the attacks need: stalled streams, a prober that times health and a read,
and hostile archives built byte by byte."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import tarfile
import threading
import time
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
import psutil
from grpc_health.v1 import health_pb2, health_pb2_grpc

from skyarena.v1 import arena_pb2 as pb
from skyarena.v1 import arena_pb2_grpc as pb_grpc
from workers.store import Database
from workers.store.accounts import issue_token

from ..services import SKYARENA
from .support import GOOD_BOT, manifest, tar_archive

# The limits the process runs with: small, so each attack is quick (flag -> value).
LIMITS = {"--max-archive-bytes": "262144", "--max-unpacked-bytes": "1048576", "--max-files": "50",
          "--max-uploads": "4", "--max-uploads-per-account": "2", "--stream-deadline-s": "3",
          "--max-chunks": "40", "--submissions-per-hour": "3600", "--submission-burst": "5",
          "--versions-per-day": "2"}
STREAM_DEADLINE_S = 3.0


@dataclass
class ArenaProcess:
    """The Arena under attack: its address, its database, its log and its pid."""

    address: str
    db: Database
    log_path: Path
    proc: subprocess.Popen[bytes]
    channel: grpc.Channel = field(init=False)

    def __post_init__(self) -> None:
        self.channel = grpc.insecure_channel(self.address)

    @property
    def stub(self) -> Any:
        return pb_grpc.ArenaStub(self.channel)

    def token(self, account: str, scope: str = "author") -> str:
        with self.db.connection() as conn:
            return issue_token(conn, account, scope, "attack test")

    def rss(self) -> int:
        return int(psutil.Process(self.proc.pid).memory_info().rss)

    def submit(self, archive: bytes, token: str, timeout: float = 60, **header: Any) -> Any:
        def chunks() -> Iterator[pb.SubmitChunk]:
            yield pb.SubmitChunk(header=pb.SubmitHeader(size=len(archive), **header))
            for start in range(0, len(archive), 64 * 1024):
                yield pb.SubmitChunk(data=archive[start:start + 64 * 1024])

        return self.stub.SubmitVersion.with_call(chunks(), metadata=auth(token), timeout=timeout)

    def stop(self) -> None:
        self.channel.close()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()


def auth(token: str) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {token}"),)


def start_arena(db: Database, folder: Path) -> ArenaProcess:
    env = {**{k: v for k, v in os.environ.items() if not k.startswith(("SKYARENA_", "CELERY_"))},
           "DATABASE_URL": db.url, "SKYARENA_DATA_DIR": str(folder),
           "CELERY_BROKER_URL": "redis://127.0.0.1:6379/15"}  # smoke matches are queued, never played here
    log_path = folder / "arena.log"
    argv = [SKYARENA, "arena", "serve", "--listen", "127.0.0.1:0", *(x for kv in LIMITS.items() for x in kv)]
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=log, env=env, start_new_session=True)
    assert proc.stdout is not None
    line = proc.stdout.readline().decode()
    assert "arena listening on" in line, log_path.read_text()
    return ArenaProcess(line.split()[-1], db, log_path, proc)


class Prober:
    """Health and a read, again and again in a thread, each timed: the Arena must answer both
    within a second however it is attacked."""

    def __init__(self, arena: ArenaProcess, token: str) -> None:
        self.arena = arena
        self.token = token
        self.slowest = 0.0
        self.probes = 0
        self.failures: list[str] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="prober", daemon=True)

    def _run(self) -> None:
        health = health_pb2_grpc.HealthStub(self.arena.channel)
        while not self._stop.is_set():
            started = time.monotonic()
            try:
                answer = health.Check(health_pb2.HealthCheckRequest(service="skyarena.v1.Arena"), timeout=5)
                assert answer.status == health_pb2.HealthCheckResponse.SERVING
                self.arena.stub.ListBots(pb.ListBotsRequest(), metadata=auth(self.token), timeout=5)
            except (grpc.RpcError, AssertionError) as exc:
                self.failures.append(repr(exc))
            self.slowest = max(self.slowest, time.monotonic() - started)
            self.probes += 1
            self._stop.wait(0.1)

    def __enter__(self) -> Prober:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(10)

    def check(self) -> None:
        assert self.probes >= 3 and not self.failures, self.failures[:3]
        assert self.slowest < 1.0, f"a health check and a read took {self.slowest:.2f} s"


class StalledStream:
    """A SubmitVersion stream that sends its header (or nothing) and then nothing more."""

    def __init__(self, arena: ArenaProcess, token: str, send_header: bool = True) -> None:
        self.release = threading.Event()

        def chunks() -> Iterator[pb.SubmitChunk]:
            if send_header:
                yield pb.SubmitChunk(header=pb.SubmitHeader(size=1000, format="tar.gz"))
            self.release.wait(60)

        self.future = arena.stub.SubmitVersion.future(chunks(), metadata=auth(token), timeout=60)

    def code(self, timeout: float) -> grpc.StatusCode:
        error = self.future.exception(timeout=timeout)
        assert error is not None, "a stalled upload was answered as if it had succeeded"
        code: grpc.StatusCode = error.code()
        return code

    def close(self) -> None:
        self.release.set()
        self.future.cancel()


def good_archive(name: str, salt: str = "") -> bytes:
    return tar_archive([("bot.py", GOOD_BOT + f"# {salt}\n".encode()), ("skyarena.toml", manifest(name=name))])


def pax_bomb(header_bytes: int = 128 << 20) -> bytes:
    """A gzip tar whose first member is a pax extended header of ``header_bytes`` (one huge
    ``comment`` record), then a valid bot: about 130 KB for 128 MiB, as in the issue's attack."""
    value_len = header_bytes - len(" comment=\n") - 9  # the record's length prefix has 9 digits
    record_len = value_len + len(" comment=\n") + 9
    assert len(str(record_len)) == 9
    head = tarfile.TarInfo("././@PaxHeader")
    head.type = tarfile.XHDTYPE
    head.size = record_len
    compressor = zlib.compressobj(9, zlib.DEFLATED, 31)  # gzip framing
    parts = [compressor.compress(head.tobuf(format=tarfile.USTAR_FORMAT)),
             compressor.compress(f"{record_len} comment=".encode())]
    block = b"A" * (1 << 20)
    left = value_len
    while left:
        piece = block[:min(left, len(block))]
        parts.append(compressor.compress(piece))
        left -= len(piece)
    padding = -record_len % 512
    parts.append(compressor.compress(b"\n" + b"\0" * padding))
    rest = tar_archive([("bot.py", GOOD_BOT), ("skyarena.toml", manifest(name="paxbomb"))], mode="w")
    parts.append(compressor.compress(rest))
    parts.append(compressor.flush())
    return b"".join(parts)


def folder_entry(name: str) -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type = tarfile.DIRTYPE
    info.mode = 0o755
    return info

