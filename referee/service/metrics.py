"""Prometheus metrics of the referee (``prometheus_client``).

Each server owns its registry (tests start several servers in one process); the
exporter serves it on ``--metrics-listen``. Names follow Prometheus conventions:
``skyarena_referee_*``; rates (decisions per second) come from the counters with
``rate()`` on the Prometheus side.
"""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest, start_http_server

# Decision latency buckets: from sub-millisecond loopback bots to slow thinkers.
_LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)


class Metrics:
    def __init__(self, registry: CollectorRegistry | None = None) -> None:
        self.registry = registry if registry is not None else CollectorRegistry()
        r = self.registry
        self.matches_running = Gauge("skyarena_referee_matches_running",
                                     "Matches waiting for seats or being played.", registry=r)
        self.matches_total = Counter("skyarena_referee_matches_total",
                                     "Matches that ended, by final state.", ["state"], registry=r)
        self.decisions_total = Counter("skyarena_referee_decisions_total",
                                       "Seat decisions answered or faulted (rate() gives decisions per second).",
                                       registry=r)
        self.decision_latency = Histogram("skyarena_referee_decision_latency_seconds",
                                          "Time from a turn request to its answer, as the referee measures it.",
                                          buckets=_LATENCY_BUCKETS, registry=r)
        self.faults_total = Counter("skyarena_referee_faults_total", "Faults recorded, by kind.", ["kind"],
                                    registry=r)
        self.seats_connected = Gauge("skyarena_referee_seats_connected", "Open Play streams.", registry=r)
        self.watchers = Gauge("skyarena_referee_watchers", "Open Watch streams.", registry=r)
        # Pre-create the label values so dashboards show zeros instead of gaps.
        for kind in ("timeout", "exception", "illegal", "unparseable", "disconnect"):
            self.faults_total.labels(kind)
        for state in ("finished", "aborted"):
            self.matches_total.labels(state)

    def exposition(self) -> bytes:
        """The current metrics in the Prometheus text format."""
        return generate_latest(self.registry)

    def serve(self, host: str, port: int) -> int:
        """Start the HTTP exporter in a daemon thread; returns the bound port."""
        server, _thread = start_http_server(port, addr=host, registry=self.registry)
        return int(server.server_port)
