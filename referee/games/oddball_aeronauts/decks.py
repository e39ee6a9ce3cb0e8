"""Decks: the core deck of a faction and the Deck Crafting rules A-E.

A deck list is the list of card ids a player brings (faction cards and mercenaries, copies
repeated; Events are dealt by the game at Make Ready and never listed). It is checked
against the core deck of its faction plus one mercenary:

A. start from the faction's core deck (every card with the Core Card Tag);
B. apart from Mercenaries, only cards of that faction may be added;
C. adding a card removes one or more of the same Type (Crew: of the same Class);
D. the Levels added and removed in each such group are equal;
E. several copies of one card only if it has the Core Card Tag.

Make Ready adds one Mercenary; Mercenaries swap among themselves like Officers (rules C
and D: several Mercenaries must together match the Level of the one they replace).
"""

from __future__ import annotations

from collections import Counter

from .cards import CARDS, FACTIONS, Card


class DeckError(ValueError):
    """A deck list that breaks a Deck Crafting rule; ``rule`` is the letter (or 'format')."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(message)
        self.rule = rule


def core_deck(faction: str) -> list[str]:
    """The faction's core deck (26 cards, copies repeated)."""
    return list(FACTIONS[faction].core_deck)


def default_deck(faction: str) -> list[str]:
    """The first-games deck: the core deck plus the faction's default mercenary."""
    return core_deck(faction) + [FACTIONS[faction].default_mercenary]


def _group(card: Card) -> tuple[str, str]:
    """Cards swap within a group: Crew by Class, every other Type by Type alone."""
    return (card.type, card.cls if card.type == "crew" else "")


def _group_name(group: tuple[str, str]) -> str:
    kind, cls = group
    return f"Crew of Class {cls}" if kind == "crew" else kind.capitalize()


def _names(ids: Counter[str]) -> str:
    parts = []
    for cid, n in sorted(ids.items()):
        card = CARDS[cid]
        parts.append(f"{n} x {card.name} (Level {card.level})" if n > 1 else f"{card.name} (Level {card.level})")
    return ", ".join(parts)


def validate_deck(cards: object) -> str:
    """Check a deck list against rules A-E; return its faction or raise DeckError."""
    if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
        raise DeckError("format", "a deck list is a JSON list of card ids, e.g. [\"pendragon/royal-cannoneer\", ...]")
    unknown = [c for c in cards if c not in CARDS]
    if unknown:
        raise DeckError("format", f"unknown card id {unknown[0]!r}; card ids are listed in the game's data files")
    events = [c for c in cards if CARDS[c].is_event]
    if events:
        raise DeckError("format", f"{CARDS[events[0]].name} is an Event: Events are dealt at Make Ready, "
                                  "leave them out of the deck list")
    final = Counter(cards)
    faction_cards = [c for c in cards if CARDS[c].type != "mercenary"]
    factions = Counter(CARDS[c].faction for c in faction_cards)
    if not factions:
        raise DeckError("A", "rule A: a deck starts from a faction's core deck, but this list has no faction card")
    faction = factions.most_common(1)[0][0]
    if len(factions) > 1:
        stray = next(c for c in faction_cards if CARDS[c].faction != faction)
        raise DeckError("B", f"rule B: {CARDS[stray].name} is a {FACTIONS[CARDS[stray].faction].title} card; "
                             f"a {FACTIONS[faction].title} deck may add only {FACTIONS[faction].title} cards "
                             "and Mercenaries")
    for cid, n in sorted(final.items()):
        if n > 1 and not CARDS[cid].core:
            raise DeckError("E", f"rule E: {n} copies of {CARDS[cid].name}, which has no Core Card Tag; "
                                 "keep one copy")
    mercs = Counter({c: n for c, n in final.items() if CARDS[c].type == "mercenary"})
    if not mercs:
        raise DeckError("A", "Make Ready: each deck adds one Mercenary card; add one (e.g. "
                             f"{FACTIONS[faction].default_mercenary!r})")
    if sum(mercs.values()) > 1:
        total = sum(CARDS[c].level * n for c, n in mercs.items())
        if not any(m.type == "mercenary" and m.level == total and m.id not in mercs for m in CARDS.values()):
            raise DeckError("D", f"rule D: the Mercenaries {_names(mercs)} total Level {total}, which matches no "
                                 "single Mercenary they could replace; swap Mercenaries for equal Levels")
    base = Counter(core_deck(faction))
    faction_final = Counter({c: n for c, n in final.items() if CARDS[c].type != "mercenary"})
    added = faction_final - base
    removed = base - faction_final
    groups: dict[tuple[str, str], tuple[Counter[str], Counter[str]]] = {}
    for cid, n in added.items():
        groups.setdefault(_group(CARDS[cid]), (Counter(), Counter()))[0][cid] += n
    for cid, n in removed.items():
        groups.setdefault(_group(CARDS[cid]), (Counter(), Counter()))[1][cid] += n
    for group, (add, rem) in sorted(groups.items()):
        if add and not rem:
            other = [g for g, (a, r) in groups.items() if r and g[0] == group[0]]
            hint = (f" (you removed {_group_name(other[0])}, which {CARDS[next(iter(add))].name} cannot replace)"
                    if other else "")
            raise DeckError("C", f"rule C: adding {_names(add)} needs removing {_group_name(group)} cards "
                                 f"of the same total Level{hint}")
    for group, (add, rem) in sorted(groups.items()):
        got = sum(CARDS[c].level * n for c, n in add.items())
        gave = sum(CARDS[c].level * n for c, n in rem.items())
        if got != gave:
            what = f"added {_names(add)} (Level {got})" if add else "added nothing"
            raise DeckError("D", f"rule D: in {_group_name(group)} you {what} but removed {_names(rem)} "
                                 f"(Level {gave}); the Levels added and removed must match")
    return faction
