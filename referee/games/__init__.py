"""Game engines. ``make(name, players, seed, options)`` starts a game; ``GAMES`` maps each
registered name to its spec. Each game lives in its own subpackage and registers itself
when imported; ``GAMES`` imports a subpackage the first time its game is asked for."""

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

# Subpackages, one per game; each registers its GameSpec on import. A game's name is its
# package's with '-' for '_'.
GAME_PACKAGES = ("sky_team", "skyjo_action", "skybirds", "oddball_aeronauts", "fly_away")

for _package in GAME_PACKAGES:
    GAMES.declare(_package.replace("_", "-"), f"{__name__}.{_package}")

__all__ = [
    "GAMES", "GAME_PACKAGES", "Action", "ArgumentError", "CounterRng", "GameSpec", "IllegalAction",
    "MalformedAction", "OptionError", "OptionSpec", "PlayerCountError", "ReplayError", "Result", "SeatError",
    "SkyarenaError", "State", "UnknownGame", "make", "register", "spec",
]
