"""The designed card data keeps the RULINGS.md template, and covers every trick of the
glossary."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from referee.games.oddball_aeronauts.cards import (
    BOARDING,
    CARDS,
    DATA_DIR,
    EVENTS,
    FACTIONS,
    GUNS,
    MERCENARIES,
    SAILING,
    CardDataError,
    load,
)

FACTION_CARDS = [c for c in CARDS.values() if c.faction in FACTIONS]
PRIMARY = {"pendragon": (GUNS, BOARDING), "pirates": (SAILING, BOARDING)}


def test_counts_of_designed_cards() -> None:
    assert len(MERCENARIES) == 4 and len(EVENTS) == 6
    for name, faction in FACTIONS.items():
        assert len(faction.core_deck) == 26
        types = Counter(CARDS[c].type for c in faction.core_deck)
        assert types == {"captain": 1, "officer": 5, "crew": 14, "support": 5, "figurehead": 1}
        non_core = [c for c in faction.cards if not CARDS[c].core]
        assert len(non_core) >= 4, f"{name} needs a few non-core cards for Deck Crafting"
        assert all(CARDS[c].core for c in faction.core_deck)


def test_faction_skills() -> None:
    for name, (primary, secondary) in PRIMARY.items():
        faction = FACTIONS[name]
        assert (faction.primary, faction.secondary) == (primary, secondary)
        deck = [CARDS[c] for c in faction.core_deck]
        totals = [sum(c.levels[k] for c in deck) for k in range(3)]
        third = 3 - primary - secondary
        assert totals[primary] > totals[secondary] > totals[third], (name, totals)


@pytest.mark.parametrize("card", FACTION_CARDS, ids=lambda c: c.id)
def test_template(card: object) -> None:
    from referee.games.oddball_aeronauts.cards import Card
    assert isinstance(card, Card)
    trick = card.trick
    assert trick is not None
    levels, bonuses = card.levels, card.bonuses
    primary = FACTIONS[card.faction].primary
    if card.type == "captain":
        assert levels[primary] == 5 and sorted(levels) == [3, 3, 5]
        assert bonuses[primary] == 2 and sorted(bonuses) == [1, 1, 2]
        assert trick.magic
    elif card.type == "officer":
        assert 8 <= sum(levels) <= 10 and 4 <= sum(bonuses) <= 6
        assert trick.kind == "support"
    elif card.type == "crew":
        low, mid, high = sorted(levels)
        assert 4 <= high <= 5 and mid == 3 and 1 <= low <= 2
        assert 2 <= sum(bonuses) <= 4
        assert trick.kind in ("extra_bonus", "bonus_vs_skills", "defence_bonus", "bonus_vs_cards")
    elif card.type == "support":
        assert 4 <= sum(levels) <= 6 and 7 <= sum(bonuses) <= 9
        assert trick.kind in ("protect", "rig") or (trick.kind == "recover" and trick.when == "win")
    elif card.type == "figurehead":
        assert levels == (2, 2, 2) and bonuses == (2, 2, 2)
        assert trick.next_round
    else:  # pragma: no cover
        pytest.fail(f"unexpected type {card.type}")


def test_shadow_and_magic_per_core_deck() -> None:
    for faction in FACTIONS.values():
        deck = [CARDS[c] for c in faction.core_deck]
        shadows = sum(c.shadow for c in deck)
        magic = sum(bool(c.trick and c.trick.magic) for c in deck)
        assert 3 <= shadows <= 5 and magic == 3, (faction.name, shadows, magic)


def test_every_trick_of_the_glossary_is_on_a_card() -> None:
    tricks = [c.trick for c in CARDS.values() if c.trick is not None]
    kinds = {t.kind for t in tricks}
    glossary = {
        "Extra Bonus": "extra_bonus" in kinds,
        "Bonus Versus Skills": "bonus_vs_skills" in kinds,
        "Defence Bonus": "defence_bonus" in kinds,
        "Bonus Versus No. of Cards": "bonus_vs_cards" in kinds,
        "Rig": "rig" in kinds,
        "Capture": "capture" in kinds,
        "Protect": "protect" in kinds,
        "Win": any(t.when == "win" for t in tricks),
        "Win (skill)": any(t.when == "win" and t.when_skill >= 0 for t in tricks),
        "Lose": any(t.when == "lose" for t in tricks),
        "Lead": any(t.when == "lead" for t in tricks),
        "Opp.": any(t.kind.startswith("opp_") for t in tricks),
        "Next Round": any(t.next_round for t in tricks),
        "Support": "support" in kinds,
        "Play 0 Cards": "play_zero" in kinds,
        "Magic": any(t.magic for t in tricks),
        "Shadow": any(c.shadow for c in CARDS.values()),
        "Recover": "recover" in kinds,
    }
    missing = [name for name, present in glossary.items() if not present]
    assert not missing, f"no card carries: {missing}"
    # Each core deck (with its default Mercenary) shows most of them, including Magic and Next Round.
    for faction in FACTIONS.values():
        deck = [CARDS[c] for c in faction.core_deck + (faction.default_mercenary,)]
        own = {c.trick.kind for c in deck if c.trick}
        assert {"extra_bonus", "bonus_vs_skills", "defence_bonus", "bonus_vs_cards", "rig", "protect",
                "support", "recover"} <= own
        assert any(c.trick and c.trick.next_round for c in deck)


def test_next_round_tricks_have_top_right_notation_and_early_tricks_are_not_magic() -> None:
    for card in CARDS.values():
        trick = card.trick
        if trick is None:
            continue
        assert bool(trick.top_right) == trick.next_round, card.id
        if trick.kind in ("rig", "play_zero") or (trick.kind == "opp_limit" and not trick.next_round):
            assert not trick.magic, card.id


def test_printed_text_says_what_the_engine_does() -> None:
    for path in DATA_DIR.glob("*.json"):
        for entry in json.loads(path.read_text())["cards"]:
            printed = entry["trick"]["text"] if "trick" in entry else entry["text"]
            assert printed == CARDS[entry["id"]].text


def test_the_loader_refuses_broken_data(tmp_path: Path) -> None:
    for path in DATA_DIR.glob("*.json"):
        (tmp_path / path.name).write_text(path.read_text())
    pirates = json.loads((tmp_path / "pirates.json").read_text())
    pirates["cards"][0]["trick"]["text"] = "MAGIC - Win: take everything."
    (tmp_path / "pirates.json").write_text(json.dumps(pirates))
    with pytest.raises(CardDataError, match="does not say what it does"):
        load(tmp_path)
    pirates["cards"][0]["trick"] = {"kind": "rig", "positions": [1, 2], "magic": True}
    (tmp_path / "pirates.json").write_text(json.dumps(pirates))
    with pytest.raises(CardDataError, match="cannot be Magic"):
        load(tmp_path)
    pirates["cards"][0]["trick"] = {"kind": "extra_bonus", "amount": 2, "skills": ["guns"], "when": "win"}
    (tmp_path / "pirates.json").write_text(json.dumps(pirates))
    with pytest.raises(CardDataError, match="before the round is won or lost"):
        load(tmp_path)
    pirates["cards"][0]["trick"] = {"kind": "teleport"}
    (tmp_path / "pirates.json").write_text(json.dumps(pirates))
    with pytest.raises(CardDataError, match="kind is one of"):
        load(tmp_path)
