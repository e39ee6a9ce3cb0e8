"""Prometheus metrics of the referee (``prometheus_client``).

The registry and its exporter on ``--metrics-listen`` are every server's (`serving.metrics`).
Names follow Prometheus conventions (``skyarena_referee_*``); rates such as decisions per
second come from the counters with ``rate()`` on the Prometheus side.

The per-decision figures (decisions, latency, faults) are plain integers and a bucket
array updated on the event loop, exported by a custom collector at scrape time: the hot
path pays a few additions instead of prometheus_client's locks (the referee is one
thread, so nothing else writes them).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator

from prometheus_client import CollectorRegistry, Counter, Gauge
from prometheus_client.core import CounterMetricFamily, HistogramMetricFamily, Metric
from prometheus_client.registry import Collector

from serving.metrics import ServedMetrics

# Decision latency buckets: from sub-millisecond loopback bots to slow thinkers.
LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
FAULT_KINDS = ("timeout", "exception", "illegal", "unparseable", "disconnect")


class DecisionStats(Collector):
    """Decisions, their latency histogram and faults by kind, exported at scrape time."""

    def __init__(self) -> None:
        self.decisions = 0
        self.latency_counts = [0] * (len(LATENCY_BUCKETS) + 1)
        self.latency_sum = 0.0
        self.faults = dict.fromkeys(FAULT_KINDS, 0)

    def decided(self, latency_s: float) -> None:
        self.decisions += 1
        self.latency_counts[bisect_left(LATENCY_BUCKETS, latency_s)] += 1
        self.latency_sum += latency_s

    def faulted(self, kind: str) -> None:
        self.faults[kind] = self.faults.get(kind, 0) + 1

    def collect(self) -> Iterator[Metric]:
        yield CounterMetricFamily("skyarena_referee_decisions",
                                  "Seat decisions answered or faulted (rate() gives decisions per second).",
                                  value=self.decisions)
        cumulative = 0
        buckets = []
        for bound, count in zip((*map(str, LATENCY_BUCKETS), "+Inf"), self.latency_counts):
            cumulative += count
            buckets.append((bound, cumulative))
        yield HistogramMetricFamily("skyarena_referee_decision_latency_seconds",
                                    "Time from a turn request to its answer (or its deadline), as the referee "
                                    "measures it.", buckets=buckets, sum_value=self.latency_sum)
        faults = CounterMetricFamily("skyarena_referee_faults", "Faults recorded, by kind.", labels=["kind"])
        for kind, count in self.faults.items():
            faults.add_metric([kind], count)
        yield faults


class Metrics(ServedMetrics):
    def __init__(self, registry: CollectorRegistry | None = None) -> None:
        super().__init__(registry)
        r = self.registry
        self.matches_running = Gauge("skyarena_referee_matches_running",
                                     "Matches waiting for seats or being played.", registry=r)
        self.matches_total = Counter("skyarena_referee_matches_total",
                                     "Matches that ended, by final state.", ["state"], registry=r)
        self.seats_connected = Gauge("skyarena_referee_seats_connected", "Open Play streams.", registry=r)
        self.watchers = Gauge("skyarena_referee_watchers", "Open Watch streams.", registry=r)
        self.stats = DecisionStats()
        r.register(self.stats)
        for state in ("finished", "aborted"):  # zeros instead of gaps on dashboards
            self.matches_total.labels(state)

