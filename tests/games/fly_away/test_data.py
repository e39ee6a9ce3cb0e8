"""The designed card data keeps every constraint of the RULINGS.md template."""

from __future__ import annotations

import json
from collections import Counter
from importlib import resources

from referee.games.fly_away import data, geometry

SPECIES = ["swan", "flamingo", "goose", "crane", "pelican"]


def raw(name: str) -> dict:
    return json.loads(resources.files("referee.games.fly_away").joinpath("data", name).read_text())


def test_species_are_the_rulebook_five() -> None:
    assert list(data.SPECIES) == SPECIES
    assert data.SPECIES_NAMES[2] == "Greylag goose"


def test_65_birds_13_per_species_with_the_icon_and_ability_counts() -> None:
    cards = raw("birds.json")["cards"]
    assert len(cards) == 65
    assert len({c["id"] for c in cards}) == 65
    for species in SPECIES:
        mine = [c for c in cards if c["species"] == species]
        assert len(mine) == 13
        assert Counter(c["players"] for c in mine) == {None: 8, 3: 2, 4: 2, 5: 1}
        assert Counter(c["ability"] for c in mine) == {None: 8, "swap": 2, "flip": 2, "double": 1}


def test_the_deck_shrinks_with_fewer_players() -> None:
    assert [len(data.deck_for(n)) for n in (2, 3, 4, 5)] == [40, 50, 60, 65]
    assert all(data.BIRDS[c].players is None for c in data.deck_for(2))
    # Enough cards for every formation and a full first display.
    assert all(len(data.deck_for(n)) >= 12 * n for n in (2, 3, 4, 5))


def test_areas_follow_the_template_definitions() -> None:
    names = geometry.SLOT_NAMES
    inside = {geometry.SLOT_INDEX[c] for c in geometry.WEDGE}
    neighbours = {s: sum(1 for n in geometry.neighbours(geometry.WEDGE[s]) if geometry.SLOT_INDEX.get(n) in inside)
                  for s in range(12)}
    expected = {
        "outside": {names[s] for s in range(12) if neighbours[s] < 6},
        "center": {"M2", "M3", "B3"},
        "top": {"T1", "T2", "T3"},
        "bottom": {"B1", "B2", "B3", "B4", "B5"},
    }
    assert {k: set(v) for k, v in raw("scoring.json")["areas"].items()} == expected
    assert len(expected["outside"]) == 10


def test_20_scoring_cards_4_types_of_5_with_the_template_values() -> None:
    cards = raw("scoring.json")["cards"]
    assert len(cards) == 20
    assert Counter(c["area"] for c in cards) == {"outside": 5, "center": 5, "top": 5, "bottom": 5}
    for card in cards:
        values = sorted(card["points"].values())
        assert sorted(card["points"]) == sorted(SPECIES)
        assert values[1:] == [1, 2, 3, 4] and values[0] in (-2, -3), card["id"]
        assert card["no_card"]["species"] in SPECIES
        assert 4 <= card["no_card"]["points"] <= 7


def test_within_a_type_the_five_cards_rotate_species() -> None:
    cards = raw("scoring.json")["cards"]
    for kind in ("outside", "center", "top", "bottom"):
        mine = [c for c in cards if c["area"] == kind]
        first = mine[0]
        for k, card in enumerate(mine):
            shift = {SPECIES[(i + k) % 5]: first["points"][SPECIES[i]] for i in range(5)}
            assert card["points"] == shift, card["id"]
            assert card["no_card"]["points"] == first["no_card"]["points"]
            assert SPECIES.index(card["no_card"]["species"]) == (SPECIES.index(first["no_card"]["species"]) + k) % 5
        # Each species is the +4, the negative and the "no card" species exactly once.
        for value in (4, min(first["points"].values())):
            assert sorted(next(s for s, p in c["points"].items() if p == value) for c in mine) == sorted(SPECIES)
        assert sorted(c["no_card"]["species"] for c in mine) == sorted(SPECIES)


def test_11_penalty_cards() -> None:
    assert Counter(data.PENALTIES) == {-2: 4, -3: 4, -4: 3}


def test_species_bonus_10_for_one_of_each_20_for_two() -> None:
    assert data.SPECIES_BONUS == ((2, 20), (1, 10))


def test_the_balanced_set_changes_only_values_and_keeps_the_rotation() -> None:
    """scoring_balanced.json deviates from the template's values on purpose (README), and
    from nothing else: same ids, types and order, each type still rotates its pattern."""
    template, balanced = raw("scoring.json")["cards"], raw("scoring_balanced.json")["cards"]
    assert [(c["id"], c["area"]) for c in balanced] == [(c["id"], c["area"]) for c in template]
    for kind in ("outside", "center", "top", "bottom"):
        mine = [c for c in balanced if c["area"] == kind]
        first = mine[0]
        for k, card in enumerate(mine):
            assert card["points"] == {SPECIES[(i + k) % 5]: first["points"][SPECIES[i]] for i in range(5)}
            assert card["no_card"]["points"] == first["no_card"]["points"]
            assert SPECIES.index(card["no_card"]["species"]) == (SPECIES.index(first["no_card"]["species"]) + k) % 5
    changed = {c["area"] for t, c in zip(template, balanced) if t != c}
    assert changed == {"outside", "bottom"}
    assert data.SCORING_SETS["template"] == data.SCORING
    assert [c.points for c in data.SCORING_SETS["balanced"]] == [
        tuple(c["points"][s] for s in SPECIES) for c in balanced]
