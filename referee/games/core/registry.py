"""The game registry: name -> spec, and ``make`` to start a game."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, MutableMapping
from importlib import import_module
from typing import Any

from .errors import ArgumentError, UnknownGame
from .spec import GameSpec
from .state import State


class GameRegistry(MutableMapping[str, GameSpec]):
    """Name -> spec. A built-in game is known by name from the start and its engine is
    imported the first time its spec is asked for: a process that plays one game (a hosted
    bot, a seat process) does not pay for importing the other engines."""

    def __init__(self) -> None:
        self._specs: dict[str, GameSpec] = {}
        self._modules: dict[str, str] = {}  # declared, not yet imported: name -> module that registers it
        self._order: list[str] = []

    def declare(self, name: str, module: str) -> None:
        """``module`` registers the game ``name`` when it is imported."""
        if name not in self._specs:
            self._modules[name] = module
        if name not in self._order:
            self._order.append(name)

    def registered(self, name: str) -> GameSpec | None:
        """The spec if the game's engine is loaded, without loading it."""
        return self._specs.get(name)

    def __getitem__(self, name: str) -> GameSpec:
        module = self._modules.get(name)
        if module is not None:
            import_module(module)  # the module calls register(), which takes it off the list
        return self._specs[name]

    def __setitem__(self, name: str, game_spec: GameSpec) -> None:
        self._specs[name] = game_spec
        self._modules.pop(name, None)
        if name not in self._order:
            self._order.append(name)

    def __delitem__(self, name: str) -> None:
        del self._specs[name]
        self._order.remove(name)

    def __contains__(self, name: object) -> bool:
        return name in self._specs or name in self._modules

    def __iter__(self) -> Iterator[str]:
        return iter([name for name in self._order if name in self])

    def __len__(self) -> int:
        return len(set(self._specs) | set(self._modules))


GAMES = GameRegistry()


def register(game_spec: GameSpec) -> GameSpec:
    """Add a game; its State class must name it in ``game``. Registering twice is an error."""
    known = GAMES.registered(game_spec.name)
    if known is not None and known is not game_spec:
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
