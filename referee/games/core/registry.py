"""The game registry: name -> spec, and ``make`` to start a game."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .errors import ArgumentError, UnknownGame
from .spec import GameSpec
from .state import State

GAMES: dict[str, GameSpec] = {}


def register(game_spec: GameSpec) -> GameSpec:
    """Add a game; its State class must name it in ``game``. Registering twice is an error."""
    if game_spec.name in GAMES and GAMES[game_spec.name] is not game_spec:
        raise ValueError(f"game {game_spec.name!r} is registered twice")
    GAMES[game_spec.name] = game_spec
    return game_spec


def spec(name: str) -> GameSpec:
    try:
        return GAMES[name]
    except (KeyError, TypeError):  # TypeError: an unhashable name, such as a list
        known = ", ".join(sorted(GAMES)) or "(none)"
        raise UnknownGame(f"unknown game {name!r}; known games: {known}. `skyarena games` lists them.") from None


def make(name: str, players: int, seed: int = 0, options: Mapping[str, Any] | None = None) -> State:
    """A new game with validated options (defaults filled in)."""
    game_spec = spec(name)
    # type() rather than isinstance: True is an int to Python but never a seed.
    if type(seed) is not int:
        raise ArgumentError(
            f"{name}: seed must be an integer (any size, negative too), got {type(seed).__name__} {seed!r}."
        )
    full = game_spec.validate(players, options)
    return game_spec.factory(players, seed, full)
