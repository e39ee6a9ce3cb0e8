"""bench/ladder_sim.py: its Kendall tau and a short run through the real matchmaker and ratings."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bench.ladder_sim import _median_settled, kendall_tau, matchmaker, random_pairing, run, settle_run, today

ROOT = Path(__file__).resolve().parents[2]


def test_kendall_tau_counts_agreeing_pairs() -> None:
    assert kendall_tau([1, 2, 3, 4], [10, 20, 30, 40]) == 1.0
    assert kendall_tau([1, 2, 3, 4], [4, 3, 2, 1]) == -1.0
    # 6 pairs, one discordant (3, 4): (5 - 1) / 6
    assert kendall_tau([1, 2, 3, 4], [1, 2, 4, 3]) == pytest.approx(4 / 6)
    # tau-b with a tie in y: 2 concordant pairs, 1 tied only in y: 2 / sqrt((2 + 0) * (2 + 1))
    assert kendall_tau([1, 2, 3], [1, 2, 2]) == pytest.approx(2 / (2 * 3) ** 0.5)


def test_a_short_ladder_learns_the_order_and_is_reproducible() -> None:
    first = run(2, seed=3, scheduler=matchmaker, checkpoints=[2, 8])
    assert first == run(2, seed=3, scheduler=matchmaker, checkpoints=[2, 8])
    assert first[8] > first[2] > 0.3  # more matches, a truer order
    assert 0.0 < run(4, seed=3, scheduler=random_pairing, checkpoints=[4])[4] <= 1.0


def test_the_json_output() -> None:
    out = subprocess.run([sys.executable, "bench/ladder_sim.py", "--players", "2", "--matches-per-bot", "3",
                          "--seeds", "1", "--json"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    figures = json.loads(out)
    assert set(figures) == {"kendall_tau", "random_pairing_kendall_tau"}
    assert all(-1.0 <= value <= 1.0 for value in figures.values())


def test_a_settle_run_stops_when_the_top_settles_and_seeking_gets_there_first() -> None:
    seeking = settle_run(2, seed=0, scheduler=matchmaker)
    assert seeking == settle_run(2, seed=0, scheduler=matchmaker)     # seeded
    matches, settled, tau8, right = seeking
    assert settled and -1.0 <= tau8 <= 1.0 and isinstance(right, bool)
    assert matches < settle_run(2, seed=0, scheduler=today)[0]


def test_the_settle_json_has_the_contract_keys() -> None:
    out = subprocess.run([sys.executable, "bench/ladder_sim.py", "--settle", "--json", "--seeds", "1"], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    figures = json.loads(out)
    assert set(figures["matches_to_settle"]) == {"today", "seeking", "random"}
    assert {"top8_tau_when_settled", "wrong_settled_rate", "seeds", "cost_1000_versions"} <= set(figures)
    assert figures["seeds"] == 1 and all(n > 0 for n in figures["matches_to_settle"].values())


def test_the_median_to_settle_counts_unsettled_ladders_as_beyond_the_cut_off() -> None:
    settled, unsettled = (100, True, 1.0, True), (6000, False, 0.5, True)
    assert _median_settled([settled, (300, True, 1.0, True), unsettled]) == 300
    assert _median_settled([settled, unsettled]) is None       # half never settled: the median is past the cap
    assert _median_settled([settled, (200, True, 1.0, True)]) == 150
