"""Skyjo Action: fewest points wins; 2-8 players (10 with the large-group variant).

Registers the game on import. The engine is split by job: ``data`` (cards and layouts),
``actions`` (the notation), ``rules`` (one function per scoring/line rule), ``config``
(options, their checks and the ``setup`` option) and ``state`` (the turn machine).
"""

from __future__ import annotations

from typing import Any

from ..core import GameSpec, register
from .config import MAX_DECISIONS, OPTIONS, check_options
from .state import SkyjoActionState


def _factory(players: int, seed: int, options: dict[str, Any]) -> SkyjoActionState:
    return SkyjoActionState(players, seed, options)


SPEC = register(GameSpec(
    name="skyjo-action",
    title="Skyjo Action",
    version="1",
    min_players=2,
    max_players=10,
    factory=_factory,
    options=OPTIONS,
    max_decisions=MAX_DECISIONS,
    cooperative=False,
    rulebook="docs/rules/skyjo-action.md",
    check_options=check_options,
    description="Collect the fewest points: replace and reveal a grid of cards, clear identical lines, "
                "and use action cards on yourself and the others.",
))

__all__ = ["SPEC", "SkyjoActionState"]
