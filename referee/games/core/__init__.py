"""The engine framework shared by every game."""

from .errors import (
    IllegalAction,
    MalformedAction,
    OptionError,
    PlayerCountError,
    ReplayError,
    SkyarenaError,
    UnknownGame,
)
from .registry import GAMES, make, register, spec
from .result import Result
from .rng import CounterRng
from .spec import GameSpec, OptionSpec
from .state import Action, State

__all__ = [
    "GAMES", "Action", "CounterRng", "GameSpec", "IllegalAction", "MalformedAction", "OptionError", "OptionSpec",
    "PlayerCountError", "ReplayError", "Result", "SkyarenaError", "State", "UnknownGame",
    "make", "register", "spec",
]
