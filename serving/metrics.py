"""What every server's Prometheus metrics share: a registry of its own and the HTTP exporter.

Each server owns its registry (tests start several servers in one process); the exporter
serves it on ``--metrics-listen``. The servers' metric families are their own (subclasses).
"""

from __future__ import annotations

from prometheus_client import CollectorRegistry, generate_latest, start_http_server


class ServedMetrics:
    def __init__(self, registry: CollectorRegistry | None = None) -> None:
        self.registry = registry if registry is not None else CollectorRegistry()

    def exposition(self) -> bytes:
        """The current metrics in the Prometheus text format."""
        return generate_latest(self.registry)

    def serve(self, host: str, port: int) -> int:
        """Start the HTTP exporter in a daemon thread; returns the bound port."""
        server, _thread = start_http_server(port, addr=host, registry=self.registry)
        return int(server.server_port)
