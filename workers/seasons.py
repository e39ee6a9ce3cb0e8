"""League seasons: what a season is, which settings are valid, and how ratings carry over.

A season is one game's league over a stretch of time, with a ladder per player count
(ladder = season, game, player count). It moves draft -> active -> closed; closing freezes
its standings for good (`workers/store/seasons.py` writes the snapshot). A new season starts
from fresh ratings or from a closed season's frozen standings, each σ widened so the
carried ratings can move again: σ' = √(σ² + γ²), capped at the prior σ. The γ here is
TrueSkill's own notion of skill drifting over time (τ is the same thing per match), so the
inflation means "this much may have changed between seasons".

Pure rules; the SQL lives in the store. ``check_season`` is the one verdict on a season's
settings: ``SeasonSpec`` runs it on construction, so the organiser's command, the Arena's
``CreateSeason`` and the dashboard's Organiser page refuse the same settings with the same
message.
"""

from __future__ import annotations

import math
import re
from dataclasses import MISSING, dataclass, field, fields
from typing import Any

from referee.games import GAMES, SkyarenaError
from referee.match.clock import (
    DEFAULT_MAX_BANK_S,
    DEFAULT_MAX_MOVE_S,
    DEFAULT_MAX_STRIKES,
    DEFAULT_WALL_BACKSTOP,
    MIN_WALL_BACKSTOP,
)
from referee.match.clock import DEFAULT_MAX_WALL_BACKSTOP as MAX_WALL_BACKSTOP
from workers.errors import WorkerError
from workers.leagues import DEFAULT_PROMOTION_MATCHES, LeagueError, LeagueSpec, check_leagues
from workers.matchmaking import MatchmakingParameters
from workers.ratings import Rating, RatingParameters

NAME_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")  # the seasons table's CHECK
DEFAULT_SIGMA_INFLATION = RatingParameters().sigma / 2  # a well-known bot (σ ≈ 1) returns at σ ≈ 4.3
MAX_SIGMA_INFLATION = 1000.0


class SeasonError(WorkerError, ValueError):
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
    # Hosted seats are charged their own CPU time (the sandbox measures it); wall time only
    # bounds a decision at wall_backstop times its CPU deadline. False: wall clocks for all.
    cpu_clock: bool = True
    wall_backstop: float = DEFAULT_WALL_BACKSTOP
    # Leagues, lowest first (`workers.leagues`): none, or two or more each with a house bot as its boss.
    leagues: tuple[LeagueSpec, ...] = ()
    promotion_matches: int = DEFAULT_PROMOTION_MATCHES   # rated matches in a row above the boss to move up
    league_start: str = "lowest"                         # lowest | keep (a new version keeps its bot's league)

    def __post_init__(self) -> None:
        check_season(self)

def check_season(spec: SeasonSpec) -> None:
    """Raise SeasonError, saying what to change, unless every setting of ``spec`` can be played:
    the name, the game, each player count with the game's options for it (the engine's own
    check and message), the clocks within the referee's limits, the league parameters."""
    if not NAME_PATTERN.fullmatch(spec.name):  # match() would let a final newline through
        raise SeasonError(f"season name {spec.name!r} is not allowed: use 1-64 letters, digits, '_', '.' "
                          "or '-', starting with a letter or digit")
    game = GAMES.get(spec.game)
    if game is None:
        raise SeasonError(f"unknown game {spec.game!r}: choose one of {', '.join(sorted(GAMES))}")
    if not isinstance(spec.options, dict):
        raise SeasonError(f'game options must be an object of name: value pairs such as {{"max_rounds": 20}}, '
                          f"not {spec.options!r}")
    if not spec.player_counts:
        raise SeasonError("a season needs at least one player count (a ladder per count)")
    if len(set(spec.player_counts)) != len(spec.player_counts):
        raise SeasonError(f"player counts repeat: {list(spec.player_counts)}")
    for players in spec.player_counts:
        if isinstance(players, bool) or not isinstance(players, int) \
                or not game.min_players <= players <= game.max_players:
            raise SeasonError(f"{spec.game} is played by {game.player_range_text()} players, not {players}")
        try:
            game.validate(players, spec.options)
        except SkyarenaError as exc:  # the engine's own message; which ladder, when there are several
            several = len(spec.player_counts) > 1
            raise SeasonError(f"with {players} players: {exc}" if several else str(exc)) from None
    _check_clock(spec)
    if spec.strike_limit < 1:
        raise SeasonError(f"strike limit must be at least 1, not {spec.strike_limit}")
    if spec.strike_limit > DEFAULT_MAX_STRIKES:
        raise SeasonError(f"strike limit {spec.strike_limit} is above the referee's limit of "
                          f"{DEFAULT_MAX_STRIKES}: choose less")
    if spec.matches_in_flight < 0:
        raise SeasonError(f"matches in flight must be 0 or more, not {spec.matches_in_flight}")
    if not 0 <= spec.sigma_inflation <= MAX_SIGMA_INFLATION:
        raise SeasonError(f"sigma inflation {spec.sigma_inflation:g} is out of range: choose a value from 0 "
                          f"to {MAX_SIGMA_INFLATION:g}")
    try:
        check_leagues(spec.game, spec.leagues, spec.promotion_matches, spec.league_start)
    except LeagueError as exc:
        raise SeasonError(str(exc)) from None


def _check_clock(spec: SeasonSpec) -> None:
    if not isinstance(spec.cpu_clock, bool):
        raise SeasonError(f"cpu_clock must be true or false, not {spec.cpu_clock!r}")
    backstop = spec.wall_backstop
    if isinstance(backstop, bool) or not isinstance(backstop, int | float) \
            or not MIN_WALL_BACKSTOP <= backstop <= MAX_WALL_BACKSTOP:
        raise SeasonError(f"wall backstop {backstop!r} is out of range: choose a number from {MIN_WALL_BACKSTOP:g} "
                          f"to {MAX_WALL_BACKSTOP:g} (times a decision's CPU deadline)")
    for name, low_ok, ceiling in (("move_s", False, DEFAULT_MAX_MOVE_S),
                                  ("first_move_s", False, DEFAULT_MAX_MOVE_S),
                                  ("bank_s", True, DEFAULT_MAX_BANK_S)):
        value = getattr(spec, name)
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            raise SeasonError(f"time control {name} must be a number of seconds, not {value!r}")
        if not (value >= 0 if low_ok else value > 0):
            raise SeasonError(f"time control {name} must be {'0 seconds or more' if low_ok else 'above 0 seconds'}, "
                              f"not {value:g}")
        if value > ceiling:
            raise SeasonError(f"time control {name} {value:g} s is above the referee's limit of {ceiling:g} s: "
                              "choose less")


def season_defaults() -> dict[str, Any]:
    """The settings a season takes when a request leaves them out (0 or empty on the wire)."""
    return {f.name: f.default for f in fields(SeasonSpec) if f.default is not MISSING}


def default_player_counts(game: str) -> tuple[int, ...]:
    """The ladders of a season whose request names none: the game's smallest table (none for an unknown
    game, which ``check_season`` then names)."""
    spec = GAMES.get(game)
    return (spec.min_players,) if spec is not None else ()


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
