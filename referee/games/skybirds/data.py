"""Skybirds game data: the deck and the Aerodrome, as tables.

The Aerodrome table is RULINGS.md's (binding); the engine reads every ribbon, prerequisite,
VP value and bonus from here, so the rules code never names a token's numbers itself.
"""

from __future__ import annotations

from typing import NamedTuple

# ----- the 40 Aces --------------------------------------------------------------------
# Count of each card value in the deck, index = value (0 = Roland Garros: no value; stored as
# value 0 in hands, index 0 of a hand's counts).
DECK: tuple[int, ...] = (1, 5, 5, 5, 5, 5, 5, 3, 3, 2, 1)
DECK_SIZE = sum(DECK)  # 40

# Printed medallions per card value (RULINGS.md: each 9 and the 10 carry one).
MEDALS: tuple[int, ...] = (0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1)

# Setup by player count: cards dealt into the box unseen, and cards per player.
BOX: dict[int, int] = {2: 8, 3: 4, 4: 0}
HAND: dict[int, int] = {2: 16, 3: 12, 4: 10}

MAX_SQUADRON = 6
"""A Squadron has 1 to 6 cards (the C1 token may not take it outside that range)."""


# ----- the Aerodrome (RULINGS.md) ----------------------------------------------------------
class Token(NamedTuple):
    """One progression token of the Aerodrome."""

    name: str
    ribbon: tuple[int, ...]     # finishing places allowed to take it
    needs: tuple[str, ...]      # prerequisite tokens (in the taker's reserve)
    needs_all: bool             # True: every prerequisite (Armistice); False: any one
    vp_front: int
    vp_back: int
    kind: str                   # "dogfight", "pre-campaign", "tiebreaker" or "armistice"
    effect: str                 # what the bonus does (engine key, see below)
    text: str                   # the bonus as the table words it


#            name  ribbon     needs          all    front back kind            effect
AERODROME: tuple[Token, ...] = (
    Token("A1", (1, 2, 3), (), False, 2, 1, "dogfight", "medal1", "+1 medallion on one card"),
    Token("A2", (1, 2, 3), (), False, 2, 1, "pre-campaign", "trade1",
          "trade 1 card with an opponent (each gives a card of its choice)"),
    Token("A3", (1, 2, 3), (), False, 2, 1, "dogfight", "wild1", "one card is wild (declare the value)"),
    Token("B1", (1, 2), ("A1", "A2"), False, 3, 2, "dogfight", "equal",
          "may equal the previous value instead of beating it"),
    Token("B2", (1, 2), ("A2", "A3"), False, 3, 2, "dogfight", "run",
          "a run of 2-3 consecutive values counts as its lowest value"),
    Token("C1", (1, 2), ("B1",), False, 3, 2, "dogfight", "size", "play one card more or fewer than the squadron size"),
    Token("C2", (1, 2), ("B1", "B2"), False, 3, 3, "tiebreaker", "tiebreak",
          "take the largest free fractional token; never used or returned"),
    Token("C3", (1, 2), ("B2",), False, 3, 2, "pre-campaign", "trade2", "trade 2 cards with an opponent"),
    Token("D1", (1,), ("C1",), False, 4, 3, "dogfight", "medal2", "+2 medallions on one card"),
    Token("D2", (1,), ("C3",), False, 4, 3, "dogfight", "wild2", "two cards are wild"),
    Token("AR", (1,), ("D1", "D2"), True, 5, 5, "armistice", "armistice", "ends the war after the current dogfight"),
)

TOKEN_NAMES: tuple[str, ...] = tuple(t.name for t in AERODROME)
INDEX: dict[str, int] = {t.name: i for i, t in enumerate(AERODROME)}
ARMISTICE = INDEX["AR"]
TIEBREAKER = INDEX["C2"]
PLUS_ONE_TOKENS = 8
"""+1VP tokens under the track of every Aerodrome (no bonus, no prerequisite)."""

# Fractional VP tokens, in quarters, largest first (they start on no one's Aerodrome).
FRACTIONS: tuple[int, ...] = (3, 2, 1)
FRACTION_TEXT: dict[int, str] = {3: "3/4", 2: "1/2", 1: "1/4", 0: ""}

# Token states on a player's Aerodrome.
ON_MAT, FACE_UP, FLIPPED = 0, 1, 2
STATE_TEXT = ("mat", "up", "flipped")


def trade_in_cost(token: Token) -> int:
    """RULINGS.md: the cost follows the ribbon: 2 for 1-2-3, 3 for 1-2, 4 for 1-only."""
    if 3 in token.ribbon:
        return 2
    if 2 in token.ribbon:
        return 3
    return 4


# Effects the dogfight rules understand, by effect key.
MEDAL_BONUS: dict[str, int] = {"medal1": 1, "medal2": 2}
WILD_CARDS: dict[str, int] = {"wild1": 1, "wild2": 2}

# Canonical order of dogfight tokens in a squadron's notation (the Aerodrome's order).
DOGFIGHT_TOKENS: tuple[str, ...] = tuple(t.name for t in AERODROME if t.kind == "dogfight")
PRE_CAMPAIGN_TOKENS: tuple[str, ...] = tuple(t.name for t in AERODROME if t.kind == "pre-campaign")
TRADE_CARDS: dict[str, int] = {"trade1": 1, "trade2": 2}
