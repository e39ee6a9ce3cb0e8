"""How sure a ladder is of its order, from the TrueSkill posteriors: pure, seeded, no database.

A rating is a posterior N(μ, σ²) over a version's skill, so the ladder's order is itself
uncertain. Three figures follow from it:

- ``outrank_probability``: P(a's skill > b's), exact: Φ((μa − μb) / √(σa² + σb²)).
- ``rank_intervals``: each version's central 90 % interval of its rank under the joint
  posterior (the versions independent, as TrueSkill keeps them), by a seeded Monte Carlo of
  ``SAMPLES`` draws vectorised with numpy: there is no cheap exact form for a rank among
  many, and 400 draws put the interval ends within a place or so. A ladder of 1,000 versions
  costs ~20-30 ms (the sort), paid by a read of the standings, never by a scheduling pass.
- ``settle_verdict``: the top k is *settled* when every adjacent pair within the top k + 1
  (in the ladder's own order, μ − 3σ) is ordered with probability ≥ p, and no active version
  is still in its placement matches (a newcomer could belong anywhere). Not settled, it
  estimates the matches still needed from the σs: TrueSkill's precision gain per match
  (``PRECISION_GAIN``) until each open pair's combined σ is small enough for its μ gap.

The verdict is per pair, as the issue defines it, so the top k's whole order is right with
probability about p^k when every pair sits at the line, and a ladder is looked at after every
pass. In `bench/ladder_sim.py --settle` (40 bots, k = 3, p = 0.95) no ladder settled wrong
within 6,000 matches at the season's τ (14 settled), but 2 of 18 did at τ = 0, and 2 of 18 at
the season's τ given 12,000. A final therefore asks more (``whole_order``): the product of its
pairs' probabilities must reach p. In the same simulation at τ = 0 that settled 16 ladders of
20 within 6,000 matches, none wrong. Per-pair stays the seasons' rule: at τ > 0 the σs stop at
a floor where the pairs hover just above p, and every stricter rule tried (the whole order,
p raised per rating memory spent at the floor, the verdict held for a stretch) left 11 to 15 of
20 ladders never settled. An organiser who wants more of a season's verdict raises p.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from statistics import NormalDist

import numpy as np

from workers.ratings import Rating, RatingParameters

SAMPLES = 400           # Monte Carlo draws for the rank intervals
INTERVAL = 0.9          # the rank interval's central probability
DEFAULT_SETTLE_TOP = 3
DEFAULT_SETTLE_PROBABILITY = 0.95
# TrueSkill's variance factor w = v(0)² for an even 2-player match (v = φ/Φ at 0): the share of
# a seat's own variance one such match removes, relative to 2β² + the seats' variances.
PRECISION_GAIN = (NormalDist().pdf(0) / NormalDist().cdf(0)) ** 2
MIN_GAP_BETAS = 0.1     # a μ gap below 0.1 β is taken as 0.1 β: two equal bots would otherwise "never" settle
MAX_ESTIMATE = 1_000_000  # matches: beyond this the estimate says only "more than"
MAX_VERSION_MATCHES = 10_000  # one version needing more than this: the target is out of reach (τ outpaces it)


def outrank_probability(a: Rating, b: Rating) -> float:
    """P(a's true skill is above b's) under their independent posteriors."""
    spread = math.hypot(a.sigma, b.sigma)
    if spread == 0:
        return 1.0 if a.mu > b.mu else 0.0 if a.mu < b.mu else 0.5
    return 0.5 * math.erfc(-(a.mu - b.mu) / (spread * math.sqrt(2)))


def adjacent_probabilities(ratings: Sequence[Rating]) -> list[float]:
    """P(each version outranks the next one down), for ratings in ladder order (one fewer than ratings)."""
    return [outrank_probability(a, b) for a, b in zip(ratings, ratings[1:])]


def rank_intervals(ratings: Sequence[Rating], level: float = INTERVAL, samples: int = SAMPLES,
                   seed: int = 0) -> list[tuple[int, int]]:
    """Each version's central ``level`` interval of its rank (1 is best) under the posterior.

    Seeded, so one ladder state always reads the same intervals.
    """
    if not ratings:
        return []
    # float32 draws sort a quarter faster than float64 (the sort is nearly all of the cost) and are
    # ample for ranks.
    mu = np.fromiter((r.mu for r in ratings), np.float32, len(ratings))
    sigma = np.fromiter((r.sigma for r in ratings), np.float32, len(ratings))
    draws = np.random.default_rng(seed).standard_normal((samples, len(ratings)), dtype=np.float32) * sigma + mu
    # Rank of each version in each draw: 1 + how many versions drew above it.
    ranks = np.empty(draws.shape, dtype=np.int32)
    order = np.argsort(-draws, axis=1)
    np.put_along_axis(ranks, order, np.arange(1, len(ratings) + 1, dtype=np.int32)[None, :], axis=1)
    tail = (1 - level) / 2
    low = np.quantile(ranks, tail, axis=0, method="inverted_cdf")
    high = np.quantile(ranks, 1 - tail, axis=0, method="inverted_cdf")
    return [(int(a), int(b)) for a, b in zip(low, high)]


@dataclass(frozen=True)
class Contestant:
    """What the verdict needs of one version on the ladder."""

    version_id: int
    rating: Rating
    matches: int


@dataclass(frozen=True)
class Verdict:
    """Whether the ladder's top is settled, and if not, roughly how far it is."""

    settled: bool
    top: int                          # k: the places the verdict is about
    probability: float                # p
    pairs: tuple[float, ...]          # P(outranks the next) for each adjacent pair within the top k + 1
    in_placement: int                 # active versions still in their placement matches
    matches_needed: int               # an estimate; 0 when settled
    whole_order: bool = False         # p is for the top k's whole order (a final's), not for each pair

    @property
    def pair_threshold(self) -> float:
        """What each pair must reach: p, or for the whole order p^(1/pairs) (then their product is p)."""
        return self.probability ** (1 / len(self.pairs)) if self.whole_order and self.pairs else self.probability

    @property
    def open_pairs(self) -> int:
        return sum(1 for q in self.pairs if q < self.pair_threshold)

    def text(self, matches_per_hour: float | None = None) -> str:
        """"settled" or "not yet: about N more matches" (with the time at the current rate, if known)."""
        if self.settled:
            if self.whole_order:
                return f"settled: the order of the top {self.top} holds with probability ≥ {self.probability:g}"
            return f"settled: the top {self.top} is ordered with probability ≥ {self.probability:g}"
        if len(self.pairs) == 0:
            return "not yet: fewer than two versions have played"
        more = "more than " if self.matches_needed >= MAX_ESTIMATE else "about "
        why = f"{self.in_placement} version(s) still in placement" if self.in_placement and not self.open_pairs \
            else f"{self.open_pairs} of {len(self.pairs)} pairs at the top not yet ordered"
        when = ""
        if matches_per_hour:
            hours = self.matches_needed / matches_per_hour
            when = f", ~{hours * 60:.0f} min at the current rate" if hours < 48 else f", ~{hours / 24:.0f} days"
        return f"not yet: {more}{self.matches_needed:,} more matches ({why}{when})"


def ladder_order(contestants: Sequence[Contestant]) -> list[Contestant]:
    """The ladder's order: μ − 3σ, then μ, then version id (the store's leaderboard order)."""
    return sorted(contestants, key=lambda c: (-c.rating.leaderboard_score, -c.rating.mu, c.version_id))


def settle_verdict(contestants: Sequence[Contestant], params: RatingParameters, *, top: int = DEFAULT_SETTLE_TOP,
                   probability: float = DEFAULT_SETTLE_PROBABILITY, placement: int = 0,
                   players: int = 2, whole_order: bool = False) -> Verdict:
    """The verdict on the ladder of these versions (any order); ``placement`` matches make a version placed;
    ``whole_order``: settled only when the product of the pairs' probabilities (the top's whole order,
    the pairs taken as independent) reaches p."""
    ordered = ladder_order(contestants)
    head = [c.rating for c in ordered[:top + 1]]
    pairs = tuple(adjacent_probabilities(head))
    in_placement = sum(1 for c in contestants if c.matches < placement)
    ordered_enough = math.prod(pairs) >= probability if whole_order else all(q >= probability for q in pairs)
    settled = len(pairs) >= 1 and in_placement == 0 and ordered_enough
    verdict = Verdict(settled, top, probability, pairs, in_placement, 0, whole_order)
    if settled:
        return verdict
    return replace(verdict, matches_needed=_matches_needed(ordered, head, pairs, verdict.pair_threshold, params,
                                                           placement, players))


def _matches_needed(ordered: Sequence[Contestant], head: Sequence[Rating], pairs: Sequence[float], probability: float,
                    params: RatingParameters, placement: int, players: int) -> int:
    """Seat-matches each open pair's members need until the pair is ordered with ``probability``, over
    the seats per match; plus the placement matches still owed. Assumes the μ gaps stay as they are."""
    z = NormalDist().inv_cdf(probability)
    target = [math.inf] * len(head)   # the variance each head version must reach
    for i, q in enumerate(pairs):
        if q >= probability:
            continue
        gap = max(abs(head[i].mu - head[i + 1].mu), MIN_GAP_BETAS * params.beta)
        budget = (gap / z) ** 2       # σa² + σb² at most this
        a, b = head[i].sigma ** 2, head[i + 1].sigma ** 2
        share_a = share_b = budget / 2
        if a < share_a:
            share_b = budget - a
        elif b < share_b:
            share_a = budget - b
        target[i], target[i + 1] = min(target[i], share_a), min(target[i + 1], share_b)
    seats = sum(_matches_until(r.sigma ** 2, t, params) for r, t in zip(head, target) if t < math.inf)
    seats += sum(max(0, placement - c.matches) for c in ordered)
    return min(MAX_ESTIMATE, math.ceil(seats / players))


def _matches_until(variance: float, target: float, params: RatingParameters) -> int:
    """Matches against an equal, well-known opponent until a version's variance falls to ``target``."""
    per_match_noise = 2 * params.beta ** 2
    matches = 0
    while variance > target:
        if matches >= MAX_VERSION_MATCHES:
            return MAX_ESTIMATE
        variance += params.tau ** 2
        variance *= 1 - PRECISION_GAIN * variance / (per_match_noise + variance)
        matches += 1
    return matches
