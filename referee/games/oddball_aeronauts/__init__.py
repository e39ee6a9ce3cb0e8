"""Oddball Äeronauts: two sky-ship crews, each a deck, until one is forced to discard all.

Registers the game on import. Layout: ``data/`` (the cards), ``cards.py`` (card model and
loader), ``decks.py`` (Deck Crafting A-E), ``actions.py`` (notation), ``rules.py`` (the
round's rules), ``state.py`` (the State), ``options.py`` (options and ``setup``).
"""

from __future__ import annotations

from ..core import GameSpec, register
from .options import DECISIONS_PER_ROUND, MAX_ROUNDS_LIMIT, OPTIONS, check_options
from .state import OddballState

SPEC = register(GameSpec(
    name="oddball-aeronauts",
    title="Oddball Äeronauts",
    version="2",  # 2: Rig and limit at the start of Step 3, Discard orders (version 1 replays do not re-play)
    min_players=2,
    max_players=2,
    factory=OddballState,
    options=OPTIONS,
    max_decisions=DECISIONS_PER_ROUND * MAX_ROUNDS_LIMIT,
    cooperative=False,
    rulebook="docs/rules/oddball-aeronauts.md",
    check_options=check_options,
    description="Pendragon against Pirates: announce a skill, play up to three cards, make the other discard all.",
))

__all__ = ["SPEC", "OddballState"]
