"""``skyarena arena serve`` as an operator runs it: a real process with health checking, reflection,
Prometheus metrics and JSON logs, a graceful stop, and a refusal to serve an unmigrated store."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import urllib.request
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from skyarena.v1 import arena_pb2 as pb
from skyarena.v1 import arena_pb2_grpc as pb_grpc

from ..services import SKYARENA


def _env(database_url: str, tmp_path: Path) -> dict[str, str]:
    # The broker is only named: the Arena sends to it when a submission is stored, not at start-up.
    return dict(os.environ, DATABASE_URL=database_url, SKYARENA_DATA_DIR=str(tmp_path),
                CELERY_BROKER_URL="redis://127.0.0.1:6379/15")


def test_the_arena_process_serves_health_reflection_metrics_and_json_logs(database_url: str, tmp_path: Path) -> None:
    log_path = tmp_path / "arena.log"
    with open(log_path, "wb") as log:
        proc = subprocess.Popen([SKYARENA, "arena", "serve", "--listen", "127.0.0.1:0", "--metrics-listen",
                                 "127.0.0.1:0"], stdout=subprocess.PIPE, stderr=log, env=_env(database_url, tmp_path),
                                start_new_session=True)
    try:
        assert proc.stdout is not None
        metrics_line = proc.stdout.readline().decode()
        listen_line = proc.stdout.readline().decode()
        assert "metrics on http://" in metrics_line and "arena listening on" in listen_line, log_path.read_text()
        address = listen_line.split()[-1]
        with grpc.insecure_channel(address) as channel:
            health = health_pb2_grpc.HealthStub(channel).Check(
                health_pb2.HealthCheckRequest(service="skyarena.v1.Arena"), timeout=10)
            assert health.status == health_pb2.HealthCheckResponse.SERVING
            reflection = reflection_pb2_grpc.ServerReflectionStub(channel).ServerReflectionInfo(
                iter([reflection_pb2.ServerReflectionRequest(list_services="")]), timeout=10)
            services = {s.name for r in reflection for s in r.list_services_response.service}
            assert {"skyarena.v1.Arena", "grpc.health.v1.Health"} <= services
            try:
                pb_grpc.ArenaStub(channel).ListBots(pb.ListBotsRequest(), timeout=10)
            except grpc.RpcError as exc:
                assert exc.code() == grpc.StatusCode.UNAUTHENTICATED
        with urllib.request.urlopen(metrics_line.split()[-1], timeout=10) as response:
            metrics = response.read().decode()
        assert 'skyarena_arena_calls_total{code="UNAUTHENTICATED",method="ListBots"} 1.0' in metrics
        os.killpg(proc.pid, signal.SIGTERM)
        assert proc.wait(30) == 0
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    events = [json.loads(line)["event"] for line in log_path.read_text().splitlines() if line.startswith("{")]
    assert {"arena_listening", "call", "arena_stopped"} <= set(events)


def test_the_arena_refuses_an_unmigrated_store_in_one_line(empty_database_url: str, tmp_path: Path) -> None:
    done = subprocess.run([SKYARENA, "arena", "serve", "--listen", "127.0.0.1:0"], capture_output=True, text=True,
                          env=_env(empty_database_url, tmp_path), timeout=60)
    assert done.returncode == 2
    assert "arena not started" in done.stderr and "skyarena db upgrade" in done.stderr
