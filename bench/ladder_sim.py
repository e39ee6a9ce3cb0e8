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

``--settle`` measures the finish line instead: matches until the top 3 is *settled*
(`workers.rank_confidence.settle_verdict`, checked after every batch, k = 3, p = 0.95) under
today's matchmaker (``seek_share=0``), the information-seeking one (the default parameters)
and random pairing, the same bots for all three; then, for the seeking matchmaker, Kendall's
τ of the true top 8 when it said settled and how often its settled top 3 was not the true
order. A ladder that has not settled after ``SETTLE_CAP`` matches per bot (``--settle-cap``) counts
that many, so a mean with unsettled seeds is a lower bound; the figures that such a cut-off
does not bias are reported beside it: the share of seeds settled by each of several match
counts (``settled_by``, a survival curve), the median where more than half settled, and the
comparison with today's on the seeds both settled (``fewer_matches_where_both_settled``).
It also times, on a ladder of 1,000 versions, what the settled check adds to one schedule
tick (the verdict and the open pairs, all a tick computes) and what the rank intervals cost
(computed when the standings are read).

    python bench/ladder_sim.py --settle --json
        # {"matches_to_settle": {"today": n, "seeking": n, "random": n}, "top8_tau_when_settled": ...,
        #  "wrong_settled_rate": ..., "seeds": ..., "cost_1000_versions": {"tick_ms": ..., ...}, ...}
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from workers.matchmaking import LadderVersion, MatchmakingParameters, open_pairs, plan_matches  # noqa: E402
from workers.rank_confidence import Contestant, ladder_order, rank_intervals, settle_verdict  # noqa: E402
from workers.ratings import Rating, RatingParameters, SeatResult, rate_free_for_all  # noqa: E402

BOTS = 40
CHECKPOINTS = (10, 20, 40)
TARGET_TAU_2P_20 = 0.85
SETTLE_CAP = 300           # matches per bot before a ladder that never settles is given up on
SETTLE_TARGETS = {"fewer_matches": 0.30, "top8_tau_when_settled": 0.9, "wrong_settled_rate": 0.05}
TICK_VERSIONS = 1000

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


    def contestants(self) -> list[Contestant]:
        return [Contestant(v, self.ratings[v], self.played[v]) for v in range(BOTS)]

    def top8_tau(self) -> float:
        best = sorted(range(BOTS), key=lambda v: -self.skill[v])[:8]
        return kendall_tau([self.skill[v] for v in best], [self.ratings[v].leaderboard_score for v in best])

    def top3_right(self) -> bool:
        truth = sorted(range(BOTS), key=lambda v: -self.skill[v])[:3]
        return [c.version_id for c in ladder_order(self.contestants())[:3]] == truth


def scheduled_by(params: MatchmakingParameters) -> Scheduler:
    """The production matchmaker with these parameters, as a simulation scheduler."""
    def schedule(ladder: Ladder, rng: random.Random, count: int) -> list[tuple[int, ...]]:
        plan = plan_matches(ladder.versions(), [], ladder.players, count, rng.randrange(2**32), params, ladder.params)
        return [m.seats for m in plan.matches]
    return schedule


matchmaker = scheduled_by(MatchmakingParameters())
today = scheduled_by(MatchmakingParameters(seek_share=0))


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


def settle_run(players: int, seed: int, scheduler: Scheduler, tau: float | None = None,
               cap_per_bot: int = SETTLE_CAP) -> tuple[int, bool, float, bool]:
    """(matches played, settled?, top-8 τ then, top 3 right then) for one seeded ladder (``tau``: the
    season's τ, default TrueSkill's σ/100; 0 is a final's, or a season of bots that do not change)."""
    params = RatingParameters() if tau is None else RatingParameters(tau=tau)
    rules = MatchmakingParameters()
    ladder = Ladder(players, seed, params)
    rng = random.Random(seed * 7919 + players)
    batch = max(1, BOTS // (2 * players))
    cap = BOTS * cap_per_bot // players
    played = 0
    while played < cap:
        for seats in scheduler(ladder, rng, batch):
            ladder.play(seats, rng)
            played += 1
        verdict = settle_verdict(ladder.contestants(), params, top=rules.settle_top,
                                 probability=rules.settle_probability, placement=rules.placement_matches,
                                 players=players)
        if verdict.settled:
            return played, True, ladder.top8_tau(), ladder.top3_right()
    return played, False, ladder.top8_tau(), ladder.top3_right()


def tick_cost_ms(versions: int = TICK_VERSIONS, repeats: int = 20) -> dict[str, float]:
    """Median milliseconds, on a ladder of ``versions``: what a schedule tick adds (the settled verdict
    and the open pairs) and what a standings read adds (the rank intervals)."""
    rng = random.Random(1)
    params, rules = RatingParameters(), MatchmakingParameters()
    ladder = [Contestant(v, Rating(rng.gauss(25, 8), rng.uniform(0.8, 8.3)), rng.randrange(200))
              for v in range(versions)]

    def median_ms(work: Callable[[int], object]) -> float:
        times = []
        for i in range(repeats):
            start = time.perf_counter()
            work(i)
            times.append((time.perf_counter() - start) * 1000)
        return round(statistics.median(times), 2)

    tick = median_ms(lambda i: (settle_verdict(ladder, params, top=rules.settle_top,
                                               probability=rules.settle_probability,
                                               placement=rules.placement_matches),
                                open_pairs(ladder, rules, params)))
    intervals = median_ms(lambda i: rank_intervals([c.rating for c in ladder_order(ladder)], seed=i))
    return {"tick_ms": tick, "rank_intervals_ms": intervals, "both_ms": round(tick + intervals, 2)}


def measure_settle(players: int, seeds: int, tau: float | None = None,
                   cap_per_bot: int = SETTLE_CAP) -> dict[str, object]:
    schedulers = {"today": today, "seeking": matchmaker, "random": random_pairing}
    runs = {name: [settle_run(players, seed, s, tau, cap_per_bot) for seed in range(seeds)]
            for name, s in schedulers.items()}
    seeking_settled = [r for r in runs["seeking"] if r[1]]
    means = {name: round(statistics.fmean(r[0] for r in rs), 1) for name, rs in runs.items()}
    cap = BOTS * cap_per_bot // players
    marks = sorted({m for m in (cap // 8, cap // 4, cap // 2, cap) if m > 0})
    both = [(t[0], s[0]) for t, s in zip(runs["today"], runs["seeking"]) if t[1] and s[1]]
    return {
        "matches_to_settle": means,
        "unsettled_seeds": {name: sum(1 for r in rs if not r[1]) for name, rs in runs.items()},
        "fewer_matches_than_today": round(1 - means["seeking"] / means["today"], 3),
        "settled_by": {str(m): {name: round(sum(1 for r in rs if r[1] and r[0] <= m) / seeds, 3)
                                for name, rs in runs.items()} for m in marks},
        "median_matches_to_settle": {name: _median_settled(rs) for name, rs in runs.items()},
        "fewer_matches_where_both_settled": round(1 - sum(s for _, s in both) / sum(t for t, _ in both), 3)
        if both else None,
        "seeds_both_settled": len(both),
        "top8_tau_when_settled": round(statistics.fmean(r[2] for r in seeking_settled), 3)
        if seeking_settled else None,
        "wrong_settled_rate": round(sum(1 for r in seeking_settled if not r[3]) / len(seeking_settled), 3)
        if seeking_settled else None,
        "wrong_settled_rate_today": round(sum(1 for r in runs["today"] if r[1] and not r[3])
                                          / max(1, sum(1 for r in runs["today"] if r[1])), 3),
        "seeds": seeds, "players": players, "bots": BOTS, "settle_cap_per_bot": cap_per_bot,
        "tau": RatingParameters().tau if tau is None else tau,
        "cost_1000_versions": tick_cost_ms(),
        "targets": SETTLE_TARGETS,
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }


def _median_settled(runs: Sequence[tuple[int, bool, float, bool]]) -> float | None:
    """The median matches to settle, unsettled seeds counted as above every settled one; None when half or
    more never settled (the median lies beyond the cut-off)."""
    ordered = sorted(r[0] if r[1] else float("inf") for r in runs)
    middle = (ordered[(len(ordered) - 1) // 2] + ordered[len(ordered) // 2]) / 2
    return None if middle == float("inf") else middle


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, choices=range(2, 11), metavar="P", help="only this player count")
    parser.add_argument("--matches-per-bot", type=int, metavar="M", help="only this checkpoint")
    parser.add_argument("--seeds", type=int, help="ladders averaged per figure (default 5; with --settle 20)")
    parser.add_argument("--json", action="store_true", help="print JSON (needs --players and --matches-per-bot)")
    parser.add_argument("--settle", action="store_true", help="matches until the top 3 settles (default 20 seeds)")
    parser.add_argument("--tau", type=float, help="with --settle: the season's tau (default sigma/100; 0: a final's)")
    parser.add_argument("--settle-cap", type=int, default=SETTLE_CAP, metavar="M",
                        help=f"with --settle: matches per bot before an unsettled ladder is given up on ({SETTLE_CAP})")
    args = parser.parse_args()
    if args.seeds is not None and args.seeds < 1:
        parser.error("--seeds must be at least 1")
    seeds = args.seeds or (20 if args.settle else 5)
    if args.settle:
        if args.matches_per_bot is not None:
            parser.error("--settle plays until settled: drop --matches-per-bot")
        if args.tau is not None and not 0 <= args.tau <= RatingParameters().sigma:
            parser.error(f"--tau must be from 0 to {RatingParameters().sigma:g}")
        if args.settle_cap < 1:
            parser.error("--settle-cap must be at least 1")
        figures = measure_settle(args.players or 2, seeds, args.tau, args.settle_cap)
        print(json.dumps(figures) if args.json else json.dumps(figures, indent=2))
        return
    if args.matches_per_bot is not None and args.matches_per_bot < 1:
        parser.error("--matches-per-bot must be at least 1")
    if args.json:
        if args.players is None or args.matches_per_bot is None:
            parser.error("--json needs --players and --matches-per-bot")
        results = measure(args.players, seeds, [args.matches_per_bot])
        print(json.dumps({"kendall_tau": round(results["matchmaker"][args.matches_per_bot], 4),
                          "random_pairing_kendall_tau": round(results["random"][args.matches_per_bot], 4)}))
        return
    checkpoints = [args.matches_per_bot] if args.matches_per_bot else list(CHECKPOINTS)
    print(f"Kendall tau, true skill vs leaderboard (mu - 3 sigma), {BOTS} bots, mean of {seeds} seeds")
    print(f"{'players':>7} {'matches/bot':>11} {'matchmaker':>10} {'random':>8}")
    for players in [args.players] if args.players else [2, 4]:
        results = measure(players, seeds, checkpoints)
        for m in checkpoints:
            print(f"{players:>7} {m:>11} {results['matchmaker'][m]:>10.3f} {results['random'][m]:>8.3f}")
    print(f"target: 2 players, 20 matches/bot: tau >= {TARGET_TAU_2P_20} and above random pairing")


if __name__ == "__main__":
    main()
