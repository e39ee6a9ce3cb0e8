"""Game engines. ``make(name, players, seed, options)`` starts a game; ``GAMES`` maps each
registered name to its spec. Each game lives in its own subpackage and registers itself
when imported below."""

from importlib import import_module

from .core import (
    GAMES,
    Action,
    ArgumentError,
    CounterRng,
    GameSpec,
    IllegalAction,
    MalformedAction,
    OptionError,
    OptionSpec,
    PlayerCountError,
    ReplayError,
    Result,
    SeatError,
    SkyarenaError,
    State,
    UnknownGame,
    make,
    register,
    spec,
)

# Subpackages, one per game; each registers its GameSpec on import.
GAME_PACKAGES = ("sky_team", "skyjo_action", "skybirds", "oddball_aeronauts", "fly_away")

for _package in GAME_PACKAGES:
    import_module(f"{__name__}.{_package}")

__all__ = [
    "GAMES", "GAME_PACKAGES", "Action", "ArgumentError", "CounterRng", "GameSpec", "IllegalAction",
    "MalformedAction", "OptionError", "OptionSpec", "PlayerCountError", "ReplayError", "Result", "SeatError",
    "SkyarenaError", "State", "UnknownGame", "make", "register", "spec",
]
