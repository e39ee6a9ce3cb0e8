"""How strong the boss is (issue 25): the house ``boss`` against the house ``heuristic``,
per game and player count, under the referee's clocks at a given move time.

- 2 players: ``boss_win_rate`` (a draw counts half), with its 95 % Wilson interval;
- 3+ players: one boss among heuristics, seats rotating: ``boss_mean_rank`` and
  ``heuristic_mean_rank`` (1 = first), and ``rank_margin`` (heuristic mean rank less the
  boss's, per match) with its 95 % interval;
- Sky Team (co-operative): ``landing_rate`` of each pair (boss+boss, boss+heuristic,
  heuristic+heuristic) with its Wilson interval.

The 2- and 3+-player cases also report a control on the same seeds, a ``heuristic`` in
the boss's seat (``control_win_rate``, ``control_rank_margin``, with intervals): the seeds'
luck of that seat is large (a heuristic there wins 0.435 of Fly Away's first 200), so the
boss is judged against the control as well as against the target.

Every case also reports ``rollouts_per_move`` (playouts per searched decision),
``time_faults`` of the boss (the target is none) and ``seconds``. Matches are seeded
(match i of a case uses seed ``--seed + i``), so a run is reproducible up to the number
of playouts the clock allows. Figures depend on the machine's load: print ``uptime`` with
them.

    python bench/boss.py --json [--move-time S] [--games N] [--game G] [--players N]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from referee.games import GAMES, spec  # noqa: E402
from referee.match import TimeControl  # noqa: E402
from skyarena.bot import Bot  # noqa: E402
from skyarena.games import house_bots  # noqa: E402
from skyarena.local import SeriesReport, play_series, team_won  # noqa: E402

Z = 1.959964  # the 95 % two-sided normal quantile


def wilson(successes: float, n: int) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_interval(values: list[float]) -> tuple[float, float, float]:
    """Mean and its 95 % normal interval."""
    mean = statistics.fmean(values)
    half = Z * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.inf
    return mean, mean - half, mean + half


class Counted:
    """Makes the bots of one name and keeps them, to read the bosses' search counters."""

    def __init__(self, cls: type[Bot]) -> None:
        self.cls = cls
        self.made: list[Bot] = []

    def __call__(self) -> Bot:
        bot = self.cls()
        self.made.append(bot)
        return bot

    def rollouts_per_move(self) -> float | None:
        searched = sum(getattr(b, "searched", 0) for b in self.made)
        return round(sum(getattr(b, "rollouts", 0) for b in self.made) / searched, 1) if searched else None


def series(game: str, lineup: list[str], games: int, seed: int, control: TimeControl,
           stand_in: bool = False) -> tuple[SeriesReport, Counted]:
    """The matches of one case; with ``stand_in`` a heuristic plays in the boss's seat (the
    control: what the same seeds give a seat that does not search)."""
    bots = house_bots(game)
    boss = Counted(bots["heuristic" if stand_in else "boss"])
    makers: dict[str, Callable[[], Bot]] = {"boss": boss, "heuristic": Counted(bots["heuristic"])}
    report = play_series(game, [(name, makers[name]) for name in lineup], games, seed, time_control=control)
    return report, boss


def time_faults(report: SeriesReport, who: str = "boss") -> int:
    return sum(1 for m in report.matches for f in m.faults
               if m.seats[f["seat"]].split("#")[0] == who and f.get("kind") == "timeout")


def boss_points(report: SeriesReport) -> float:
    """The boss seat's wins in 2-player matches, a draw counting half."""
    return sum(1.0 if m.ranks[m.seats.index("boss")] < m.ranks[m.seats.index("heuristic")]
               else 0.5 if m.ranks[0] == m.ranks[1] else 0.0 for m in report.matches)


def two_players(game: str, games: int, seed: int, control: TimeControl) -> dict[str, Any]:
    report, boss = series(game, ["boss", "heuristic"], games, seed, control)
    points = boss_points(report)
    low, high = wilson(points, games)
    held = boss_points(series(game, ["boss", "heuristic"], games, seed, control, stand_in=True)[0])
    held_low, held_high = wilson(held, games)
    return {"games": games, "boss_win_rate": round(points / games, 4), "boss_win_rate_low": round(low, 4),
            "boss_win_rate_high": round(high, 4), "rollouts_per_move": boss.rollouts_per_move(),
            "time_faults": time_faults(report), "target": "boss_win_rate >= 0.70",
            "control_win_rate": round(held / games, 4), "control_win_rate_low": round(held_low, 4),
            "control_win_rate_high": round(held_high, 4)}


def rank_margins(report: SeriesReport) -> tuple[list[float], list[float], list[float]]:
    """Per match of one boss seat among heuristics: its rank, the heuristics' ranks, and
    the heuristics' mean rank less its own (1 = first)."""
    boss_ranks: list[float] = []
    heuristic_ranks: list[float] = []
    margins: list[float] = []
    for m in report.matches:
        mine = m.ranks[m.seats.index("boss")] + 1
        others = [r + 1 for name, r in zip(m.seats, m.ranks) if name != "boss"]
        boss_ranks.append(mine)
        heuristic_ranks.extend(others)
        margins.append(statistics.fmean(others) - mine)
    return boss_ranks, heuristic_ranks, margins


def many_players(game: str, players: int, games: int, seed: int, control: TimeControl) -> dict[str, Any]:
    lineup = ["boss"] + ["heuristic"] * (players - 1)
    report, boss = series(game, lineup, games, seed, control)
    boss_ranks, heuristic_ranks, margins = rank_margins(report)
    held, held_low, held_high = mean_interval(rank_margins(series(game, lineup, games, seed, control,
                                                                  stand_in=True)[0])[2])
    boss_mean, boss_low, boss_high = mean_interval(boss_ranks)
    heur_mean, heur_low, heur_high = mean_interval(heuristic_ranks)
    margin, margin_low, margin_high = mean_interval(margins)
    return {"games": games, "boss_mean_rank": round(boss_mean, 3), "boss_mean_rank_low": round(boss_low, 3),
            "boss_mean_rank_high": round(boss_high, 3), "heuristic_mean_rank": round(heur_mean, 3),
            "heuristic_mean_rank_low": round(heur_low, 3), "heuristic_mean_rank_high": round(heur_high, 3),
            "rank_margin": round(margin, 3), "rank_margin_low": round(margin_low, 3),
            "rank_margin_high": round(margin_high, 3), "rollouts_per_move": boss.rollouts_per_move(),
            "time_faults": time_faults(report), "target": "rank_margin_low > 0",
            "control_rank_margin": round(held, 3), "control_rank_margin_low": round(held_low, 3),
            "control_rank_margin_high": round(held_high, 3)}


def sky_team(games: int, seed: int, control: TimeControl) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pair in (["boss", "boss"], ["boss", "heuristic"], ["heuristic", "heuristic"]):
        report, boss = series("sky-team", pair, games, seed, control)
        landed = sum(1 for m in report.matches if team_won(m.ranks[0], m.scores[0]))
        low, high = wilson(landed, games)
        out["+".join(pair)] = {"games": games, "landing_rate": round(landed / games, 4),
                               "landing_rate_low": round(low, 4), "landing_rate_high": round(high, 4),
                               "rollouts_per_move": boss.rollouts_per_move(), "time_faults": time_faults(report)}
    out["target"] = "boss+boss and boss+heuristic land more often than heuristic+heuristic"
    return out


def run(games_filter: list[str], players_filter: int | None, games: int, seed: int, move_s: float) -> dict[str, Any]:
    control = TimeControl(move_s=move_s, bank_s=10 * move_s, first_move_s=move_s)
    results: dict[str, Any] = {}
    for game in games_filter:
        if "boss" not in house_bots(game):
            results[game] = {"skipped": "no boss for this game"}
            continue
        per_game: dict[str, Any] = {}
        for players in spec(game).player_counts():
            if players_filter is not None and players != players_filter:
                continue
            started = time.perf_counter()
            if spec(game).cooperative:
                entry = sky_team(games, seed, control)
            elif players == 2:
                entry = two_players(game, games, seed, control)
            else:
                entry = many_players(game, players, games, seed, control)
            entry["seconds"] = round(time.perf_counter() - started, 1)
            per_game[f"{players}p"] = entry
            print(f"{game} {players}p: {json.dumps(entry)}", file=sys.stderr, flush=True)
        results[game] = per_game
    return {"move_time_s": move_s, "seed": seed, "load_average": list(os.getloadavg()), "results": results}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print the results as one JSON object")
    parser.add_argument("--move-time", type=float, default=0.1, help="seconds per move (default 0.1)")
    parser.add_argument("--games", type=int, default=200, help="matches per case (default 200)")
    parser.add_argument("--seed", type=int, default=2500, help="seed of the first match of each case")
    parser.add_argument("--game", action="append", choices=sorted(GAMES), help="only this game (repeatable)")
    parser.add_argument("--players", type=int, help="only this player count")
    args = parser.parse_args()
    if args.games < 2:
        parser.error("--games must be at least 2 (an interval needs two matches)")
    if args.move_time <= 0:
        parser.error("--move-time must be positive")
    out = run(args.game or sorted(GAMES), args.players, args.games, args.seed, args.move_time)
    print(json.dumps(out, indent=None if args.json else 2))


if __name__ == "__main__":
    main()
