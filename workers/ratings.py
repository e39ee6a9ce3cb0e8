"""TrueSkill ratings of one ladder (season, game, player count), with an explanation per change.

Pure functions, no database: the store calls them inside its apply transaction and the
recompute command and the ladder simulation call the very same code, so the three can never
disagree about what a result is worth.

- Free-for-all: every rated seat is its own team, ordered by rank; equal ranks are a tie.
- Co-operative (Sky Team): the rated partners form one team against the game itself, a
  rated pseudo-player of the ladder. Each member's weight is 1/len(rated members), so the
  team's performance is the *mean* of its members' and lives on a single player's scale.
  Why this rather than the alternative, a game prior of μ 50, σ 8.33·√2 against an
  unweighted team: both make a landing and a crash of equally matched sides exactly
  opposite (a plain team against a μ 25 game is badly lopsided: +0.6 for a landing,
  −8.7 for a crash), but the weighting keeps that true for every pair whose mean equals
  the game's (not only for fresh ones), lets the game start from the season's ordinary
  prior, and rates a lone partner (the other seat excused) on the same scale with weight 1
  instead of against a game twice its size.
- Co-operative self-play: a version may fill several seats of a match (with itself). It is
  one member of the team, however many seats it fills, so a version flying with itself is
  rated alone against the game (weight 1): its landing is its own doing, twice over. One
  change per version, not per seat (the history keeps one row per match and version).
- The leaderboard key is μ − 3σ (``Rating.leaderboard_score``).
- The built-in Gaussian backend is fast but loses precision on extreme mismatches and raises
  ``FloatingPointError``; the update is then retried with the ``mpmath`` backend.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import ClassVar

import trueskill
from trueskill.backends import choose_backend

from workers.season_parameters import StoredParameters

DEFAULT_MU = 25.0
DEFAULT_SIGMA = DEFAULT_MU / 3        # trueskill's own defaults: a fresh player is 25 ± 8.33
DEFAULT_BETA = DEFAULT_SIGMA / 2      # the performance noise of one match: 4.17 points ≈ 76% win chance
DEFAULT_TAU = DEFAULT_SIGMA / 100     # σ added before each match so ratings keep following a bot that improves
DEFAULT_DRAW_PROBABILITY = 0.10       # how often two equal bots tie; sets the draw margin of a tie


class RatingParameterError(ValueError):
    """A season's rating parameter is unknown, not a number or out of range: the message says which."""


@dataclass(frozen=True)
class RatingParameters(StoredParameters):
    """The TrueSkill model of one season (every ladder of the season shares it)."""

    WHAT: ClassVar[str] = "rating parameter"
    ERROR: ClassVar[type[ValueError]] = RatingParameterError

    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA
    beta: float = DEFAULT_BETA
    tau: float = DEFAULT_TAU
    draw_probability: float = DEFAULT_DRAW_PROBABILITY

    def __post_init__(self) -> None:
        self.check_range("mu", -1000.0, 1000.0)
        self.check_range("sigma", 0.01, 1000.0)
        self.check_range("beta", 0.01, 1000.0)
        self.check_range("tau", 0.0, self.sigma, upper_name="sigma")
        self.check_range("draw_probability", 0.0, 0.99)

    def fresh(self) -> Rating:
        """The rating of a version that has not played on this ladder yet."""
        return Rating(self.mu, self.sigma)


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float

    @property
    def leaderboard_score(self) -> float:
        """μ − 3σ: a bot ranks high only once the ladder is fairly sure it is strong."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class SeatResult:
    """One seat of a finished match, as far as ratings care."""

    version_id: int
    rank: int                          # 0 is best; equal ranks tie
    score: float = 0.0                 # co-op: above 0 means the seat beat the game (Sky Team: 1 landed)
    unrated_reason: str | None = None  # set when the match record excuses this seat

    @property
    def beat_the_game(self) -> bool:
        """Co-op outcome of this seat: the team landed and this seat did not forfeit (rank 0)."""
        return self.rank == 0 and self.score > 0


@dataclass(frozen=True)
class RatingChange:
    """Why one participant's rating moved (or did not) after one match: a rating history row."""

    version_id: int | None      # None: the game itself, the co-op pseudo-player
    seat: int | None            # None for the game
    before: Rating
    after: Rating
    quality: float              # TrueSkill's match quality (draw probability) before the match
    rank: int                   # the seat's rank; co-op: its team's place against the game (0 landed)
    weight: float               # the member's share of its team's performance; 0 when unrated
    unrated_reason: str | None = None

    @property
    def rated(self) -> bool:
        return self.unrated_reason is None


@dataclass(frozen=True)
class RatedMatch:
    changes: tuple[RatingChange, ...]   # one per seat, in seat order (co-op self-play: one per version)
    game: RatingChange | None = None    # the co-op pseudo-player's change
    quality: float = 0.0

    def new_ratings(self) -> dict[int, Rating]:
        return {c.version_id: c.after for c in self.changes if c.rated and c.version_id is not None}


@dataclass
class _Environment:
    builtin: trueskill.TrueSkill
    precise: trueskill.TrueSkill = field(repr=False)


@lru_cache(maxsize=64)
def _environment(params: RatingParameters) -> _Environment:
    args = (params.mu, params.sigma, params.beta, params.tau, params.draw_probability)
    # The built-in backend with a memoised ppf: every update computes the draw margin from
    # ppf((draw probability + 1) / 2), the same few values each time, at ~0.1-0.8 ms a call.
    cdf, pdf, ppf = choose_backend(None)
    return _Environment(trueskill.TrueSkill(*args, backend=(cdf, pdf, lru_cache(maxsize=256)(ppf))),
                        trueskill.TrueSkill(*args, backend="mpmath"))


def _rate(params: RatingParameters, groups: list[tuple[trueskill.Rating, ...]], ranks: list[int],
          weights: list[tuple[float, ...]]) -> tuple[list[tuple[trueskill.Rating, ...]], float]:
    env = _environment(params)
    try:
        quality = env.builtin.quality(groups, weights=weights)
        return env.builtin.rate(groups, ranks=ranks, weights=weights), float(quality)
    except FloatingPointError:
        quality = env.precise.quality(groups, weights=weights)
        return env.precise.rate(groups, ranks=ranks, weights=weights), float(quality)


def _ts(rating: Rating) -> trueskill.Rating:
    return trueskill.Rating(rating.mu, rating.sigma)


def _plain(rating: trueskill.Rating) -> Rating:
    return Rating(float(rating.mu), float(rating.sigma))


def _check_seats(seats: Sequence[SeatResult]) -> None:
    versions = [s.version_id for s in seats]
    if len(set(versions)) != len(versions):
        raise ValueError(f"a version plays more than one seat of a match ({versions}): a rating "
                         "update needs distinct versions")


def match_quality(params: RatingParameters, ratings: Sequence[Rating]) -> float:
    """TrueSkill's draw probability of a free-for-all among these ratings (1 is a perfect match)."""
    env = _environment(params)
    groups = [(_ts(r),) for r in ratings]
    try:
        return float(env.builtin.quality(groups))
    except FloatingPointError:
        return float(env.precise.quality(groups))


def rate_free_for_all(params: RatingParameters, seats: Sequence[SeatResult],
                      ratings: Mapping[int, Rating]) -> RatedMatch:
    """Rate a free-for-all by rank. Versions missing from ``ratings`` start from the prior."""
    _check_seats(seats)
    before = [ratings.get(s.version_id, params.fresh()) for s in seats]
    rated = [i for i, s in enumerate(seats) if s.unrated_reason is None]
    if len(rated) < 2:
        reason = "fewer than two rated seats in the match"
        changes = tuple(_unchanged(i, s, before[i], 0.0, s.unrated_reason or reason) for i, s in enumerate(seats))
        return RatedMatch(changes)
    groups = [(_ts(before[i]),) for i in rated]
    new_groups, quality = _rate(params, groups, [seats[i].rank for i in rated], [(1.0,)] * len(rated))
    after = {i: _plain(g[0]) for i, g in zip(rated, new_groups)}
    changes = tuple(
        RatingChange(s.version_id, i, before[i], after[i], quality, s.rank, 1.0)
        if i in after else _unchanged(i, s, before[i], quality, s.unrated_reason or "")
        for i, s in enumerate(seats))
    return RatedMatch(changes, quality=quality)


def rate_cooperative(params: RatingParameters, seats: Sequence[SeatResult], ratings: Mapping[int, Rating],
                     game: Rating | None) -> RatedMatch:
    """Rate a co-operative match: the rated seats as one team (weights 1/n) against the game.

    All rated seats share one outcome: the referee marks the partners of a faulty seat
    unrated and ranks the faulty seat last, so the seats left to rate either all landed or
    all crashed; mixed outcomes are a malformed record and raise ``ValueError``. A version in
    several seats (self-play) is one member, at its first rated seat; ``changes`` then has one
    entry per version, in seat order.
    """
    seats = _one_seat_per_version(seats)
    before = [ratings.get(s.version_id, params.fresh()) for s in seats]
    game_before = game or params.fresh()
    rated = [i for i, s in enumerate(seats) if s.unrated_reason is None]
    if not rated:
        changes = tuple(_unchanged(s.seat, s, before[i], 0.0, s.unrated_reason or "") for i, s in enumerate(seats))
        return RatedMatch(changes, RatingChange(None, None, game_before, game_before, 0.0, 0, 0.0,
                                                "every seat of the match is unrated"))
    outcomes = {seats[i].beat_the_game for i in rated}
    if len(outcomes) != 1:
        raise ValueError("a co-operative match whose rated seats disagree on landing: "
                         f"{[(seats[i].rank, seats[i].score) for i in rated]}")
    won = outcomes.pop()
    weight = 1.0 / len(rated)
    team = tuple(_ts(before[i]) for i in rated)
    (new_team, (new_game,)), quality = _rate(params, [team, (_ts(game_before),)],
                                             [0, 1] if won else [1, 0], [(weight,) * len(rated), (1.0,)])
    after = {i: _plain(r) for i, r in zip(rated, new_team)}
    changes = tuple(
        RatingChange(s.version_id, s.seat, before[i], after[i], quality, 0 if won else 1, weight)
        if i in after else _unchanged(s.seat, s, before[i], quality, s.unrated_reason or "")
        for i, s in enumerate(seats))
    game_change = RatingChange(None, None, game_before, _plain(new_game), quality, 1 if won else 0, 1.0)
    return RatedMatch(changes, game_change, quality)


@dataclass(frozen=True)
class _Seated(SeatResult):
    seat: int = 0


def _one_seat_per_version(seats: Sequence[SeatResult]) -> list[_Seated]:
    """Each version once, at its first rated seat (else its first seat), in seat order."""
    chosen: dict[int, int] = {}
    for i, s in enumerate(seats):
        first = chosen.get(s.version_id)
        if first is None or (seats[first].unrated_reason is not None and s.unrated_reason is None):
            chosen[s.version_id] = i
    return [_Seated(seats[i].version_id, seats[i].rank, seats[i].score, seats[i].unrated_reason, i)
            for i in sorted(chosen.values())]


def _unchanged(seat: int, result: SeatResult, rating: Rating, quality: float, reason: str) -> RatingChange:
    return RatingChange(result.version_id, seat, rating, rating, quality, result.rank, 0.0, reason)

