"""The engine framework shared by every game."""

from .errors import (
    ArgumentError,
    IllegalAction,
    MalformedAction,
    OptionError,
    PlayerCountError,
    ReplayError,
    SeatError,
    SkyarenaError,
    UnknownGame,
)
from .registry import GAMES, make, register, spec
from .result import Result
from .rng import CounterRng
from .spec import GameSpec, OptionSpec
from .state import Action, State

__all__ = [
    "GAMES", "Action", "ArgumentError", "CounterRng", "GameSpec", "IllegalAction", "MalformedAction",
    "OptionError", "OptionSpec", "PlayerCountError", "ReplayError", "Result", "SeatError", "SkyarenaError",
    "State", "UnknownGame", "make", "register", "spec",
]
