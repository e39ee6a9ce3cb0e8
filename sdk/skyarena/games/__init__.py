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

MODULES = {
    "sky-team": "sky_team",
    "skyjo-action": "skyjo_action",
    "skybirds": "skybirds",
    "oddball-aeronauts": "oddball_aeronauts",
    "fly-away": "fly_away",
}


def game_module(game: str) -> ModuleType | None:
    name = MODULES.get(game)
    if name is None:
        return None
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
