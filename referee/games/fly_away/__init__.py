"""Fly Away (2-5 players): take birds from the wedge display and build your own formation.

Rules: docs/rules/fly-away.md, rulings in RULINGS.md and README.md here. Importing the
package registers the game.
"""

from __future__ import annotations

from typing import Any

from ..core.errors import OptionError
from ..core.registry import register
from ..core.spec import GameSpec, OptionSpec
from .data import EMPTY_PILE_PENALTY
from .state import FlyAwayState

OPTIONS = (
    OptionSpec("scoring_cards", "keep-three",
               "How many of the 4 dealt scoring cards a seat keeps: 'keep-three' (the rules), 'first-game' "
               "(keep two or three) or 'all-four' (the experienced variant: keep all, no choice).",
               str, choices=("keep-three", "first-game", "all-four")),
    OptionSpec("scoring_data", "template",
               "The scoring card values: 'template' (the RULINGS.md template, data/scoring.json) or 'balanced' "
               "(data/scoring_balanced.json: the organiser's choice to deviate from the template so that no "
               "scoring card type outscores the others; see the README's design note).",
               str, choices=("template", "balanced")),
    OptionSpec("public_scoring_cards", False,
               "Ruling: kept scoring cards stay private until the end (the rulebook lays them face up; "
               "true does that).", bool),
    OptionSpec("ability_order", "swaps-then-flips",
               "Ruling (RULINGS.md): at the end every seat makes its swaps, then its flips; 'any-order' mixes them.",
               str, choices=("swaps-then-flips", "any-order")),
    OptionSpec("double_counts_for_set", False,
               "Ruling (RULINGS.md): a doubling card counts once toward the species set bonus; true counts it twice.",
               bool),
    OptionSpec("empty_penalty_pile", "no-penalty",
               "Ruling: a late turn when the 11 penalty cards are gone costs nothing ('no-penalty') "
               "or 4 points ('minus-4').", str, choices=tuple(EMPTY_PILE_PENALTY)),
)

# One keep decision, at most 12 turns per seat, then per seat at most one swap per card,
# one flip per card and two 'done': abilities are simultaneous, so the longest seat counts.
MAX_DECISIONS = 1 + 12 * 5 + 2 * 12 + 2


def _check_options(players: int, options: dict[str, Any]) -> None:
    setup = options.get("setup")
    kept = setup.get("kept") if isinstance(setup, dict) else None
    if isinstance(kept, list) and options["scoring_cards"] == "all-four" and any(
            isinstance(k, list) and len(k) != 4 for k in kept):
        raise OptionError("fly-away: option 'setup' fixes 'kept' cards but scoring_cards is 'all-four' "
                              "(every seat keeps all four); drop 'kept' or choose 'keep-three'.")


def _factory(players: int, seed: int, options: dict[str, Any]) -> FlyAwayState:
    return FlyAwayState(players, seed, options)


SPEC = register(GameSpec(
    name="fly-away",
    title="Fly Away",
    version="1",
    min_players=2,
    max_players=5,
    factory=_factory,
    options=OPTIONS,
    max_decisions=MAX_DECISIONS,
    rulebook="docs/rules/fly-away.md",
    check_options=_check_options,
    description="Take 1-3 adjacent birds from the wedge display, fly them into your own 3/4/5 formation, "
                "and score them on the scoring cards you kept.",
))

__all__ = ["SPEC", "FlyAwayState"]
