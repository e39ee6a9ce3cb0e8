"""League seasons: what a season is, which settings are valid, and how ratings carry over.

A season is one game's league over a stretch of time, with a ladder per player count
(ladder = season, game, player count). It moves draft -> active -> closed; closing freezes
its standings for good (`workers/store/seasons.py` writes the snapshot). A new season starts
from fresh ratings or from a closed season's frozen standings, each σ widened so the
carried ratings can move again: σ' = √(σ² + γ²), capped at the prior σ. The γ here is
TrueSkill's own notion of skill drifting over time (τ is the same thing per match), so the
inflation means "this much may have changed between seasons".

Pure rules; the SQL lives in the store.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

from referee.games import GAMES
from workers.matchmaking import MatchmakingParameters
from workers.ratings import Rating, RatingParameters

NAME_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")  # the seasons table's CHECK
DEFAULT_SIGMA_INFLATION = RatingParameters().sigma / 2  # a well-known bot (σ ≈ 1) returns at σ ≈ 4.3
MAX_SIGMA_INFLATION = 1000.0


class SeasonError(ValueError):
    """A season's settings or a request about a season cannot be honoured: the message says why."""


@dataclass(frozen=True)
class SeasonSpec:
    """Everything needed to create a season; validated on construction."""

    name: str
    game: str
    player_counts: tuple[int, ...]
    options: dict[str, Any] = field(default_factory=dict)
    move_s: float = 1.0          # the referee's TimeControl defaults
    bank_s: float = 10.0
    first_move_s: float = 5.0
    strike_limit: int = 3
    matches_in_flight: int = 4   # per ladder, what the scheduler keeps queued or running
    matchmaking: MatchmakingParameters = field(default_factory=MatchmakingParameters)
    rating: RatingParameters = field(default_factory=RatingParameters)
    carry_over_from: str | None = None
    sigma_inflation: float = DEFAULT_SIGMA_INFLATION

    def __post_init__(self) -> None:
        if not NAME_PATTERN.fullmatch(self.name):  # match() would let a final newline through
            raise SeasonError(f"season name {self.name!r} is not allowed: use 1-64 letters, digits, '_', '.' "
                              "or '-', starting with a letter or digit")
        spec = GAMES.get(self.game)
        if spec is None:
            raise SeasonError(f"unknown game {self.game!r}: choose one of {', '.join(sorted(GAMES))}")
        if not self.player_counts:
            raise SeasonError("a season needs at least one player count (a ladder per count)")
        for players in self.player_counts:
            if not spec.min_players <= players <= spec.max_players:
                raise SeasonError(f"{self.game} is played by {spec.player_range_text()} players, "
                                  f"not {players}")
        if len(set(self.player_counts)) != len(self.player_counts):
            raise SeasonError(f"player counts repeat: {list(self.player_counts)}")
        for name in ("move_s", "first_move_s"):
            if not getattr(self, name) > 0:
                raise SeasonError(f"time control {name} must be above 0 seconds, not {getattr(self, name)}")
        if not self.bank_s >= 0:
            raise SeasonError(f"time control bank_s must be 0 seconds or more, not {self.bank_s}")
        if self.strike_limit < 1:
            raise SeasonError(f"strike limit must be at least 1, not {self.strike_limit}")
        if self.matches_in_flight < 0:
            raise SeasonError(f"matches in flight must be 0 or more, not {self.matches_in_flight}")
        if not 0 <= self.sigma_inflation <= MAX_SIGMA_INFLATION:
            raise SeasonError(f"sigma inflation {self.sigma_inflation:g} is out of range: choose a value from 0 "
                              f"to {MAX_SIGMA_INFLATION:g}")


def carried_over(rating: Rating, inflation: float, params: RatingParameters) -> Rating:
    """A closed season's rating as the start of a new one: same μ, σ widened by γ = ``inflation``."""
    return Rating(rating.mu, min(math.hypot(rating.sigma, inflation), params.sigma))


def check_transition(name: str, state: str, wanted: str) -> None:
    """Seasons only move forward: draft -> active -> closed (a draft may also close unplayed)."""
    allowed = {("draft", "active"), ("active", "closed"), ("draft", "closed")}
    if (state, wanted) in allowed:
        return
    if state == "closed":
        raise SeasonError(f"season {name} is closed: its standings are frozen; create a new season instead")
    raise SeasonError(f"season {name} is {state}, it cannot become {wanted}")
