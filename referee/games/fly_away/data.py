"""The card data, read once from the JSON files in ``data/`` into flat lookup tables.

The cards are designed to the template of RULINGS.md (no card list is published); the
files are the single source of truth and ``tests/games/fly_away/test_data.py`` checks
every template constraint. ``scoring_balanced.json`` is an optional second set of
scoring card values that deviates from the template on purpose (option ``scoring_data``;
README's design note). The engine only ever sees small integers: a bird card is its id,
a species is its index in SPECIES, a scoring card is its index in SCORING.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any, NamedTuple

from .geometry import SLOT_BY_NAME, SLOT_NAMES, mask_of, slots_of


def _load(name: str) -> Any:
    return json.loads(resources.files(__package__).joinpath("data", name).read_text(encoding="utf-8"))


class Bird(NamedTuple):
    id: int
    species: int            # index into SPECIES
    players: int | None     # player-count icon: the card is used only with at least this many players
    ability: str | None     # "swap", "flip", "double" or None


class ScoringCard(NamedTuple):
    id: str                 # e.g. "outside-3"
    kind: str               # its type, which is also its scoring area
    area: int               # wedge slots of the area, as a mask
    points: tuple[int, ...]  # points per card, by species index
    no_card_species: int
    no_card_points: int


_birds = _load("birds.json")
SPECIES: tuple[str, ...] = tuple(s["key"] for s in _birds["species"])
SPECIES_NAMES: tuple[str, ...] = tuple(s["name"] for s in _birds["species"])
SPECIES_INDEX: dict[str, int] = {key: i for i, key in enumerate(SPECIES)}

BIRDS: dict[int, Bird] = {
    c["id"]: Bird(c["id"], SPECIES_INDEX[c["species"]], c["players"], c["ability"]) for c in _birds["cards"]
}
MAX_BIRD = max(BIRDS)
# Flat tables indexed by card id (index 0 unused): the hot paths read these.
SPECIES_OF: tuple[int, ...] = tuple(BIRDS[i].species if i in BIRDS else -1 for i in range(MAX_BIRD + 1))
ABILITY_OF: tuple[str | None, ...] = tuple(BIRDS[i].ability if i in BIRDS else None for i in range(MAX_BIRD + 1))

_scoring = _load("scoring.json")
AREAS: dict[str, int] = {name: mask_of(SLOT_BY_NAME[s] for s in slots) for name, slots in _scoring["areas"].items()}
SCORING_TYPES: tuple[str, ...] = tuple(_scoring["areas"])
# The areas as the views show them (area -> slot names in slot order): built once because
# every observation carries them and they never change.
AREA_VIEW: dict[str, tuple[str, ...]] = {
    name: tuple(SLOT_NAMES[s] for s in slots_of(mask)) for name, mask in AREAS.items()
}


def scoring_card(card: dict[str, Any]) -> ScoringCard:
    """A scoring card from its JSON (the data files' format, also ``scoring_json``'s)."""
    points = card["points"]
    return ScoringCard(card["id"], card["area"], AREAS[card["area"]], tuple(points[s] for s in SPECIES),
                       SPECIES_INDEX[card["no_card"]["species"]], card["no_card"]["points"])


# The scoring card values, by the organiser's option ``scoring_data``: "template" is the
# RULINGS.md template (data/scoring.json), "balanced" a deliberate deviation from it that
# evens the four types out (data/scoring_balanced.json; README's design note). Both sets
# have the same 20 card ids, types and areas in the same order, so a card's index, its
# draw pile and its notation do not depend on the set: only points and bonuses do.
SCORING_SETS: dict[str, tuple[ScoringCard, ...]] = {
    "template": tuple(scoring_card(c) for c in _scoring["cards"]),
    "balanced": tuple(scoring_card(c) for c in _load("scoring_balanced.json")["cards"]),
}
SCORING: tuple[ScoringCard, ...] = SCORING_SETS["template"]
if any([(c.id, c.kind) for c in cards] != [(c.id, c.kind) for c in SCORING] for cards in SCORING_SETS.values()):
    raise ValueError("fly-away: every scoring set must list the template's card ids and types in order")
SCORING_INDEX: dict[str, int] = {c.id: i for i, c in enumerate(SCORING)}
# Scoring card indices of each type, in file order: the four draw piles.
SCORING_PILES: tuple[tuple[int, ...], ...] = tuple(
    tuple(i for i, c in enumerate(SCORING) if c.kind == kind) for kind in SCORING_TYPES
)
TYPE_OF: tuple[int, ...] = tuple(SCORING_TYPES.index(c.kind) for c in SCORING)
# (each species at least n times, points), best first: only the best one met scores.
SPECIES_BONUS: tuple[tuple[int, int], ...] = tuple(
    sorted(((b["each_at_least"], b["points"]) for b in _scoring["species_bonus"]), reverse=True)
)

PENALTIES: tuple[int, ...] = tuple(c["points"] for c in _load("penalties.json")["cards"])
# A late turn once the penalty pile is empty, by the option ``empty_penalty_pile`` (README
# ruling D2): the points it costs, None for no penalty card at all.
EMPTY_PILE_PENALTY: dict[str, int | None] = {"no-penalty": None, "minus-4": -4}


def deck_for(players: int) -> tuple[int, ...]:
    """The bird cards used with this many players: no icon, or an icon not above it."""
    return tuple(i for i, b in BIRDS.items() if b.players is None or b.players <= players)


def bird_json(card: int) -> dict[str, Any]:
    b = BIRDS[card]
    return {"id": card, "species": SPECIES[b.species], "ability": b.ability}


def scoring_json(index: int, table: tuple[ScoringCard, ...] = SCORING) -> dict[str, Any]:
    c = table[index]
    return {
        "id": c.id,
        "area": c.kind,
        "points": {s: p for s, p in zip(SPECIES, c.points)},
        "no_card": {"species": SPECIES[c.no_card_species], "points": c.no_card_points},
    }


# The JSON of every scoring card, per scoring set, by card index: built once because every
# observation shows the viewer's dealt cards (and kept cards once revealed).
SCORING_JSON: dict[str, tuple[dict[str, Any], ...]] = {
    name: tuple(scoring_json(i, cards) for i in range(len(cards))) for name, cards in SCORING_SETS.items()
}


def scoring_view(index: int, scoring_data: str) -> dict[str, Any]:
    """A scoring card's JSON under the set ``scoring_data``, copied from SCORING_JSON: a bot
    may mutate its observation, so no view may share a dict with the table or another view."""
    c = SCORING_JSON[scoring_data][index]
    return {"id": c["id"], "area": c["area"], "points": dict(c["points"]), "no_card": dict(c["no_card"])}
