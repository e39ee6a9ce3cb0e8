"""Skybirds: a card-shedding game of flying aces for 2-4 players (rules: docs/rules/skybirds.md).

Registers the game on import. See README.md beside this file for the action notation,
the observation, the ``setup`` format, the options and the rulings applied.
"""

from __future__ import annotations

from typing import Any

from referee.games.core.errors import OptionError
from referee.games.core.registry import register
from referee.games.core.spec import GameSpec, OptionSpec

from .data import DECK_SIZE
from .setup import parse_setup
from .state import SkybirdsState

CAMPAIGN_LIMIT_MAX = 100

OPTIONS = (
    OptionSpec("short_war", False,
               "The rulebook's shorter game: the Armistice needs only one of its two prerequisites (D1 or D2).",
               bool),
    OptionSpec("campaign_limit", 30,
               "Safety bound: after this many campaigns without an Armistice the war ends on victory points "
               "(result reason 'campaign-limit').", int, minimum=1, maximum=CAMPAIGN_LIMIT_MAX),
)


def _per_campaign_bound(players: int) -> int:
    """Decisions one campaign can take at most: each play (at most one per card) may be
    followed by a wild-card choice and at most players-1 passes; one take per seat; per seat
    two pre-campaign uses (each a use and a give), a pass, and a trade-in pass."""
    return DECK_SIZE * (players + 1) + players * (1 + 5 + 1)


# Trade-ins themselves: each spends at least two +1VP tokens and a seat gains at most one per
# campaign (plus eight from a setup), so at most (limit + 8) / 2 per seat over the war.
MAX_DECISIONS = CAMPAIGN_LIMIT_MAX * _per_campaign_bound(4) + 4 * (CAMPAIGN_LIMIT_MAX + 8) // 2


def check_options(players: int, options: dict[str, Any]) -> None:
    setup = parse_setup(players, options.get("setup")) if 2 <= players <= 4 else None
    if setup and setup["campaign"] > options["campaign_limit"]:
        raise OptionError(
            f"skybirds: setup starts at campaign {setup['campaign']} but campaign_limit is "
            f"{options['campaign_limit']}; raise campaign_limit or lower setup.campaign.")


SPEC = register(GameSpec(
    name="skybirds",
    title="Skybirds",
    version="1",
    min_players=2,
    max_players=4,
    factory=SkybirdsState,
    options=OPTIONS,
    max_decisions=MAX_DECISIONS,
    rulebook="docs/rules/skybirds.md",
    check_options=check_options,
    description="Card shedding with flying aces: dogfights, campaigns, and an Aerodrome of tokens "
                "that bend the rules, until someone takes the Armistice.",
))

__all__ = ["SPEC", "SkybirdsState"]
