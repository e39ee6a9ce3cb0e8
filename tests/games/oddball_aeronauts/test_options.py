"""Options: bad values and contradictions are refused with the fix in the message."""

from __future__ import annotations

import pytest

from referee.games import OptionError, make

from .helpers import RC, TR, game, new

GAME = "oddball-aeronauts"


@pytest.mark.parametrize(("options", "message"), [
    ({"factions": ["pendragon"]}, "one faction per seat"),
    ({"factions": ["pendragon", "vikings"]}, "one faction per seat"),
    ({"decks": "core"}, "one entry per seat"),
    ({"decks": [None, ["pirates/bilge-fiend"]]}, "seat 1 is not a legal deck: Make Ready"),
    ({"decks": [None, ["pirates/bilge-fiend", "mercenary/the-hexer"]]}, "seat 1 is not a legal deck: rule D"),
    ({"first_lead": "rps"}, "'first_lead' cannot be 'rps'"),
    ({"max_rounds": 0}, "'max_rounds' cannot be 0"),
    ({"defence_tie": "win"}, "'defence_tie'"),
    ({"simultaneous_counts": "sometimes"}, "simultaneous_counts"),
    ({"setup": []}, "must be an object"),
    ({"setup": {"seats": [{"up": [RC]}]}}, "list of two objects"),
    ({"setup": {"seats": [{"up": [RC]}, {"up": ["pirates/nobody"]}]}}, "unknown card id"),
    ({"setup": {"seats": [{"up": [RC]}, {"up": []}]}}, "at least one face-up card"),
    ({"setup": {"seats": [{"up": [RC, "event/flash-storm"]}, {"up": [TR, "event/flash-storm"]}]}}, "twice"),
    ({"setup": {"seats": [{"up": [RC]}, {"up": [TR]}], "lead": 2}}, "'lead' must be 0 or 1"),
    ({"setup": {"seats": [{"up": [RC]}, {"up": [TR]}], "deal": 1}}, "unknown key 'deal'"),
    ({"setup": {"seats": [{"up": [RC], "hand": []}, {"up": [TR]}]}}, "unknown key 'hand'"),
    ({"setup": {"seats": [{"up": [RC]}, {"up": [TR]}], "box": [RC]}}, "Event card ids"),
    ({"unknown": 1}, "unknown option"),
])
def test_bad_options(options: dict[str, object], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        make(GAME, 2, options=options)


def test_contradictory_options_name_the_fix() -> None:
    from referee.games.oddball_aeronauts.decks import default_deck
    with pytest.raises(OptionError, match=r"set factions\[0\] to 'pirates' or drop 'factions'"):
        make(GAME, 2, options={"factions": ["pendragon", "pirates"], "decks": [default_deck("pirates"), None]})
    with pytest.raises(OptionError, match="drop one of them"):
        make(GAME, 2, options={"decks": [default_deck("pendragon"), None],
                               "setup": {"seats": [{"up": [RC]}, {"up": [TR]}]}})
    with pytest.raises(OptionError, match="first_lead is 'seat0'; drop one"):
        make(GAME, 2, options={"first_lead": "seat0", "setup": {"seats": [{"up": [RC]}, {"up": [TR]}], "lead": 1}})


def test_players_other_than_two_are_refused() -> None:
    from referee.games import PlayerCountError
    with pytest.raises(PlayerCountError):
        make(GAME, 3)


def test_factions_option_seats_the_factions() -> None:
    state = make(GAME, 2, seed=1, options={"factions": ["pirates", "pendragon"]})
    assert state.observation(0)["factions"] == ["pirates", "pendragon"]
    assert all(c.startswith(("pirates/", "event/", "mercenary/")) for c in state.observation(0)["hand"]["up"])


def test_setup_defaults_box_and_lead() -> None:
    state = game([RC], [TR], lead=1)
    assert state.lead == 1 and len(state.box) == 6
    state = new(9, setup={"seats": [{"up": [RC]}, {"up": [TR]}]}, first_lead="seat1")
    assert state.lead == 1
