"""The ``setup`` option: a fixed deal (and later deals) and fixed Aerodromes for scenarios.

Format (every key optional)::

    {
      "hands": [[0, 2, 2, 5], [1, 3, 9]],       # campaign 1: one list per seat; 0 or "G" = Garros
      "next_deals": [[[...], [...]], ...],     # campaigns 2, 3...: same form; then random deals
      "aerodromes": [{"A1": "up", "B1": "flipped", "plus1": 3, "fraction": "3/4"}, {}],
      "campaign": 1                            # number of the first campaign (for the limit)
    }

Hands may have any sizes (scenarios use short ones); cards not in any hand are in the box,
unseen. Aerodrome keys are token names (in reserve "up" or "flipped"; absent = on the mat),
``plus1`` (+1VP tokens in reserve, 0-8) and ``fraction`` ("3/4", "1/2" or "1/4").
"""

from __future__ import annotations

from typing import Any

from ..core.setup_fields import SetupFields, is_integer
from .data import ARMISTICE, DECK, FACE_UP, FLIPPED, FRACTION_TEXT, INDEX, PLUS_ONE_TOKENS, TIEBREAKER

Deal = tuple[tuple[int, ...], ...]

_KEYS = {"hands", "next_deals", "aerodromes", "campaign"}
_FIX = "see 'setup' in referee/games/skybirds/README.md"


FIELDS = SetupFields(f"skybirds: option 'setup' is invalid: {{}} ({_FIX}).")


def _card(value: Any, where: str) -> int:
    if value in ("G", "g", 0):
        return 0
    if not is_integer(value) or not 1 <= value <= 10:
        raise FIELDS.error(f"{where}: {value!r} is not a card; use 1 to 10, or 0 / \"G\" for Roland Garros")
    return value


def _deal(players: int, hands: Any, where: str) -> Deal:
    if not isinstance(hands, list) or len(hands) != players:
        raise FIELDS.error(f"{where} must be a list of {players} hands, one per seat")
    counts = [0] * 11
    out = []
    for seat, hand in enumerate(hands):
        if not isinstance(hand, list) or not hand:
            raise FIELDS.error(f"{where}[{seat}] must be a non-empty list of cards")
        cards = tuple(sorted(_card(c, f"{where}[{seat}]") for c in hand))
        for c in cards:
            counts[c] += 1
        out.append(cards)
    for value, count in enumerate(counts):
        if count > DECK[value]:
            name = "Roland Garros" if value == 0 else f"{value}s"
            raise FIELDS.error(f"{where} holds {count} {name} but the deck has only {DECK[value]}")
    if counts[0] != 1:
        raise FIELDS.error(f"{where}: Roland Garros (0 or \"G\") must be in exactly one hand")
    return tuple(out)


def parse_setup(players: int, setup: Any) -> dict[str, Any] | None:
    """Validated, normalised setup (or None): {"deals": [Deal...], "aerodromes": [...], "campaign": n}."""
    if setup is None:
        return None
    if not isinstance(setup, dict):
        raise FIELDS.error("it must be a JSON object (or null for a random deal)")
    FIELDS.known_keys(setup, sorted(_KEYS))
    deals: list[Deal] = []
    if "hands" in setup:
        deals.append(_deal(players, setup["hands"], "hands"))
    nxt = setup.get("next_deals", [])
    if not isinstance(nxt, list):
        raise FIELDS.error("next_deals must be a list of deals (each a list of hands)")
    if nxt and "hands" not in setup:
        raise FIELDS.error("next_deals needs 'hands' (the first campaign's deal) too")
    for i, hands in enumerate(nxt):
        deals.append(_deal(players, hands, f"next_deals[{i}]"))
    aerodromes = _aerodromes(players, setup.get("aerodromes"))
    campaign = FIELDS.integer(setup.get("campaign", 1), "campaign", 1)
    return {"deals": deals, "aerodromes": aerodromes, "campaign": campaign}


def _aerodromes(players: int, data: Any) -> list[tuple[list[int], int, int]]:
    """Per seat: (token states, +1VP tokens in reserve, fraction in quarters)."""
    if data is None:
        data = []
    if not isinstance(data, list) or len(data) > players:
        raise FIELDS.error(f"aerodromes must be a list of at most {players} objects, one per seat")
    out = []
    fractions: set[int] = set()
    by_text = {text: q for q, text in FRACTION_TEXT.items() if q}
    for seat in range(players):
        entry = data[seat] if seat < len(data) else {}
        if not isinstance(entry, dict):
            raise FIELDS.error(f"aerodromes[{seat}] must be an object like {{\"A1\": \"up\", \"plus1\": 2}}")
        tokens = [0] * len(INDEX)
        plus1 = 0
        fraction = 0
        for key, value in entry.items():
            if key == "plus1":
                plus1 = FIELDS.integer(value, f"aerodromes[{seat}].plus1", 0, PLUS_ONE_TOKENS)
            elif key == "fraction":
                if value not in by_text:
                    raise FIELDS.error(f"aerodromes[{seat}].fraction must be one of {', '.join(by_text)}")
                fraction = by_text[value]
                if fraction in fractions:
                    raise FIELDS.error(f"the {value} fractional token is given to two players")
                fractions.add(fraction)
            elif key in INDEX:
                if value not in ("up", "flipped"):
                    raise FIELDS.error(f"aerodromes[{seat}].{key} must be \"up\" or \"flipped\" (omit it: on the mat)")
                if value == "flipped" and INDEX[key] == TIEBREAKER:
                    raise FIELDS.error("the tiebreaker token C2 is never flipped")
                if INDEX[key] == ARMISTICE:
                    raise FIELDS.error("the Armistice (AR) cannot start in a reserve: taking it ends the war "
                                       "after that dogfight; give D1 and D2 to reach it")
                tokens[INDEX[key]] = FACE_UP if value == "up" else FLIPPED
            else:
                raise FIELDS.error(f"aerodromes[{seat}] has unknown key {key!r}; use token names, plus1, fraction")
        out.append((tokens, plus1, fraction))
    taken = sorted(fractions, reverse=True)
    if taken != [3, 2, 1][: len(taken)]:
        raise FIELDS.error("fractional tokens are taken largest first: 3/4, then 1/2, then 1/4")
    return out
