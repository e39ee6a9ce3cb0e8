"""Skybirds speed on one core: random wars (legal_actions + apply per decision), decisions
per second, full wars per second and clone() cost on mid-game states.

    .venv/bin/python -m tests.games.skybirds.bench [--seconds 5]
"""

from __future__ import annotations

import argparse
import random
import time
import timeit

from referee.games.core.playout import random_joint_action
from referee.games.skybirds.state import SkybirdsState

from .helpers import new


def measure(players: int, seconds: float) -> dict[str, float]:
    decisions = wars = 0
    mid: list[SkybirdsState] = []
    start = time.process_time()
    seed = 0
    while time.process_time() - start < seconds:
        state = new(players, seed=seed)
        policy = random.Random(seed)
        while not state.is_over():
            state.apply(random_joint_action(state, policy))
            decisions += 1
            if decisions % 997 == 0 and len(mid) < 50:
                mid.append(state.clone())  # type: ignore[arg-type]
        wars += 1
        seed += 1
    elapsed = time.process_time() - start
    clone_us = min(timeit.repeat(lambda: [s.clone() for s in mid], number=200, repeat=5)) / (200 * len(mid)) * 1e6
    return {"players": players, "decisions_per_s": decisions / elapsed, "wars_per_s": wars / elapsed,
            "decisions_per_war": decisions / wars, "clone_us": clone_us}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    for players in (2, 3, 4):
        row = measure(players, args.seconds)
        print(f"{players}p: {row['decisions_per_s']:9.0f} decisions/s  {row['wars_per_s']:6.2f} wars/s  "
              f"{row['decisions_per_war']:6.0f} decisions/war  clone {row['clone_us']:5.1f} us")


if __name__ == "__main__":
    main()
