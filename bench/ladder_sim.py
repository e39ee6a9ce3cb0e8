"""How fast the ladder finds the true order: simulated bots through the real matchmaker and ratings.

Forty bots of known skill (drawn from the rating prior, N(25, 8.33)) play on one ladder. A
match is TrueSkill's own generative model: each seat performs its skill plus Gaussian noise
of the season's β and the seats rank by performance. The schedule comes from
``workers.matchmaking.plan_matches`` in batches the size of a busy ladder's in-flight set
(the ratings move only once a batch is played, as with real workers), and every result goes
through ``workers.ratings.rate_free_for_all``: no database, the same code as production.

The baseline, in the same run and with the same bots, is uniform random pairing rated by the
same code. The figure is Kendall's τ between the true skills and the leaderboard (μ − 3σ)
after 10, 20 and 40 matches per bot, the mean over several seeds.

    python bench/ladder_sim.py                                       # the table
    python bench/ladder_sim.py --players 2 --matches-per-bot 20 --json
        # {"kendall_tau": ..., "random_pairing_kendall_tau": ...}
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from workers.matchmaking import LadderVersion, MatchmakingParameters, plan_matches  # noqa: E402
from workers.ratings import RatingParameters, SeatResult, rate_free_for_all  # noqa: E402

BOTS = 40
CHECKPOINTS = (10, 20, 40)
TARGET_TAU_2P_20 = 0.85

Scheduler = Callable[["Ladder", random.Random, int], list[tuple[int, ...]]]


def kendall_tau(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Kendall's τ-b, exact, O(n²): forty bots need no library (scipy is not a dependency)."""
    concordant = discordant = ties_x = ties_y = 0
    n = len(xs)
    for i in range(n):
        for j in range(i + 1, n):
            dx, dy = xs[i] - xs[j], ys[i] - ys[j]
            if dx == 0 and dy == 0:
                continue
            if dx == 0:
                ties_x += 1
            elif dy == 0:
                ties_y += 1
            elif (dx > 0) == (dy > 0):
                concordant += 1
            else:
                discordant += 1
    denominator = ((concordant + discordant + ties_x) * (concordant + discordant + ties_y)) ** 0.5
    return (concordant - discordant) / denominator if denominator else 0.0


class Ladder:
    """The simulated ladder: true skills, current ratings, play and seat counts."""

    def __init__(self, players: int, seed: int, params: RatingParameters) -> None:
        rng = random.Random(seed)
        self.players = players
        self.params = params
        self.skill = [rng.gauss(params.mu, params.sigma) for _ in range(BOTS)]
        self.ratings = {v: params.fresh() for v in range(BOTS)}
        self.played = [0] * BOTS
        self.seat_counts = [[0] * players for _ in range(BOTS)]

    def versions(self) -> list[LadderVersion]:
        return [LadderVersion(v, self.ratings[v], self.played[v], tuple(self.seat_counts[v])) for v in range(BOTS)]

    def play(self, seats: tuple[int, ...], rng: random.Random) -> None:
        performance = [rng.gauss(self.skill[v], self.params.beta) for v in seats]
        order = sorted(range(len(seats)), key=lambda i: -performance[i])
        ranks = [0] * len(seats)
        for place, i in enumerate(order):
            ranks[i] = place
        rated = rate_free_for_all(self.params, [SeatResult(v, r) for v, r in zip(seats, ranks)], self.ratings)
        self.ratings.update(rated.new_ratings())
        for seat, v in enumerate(seats):
            self.played[v] += 1
            self.seat_counts[v][seat] += 1

    def tau(self) -> float:
        return kendall_tau(self.skill, [self.ratings[v].leaderboard_score for v in range(BOTS)])


def matchmaker(ladder: Ladder, rng: random.Random, count: int) -> list[tuple[int, ...]]:
    plan = plan_matches(ladder.versions(), [], ladder.players, count, rng.randrange(2**32),
                        MatchmakingParameters(), ladder.params)
    return [m.seats for m in plan.matches]


def random_pairing(ladder: Ladder, rng: random.Random, count: int) -> list[tuple[int, ...]]:
    return [tuple(rng.sample(range(BOTS), ladder.players)) for _ in range(count)]


def run(players: int, seed: int, scheduler: Scheduler, checkpoints: Sequence[int] = CHECKPOINTS) -> dict[int, float]:
    """τ at each checkpoint (matches per bot) of one seeded ladder under one scheduler."""
    params = RatingParameters()
    ladder = Ladder(players, seed, params)
    rng = random.Random(seed * 7919 + players)
    batch = max(1, BOTS // (2 * players))  # half the bots busy at once: a well-used ladder
    played = 0
    taus = {}
    for checkpoint in sorted(checkpoints):
        total = BOTS * checkpoint // players
        while played < total:
            for seats in scheduler(ladder, rng, min(batch, total - played)):
                ladder.play(seats, rng)
                played += 1
        taus[checkpoint] = ladder.tau()
    return taus


def measure(players: int, seeds: int, checkpoints: Sequence[int] = CHECKPOINTS) -> dict[str, dict[int, float]]:
    results: dict[str, dict[int, float]] = {}
    for name, scheduler in (("matchmaker", matchmaker), ("random", random_pairing)):
        runs = [run(players, seed, scheduler, checkpoints) for seed in range(seeds)]
        results[name] = {m: statistics.fmean(r[m] for r in runs) for m in checkpoints}
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, choices=range(2, 11), metavar="P", help="only this player count")
    parser.add_argument("--matches-per-bot", type=int, metavar="M", help="only this checkpoint")
    parser.add_argument("--seeds", type=int, default=5, help="ladders averaged per figure (default 5)")
    parser.add_argument("--json", action="store_true", help="print JSON (needs --players and --matches-per-bot)")
    args = parser.parse_args()
    if args.seeds < 1:
        parser.error("--seeds must be at least 1")
    if args.matches_per_bot is not None and args.matches_per_bot < 1:
        parser.error("--matches-per-bot must be at least 1")
    if args.json:
        if args.players is None or args.matches_per_bot is None:
            parser.error("--json needs --players and --matches-per-bot")
        results = measure(args.players, args.seeds, [args.matches_per_bot])
        print(json.dumps({"kendall_tau": round(results["matchmaker"][args.matches_per_bot], 4),
                          "random_pairing_kendall_tau": round(results["random"][args.matches_per_bot], 4)}))
        return
    checkpoints = [args.matches_per_bot] if args.matches_per_bot else list(CHECKPOINTS)
    print(f"Kendall tau, true skill vs leaderboard (mu - 3 sigma), {BOTS} bots, mean of {args.seeds} seeds")
    print(f"{'players':>7} {'matches/bot':>11} {'matchmaker':>10} {'random':>8}")
    for players in [args.players] if args.players else [2, 4]:
        results = measure(players, args.seeds, checkpoints)
        for m in checkpoints:
            print(f"{players:>7} {m:>11} {results['matchmaker'][m]:>10.3f} {results['random'][m]:>8.3f}")
    print(f"target: 2 players, 20 matches/bot: tau >= {TARGET_TAU_2P_20} and above random pairing")


if __name__ == "__main__":
    main()
