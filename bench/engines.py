"""Engine speed: full random games per second, decisions per second and clone() cost.

One process, one core. For each game and player count it plays seeded random games for
``--seconds`` (legal_actions + apply each decision, setup included in games/s), then times
``clone()`` on states sampled from the middle of games. A bare Python loop measured in the
same run gives a machine baseline so figures from different machines compare as ratios.

    python bench/engines.py                      # table
    python bench/engines.py --json               # JSON list
    python bench/engines.py --game sky-team --players 2 --seconds 3
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from referee.games import GAMES, State, make  # noqa: E402
from referee.games.core.playout import random_joint_action  # noqa: E402

# Targets from the issues, on one core: (min games/s, min decisions/s, max clone µs).
TARGETS: dict[tuple[str, int | None], dict[str, float]] = {
    ("sky-team", 2): {"games_per_s": 1000, "clone_us": 20},
    ("skyjo-action", 4): {"decisions_per_s": 20000, "clone_us": 30},
    ("skybirds", 4): {"decisions_per_s": 10000, "clone_us": 30},
    ("oddball-aeronauts", 2): {"decisions_per_s": 20000, "clone_us": 30},
    ("fly-away", 4): {"decisions_per_s": 5000, "clone_us": 30},
}


@dataclass
class EngineFigures:
    game: str
    players: int
    games_per_s: float
    decisions_per_s: float
    clone_us: float
    games: int
    decisions: int
    baseline_ratio: float  # decisions per second / bare-loop iterations per second (x 1e3)
    target: str = ""
    met: bool | None = None


def baseline_loop_per_s(seconds: float = 0.2) -> float:
    """Iterations per second of a bare Python loop with a call: the machine's yardstick."""

    def step(x: int) -> int:
        return (x * 31 + 7) & 0xFFFF

    n, x = 0, 1
    end = time.perf_counter() + seconds
    started = time.perf_counter()
    while time.perf_counter() < end:
        for _ in range(1000):
            x = step(x)
        n += 1000
    return n / (time.perf_counter() - started)


def measure(game: str, players: int, seconds: float, baseline: float) -> EngineFigures:
    policy = random.Random(1)
    games = decisions = 0
    samples: list[State] = []
    started = time.perf_counter()
    deadline = started + seconds
    seed = 0
    while True:
        state = make(game, players, seed=seed)
        seed += 1
        mid = None
        while not state.is_over():
            state.apply(random_joint_action(state, policy))
            decisions += 1
            if mid is None and state.decisions >= 10 and len(samples) < 50:
                mid = state
                samples.append(state.clone())
        games += 1
        if time.perf_counter() >= deadline:
            break
    elapsed = time.perf_counter() - started
    if not samples:
        samples.append(make(game, players, seed=0))
    reps = 0
    clone_started = time.perf_counter()
    while time.perf_counter() - clone_started < min(0.5, seconds / 2):
        for s in samples:
            s.clone()
        reps += len(samples)
    clone_us = 1e6 * (time.perf_counter() - clone_started) / reps
    figures = EngineFigures(game, players, games / elapsed, decisions / elapsed, clone_us, games, decisions,
                            1000 * (decisions / elapsed) / baseline)
    target = TARGETS.get((game, players))
    if target:
        checks = []
        parts = []
        for key, bound in target.items():
            value = getattr(figures, key)
            ok = value <= bound if key == "clone_us" else value >= bound
            checks.append(ok)
            parts.append(f"{key} {'<' if key == 'clone_us' else '>='} {bound:g}")
        figures.target = ", ".join(parts)
        figures.met = all(checks)
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Engine speed per game and player count.")
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument("--players", type=int, action="append", help="only this player count (repeatable)")
    parser.add_argument("--seconds", type=float, default=1.0, help="playing time per case (default 1)")
    parser.add_argument("--json", action="store_true", help="print a JSON list instead of a table")
    parser.add_argument("--json-out", type=Path, help="also write the JSON list to this file")
    args = parser.parse_args(argv)
    unknown = [g for g in args.game or [] if g not in GAMES]
    if unknown:
        parser.error(f"unknown game {unknown[0]!r}; known: {', '.join(sorted(GAMES))}")
    baseline = baseline_loop_per_s()
    results = []
    for name in sorted(GAMES):
        if args.game and name not in args.game:
            continue
        for players in GAMES[name].player_counts():
            if args.players and players not in args.players:
                continue
            results.append(measure(name, players, args.seconds, baseline))
            if not args.json:
                _print_row(results[-1], header=len(results) == 1)
    rows = [{"game": r.game, "players": r.players, "games_per_s": round(r.games_per_s, 1),
             "decisions_per_s": round(r.decisions_per_s), "clone_us": round(r.clone_us, 2)} for r in results]
    if args.json:
        print(json.dumps(rows, indent=1))
    if args.json_out:
        args.json_out.write_text(json.dumps({"baseline_loop_per_s": round(baseline),
                                             "results": [asdict(r) for r in results]}, indent=1))
    return 0


def _print_row(r: EngineFigures, header: bool) -> None:
    if header:
        print(f"{'game':<18} {'n':>2} {'games/s':>10} {'decisions/s':>12} {'clone µs':>9}  target")
    mark = "" if r.met is None else ("  ok: " if r.met else "  MISSED: ") + r.target
    print(f"{r.game:<18} {r.players:>2} {r.games_per_s:>10.1f} {r.decisions_per_s:>12.0f} {r.clone_us:>9.2f}{mark}",
          flush=True)


if __name__ == "__main__":
    sys.exit(main())
