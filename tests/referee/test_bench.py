"""The referee benchmark still runs end to end (tiny sizes; no figure is judged here:
speed targets are checked by `make bench`, as ratios measured in one run)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_referee_bench_runs_and_reports_every_figure() -> None:
    # --scale-decisions 400: the referee's CPU time is read in clock ticks (10 ms); 50 decisions
    # (about 25 ms of it) could read as zero ticks
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "referee.py"), "--decisions", "200", "--repeats", "1",
                          "--scale-decisions", "400", "--scale-levels", "1,4", "--json"], cwd=ROOT,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    figures = json.loads(out.stdout)
    for key in ("decisions_per_s", "raw_pingpong_per_s", "ratio", "p50_ms", "p99_ms", "concurrent8_decisions_per_s",
                "decisions_per_s_sdk_bot", "decisions_per_s_two_processes", "relay_two_streams_per_s"):
        assert figures[key] > 0, key
    assert figures["p50_ms"] <= figures["p99_ms"]
    assert figures["request_bytes"] > figures["answer_bytes"] > 0
    assert isinstance(figures["targets_met"], bool)
    curve = figures["scale"]["curve"]
    assert [p["matches"] for p in curve] == [1, 4]
    for point in curve:
        assert point["decisions_per_s"] > 0 and point["referee_cpu_us_per_decision"] > 0
        assert point["p50_ms"] <= point["p99_ms"]
