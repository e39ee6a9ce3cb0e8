"""Prometheus metrics of the Arena (``prometheus_client``), served on ``--metrics-listen``.

The registry and its exporter are every server's (`serving.metrics`). Calls are counted by
method and final status code, with their latency; submissions by how their intake ended.
"""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Histogram

from serving.metrics import ServedMetrics

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
SUBMISSION_OUTCOMES = ("stored", "existing", "refused")


class ArenaMetrics(ServedMetrics):
    def __init__(self, registry: CollectorRegistry | None = None) -> None:
        super().__init__(registry)
        r = self.registry
        self.calls = Counter("skyarena_arena_calls_total", "Arena calls by method and gRPC status code.",
                             ["method", "code"], registry=r)
        self.latency = Histogram("skyarena_arena_call_seconds", "Time to answer an Arena call, by method.",
                                 ["method"], buckets=LATENCY_BUCKETS, registry=r)
        self.submissions = Counter("skyarena_arena_submissions_total", "Submitted archives by intake outcome.",
                                   ["outcome"], registry=r)
        self.upload_bytes = Counter("skyarena_arena_upload_bytes_total", "Archive bytes received.", registry=r)
        for outcome in SUBMISSION_OUTCOMES:  # zeros instead of gaps on dashboards
            self.submissions.labels(outcome)
