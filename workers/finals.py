"""A season's finals: what the organiser may ask for, and the balanced schedule they play. Pure rules.

``skyarena season close NAME --finals K`` stops the regular ladders (their standings are
frozen then) and has the top K of each ladder play a final stage: frozen entries (no new
version enters), τ = 0 (nobody is assumed to improve during a final), ratings starting
from the regular ladder's. The schedule is fixed in advance and balanced:

- every ``players``-subset of the K finalists is one *table* (2 players: every pair; 3+:
  every K-subset when players = K, else every combination); a round plays each table once,
  the seats rotated by the round number, so over ``players`` rounds each finalist sits in
  each seat of each table;
- Sky Team (co-operative): every pair of finalists flies together against the game, and
  each finalist also flies with itself (self-play, as on the co-operative ladder), the seats
  rotated likewise;
- ``games_per_pair`` is the budget: rounds enough that every pair of finalists meets that
  many times. ``until_settled`` stops after the first complete round in which the final
  ladder is settled (it then plays one round at a time, so nothing is left to void).

The season closes when the budget is played (or the final settled); the final standings
are frozen beside the regular ones.

While a season of a game plays its finals, a new version of that game (``new_versions``, the
organiser's choice) is either refused with the reason, or *held*: it plays its smoke match at
once, so its author learns whether it runs, and then waits out of the ladders (the version it
replaces keeps its place, a finalist included) until the finals end and it enters them.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations, combinations_with_replacement
from typing import Any

from workers.seasons import SeasonError

MAX_TABLES = 2000          # tables per round: beyond this a final is no longer a final (choose a smaller K)
DEFAULT_GAMES_PER_PAIR = 10
MAX_GAMES_PER_PAIR = 10_000
NEW_VERSIONS = ("hold", "refuse")   # what happens to a new version of the game during the finals


@dataclass(frozen=True)
class Finals:
    """What the organiser asked for; validated on construction."""

    top: int
    games_per_pair: int = DEFAULT_GAMES_PER_PAIR
    until_settled: bool = False
    new_versions: str = "hold"

    def __post_init__(self) -> None:
        if isinstance(self.top, bool) or not isinstance(self.top, int) or self.top < 2:
            raise SeasonError(f"finals need at least 2 finalists, not {self.top!r}: choose --finals 2 or more")
        if isinstance(self.games_per_pair, bool) or not isinstance(self.games_per_pair, int) \
                or not 1 <= self.games_per_pair <= MAX_GAMES_PER_PAIR:
            raise SeasonError(f"a final's game budget must be 1 to {MAX_GAMES_PER_PAIR:,} games per pair, not "
                              f"{self.games_per_pair!r}")
        if self.new_versions not in NEW_VERSIONS:
            raise SeasonError(f"new versions during the finals are held or refused, not {self.new_versions!r}: "
                              f"choose one of {', '.join(NEW_VERSIONS)}")

    def to_mapping(self) -> dict[str, Any]:
        return {"top": self.top, "games_per_pair": self.games_per_pair, "until_settled": self.until_settled,
                "new_versions": self.new_versions}

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any]) -> Finals:
        return cls(int(values["top"]), int(values["games_per_pair"]), bool(values["until_settled"]),
                   str(values.get("new_versions", "hold")))


def tables(finalists: Sequence[int], players: int, cooperative: bool) -> list[tuple[int, ...]]:
    """The tables of one round, in a fixed order (finalists in their regular ladder order)."""
    size = 2 if cooperative else players
    if not cooperative and len(finalists) < size:
        raise SeasonError(f"a {players}-player final needs at least {size} finalists, not {len(finalists)}")
    count = math.comb(len(finalists), size)
    if count > MAX_TABLES:
        raise SeasonError(f"{len(finalists)} finalists make {count:,} tables of {size} per round, more than "
                          f"{MAX_TABLES:,}: choose fewer finalists")
    if cooperative:
        return list(combinations_with_replacement(finalists, size))
    return list(combinations(finalists, size))


def rounds_for(finalists: int, players: int, cooperative: bool, games_per_pair: int) -> int:
    """Rounds until every pair of finalists has met ``games_per_pair`` times."""
    size = 2 if cooperative else players
    meetings_per_round = math.comb(finalists - 2, size - 2)   # tables per round that hold a given pair
    return math.ceil(games_per_pair / meetings_per_round)


def seated(table: Sequence[int], round_number: int) -> tuple[int, ...]:
    """The table's seats in round ``round_number``: rotated by one each round."""
    shift = round_number % len(table)
    return tuple(table[shift:]) + tuple(table[:shift])


def schedule(finalists: Sequence[int], players: int, cooperative: bool, games_per_pair: int
             ) -> list[list[tuple[int, ...]]]:
    """The whole final, round by round: each round's matches as seat tuples."""
    round_tables = tables(finalists, players, cooperative)
    return [[seated(t, r) for t in round_tables]
            for r in range(rounds_for(len(finalists), players, cooperative, games_per_pair))]


@dataclass(frozen=True)
class FinalProgress:
    """Where a final stands: which matches to queue now, and whether it is over."""

    to_queue: tuple[tuple[int, ...], ...]
    rounds_finished: int
    done: bool


def progress(rounds: Sequence[Sequence[tuple[int, ...]]], scheduled: Sequence[tuple[int, ...]],
             finished: Sequence[tuple[int, ...]], *, in_flight_room: int, one_round_at_a_time: bool,
             settled: bool) -> FinalProgress:
    """The next matches of a final, from the seats of its matches so far (not void; ``finished`` of them).

    Works from counts of seat tuples, not positions, so a voided match's slot is simply
    queued again and a restarted scheduler picks up where the last one stopped: a slot is
    queued once while its match lives and rated at most once (the store's exactly-once apply).
    """
    done_counts, live_counts = Counter(finished), Counter(scheduled)
    rounds_finished = 0
    for matches in rounds:
        round_counts = Counter(matches)
        if any(done_counts[s] < n for s, n in round_counts.items()):
            break
        done_counts -= round_counts
        live_counts -= round_counts
        rounds_finished += 1
    if rounds_finished == len(rounds):
        return FinalProgress((), rounds_finished, not live_counts)
    # The verdict counts only between rounds (nothing of the next round played yet), so a final
    # that stops early has still played every table equally often.
    if one_round_at_a_time and settled and rounds_finished > 0 and not live_counts:
        return FinalProgress((), rounds_finished, True)
    queue: list[tuple[int, ...]] = []
    window = rounds[rounds_finished:rounds_finished + 1] if one_round_at_a_time else rounds[rounds_finished:]
    for matches in window:
        for seats in matches:
            if live_counts[seats] > 0:
                live_counts[seats] -= 1
            elif len(queue) < in_flight_room:
                queue.append(seats)
    return FinalProgress(tuple(queue), rounds_finished, False)
