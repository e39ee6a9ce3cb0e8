"""Step 1: Events in the top three (both, two, one, chained, ties) and every Event's effect."""

from __future__ import annotations

from .helpers import (
    BARGAIN,
    BF,
    DH,
    FAVOUR,
    FLASH,
    GDC,
    HS,
    KRAKEN_EV,
    LO,
    MAR,
    RC,
    ROCKS,
    SG,
    TR,
    WD,
    WINDS,
    announce,
    down,
    game,
    legal,
    play,
    round_,
    up,
)


def test_one_event_is_resolved_flash_storm_makes_the_lowest_sailing_discard_two() -> None:
    state = game([RC, FLASH, HS, DH, GDC, GDC], [TR, WD, LO, BF])
    # Sailing on the Top Cards: Royal Cannoneer 1 + 0 against Topsail Rigger 5 + 2.
    assert state.log == ({"seat": 0, "event": FLASH, "compare": "sailing", "values": [1, 7], "result": "taken",
                          "taker": 0, "done": 2},)
    assert up(state, 0) == [DH, GDC, GDC]
    assert down(state, 0) == [RC, HS, FLASH]       # the used Event is Discarded by its taker
    assert up(state, 1) == [TR, WD, LO, BF]


def test_an_event_as_top_card_compares_the_card_below_it() -> None:
    state = game([FLASH, RC, HS, DH, GDC], [TR, WD, LO, BF])
    assert state.log[0]["values"] == [1, 7]
    assert up(state, 0) == [DH, GDC]


def test_both_players_with_events_discard_their_topmost_until_one_or_none_has() -> None:
    state = game([RC, FLASH, HS, DH], [TR, WD, WINDS, LO])
    assert [e["result"] for e in state.log] == ["discarded", "discarded"]
    assert all(e["why"] == "both" for e in state.log)
    assert down(state, 0) == [FLASH] and down(state, 1) == [WINDS]
    assert up(state, 0) == [RC, HS, DH] and up(state, 1) == [TR, WD, LO]


def test_after_both_discard_a_lone_event_left_is_resolved() -> None:
    state = game([FLASH, KRAKEN_EV, RC, HS, DH], [WINDS, TR, WD, LO, BF])
    assert [(e["event"], e["result"]) for e in state.log] == [
        (FLASH, "discarded"), (WINDS, "discarded"), (KRAKEN_EV, "taken")]
    # Sky Kraken: Guns on the Top Cards 5 + 2 against 1 + 0: seat 1 is lowest and Discards 1.
    assert state.log[2]["values"] == [7, 1] and state.log[2]["taker"] == 1
    assert up(state, 1) == [WD, LO, BF]
    assert down(state, 1) == [WINDS, TR, KRAKEN_EV]


def test_two_events_in_one_top_three_discard_the_top_one_then_resolve_the_other() -> None:
    state = game([FLASH, RC, WINDS, HS, DH], [TR, WD, LO, BF], down1=[SG, SG])
    assert [(e["event"], e["result"], e.get("why")) for e in state.log] == [
        (FLASH, "discarded", "two"), (WINDS, "taken", None)]
    # Trade Winds: highest Sailing (seat 1, 7 against 1) Recovers 2.
    assert state.log[1]["taker"] == 1 and state.log[1]["done"] == 2
    assert up(state, 1) == [TR, WD, LO, BF, SG, SG] and down(state, 1) == [WINDS]
    assert up(state, 0) == [RC, HS, DH] and down(state, 0) == [FLASH]


def test_an_event_that_appears_after_one_was_resolved_is_discarded() -> None:
    state = game([RC, HS, FLASH, DH, KRAKEN_EV, GDC], [TR, WD, LO, BF])
    assert [(e["event"], e["result"]) for e in state.log] == [(FLASH, "taken"), (KRAKEN_EV, "discarded")]
    assert state.log[1]["why"] == "chained"
    assert up(state, 0) == [DH, GDC]
    assert down(state, 0) == [RC, HS, FLASH, KRAKEN_EV]


def test_equal_totals_discard_the_event_with_no_effect() -> None:
    state = game([TR, FLASH, WD, LO], [TR, WD, LO, BF])
    assert state.log == ({"seat": 0, "event": FLASH, "compare": "sailing", "values": [7, 7], "result": "tie",
                          "taker": None},)
    assert up(state, 0) == [TR, WD, LO] and down(state, 0) == [FLASH]


def test_sky_kraken_makes_the_lowest_guns_discard_one() -> None:
    state = game([RC, HS, DH, GDC], [TR, KRAKEN_EV, WD, LO, BF])
    assert state.log[0]["taker"] == 1 and state.log[0]["done"] == 1
    assert up(state, 1) == [WD, LO, BF] and down(state, 1) == [TR, KRAKEN_EV]


def test_storm_gods_favour_is_held_for_this_round_then_discarded() -> None:
    state = game([MAR, FAVOUR, HS, DH, GDC], [TR, WD, LO, BF])
    # Boarding on the Top Cards: Marine 5 + 2 against Topsail Rigger 3 + 1: seat 0 takes it.
    assert state.log[0]["taker"] == 0
    obs = state.observation(1)
    assert obs["decks"][0]["held"] == [{"event": FAVOUR, "round": 1}]
    summary = round_(state, "guns", "sailing", "play 1", "play 1")
    assert summary["totals"] == [3 + 3, 5] and summary["winner"] == 0
    assert state.held == [(), ()]
    assert down(state, 0) == [MAR, FAVOUR]


def test_clashing_rocks_limits_the_lowest_boarding_to_its_top_card() -> None:
    state = game([RC, ROCKS, HS, DH, GDC], [BF, WD, LO, SG])
    assert state.log[0]["values"] == [4, 7] and state.log[0]["taker"] == 0
    announce(state, "guns", "boarding")
    assert state.limits == [1, 3]
    assert legal(state, 0) == ["play 1", "play 1 trick 1"]
    assert "play 1+2+3" in legal(state, 1)
    play(state, "play 1", "play 1")
    assert ROCKS in down(state, 0) and state.held == [(), ()]


def test_demons_bargain_gives_the_highest_guns_two_next_round() -> None:
    state = game([RC, BARGAIN, HS, DH, GDC, GDC], [TR, WD, LO, BF, BF])
    assert state.log[0]["taker"] == 0
    first = round_(state, "guns", "sailing", "play 1", "play 1")
    assert first["totals"] == [5, 5]                 # not this round
    assert state.observation(0)["decks"][0]["held"] == [{"event": BARGAIN, "round": 2}]
    second = round_(state, "guns", "sailing", "play 1", "play 1")
    assert second["totals"] == [4 + 2, 4]            # Shackleton's Guns 4 + 2 against Wind Dancer's Sailing 4
    assert state.held == [(), ()] and BARGAIN in down(state, 0)


def test_flash_storms_two_discards_go_down_in_the_order_their_owner_chooses() -> None:
    """Discard: "If you Discard multiple cards you can Discard them in the order of your
    choice". The storm's two cards go down before Step 2; their owner orders them, and the
    other seat, which never saw them, is told only that two cards go down."""
    state = game([RC, FLASH, HS, DH, GDC, GDC], [TR, WD, LO, BF], settled=False)
    assert state.to_move() == (0,) and state.observation(0)["phase"] == "discard"
    assert legal(state, 0) == ["discard 1,2", "discard 2,1"]
    assert state.observation(0)["discarding"] == {"seat": 0, "cards": [RC, HS], "start": 0, "later": []}
    assert state.observation(1)["discarding"] == {"seat": 0, "cards": [None, None], "start": 0, "later": []}
    state.apply({0: "discard 2,1"})
    assert down(state, 0) == [HS, RC, FLASH] and state.observation(0)["phase"] == "announce"
    assert state.to_move() == (state.lead,)
