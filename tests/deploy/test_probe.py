"""deploy/probe.py (the image's `skyarena-probe`) run as the containers run it, a process,
against real servers on loopback: grpc's own health servicer, a real HTTP server, and a
real `skyarena referee serve` through its whole life."""

from __future__ import annotations

import http.server
import os
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from concurrent import futures
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from .manifests import DEPLOY

PROBE = [sys.executable, str(DEPLOY / "probe.py")]


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
