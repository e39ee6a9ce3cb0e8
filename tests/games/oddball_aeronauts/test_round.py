"""Scenario tests for the round: Make Ready, the Lead, Steps 2-5, Discard / Recover, the end."""

from __future__ import annotations

import pytest

from referee.games import IllegalAction
from referee.games.oddball_aeronauts import rules
from referee.games.oddball_aeronauts.cards import CARDS, EVENTS, FACTIONS

from .helpers import (
    BF,
    DH,
    ET,
    FLASH,
    GDC,
    HS,
    JACK,
    LO,
    MAR,
    RC,
    SB,
    SG,
    TR,
    WD,
    WINDS,
    announce,
    choose,
    down,
    game,
    last,
    legal,
    new,
    play,
    round_,
    up,
)

FILLER0 = [GDC, GDC, DH, DH]
FILLER1 = [SG, SG, BF, BF]


# ----- Make Ready and the first Lead ---------------------------------------------------------
def test_make_ready_deals_core_deck_mercenary_and_two_events_each() -> None:
    quiet = 0
    for seed in range(12):
        state = new(seed)
        dealt = []
        for seat, faction in enumerate(("pendragon", "pirates")):
            cards = up(state, seat) + down(state, seat) + [state.table.ids[u] for u, _ in state.held[seat]]
            events = [c for c in cards if CARDS[c].is_event]
            dealt += events
            others = sorted(c for c in cards if not CARDS[c].is_event)
            assert others == sorted(list(FACTIONS[faction].core_deck) + [FACTIONS[faction].default_mercenary])
            if not state.log:       # Step 1 moved no Event from one deck to the other
                assert len(events) == 2 and len(cards) == 29 and len(state.down[seat]) == 3
                quiet += seat
        box = [state.table.ids[u] for u in state.box]
        assert len(box) == 2 and sorted(dealt + box) == sorted(EVENTS)
    assert quiet > 0


def test_bottom_three_cards_start_face_down_and_unseen_by_their_owner() -> None:
    state = new(5)
    for seat in (0, 1):
        hand = state.observation(seat)["hand"]
        assert hand["down"][:3] == [None, None, None]   # Events Step 1 Discarded come after
        assert all(c is not None for c in hand["down"][3:]) and all(hand["up"])


def test_first_lead_is_a_seeded_coin_flip() -> None:
    leads = {new(s).lead for s in range(20)}
    assert leads == {0, 1}
    assert new(3).lead == new(3).lead
    assert new(3, first_lead="seat1").lead == 1
    assert new(3, first_lead="seat0").lead == 0


# ----- Step 2: announce, Lead first ----------------------------------------------------------
def test_the_lead_announces_first_and_the_other_sees_it() -> None:
    state = game([RC, HS, DH, *FILLER0], [TR, WD, LO, *FILLER1], lead=1)
    assert state.to_move() == (1,)
    assert legal(state, 1) == ["sailing", "guns", "boarding"]
    assert legal(state, 0) == []
    state.apply({1: "sailing"})
    assert state.to_move() == (0,)
    assert state.observation(0)["skills"] == [None, "sailing"]
    state.apply({0: "guns"})
    assert state.to_move() == (0, 1)
    assert state.observation(1)["skills"] == ["guns", "sailing"]



# ----- Step 3: card counts --------------------------------------------------------------------
def test_counts_are_chosen_by_both_seats_at_once() -> None:
    state = game([RC, HS, DH, *FILLER0], [TR, WD, LO, *FILLER1])
    announce(state, "guns", "sailing")
    assert state.to_move() == (0, 1)
    with pytest.raises(IllegalAction):
        state.apply({0: "play 1"})          # one seat alone cannot move
    assert state.plays == [None, None]
    # Neither observation shows a pending choice: there is none until both have chosen.
    assert state.observation(1)["counts"] == [None, None]


def test_the_top_card_is_always_played_and_only_the_top_three_can_be() -> None:
    state = game([RC, HS, DH, *FILLER0], [TR, WD, *[]])
    announce(state, "guns", "sailing")
    plays = [a for a in legal(state, 0) if " trick" not in a]
    assert plays == ["play 1", "play 1+2", "play 1+3", "play 1+2+3"]
    assert [a for a in legal(state, 1) if " trick" not in a] == ["play 1", "play 1+2"]
    assert "play 0" not in legal(state, 0)


def test_sequential_counts_ruling_shows_only_the_leads_count() -> None:
    state = game([RC, HS, DH, *FILLER0], [TR, WD, LO, *FILLER1], simultaneous_counts=False)
    announce(state, "guns", "sailing")
    assert state.to_move() == (0,)
    state.apply({0: "play 1+2"})
    assert state.to_move() == (1,)
    obs = state.observation(1)
    assert obs["counts"] == [2, None]
    assert "reveal" in obs and obs["reveal"] is None
    choose(state, 1, "play 1")
    assert last(state)["counts"] == [2, 1]


# ----- Discarding several cards: in the order of the owner's choice -----------------------------
def test_discarded_played_cards_go_down_in_the_order_their_owner_chooses() -> None:
    """Discard: "If you Discard multiple cards you can Discard them in the order of your
    choice", and Recover brings back the first Discarded card, so the order is a decision."""
    state = game([DH, GDC, RC, MAR], [TR, TR, TR, SG], lead=0)
    announce(state, "guns", "sailing")
    play(state, "play 1+2+3", "play 1+2+3 trick 1", settled=False)
    # Seat 1's three Topsail Riggers are copies of one card (and public): nothing to choose.
    assert state.to_move() == (0,) and state.observation(1)["phase"] == "discard"
    assert legal(state, 0) == ["discard 1,2,3", "discard 1,3,2", "discard 2,1,3", "discard 2,3,1",
                               "discard 3,1,2", "discard 3,2,1"]
    assert state.observation(1)["discarding"] == {"seat": 0, "cards": [DH, GDC, RC], "start": 0,  # Played: seen by both
                                                  "later": []}
    assert state.observation(1)["reveal"]["winner"] == 1
    state.apply({0: "discard 3,1,2"})
    assert down(state, 0) == [RC, DH, GDC] and state.rnd == 2
    assert up(state, 1) == [SG, TR, TR] and down(state, 1) == [TR]   # Sailing: two of its copies came back


def test_the_order_chosen_decides_what_a_later_recover_brings_back() -> None:
    state = game([DH, GDC, RC, SB, HS], [TR, WD, LO, SG, SG], lead=0)
    announce(state, "guns", "sailing")
    play(state, "play 1+2+3", "play 1", settled=False)      # Guns 3 + 1 + 2 = 6 against Sailing 5: won
    choose(state, 0, "discard 3,2,1")
    assert down(state, 0) == [RC, GDC, DH]
    round_(state, "guns", "sailing", "play 1+2 trick 1", "play 1")   # Shieldbearer: Win: Recover 1 card
    assert last(state)["winner"] == 0 and up(state, 0) == [RC], "the card Discarded first comes back first"


def test_a_guns_losers_extra_discards_are_ordered_by_the_loser_unseen_by_the_winner() -> None:
    state = game([RC, HS, DH, GDC, MAR], [TR, WD, LO, BF, SG], down1=[SG], lead=0)
    announce(state, "guns", "sailing")
    play(state, "play 1+2+3", "play 1", settled=False)      # Guns 8 against Sailing 5
    assert state.to_move() == (0,) and legal(state, 0)[0] == "discard 1,2,3"
    # Everyone sees which cards went down together, and so which orders are still to come.
    assert state.observation(1)["discarding"]["later"] == [[1, 2, 2]]
    assert state.observation(1)["reveal"]["discarded"] == [0, 2]
    state.apply({0: "discard 1,2,3"})
    # The loser's next two cards (Wind Dancer, Lookout) go down together: its choice.
    assert state.to_move() == (1,) and legal(state, 1) == ["discard 1,2", "discard 2,1"]
    assert state.observation(1)["discarding"] == {"seat": 1, "cards": [WD, LO], "start": 2, "later": []}
    assert state.observation(0)["discarding"] == {"seat": 1, "cards": [None, None], "start": 2, "later": []}
    state.apply({1: "discard 2,1"})
    assert down(state, 1) == [SG, TR, LO, WD]


def test_copies_the_opponent_has_not_seen_still_ask_so_asking_reveals_nothing() -> None:
    state = game([RC, HS, DH, GDC, MAR], [TR, BF, BF, WD, SG], lead=0)
    announce(state, "guns", "sailing")
    play(state, "play 1+2+3", "play 1", settled=False)
    state.apply({0: "discard 1,2,3"})
    assert state.to_move() == (1,) and legal(state, 1) == ["discard 1,2"]   # two Bilge Fiends: one order
    assert state.observation(0)["discarding"] == {"seat": 1, "cards": [None, None], "start": 1, "later": []}


# ----- Steps 4 and 5: totals and the Win Effects -----------------------------------------------
def test_guns_win_loser_discards_played_then_two_more() -> None:
    state = game([RC, HS, DH, GDC, GDC], [TR, WD, LO, BF, BF], down0=[MAR], down1=[SG])
    summary = round_(state, "guns", "sailing", "play 1+2+3", "play 1")
    # Guns 5 (Royal Cannoneer) + 2 (Shackleton's Guns bonus) + 1 (Deck Hand's) = 8 against Sailing 5.
    assert summary["totals"] == [8, 5] and summary["winner"] == 0
    assert up(state, 0) == [GDC, GDC] and down(state, 0) == [MAR, RC, HS, DH]
    assert up(state, 1) == [BF, BF] and down(state, 1) == [SG, TR, WD, LO]
    assert summary["discarded"] == [0, 2] and summary["recovered"] == [0, 0]
    assert state.lead == 0 and state.rnd == 2


def test_sailing_win_recovers_two_and_the_lead_passes_to_the_winner() -> None:
    state = game([RC, HS, DH, GDC], [TR, WD, LO, BF], down0=[MAR], down1=[SG, BF, WD])
    summary = round_(state, "guns", "sailing", "play 1", "play 1+2")
    assert summary["totals"] == [5, 6] and summary["winner"] == 1
    assert up(state, 1) == [LO, BF, SG, BF] and down(state, 1) == [WD, TR, WD]
    assert up(state, 0) == [HS, DH, GDC] and down(state, 0) == [MAR, RC]
    assert state.lead == 1


def test_boarding_win_recovers_one_and_the_loser_discards_one() -> None:
    state = game([MAR, ET, DH, GDC], [TR, WD, LO, BF], down0=[RC, RC], down1=[SG])
    summary = round_(state, "boarding", "sailing", "play 1+2", "play 1")
    assert summary["totals"] == [7, 5]   # Marine Boarding 5 + Elspeth's Boarding bonus 2
    assert up(state, 0) == [DH, GDC, RC] and down(state, 0) == [RC, MAR, ET]
    assert up(state, 1) == [LO, BF] and down(state, 1) == [SG, TR, WD]


def test_a_draw_discards_played_cards_and_keeps_the_lead() -> None:
    state = game([RC, HS, DH, GDC], [TR, WD, LO, BF], lead=1)
    summary = round_(state, "guns", "sailing", "play 1", "play 1")
    assert summary["totals"] == [5, 5] and summary["winner"] is None
    assert up(state, 0) == [HS, DH, GDC] and up(state, 1) == [WD, LO, BF]
    assert state.lead == 1


def test_draw_keeps_lead_ruling_can_pass_it() -> None:
    state = game([RC, HS, DH, GDC], [TR, WD, LO, BF], lead=1, draw_keeps_lead=False)
    round_(state, "guns", "sailing", "play 1", "play 1")
    assert state.lead == 0


def test_skill_bonus_of_another_skill_does_not_count_without_support() -> None:
    state = game([RC, MAR, DH, GDC], [TR, WD, LO, BF])
    summary = round_(state, "guns", "sailing", "play 1+2", "play 1")
    assert summary["totals"][0] == 5 + 1     # the Marine's Guns bonus (+1), not its Boarding (+2)


# ----- Recover and the end ----------------------------------------------------------------------
def test_recovering_an_event_discards_it_again_and_recovers_the_next_card() -> None:
    state = game([RC, HS, DH], [TR, WD, LO, BF], down1=[FLASH, SG, BF])
    summary = round_(state, "guns", "sailing", "play 1", "play 1+2")      # seat 1 wins with Sailing 6
    assert summary["recovered"] == [0, 2]
    assert up(state, 1) == [LO, BF, SG, BF]
    assert down(state, 1) == [TR, WD, FLASH]


def test_played_cards_are_discarded_before_the_winner_recovers() -> None:
    state = game([RC, HS, DH], [TR, WD, LO, BF])
    round_(state, "guns", "sailing", "play 1", "play 1+2")
    assert up(state, 1) == [LO, BF, TR, WD] and down(state, 1) == []


def test_nothing_is_recovered_when_only_events_are_face_down() -> None:
    state = game([RC, HS, DH], [TR, WD, LO, BF], down1=[FLASH, WINDS])
    assert rules.recover(state, 1, 2) == 0
    assert down(state, 1) == [FLASH, WINDS] and up(state, 1) == [TR, WD, LO, BF]


def test_a_player_with_no_face_up_cards_at_the_end_of_step_5_loses() -> None:
    state = game([RC], [TR, WD, LO, BF], lead=1)
    round_(state, "guns", "sailing", "play 1", "play 1+2")   # seat 1: Sailing 6 beats Guns 5
    result = state.result()
    assert result is not None and result.reason == "routed"
    assert result.ranks == (1, 0) and result.details["routed"] == 0
    assert state.to_move() == () and state.legal_actions(0) == [] and state.legal_actions(1) == []


def test_winning_with_your_last_cards_still_leaves_you_with_none() -> None:
    state = game([RC, HS], [TR, WD, LO, BF])
    summary = round_(state, "guns", "sailing", "play 1+2", "play 1")
    assert summary["winner"] == 0
    result = state.result()
    assert result is not None and result.reason == "routed" and result.ranks == (1, 0)


def test_both_players_out_is_a_draw() -> None:
    state = game([RC], [TR])
    round_(state, "guns", "guns", "play 1", "play 1")   # Guns 5 against 1: both Discard their only card
    result = state.result()
    assert result is not None and result.reason == "mutual-rout" and result.ranks == (0, 0)
    state = game([RC], [JACK])
    summary = round_(state, "guns", "guns", "play 1", "play 1")   # 5 against 5: a draw
    assert summary["winner"] is None
    result = state.result()
    assert result is not None and result.reason == "mutual-rout"


@pytest.mark.parametrize("ruling", [True, False])
def test_only_events_face_up_counts_as_no_cards(ruling: bool) -> None:
    state = game([RC, DH, DH, FLASH], [TR, WD, LO, BF, BF, BF], lead=1, events_only_is_out=ruling)
    assert not state.log                    # the Event is 4th: not in the top 3
    round_(state, "sailing", "sailing", "play 1+2+3", "play 1")   # 1 + 1 + 1 = 3 against 5
    assert state.is_over() is ruling
    if ruling:
        assert up(state, 0) == [FLASH]
        result = state.result()
        # Seat 1 Played 1 of its 6 cards and Recovered it (Sailing): 6 face up.
        assert result is not None and result.reason == "routed" and result.details["face_up"] == [0, 6]
    else:
        # Next round's Step 1 resolved the Event; with no card left, seat 0 can only show 0 fingers.
        assert up(state, 0) == [] and state.log[0]["event"] == FLASH
        announce(state, "sailing", "guns")
        assert legal(state, 0) == ["play 0"]
        play(state, "play 0", "play 1")
        result = state.result()
        assert result is not None and result.reason == "routed" and result.ranks == (1, 0)


def test_round_limit_ends_with_more_face_up_cards_winning() -> None:
    state = game([RC, HS, DH, GDC], [TR, WD, LO, BF], max_rounds=1)
    round_(state, "guns", "sailing", "play 1+2", "play 1")
    result = state.result()
    assert result is not None and result.reason == "round-limit"
    assert list(result.scores) == [2, 1] and result.ranks == (0, 1)
