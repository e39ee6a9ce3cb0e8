"""Deck Crafting rules A-E, the rulebook's examples, and crafted decks in play."""

from __future__ import annotations

from collections import Counter

import pytest

from referee.games import OptionError, make
from referee.games.oddball_aeronauts.cards import CARDS
from referee.games.oddball_aeronauts.decks import DeckError, core_deck, default_deck, validate_deck

from .helpers import BRUISER, HEXER, HORDE, JACK, MASTER, QUILL, RC, TR, TUCK, ZEPHYR, new

PA = "pendragon/percival-ashby"
IB = "pendragon/ida-blythe"
MAR = "pendragon/pendragon-marine"
BF = "pirates/bilge-fiend"
GALAHAD = "pendragon/galahad-stormwing"
GV = "pendragon/gwendolyn-vane"


def swap(faction: str, add: list[str], remove: list[str], merc: str | None = None) -> list[str]:
    deck = default_deck(faction)
    for card in remove:
        deck.remove(card)
    deck.extend(add)
    if merc is not None:
        deck = [c for c in deck if CARDS[c].type != "mercenary"] + [merc]
    return deck


def test_default_decks_are_legal() -> None:
    for faction in ("pendragon", "pirates"):
        assert validate_deck(default_deck(faction)) == faction
        assert len(core_deck(faction)) == 26


def test_example_a_level_2_crew_cannoneer_for_two_level_1_cannoneers() -> None:
    assert validate_deck(swap("pendragon", [MASTER], [RC, RC])) == "pendragon"


def test_example_a_level_4_crew_fiends_for_one_level_2_and_two_level_1_fiends() -> None:
    assert validate_deck(swap("pirates", [HORDE], [BRUISER, BF, BF])) == "pirates"
    with pytest.raises(DeckError, match="rule D") as info:
        validate_deck(swap("pirates", [HORDE], [BF, BF, BF]))     # Level 3 out, Level 4 in
    assert info.value.rule == "D"


def test_example_two_level_1_chivvier_officers_for_a_level_2_officer_of_any_class() -> None:
    assert validate_deck(swap("pendragon", [QUILL, PA], [IB])) == "pendragon"


def test_same_captain_level_swap() -> None:
    assert validate_deck(swap("pendragon", [GALAHAD], [GV])) == "pendragon"


def test_rule_a_a_deck_starts_from_a_faction() -> None:
    with pytest.raises(DeckError, match="rule A"):
        validate_deck([JACK])
    with pytest.raises(DeckError, match="Mercenary"):
        validate_deck(core_deck("pendragon"))


def test_rule_b_only_cards_of_the_faction_and_mercenaries() -> None:
    with pytest.raises(DeckError, match="rule B") as info:
        validate_deck(swap("pendragon", [TR], [RC]))
    assert "Topsail Rigger is a Pirates card" in str(info.value)


def test_rule_c_a_crew_replaces_only_crew_of_its_class() -> None:
    with pytest.raises(DeckError, match="rule C") as info:
        validate_deck(swap("pendragon", [MASTER], [MAR, MAR]))   # Boarders out, a Cannoneer in
    assert "Crew of Class Cannoneer" in str(info.value)
    with pytest.raises(DeckError, match="rule C"):
        validate_deck(swap("pendragon", [QUILL], [RC]))          # an Officer in for a Crew


def test_rule_d_levels_must_match() -> None:
    with pytest.raises(DeckError, match="rule D"):
        validate_deck(swap("pendragon", [MASTER], [RC]))          # Level 2 in, Level 1 out
    with pytest.raises(DeckError, match="rule D"):
        validate_deck(swap("pendragon", [], [RC]))                # removing without adding


def test_rule_e_several_copies_only_of_core_cards() -> None:
    with pytest.raises(DeckError, match="rule E"):
        validate_deck(swap("pendragon", [MASTER, MASTER], [RC, RC, RC, "pendragon/gun-deck-crew"]))
    # A core card may be added in another copy (rule E allows copies of core cards).
    assert validate_deck(swap("pendragon", [PA, QUILL], [IB]))


def test_mercenaries_swap_for_equal_levels() -> None:
    two_level_1 = [c for c in default_deck("pendragon") if c != JACK] + [TUCK, HEXER]
    assert validate_deck(two_level_1) == "pendragon"             # together Level 2, like Iron Jack
    with pytest.raises(DeckError, match="rule D"):
        validate_deck([c for c in default_deck("pendragon") if c != JACK] + [TUCK, HEXER, ZEPHYR])


def test_events_and_unknown_cards_are_refused() -> None:
    with pytest.raises(DeckError, match="Events are dealt"):
        validate_deck(default_deck("pendragon") + ["event/flash-storm"])
    with pytest.raises(DeckError, match="unknown card"):
        validate_deck(default_deck("pendragon") + ["pendragon/dragon"])
    with pytest.raises(DeckError, match="JSON list"):
        validate_deck("pendragon")


def test_a_crafted_deck_is_what_the_seat_plays() -> None:
    deck = swap("pirates", [HORDE], [BRUISER, BF, BF], merc=TUCK)
    state = new(4, decks=[None, deck])
    cards = [state.table.ids[u] for u in state.up[1] + state.down[1]] + \
        [state.table.ids[u] for u, _ in state.held[1]]
    mine = Counter(c for c in cards if not CARDS[c].is_event)
    if not state.log:
        assert mine == Counter(deck)
    assert mine[HORDE] == 1 and mine[BRUISER] == 0 and mine[TUCK] == 1
    assert state.table.factions == ("pendragon", "pirates")


def test_a_bad_deck_list_option_names_the_rule() -> None:
    with pytest.raises(OptionError, match="seat 1 .*rule C"):
        make("oddball-aeronauts", 2, options={"decks": [None, swap("pendragon", [MASTER], [MAR, MAR])]})
