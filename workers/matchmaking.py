"""Choosing a ladder's next matches: pure and seeded, so a schedule can be replayed and tested.

Each match is built around one *seed* version, the one the ladder most needs to hear about:
versions still in their placement matches first (a new version has a prior, not a rating),
then the least-played, then the most uncertain (largest σ). Its opponents are drawn from its
neighbourhood in μ: several random candidate sets are tried and the one with the best
TrueSkill match quality wins. Two sources of randomness keep the ladder from splitting into
islands that never meet: the candidate sets are random subsets of the neighbourhood, and
with a small probability a set is drawn from the whole ladder instead.

Once no free version is in placement, a share of the matches (``seek_share``) *seeks
information* instead: each adjacent pair within the ladder's top k + 1 that is not yet
ordered with probability p (`workers.rank_confidence`), and each version below that could
still belong in it, is scored by the expected information a direct meeting buys (the
binary entropy of its order times the share of the pair's variance one match removes),
and the best pair with both members free meets (more seats are filled by match quality
around it, with the usual exploration). A pair already planned in this pass counts less,
so a batch spreads over the open pairs. The rest of the matches keep today's seeding, so
the whole ladder goes on converging and no island forms around the top.

A co-operative ladder (Sky Team) also pairs a version with itself: a share of its matches
(``self_play_share``) seat the seed version in every seat. Without it a bot that lands only
with a good partner is rated only with the others, and a ladder of a good and a hopeless bot
would never see the good one land (issue 26: 2,811 matches, no landing).

Seats rotate: each version takes the seat it has played least (counts per seat on this
ladder), so a first-player advantage evens out. A version takes part in at most
``max_in_flight`` matches at once (an online version no more than its declared concurrency
leaves free), and one whose recent matches mostly faulted is paused with a reason instead
of eating the schedule.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from workers.rank_confidence import (
    DEFAULT_SETTLE_PROBABILITY,
    DEFAULT_SETTLE_TOP,
    PRECISION_GAIN,
    Contestant,
    ladder_order,
    outrank_probability,
)
from workers.ratings import Rating, RatingParameters, match_quality
from workers.season_parameters import StoredParameters


class MatchmakingParameterError(ValueError):
    """A season's matchmaking parameter is out of range: the message says which and what to use."""


BELOW_WEIGHT = 0.5  # seeking: an open pair of the next k + 1 places counts half as much as one of the top


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
    settle_top: int = DEFAULT_SETTLE_TOP                   # k: the top places whose order "settled" is about
    settle_probability: float = DEFAULT_SETTLE_PROBABILITY  # p: each adjacent pair of the top k + 1 this sure
    seek_share: float = 0.5          # share of placed matches spent on the open pairs near the top (0: none)
    settled_per_minute: float = 0.0  # once the ladder is settled, at most this many new matches a minute (0: no cap)
    self_play_share: float = 0.3     # co-operative ladders: share of matches a version plays with itself

    def __post_init__(self) -> None:
        self.check_range("placement_matches", 0, 1000, whole=True)
        self.check_range("max_in_flight", 1, 1000, whole=True)
        self.check_range("candidate_sets", 1, 1000, whole=True)
        self.check_range("neighbourhood", 1, 10_000, whole=True)
        self.check_range("exploration", 0.0, 1.0)
        self.check_range("pause_fault_rate", 0.0, 1.0)
        self.check_range("pause_min_matches", 1, 1000, whole=True)
        self.check_range("settle_top", 1, 1000, whole=True)
        self.check_range("settle_probability", 0.5, 1.0)
        if self.settle_probability in (0.5, 1.0):
            raise self.ERROR(f"{self.WHAT} settle_probability={self.settle_probability:g} must lie strictly between "
                             "0.5 (a coin toss) and 1 (never reached): choose e.g. 0.95")
        self.check_range("seek_share", 0.0, 1.0)
        self.check_range("settled_per_minute", 0.0, 10_000.0)
        self.check_range("self_play_share", 0.0, 1.0)


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
                 rating_params: RatingParameters | None = None, cooperative: bool = False) -> Plan:
    """Up to ``count`` new matches of ``players`` seats among ``versions``.

    ``in_flight`` lists the seats (version ids) of the ladder's queued and running matches:
    they count against each version's concurrency limit and as played for seeding. Fewer
    matches come back when too few versions are free; the same arguments always give the
    same plan. ``cooperative``: a share of the matches are a version with itself.
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
    pairs = open_pairs([Contestant(v.version_id, v.rating, v.matches_played) for v in versions
                        if v.version_id not in paused_ids], params, rating_params)
    met: Counter[tuple[int, int]] = Counter()
    planned: list[PlannedMatch] = []
    for _ in range(count):
        free = [load for load in loads.values() if load.in_flight < load.version.cap(params)]
        if len(free) < players:
            break
        alone = _self_play(free, players, params, rng) if cooperative else None
        pair = None if alone else _seeking_pair(free, pairs, met, params, rng)
        match = alone or _plan_one(free, players, params, rating_params, rng, pair)
        if pair is not None:
            met[pair] += 1
        planned.append(match)
        for seat, version_id in enumerate(match.seats):
            load = loads[version_id]
            load.played += 1
            load.in_flight += 1
            load.seats[seat] += 1
    return Plan(tuple(planned), tuple(paused))


def open_pairs(contestants: Sequence[Contestant], params: MatchmakingParameters,
               rating_params: RatingParameters) -> list[tuple[float, tuple[int, int]]]:
    """The pairs whose order the settled verdict still waits for, best to meet first, with their scores.

    Adjacent pairs within the top k + 1 below ``settle_probability``, and every version below the
    top k + 1 that outranks its last member with probability above 1 − p (a contender for the top).
    """
    ordered = ladder_order(contestants)
    head = ordered[:params.settle_top + 1]
    if len(head) < 2:
        return []
    candidates = [(a, b, 1.0) for a, b in zip(head, head[1:])]
    last = head[-1]
    candidates += [(c, last, 1.0) for c in ordered[len(head):]
                   if outrank_probability(c.rating, last.rating) > 1 - params.settle_probability]
    # The next places down, at a lower weight: the order just below the top is what a final or a
    # newcomer's climb needs next, and a settled top over a muddled rest would be a thin verdict.
    below = ordered[len(head) - 1:2 * len(head)]
    candidates += [(a, b, BELOW_WEIGHT) for a, b in zip(below, below[1:])]
    scored = []
    for a, b, weight in candidates:
        q = outrank_probability(a.rating, b.rating)
        if q >= params.settle_probability:
            continue
        scored.append((weight * _information(a.rating, b.rating, q, rating_params), (a.version_id, b.version_id)))
    scored.sort(key=lambda item: (-item[0], item[1]))
    return scored


def _information(a: Rating, b: Rating, q: float, rating_params: RatingParameters) -> float:
    """The entropy of the pair's order times the share of its variance one direct meeting removes."""
    entropy = -sum(x * math.log2(x) for x in (q, 1 - q) if x > 0)
    va, vb = a.sigma ** 2, b.sigma ** 2
    removed = PRECISION_GAIN * (va * va + vb * vb) / (2 * rating_params.beta ** 2 + va + vb)
    return entropy * removed / (va + vb)


def _seeking_pair(free: Sequence[_Load], pairs: Sequence[tuple[float, tuple[int, int]]],
                  met: Counter[tuple[int, int]], params: MatchmakingParameters,
                  rng: random.Random) -> tuple[int, int] | None:
    """The open pair this match should settle, or None for today's seeding (placements first)."""
    if not pairs or not params.seek_share or any(load.played < params.placement_matches for load in free):
        return None
    if rng.random() >= params.seek_share:
        return None
    free_ids = {load.version.version_id for load in free}
    usable = [(score / (1 + met[pair]), pair) for score, pair in pairs if set(pair) <= free_ids]
    return max(usable, key=lambda item: (item[0], item[1]))[1] if usable else None


def _self_play(free: Sequence[_Load], players: int, params: MatchmakingParameters,
               rng: random.Random) -> PlannedMatch | None:
    """A co-operative match of the seed version with itself, ``self_play_share`` of the time."""
    if not params.self_play_share or rng.random() >= params.self_play_share:
        return None
    room = [load for load in free if load.in_flight + players <= params.max_in_flight]
    if not room:
        return None
    tiebreaks = {load.version.version_id: rng.random() for load in room}
    seed = min(room, key=lambda load: _seed_priority(load, params, tiebreaks[load.version.version_id]))
    return PlannedMatch((seed.version.version_id,) * players, 0.0, seed.version.version_id)


def _seed_priority(load: _Load, params: MatchmakingParameters, tiebreak: float) -> tuple[bool, int, float, float]:
    placed = load.played >= params.placement_matches
    return (placed, load.played, -load.version.rating.sigma, tiebreak)


def _plan_one(free: list[_Load], players: int, params: MatchmakingParameters,
              rating_params: RatingParameters, rng: random.Random, pair: tuple[int, int] | None = None) -> PlannedMatch:
    """One match around the seed (today's priority, or the first of ``pair`` with the second fixed beside it)."""
    tiebreaks = {load.version.version_id: rng.random() for load in free}
    if pair is None:
        seed = min(free, key=lambda load: _seed_priority(load, params, tiebreaks[load.version.version_id]))
        fixed: list[_Load] = []
    else:
        by_id = {load.version.version_id: load for load in free}
        seed, fixed = by_id[pair[0]], [by_id[pair[1]]]
    others = [load for load in free if load is not seed and load not in fixed]
    mu = seed.version.rating.mu
    others.sort(key=lambda load: (abs(load.version.rating.mu - mu), tiebreaks[load.version.version_id]))
    wanted = players - 1 - len(fixed)
    neighbourhood = others[:max(params.neighbourhood, wanted)]
    best: tuple[float, list[_Load]] | None = None
    for _ in range(params.candidate_sets if wanted else 1):
        pool = others if rng.random() < params.exploration else neighbourhood
        members = [*fixed, *rng.sample(pool, wanted)]
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
