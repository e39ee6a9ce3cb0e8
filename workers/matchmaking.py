"""Choosing a ladder's next matches: pure and seeded, so a schedule can be replayed and tested.

Each match is built around one *seed* version, the one the ladder most needs to hear about:
versions still in their placement matches first (a new version has a prior, not a rating),
then the least-played, then the most uncertain (largest σ). Its opponents are drawn from its
neighbourhood in μ: several random candidate sets are tried and the one with the best
TrueSkill match quality wins. Two sources of randomness keep the ladder from splitting into
islands that never meet: the candidate sets are random subsets of the neighbourhood, and
with a small probability a set is drawn from the whole ladder instead.

Seats rotate: each version takes the seat it has played least (counts per seat on this
ladder), so a first-player advantage evens out. A version takes part in at most
``max_in_flight`` matches at once (an online version no more than its declared concurrency
leaves free), and one whose recent matches mostly faulted is paused with a reason instead
of eating the schedule.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from workers.ratings import Rating, RatingParameters, match_quality
from workers.season_parameters import StoredParameters


class MatchmakingParameterError(ValueError):
    """A season's matchmaking parameter is out of range: the message says which and what to use."""


@dataclass(frozen=True)
class MatchmakingParameters(StoredParameters):
    """A season's matchmaking settings (defaults suit a ladder of a few dozen versions)."""

    WHAT: ClassVar[str] = "matchmaking parameter"
    ERROR: ClassVar[type[ValueError]] = MatchmakingParameterError

    placement_matches: int = 5       # matches a new version plays, seeded first, before it queues like the rest
    max_in_flight: int = 2           # matches one version may be in at once (its share of the workers)
    candidate_sets: int = 8          # random opponent sets compared by match quality per match
    neighbourhood: int = 8           # opponents are drawn from this many versions nearest the seed in μ
    exploration: float = 0.15        # chance that a candidate set is drawn from the whole ladder
    pause_fault_rate: float = 0.5    # pause a version that faulted in more than this share ...
    pause_min_matches: int = 4       # ... of at least this many recent matches

    def __post_init__(self) -> None:
        self.check_range("placement_matches", 0, 1000, whole=True)
        self.check_range("max_in_flight", 1, 1000, whole=True)
        self.check_range("candidate_sets", 1, 1000, whole=True)
        self.check_range("neighbourhood", 1, 10_000, whole=True)
        self.check_range("exploration", 0.0, 1.0)
        self.check_range("pause_fault_rate", 0.0, 1.0)
        self.check_range("pause_min_matches", 1, 1000, whole=True)


@dataclass(frozen=True)
class LadderVersion:
    """What the matchmaker knows about one active version of the ladder."""

    version_id: int
    rating: Rating
    matches_played: int = 0             # finished matches on this ladder
    seat_counts: tuple[int, ...] = ()   # finished matches per seat; missing seats count 0
    recent_matches: int = 0             # the size of the recent window the store looked at
    recent_faults: int = 0              # of those, matches in which this version faulted
    max_in_flight: int | None = None    # an online version: the matches here its declared concurrency leaves free

    def cap(self, params: MatchmakingParameters) -> int:
        """Matches it may be in at once on this ladder: the season's cap, or less for an online version."""
        return params.max_in_flight if self.max_in_flight is None else min(params.max_in_flight, self.max_in_flight)

    @property
    def recent_fault_rate(self) -> float:
        return self.recent_faults / self.recent_matches if self.recent_matches else 0.0


@dataclass(frozen=True)
class PlannedMatch:
    seats: tuple[int, ...]   # the version id in each seat
    quality: float           # TrueSkill match quality of the chosen set
    seeded: int              # the version the match was built around


@dataclass(frozen=True)
class PausedVersion:
    version_id: int
    reason: str


@dataclass(frozen=True)
class Plan:
    matches: tuple[PlannedMatch, ...]
    paused: tuple[PausedVersion, ...] = ()


def paused_versions(versions: Iterable[LadderVersion], params: MatchmakingParameters) -> list[PausedVersion]:
    """The versions whose recent matches mostly faulted, with a reason an author can act on."""
    out = []
    for v in versions:
        if v.recent_matches >= params.pause_min_matches and v.recent_fault_rate > params.pause_fault_rate:
            out.append(PausedVersion(v.version_id, (
                f"paused: faulted in {v.recent_faults} of its last {v.recent_matches} matches "
                f"(more than {params.pause_fault_rate:.0%}); fix the bot and submit a new version")))
    return out


@dataclass
class _Load:
    """The planner's running view of one version: finished plus already planned matches."""

    version: LadderVersion
    played: int
    in_flight: int
    seats: list[int] = field(default_factory=list)


def plan_matches(versions: Sequence[LadderVersion], in_flight: Sequence[Sequence[int]], players: int,
                 count: int, seed: int, params: MatchmakingParameters | None = None,
                 rating_params: RatingParameters | None = None) -> Plan:
    """Up to ``count`` new matches of ``players`` seats among ``versions``.

    ``in_flight`` lists the seats (version ids) of the ladder's queued and running matches:
    they count against each version's concurrency limit and as played for seeding. Fewer
    matches come back when too few versions are free; the same arguments always give the
    same plan.
    """
    params = params or MatchmakingParameters()
    rating_params = rating_params or RatingParameters()
    if players < 2:
        raise ValueError(f"a rated match needs at least two seats, not {players}")
    rng = random.Random(seed)
    paused = paused_versions(versions, params)
    paused_ids = {p.version_id for p in paused}
    busy = Counter(v for match in in_flight for v in match)
    loads = {v.version_id: _Load(v, v.matches_played + busy[v.version_id], busy[v.version_id],
                                 [*v.seat_counts, *[0] * (players - len(v.seat_counts))][:players])
             for v in versions if v.version_id not in paused_ids}
    planned: list[PlannedMatch] = []
    for _ in range(count):
        free = [load for load in loads.values() if load.in_flight < load.version.cap(params)]
        if len(free) < players:
            break
        match = _plan_one(free, players, params, rating_params, rng)
        planned.append(match)
        for seat, version_id in enumerate(match.seats):
            load = loads[version_id]
            load.played += 1
            load.in_flight += 1
            load.seats[seat] += 1
    return Plan(tuple(planned), tuple(paused))


def _seed_priority(load: _Load, params: MatchmakingParameters, tiebreak: float) -> tuple[bool, int, float, float]:
    placed = load.played >= params.placement_matches
    return (placed, load.played, -load.version.rating.sigma, tiebreak)


def _plan_one(free: list[_Load], players: int, params: MatchmakingParameters,
              rating_params: RatingParameters, rng: random.Random) -> PlannedMatch:
    tiebreaks = {load.version.version_id: rng.random() for load in free}
    seed = min(free, key=lambda load: _seed_priority(load, params, tiebreaks[load.version.version_id]))
    others = [load for load in free if load is not seed]
    mu = seed.version.rating.mu
    others.sort(key=lambda load: (abs(load.version.rating.mu - mu), tiebreaks[load.version.version_id]))
    wanted = players - 1
    neighbourhood = others[:max(params.neighbourhood, wanted)]
    best: tuple[float, list[_Load]] | None = None
    for _ in range(params.candidate_sets):
        pool = others if rng.random() < params.exploration else neighbourhood
        members = rng.sample(pool, wanted)
        quality = match_quality(rating_params, [seed.version.rating, *(m.version.rating for m in members)])
        if best is None or quality > best[0]:
            best = (quality, members)
    assert best is not None
    quality, members = best
    return PlannedMatch(_assign_seats([seed, *members], players, rng), quality, seed.version.version_id)


def _assign_seats(loads: Sequence[_Load], players: int, rng: random.Random) -> tuple[int, ...]:
    """Give each version the free seat it has played least (greedy over the smallest counts)."""
    pairs = sorted(((load.seats[seat], rng.random(), i, seat) for i, load in enumerate(loads)
                    for seat in range(players)))
    seat_of: dict[int, int] = {}
    taken: set[int] = set()
    for _count, _tie, i, seat in pairs:
        if i in seat_of or seat in taken:
            continue
        seat_of[i] = seat
        taken.add(seat)
    seats = [0] * players
    for i, seat in seat_of.items():
        seats[seat] = loads[i].version.version_id
    return tuple(seats)
