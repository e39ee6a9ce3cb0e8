"""Balance of the scoring card types: the measurement behind the README's design note.

The heuristic house bot plays every seat of seeded games at 2, 3, 4 and 5 players; for
each scoring card type this reports the points a kept card of that type scored (its "no
card" bonus included) and their ratio to the mean of the other three types. The issue's
target: no type above the others' mean by more than 15%.

    python -m tests.games.fly_away.balance --games 250                  # both value sets
    python -m tests.games.fly_away.balance --games 250 --values balanced

The error margin is a delete-a-group jackknife over games (the seats of one game are not
independent, so the game is the unit): the games are cut into 20 groups, the ratio is
recomputed leaving each group out, and the spread of those estimates gives its standard
error. ``tests/games/fly_away/test_balance.py`` runs a smaller sample of the same thing.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass

from referee.games.fly_away.data import SCORING_SETS, SCORING_TYPES
from skyarena.bot import Bot
from skyarena.games.fly_away import HeuristicBot
from skyarena.local import play_unclocked

PLAYER_COUNTS = (2, 3, 4, 5)
JACKKNIFE_GROUPS = 20
TYPES = len(SCORING_TYPES)


@dataclass
class Game:
    """What one game contributes, per scoring card type (index into SCORING_TYPES)."""

    players: int
    points: list[int]     # points scored by kept cards of the type, summed over seats
    kept: list[int]       # kept cards of the type
    totals: list[float]   # final scores of the seats keeping the type, summed


def play(values: str, players: int, seed: int) -> Game:
    bots: list[Bot] = [HeuristicBot() for _ in range(players)]
    state = play_unclocked("fly-away", bots, seed, {"scoring_data": values})
    result = state.result()
    assert result is not None
    game = Game(players, [0] * TYPES, [0] * TYPES, [0.0] * TYPES)
    for seat, breakdown in enumerate(result.details["scores"]):
        for card in breakdown["scoring_cards"]:
            kind = SCORING_TYPES.index(card["card"].split("-")[0])
            game.points[kind] += card["total"]
            game.kept[kind] += 1
            game.totals[kind] += result.scores[seat]
    return game


def play_many(values: str, games: int, seed: int = 0, players: Sequence[int] = PLAYER_COUNTS) -> list[Game]:
    """``games`` seeded games at each player count (seeds seed, seed+1, ...)."""
    return [play(values, n, seed + i) for n in players for i in range(games)]


def per_card(games: Sequence[Game]) -> list[float]:
    """Points per kept card of each type."""
    points = [sum(g.points[t] for g in games) for t in range(TYPES)]
    kept = [sum(g.kept[t] for g in games) for t in range(TYPES)]
    return [p / k if k else math.nan for p, k in zip(points, kept)]


def ratios(games: Sequence[Game]) -> list[float]:
    """Each type's points per kept card over the mean of the other three types'."""
    means = per_card(games)
    return [means[t] / (sum(means[o] for o in range(TYPES) if o != t) / (TYPES - 1)) for t in range(TYPES)]


def jackknife_se(games: Sequence[Game], groups: int = JACKKNIFE_GROUPS) -> list[float]:
    """Standard error of each ratio, by a delete-a-group jackknife over games."""
    groups = min(groups, len(games))
    estimates = [ratios([g for i, g in enumerate(games) if i % groups != k]) for k in range(groups)]
    se = []
    for t in range(TYPES):
        values = [e[t] for e in estimates]
        mean = sum(values) / groups
        se.append(math.sqrt((groups - 1) / groups * sum((v - mean) ** 2 for v in values)))
    return se


def report(values: str, games: Sequence[Game]) -> str:
    seats = sum(g.players for g in games)
    means, ratio, se = per_card(games), ratios(games), jackknife_se(games)
    kept = [sum(g.kept[t] for g in games) for t in range(TYPES)]
    totals = [sum(g.totals[t] for g in games) / kept[t] if kept[t] else math.nan for t in range(TYPES)]
    counts = sorted({g.players for g in games})
    lines = [
        f"scoring_data={values}: {len(games)} games, {seats} seats (heuristic bot in every seat)",
        "| type | points per kept card | vs the others (± 1 s.e.) | kept by | final score of its keepers |"
        + "".join(f" {n}p |" for n in counts),
        "|---|---|---|---|---|" + "---|" * len(counts),
    ]
    by_count = {n: per_card([g for g in games if g.players == n]) for n in counts}
    order = sorted(range(TYPES), key=lambda t: -means[t])
    for t in order:
        lines.append(
            f"| {SCORING_TYPES[t]} | {means[t]:.1f} | {100 * (ratio[t] - 1):+.0f}% (± {100 * se[t]:.1f}) "
            f"| {100 * kept[t] / seats:.0f}% | {totals[t]:.1f} |"
            + "".join(f" {by_count[n][t]:.1f} |" for n in counts))
    worst = max(range(TYPES), key=lambda t: ratio[t])
    lines.append(f"largest: {SCORING_TYPES[worst]} {100 * (ratio[worst] - 1):+.1f}% "
                 f"(upper 95% bound {100 * (ratio[worst] + 1.645 * se[worst] - 1):+.1f}%; target +15%)")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=250, help="games at each player count (default 250)")
    parser.add_argument("--values", choices=sorted(SCORING_SETS), action="append",
                        help="scoring_data value set(s) to measure (default: all)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game at each player count")
    args = parser.parse_args(argv)
    for values in args.values or list(SCORING_SETS):
        start = time.perf_counter()
        games = play_many(values, args.games, args.seed)
        print(report(values, games))
        print(f"({time.perf_counter() - start:.0f} s)\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
