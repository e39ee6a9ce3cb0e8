"""The Arena's gRPC server: the Arena service plus health checking and reflection.

A thread-pool server (the store is psycopg's blocking pool; a submission's sandbox check
runs its own short event loop), with message caps that let one archive chunk through and
nothing much bigger. The schema is checked before the port opens (`open_database`), so an
Arena never serves a store it does not understand.

    server = ArenaServer(db, dispatch)
    port = server.start("127.0.0.1:0")
    ...
    server.stop()
"""

from __future__ import annotations

import signal
import threading
from concurrent import futures
from types import FrameType

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from serving.logs import configure
from skyarena.v1 import arena_pb2 as pb
from skyarena.v1 import arena_pb2_grpc as pb_grpc
from skyarena.v1 import online_pb2, online_pb2_grpc
from workers.store import Database
from workers.store.challenges import ChallengeLimits

from .archive import ArchiveLimits
from .intake import Dispatch, Enqueue
from .metrics import ArenaMetrics
from .online import DEFAULT_MAX_CONNECTIONS, OnlineService
from .service import LOGGER_NAME, ArenaService, log
from .upload_limits import UploadLimits, server_threads

SERVICE_NAME = pb.DESCRIPTOR.services_by_name["Arena"].full_name
ONLINE_SERVICE_NAME = online_pb2.DESCRIPTOR.services_by_name["Online"].full_name

# Calls served at once: `upload_limits.server_threads`, the uploads' cap plus threads for reads
# and health, so stalled uploads cannot starve them.
# An upload arrives in chunks of at most this (the client sends 64 KiB); any other message is small.
MAX_RECEIVE_BYTES = 1 << 20
# The largest answer: a long match's public replay, or a capped bot log.
MAX_SEND_BYTES = 64 << 20
STOP_GRACE_S = 10.0


def configure_logs(level: str = "info", fmt: str = "json") -> None:
    """JSON lines on stderr (or text for people), the referee's format, under ``skyarena.arena``."""
    configure(LOGGER_NAME, level, fmt)


class ArenaServer:
    def __init__(self, db: Database, dispatch: Dispatch, limits: ArchiveLimits | None = None,
                 metrics: ArenaMetrics | None = None, sandbox_backend: str = "auto",
                 uploads: UploadLimits | None = None, enqueue: Enqueue | None = None,
                 challenge_limits: ChallengeLimits | None = None, max_connections: int = DEFAULT_MAX_CONNECTIONS
                 ) -> None:
        self.metrics = metrics or ArenaMetrics()
        self.service = ArenaService(db, dispatch, limits, self.metrics, sandbox_backend, uploads, enqueue,
                                    challenge_limits)
        self.online = OnlineService(db, dispatch, self.metrics, max_connections)
        self.health = health.HealthServicer()
        self.server: grpc.Server | None = None
        self.port = 0

    def start(self, listen: str) -> int:
        """Bind and serve; returns the bound port (``listen`` may end in ``:0``)."""
        threads = server_threads(self.service.gate.limits) + self.online.max_connections
        server = grpc.server(futures.ThreadPoolExecutor(max_workers=threads, thread_name_prefix="arena"),
                             options=[
                                 ("grpc.max_receive_message_length", MAX_RECEIVE_BYTES),
                                 ("grpc.max_send_message_length", MAX_SEND_BYTES),
                                 # One process per port: a second Arena on the same port fails loudly.
                                 ("grpc.so_reuseport", 0),
                                 # A Connect stream whose peer vanished without a word (a pulled cable) is
                                 # found dead by pings within seconds, so its bot goes offline that soon.
                                 ("grpc.keepalive_time_ms", 5_000),
                                 ("grpc.keepalive_timeout_ms", 5_000),
                                 # Online bots ping too (skyarena connect every 10 s): allow it, idle or not.
                                 ("grpc.http2.min_ping_interval_without_data_ms", 5_000),
                                 ("grpc.keepalive_permit_without_calls", 1),
                             ])
        pb_grpc.add_ArenaServicer_to_server(self.service, server)
        online_pb2_grpc.add_OnlineServicer_to_server(self.online, server)
        health_pb2_grpc.add_HealthServicer_to_server(self.health, server)
        reflection.enable_server_reflection(
            (SERVICE_NAME, ONLINE_SERVICE_NAME, health_pb2.DESCRIPTOR.services_by_name["Health"].full_name,
             reflection.SERVICE_NAME),
            server)
        self.port = server.add_insecure_port(listen)
        if self.port == 0:
            raise OSError(f"cannot listen on {listen}")
        server.start()
        self.health.set(SERVICE_NAME, health_pb2.HealthCheckResponse.SERVING)
        self.health.set(ONLINE_SERVICE_NAME, health_pb2.HealthCheckResponse.SERVING)
        self.health.set("", health_pb2.HealthCheckResponse.SERVING)
        self.server = server
        log.info("arena_listening", listen=listen, port=self.port,
                 limits=vars(self.service.limits), uploads=vars(self.service.gate.limits))
        return self.port

    def stop(self, grace_s: float = STOP_GRACE_S) -> None:
        """NOT_SERVING first (load balancers stop sending), then let running calls finish."""
        self.health.enter_graceful_shutdown()
        if self.server is not None:
            self.server.stop(grace_s).wait()
        self.online.board.close()
        log.info("arena_stopped")


def serve(server: ArenaServer, listen: str, metrics_listen: str | None = None) -> None:
    """Run until SIGINT/SIGTERM, then stop gracefully."""
    server.start(listen)
    if metrics_listen:
        host, _, port = metrics_listen.rpartition(":")
        bound = server.metrics.serve(host or "127.0.0.1", int(port))
        log.info("metrics_listening", listen=f"{host or '127.0.0.1'}:{bound}")
        print(f"metrics on http://{host or '127.0.0.1'}:{bound}/metrics", flush=True)
    stop = threading.Event()

    def request_stop(signum: int, frame: FrameType | None) -> None:
        stop.set()

    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, request_stop)
    print(f"arena listening on {listen.rpartition(':')[0]}:{server.port}", flush=True)
    stop.wait()
    log.info("shutdown_requested")
    server.stop()
