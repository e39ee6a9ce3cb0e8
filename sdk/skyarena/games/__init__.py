"""Per-game SDK modules: typed observations and house bots.

Each game has a module here named like its engine package (``sky_team``...) exposing
``Observation`` (a dataclass subclass of :class:`skyarena.observation.Observation`) and
``HOUSE_BOTS`` (name -> Bot subclass, at least ``random`` and ``heuristic``).
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType
from typing import Any

from ..bot import Bot, RandomBot
from ..observation import GenericObservation, Observation

# The house bots that answer at once, for demos and quick round-robins: the ``boss``
# thinks for most of every move limit it is given, so a demo that seats it spends its
# cores (and at a smoke match's five seconds a move, minutes per match) on the bosses.
QUICK_HOUSE_BOTS = ("heuristic", "random")


def module_name(game: str) -> str:
    """The module name of a game (its SDK module here and its engine package under
    ``referee.games``): the game's name with '-' as '_' (``sky-team`` -> ``sky_team``)."""
    return game.replace("-", "_")


def game_module(game: str) -> ModuleType | None:
    """The SDK module of a registered game, or None (unknown game, or no SDK module)."""
    from referee.games import GAMES

    if game not in GAMES:
        return None
    name = module_name(game)
    try:
        return import_module(f"{__name__}.{name}")
    except ModuleNotFoundError as exc:
        if exc.name == f"{__name__}.{name}":
            return None
        raise


def observation_class(game: str) -> type[Observation]:
    module = game_module(game)
    return getattr(module, "Observation", GenericObservation) if module else GenericObservation


def to_observation(game: str, data: dict[str, Any]) -> Observation:
    return observation_class(game).from_json(data)


def house_bots(game: str) -> dict[str, type[Bot]]:
    module = game_module(game)
    bots: dict[str, type[Bot]] = {"random": RandomBot}
    if module is not None:
        bots.update(getattr(module, "HOUSE_BOTS", {}))
    return bots
