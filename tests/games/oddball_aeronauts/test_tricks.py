"""Every trick of the glossary, Magic and Shadow, and one trick per round."""

from __future__ import annotations

import pytest

from referee.games import IllegalAction

from .helpers import (
    BF,
    BRUISER,
    CL,
    DH,
    ET,
    GDC,
    GG,
    GH,
    GV,
    HEXER,
    HS,
    IB,
    JACK,
    KRAKEN,
    LION,
    LO,
    MAR,
    MOLLY,
    NF,
    PA,
    PM,
    RAT,
    RC,
    RIGGER,
    SA,
    SB,
    SG,
    SGT,
    TR,
    TUCK,
    VEX,
    WD,
    ZEPHYR,
    announce,
    choose,
    down,
    game,
    last,
    legal,
    play,
    round_,
    up,
)

PEND = [GDC, GDC, DH, DH]
PIR = [SG, SG, BF, BF]


# ----- bonuses --------------------------------------------------------------------------------
@pytest.mark.parametrize(("skill", "chosen", "total"), [
    ("boarding", "play 1 trick 1", 5 + 3),
    ("boarding", "play 1", 5),
    ("sailing", "play 1 trick 1", 1 + 3),
    ("guns", "play 1 trick 1", 3),          # Guns is not one of the Marine's two skills
])
def test_extra_bonus(skill: str, chosen: str, total: int) -> None:
    state = game([MAR, *PEND], [TR, *PIR])
    summary = round_(state, skill, "sailing", chosen, "play 1")
    assert summary["totals"][0] == total


@pytest.mark.parametrize(("opp_skill", "total"), [("sailing", 8), ("boarding", 8), ("guns", 5)])
def test_bonus_versus_skills(opp_skill: str, total: int) -> None:
    state = game([RC, *PEND], [TR, *PIR])
    summary = round_(state, "guns", opp_skill, "play 1 trick 1", "play 1")
    assert summary["totals"][0] == total


@pytest.mark.parametrize(("opp_play", "total"), [("play 1", 6), ("play 1+2", 4)])
def test_bonus_versus_number_of_cards(opp_play: str, total: int) -> None:
    state = game([GDC, *PEND], [TR, *PIR])
    summary = round_(state, "guns", "sailing", "play 1 trick 1", opp_play)
    assert summary["totals"][0] == total


@pytest.mark.parametrize(("opp_play", "ruling", "winner", "totals"), [
    ("play 1+2", "draw", None, [7, 6]),            # lost 4 to 6: +3 passes it: a draw
    ("play 1+2+3", "draw", None, [7, 7]),          # lost 4 to 7: +3 levels it: a draw (ruling)
    ("play 1+2+3", "lose", 1, [7, 7]),             # ... unless the ruling says levelling is not enough
    ("play 1 trick 1", "draw", 1, [7, 8]),         # lost 4 to 8: +3 is not enough
])
def test_defence_bonus(opp_play: str, ruling: str, winner: int | None, totals: list[int]) -> None:
    state = game([PM, *PEND], [TR, WD, LO, *PIR], defence_tie=ruling)
    summary = round_(state, "guns", "sailing", "play 1 trick 1", opp_play)
    assert summary["totals"] == totals and summary["winner"] == winner and summary["defence"] == 0


def test_defence_bonus_needs_the_printed_skills() -> None:
    state = game([PM, *PEND], [SG, *PIR])
    summary = round_(state, "guns", "guns", "play 1 trick 1", "play 1+2")    # Guns against Guns: no Defence
    assert summary["totals"] == [4, 5] and summary["winner"] == 1 and summary["defence"] is None


def test_support_lets_other_skill_bonuses_back_the_chosen_skill() -> None:
    state = game([HS, MAR, ET, *PEND], [TR, *PIR])
    summary = round_(state, "guns", "sailing", "play 1+2+3 trick 1", "play 1")
    # Guns supported by Guns and Boarding: 4 + max(1, 2) + max(2, 2).
    assert summary["totals"][0] == 8
    state = game([HS, MAR, ET, *PEND], [TR, *PIR])
    assert round_(state, "guns", "sailing", "play 1+2+3", "play 1")["totals"][0] == 4 + 1 + 2


def test_support_only_backs_its_first_named_skill() -> None:
    state = game([HS, MAR, ET, *PEND], [TR, *PIR])
    summary = round_(state, "boarding", "sailing", "play 1+2+3 trick 1", "play 1")
    assert summary["totals"][0] == 3 + 2 + 2


def test_lead_condition() -> None:
    state = game([SGT, *PEND], [BRUISER, *PIR], lead=0)
    announce(state, "boarding", "boarding")
    assert "play 1 trick 1" in legal(state, 0)
    assert "play 1 trick 1" not in legal(state, 1)       # only the Lead may use a Lead trick
    play(state, "play 1 trick 1", "play 1")
    assert last(state)["totals"] == [5 + 3, 5]


def test_lead_condition_on_a_support_trick() -> None:
    for lead, expected in ((0, 3 + 4 + 2), (1, 3 + 2 + 1)):
        state = game([IB, CL, RC, DH], [TR, *PIR], lead=lead)
        announce(state, "boarding", "sailing")
        chosen = "play 1+2+3 trick 1" if lead == 0 else "play 1+2+3"
        play(state, chosen, "play 1")
        assert last(state)["totals"][0] == expected


# ----- Opp. ------------------------------------------------------------------------------------
def test_opp_discards_an_extra_card_on_a_guns_win() -> None:
    state = game([JACK, *PEND], [WD, LO, BF, BF, SG])
    summary = round_(state, "guns", "sailing", "play 1 trick 1", "play 1")
    assert summary["winner"] == 0 and summary["discarded"] == [0, 3]
    assert up(state, 1) == [SG]


def test_win_with_a_skill_symbol_needs_that_skill() -> None:
    state = game([JACK, *PEND], [TR, WD, LO, BF, BF])
    summary = round_(state, "boarding", "sailing", "play 1 trick 1", "play 1")   # Boarding 4 against 5: lost
    assert summary["winner"] == 1 and summary["discarded"] == [0, 0]
    state = game([JACK, *PEND], [BF, WD, LO, BF, BF])
    summary = round_(state, "boarding", "guns", "play 1 trick 1", "play 1")      # won, but with Boarding
    assert summary["winner"] == 0 and summary["discarded"] == [0, 1]


def test_a_count_limit_is_announced_at_the_start_of_step_3_after_both_skills() -> None:
    """Step 3: "If you have a Trick that limits how many cards may be Played this Round it
    must be announced at the start of this step": skills are announced plain, so the other
    seat chooses its skill before it hears the limit, and hears it before the counts."""
    state = game([ZEPHYR, GDC, GDC], [SG, SG, SG, SG])
    assert legal(state, 0) == ["sailing", "guns", "boarding"]
    state.apply({0: "sailing"})
    assert state.observation(1)["announced"] == [None, None] and legal(state, 1) == ["sailing", "guns", "boarding"]
    state.apply({1: "guns"})
    assert state.to_move() == (0, 1) and state.observation(0)["phase"] == "prepare"
    assert legal(state, 0) == ["ready", "limit"] and legal(state, 1) == ["ready"]
    assert state.observation(1)["limits"] == [None, None]
    state.apply({0: "limit", 1: "ready"})
    obs = state.observation(1)
    assert obs["phase"] == "play" and obs["limits"] == [3, 1]
    assert obs["announced"] == ["Lead: Opp. may Play only their Top Card this round.", None]
    assert legal(state, 1) == ["play 1", "play 1 trick 1"]


def test_opp_may_play_only_their_top_card_is_announced_before_the_counts() -> None:
    state = game([ZEPHYR, *PEND], [TR, WD, LO, *PIR])
    announce(state, "sailing", "sailing", "limit", "ready")
    assert state.observation(1)["announced"] == ["Lead: Opp. may Play only their Top Card this round.", None]
    assert state.limits == [3, 1]
    assert legal(state, 1) == ["play 1", "play 1 trick 1"]
    assert all("trick" not in a for a in legal(state, 0))     # the trick of the round is spent


def test_a_lead_limit_is_not_offered_to_the_other_seat() -> None:
    state = game([TR, *PIR], [ZEPHYR, *PEND], lead=0)
    announce(state, "sailing", "guns", None, None)
    assert legal(state, 1) == ["ready"]


def test_opp_penalty_magic_trick_on_a_played_card() -> None:
    state = game([RC, HEXER, DH, *PEND], [TR, *PIR])
    announce(state, "guns", "sailing")
    assert "play 1+2 trick 2" in legal(state, 0) and "play 1+3 trick 2" not in legal(state, 0)
    play(state, "play 1+2 trick 2", "play 1")
    assert last(state)["totals"] == [5 + 2, 5 - 2]


# ----- Win / Lose ---------------------------------------------------------------------------
def test_recover_on_win() -> None:
    state = game([SB, HS, RC, *PEND], [WD, *PIR], down0=[MAR])
    summary = round_(state, "guns", "sailing", "play 1+2+3 trick 1", "play 1")
    assert summary["totals"] == [2 + 2 + 2, 4] and summary["recovered"] == [1, 0]
    assert up(state, 0)[-1] == MAR
    state = game([SB, HS, RC, *PEND], [TR, *PIR], down0=[MAR])
    summary = round_(state, "guns", "sailing", "play 1 trick 1", "play 1")     # lost: no Recover
    assert summary["recovered"] == [0, 1]      # seat 1 Recovers its Played Topsail Rigger, all there is


def test_protect_asks_which_played_card_becomes_next_rounds_top_card() -> None:
    state = game([SA, RC, HS, DH], [TR, *PIR])
    announce(state, "sailing", "sailing")
    play(state, "play 1+2+3 trick 1", "play 1")
    assert state.to_move() == (0,) and state.observation(0)["phase"] == "protect"
    assert legal(state, 0) == ["protect 2", "protect 3"]     # never a card with a Protect trick
    assert state.observation(1)["reveal"]["played"][0] == [SA, RC, HS]
    choose(state, 0, "protect 3")
    assert up(state, 0) == [HS, DH] and down(state, 0) == [SA, RC]
    assert last(state)["protected"] == [HS, None]


def test_protect_with_one_candidate_needs_no_question_and_survives_a_guns_loss() -> None:
    state = game([SA, RC, HS, DH, GDC], [SG, *PIR])
    summary = round_(state, "guns", "guns", "play 1+2 trick 1", "play 1")     # Guns 1 + 2 against 4: lost
    assert summary["winner"] == 1 and summary["protected"] == [RC, None]
    assert up(state, 0) == [RC, GDC] and down(state, 0) == [SA, HS, DH]


def test_lose_protect_only_when_losing_and_never_a_protect_card() -> None:
    state = game([GH, RC, DH, *PEND], [TR, *PIR])
    summary = round_(state, "guns", "sailing", "play 1+2 trick 1", "play 1")    # 2 + 2 = 4 against 5: lost
    assert summary["protected"] == [RC, None]
    state = game([GH, RC, DH, *PEND], [WD, *PIR])
    summary = round_(state, "guns", "sailing", "play 1+2+3 trick 1", "play 1")  # 2 + 2 + 1 = 5 > 4: won
    assert summary["winner"] == 0 and summary["protected"] == [None, None]
    state = game([GH, SA, DH, *PEND], [TR, *PIR])
    summary = round_(state, "guns", "sailing", "play 1+2 trick 1", "play 1")
    assert summary["protected"] == [None, None]         # both Played cards carry a Protect trick


# ----- Capture ------------------------------------------------------------------------------
@pytest.mark.parametrize(("place", "expected"), [("top", [RC, LO, BF]), ("deck", [LO, BF, RC])])
def test_capture_takes_the_opponents_top_card_instead_of_the_win_effect(place: str, expected: list[str]) -> None:
    state = game([RC, HS, DH, GDC], [MOLLY, WD, LO, BF], down1=[SG], lead=1)
    announce(state, "sailing", "guns")
    play(state, "play 1", "play 1+2 trick 1")      # Guns 5 against Sailing 5 + 1
    assert state.to_move() == (1,) and legal(state, 1) == ["capture top", "capture deck"]
    choose(state, 1, f"capture {place}")
    assert up(state, 1) == expected                    # no Recover: the Win Effect is replaced
    assert down(state, 1) == [SG, MOLLY, WD]
    assert up(state, 0) == [HS, DH, GDC] and down(state, 0) == []
    assert last(state)["captured"] == {"seat": 1, "card": RC, "place": place}
    # The captured card changed decks in the open: everyone knows it is in seat 1's now.
    assert state.public_view()["decks"][1]["revealed"] == sorted([MOLLY, WD, RC])
    assert state.public_view()["decks"][0]["revealed"] == []


def test_capture_of_a_player_who_played_no_card_takes_its_top_card() -> None:
    state = game([TUCK, RC, DH], [MOLLY, WD, LO, BF], lead=1)
    announce(state, "sailing", "guns")
    play(state, "play 0", "play 1 trick 1")
    choose(state, 1, "capture deck")
    assert up(state, 0) == [RC, DH] and up(state, 1)[-1] == TUCK


def test_capture_with_a_skill_symbol_and_on_a_loss_does_nothing() -> None:
    from .helpers import GALAHAD
    state = game([GALAHAD, HS, DH, GDC], [TR, WD, LO, BF], down0=[SG])
    summary = round_(state, "sailing", "boarding", "play 1+2 trick 1", "play 1")   # won with Sailing, not Guns
    assert summary["winner"] == 0 and summary["captured"] is None and summary["recovered"] == [2, 0]


# ----- Next Round ---------------------------------------------------------------------------
def test_next_round_trick_comes_into_play_next_round_with_its_top_right_notation() -> None:
    state = game([GG, RC, HS, DH, GDC, GDC], [TR, WD, LO, *PIR])
    first = round_(state, "guns", "sailing", "play 1 trick 1", "play 1")
    assert first["totals"] == [2, 5]
    assert state.observation(1)["decks"][0]["next_round"] == [{"card": GG, "top_right": "NR +2"}]
    assert state.lead == 1
    second = round_(state, "guns", "sailing", "play 1", "play 1")
    assert second["totals"] == [5 + 2, 4]
    assert state.observation(0)["decks"][0]["next_round"] == []
    third = round_(state, "guns", "sailing", "play 1", "play 1")
    assert third["totals"][0] == 4                      # over: only the next round


def test_next_round_opponent_limit() -> None:
    state = game([RC, HS, DH, *PEND], [KRAKEN, WD, LO, *PIR], lead=1)
    round_(state, "guns", "sailing", "play 1+2", "play 1 trick 1")      # Guns 5 + 2 against Sailing 2: won
    assert state.observation(0)["decks"][1]["next_round"] == [{"card": KRAKEN, "top_right": "NR Opp 1 card"}]
    announce(state, "guns", "sailing")
    assert state.limits == [1, 3]
    assert [a for a in legal(state, 0) if "trick" not in a] == ["play 1"]


def test_next_round_support() -> None:
    state = game([LION, RC, HS, DH, MAR, ET], [TR, WD, LO, *PIR])
    round_(state, "guns", "sailing", "play 1 trick 1", "play 1")
    summary = round_(state, "guns", "sailing", "play 1+2+3", "play 1")
    # Next Round: Guns supported by all Skills: Royal Cannoneer 5 + Shackleton max(1,2,2) + Deck Hand max(1,1,1).
    assert summary["totals"][0] == 5 + 2 + 1
    state = game([LION, RC, DH, MAR, ET, GDC], [TR, WD, LO, *PIR])
    round_(state, "guns", "sailing", "play 1 trick 1", "play 1")
    summary = round_(state, "guns", "sailing", "play 1+2+3", "play 1")
    assert summary["totals"][0] == 5 + 1 + 2          # the Marine's Boarding +2 backs Guns


# ----- Rig: moving cards before Step 3 -------------------------------------------------------
def test_rig_cards_1_2_3_is_done_at_the_start_of_step_3() -> None:
    state = game([CL, DH, RC, GDC], [TR, *PIR])
    announce(state, "guns", "sailing", None, None)
    options = legal(state, 0)
    assert options == ["ready", "rig 1,3,2", "rig 2,1,3", "rig 2,3,1", "rig 3,1,2", "rig 3,2,1"]
    state.apply({0: "rig 3,1,2", 1: "ready"})
    assert up(state, 0) == [RC, CL, DH, GDC]
    assert state.observation(1)["announced"][0] == "Rig cards 1, 2 and 3."
    # One trick per round, and only the initial Top Card's: the new Top Card's trick is not offered.
    assert legal(state, 0) == ["play 1", "play 1+2", "play 1+3", "play 1+2+3"]
    play(state, "play 1", "play 1")
    assert last(state)["totals"] == [5, 5]
    assert last(state)["tricks"][0] == {"text": "Rig cards 1, 2 and 3.", "blocked": False}


def test_the_lead_may_rig_after_hearing_the_other_seats_skill() -> None:
    """Tricks That Move Cards: "All such Tricks must be carried out before Step 3", not with
    the Lead's own announcement: the Lead hears the other skill first, then Rigs."""
    state = game([CL, RC, MAR, GDC], [SG, *PIR], lead=0)
    assert legal(state, 0) == ["sailing", "guns", "boarding"]
    state.apply({0: "guns"})
    state.apply({1: "sailing"})
    assert "rig 2,1,3" in legal(state, 0)
    state.apply({0: "rig 2,1,3", 1: "ready"})
    assert up(state, 0) == [RC, CL, MAR, GDC] and state.observation(1)["announced"] == ["Rig cards 1, 2 and 3.", None]


def test_rig_cards_2_and_4_swaps_them() -> None:
    state = game([VEX, TR, WD, BF, LO], [RC, *PEND])
    announce(state, "sailing", "guns", None, None)
    assert legal(state, 0) == ["ready", "rig 4,2"]
    state.apply({0: "rig 4,2", 1: "ready"})
    assert up(state, 0) == [VEX, BF, WD, TR, LO]


def test_an_event_rigged_into_the_top_three_adds_nothing() -> None:
    from .helpers import FLASH
    state = game([VEX, TR, WD, FLASH, LO], [RC, *PEND])
    assert not state.log                                   # 4th: not in the top three at Step 1
    announce(state, "sailing", "guns", "rig 4,2", "ready")
    assert up(state, 0) == [VEX, FLASH, WD, TR, LO]
    play(state, "play 1+2", "play 1")
    assert last(state)["totals"] == [2, 5] and down(state, 0) == [VEX, FLASH, WD, TR]   # lost to Guns: 2 more


def test_rig_uses_only_positions_that_exist() -> None:
    state = game([CL, DH], [TR, *PIR])
    announce(state, "guns", "sailing", None, None)
    assert legal(state, 0) == ["ready", "rig 2,1"]
    with pytest.raises(IllegalAction):
        state.apply({0: "rig 3,1,2", 1: "ready"})


# ----- Play 0 cards -----------------------------------------------------------------------------
@pytest.mark.parametrize(("opp_skill", "discarded", "top"), [("sailing", 0, TUCK), ("guns", 2, DH),
                                                             ("boarding", 1, RC)])
def test_play_zero_cards(opp_skill: str, discarded: int, top: str) -> None:
    opp = {"sailing": TR, "guns": SG, "boarding": BF}[opp_skill]
    state = game([TUCK, RC, DH, GDC], [opp, *PIR], lead=1)
    announce(state, "guns", opp_skill)
    assert legal(state, 0)[-1] == "play 0"
    play(state, "play 0", "play 1")
    assert last(state)["totals"][0] == 0 and last(state)["counts"] == [0, 1]
    assert last(state)["discarded"] == [discarded, 0]
    assert up(state, 0)[0] == top


def test_play_zero_needs_the_trick() -> None:
    state = game([RC, DH], [TR, *PIR])
    announce(state, "guns", "sailing")
    assert "play 0" not in legal(state, 0)
    with pytest.raises(IllegalAction, match="not a legal action"):
        state.apply({0: "play 0", 1: "play 1"})


# ----- Magic and Shadow -------------------------------------------------------------------------
def test_a_magic_trick_on_card_2_or_3_must_be_played_with_it() -> None:
    state = game([TR, NF, BF, *PIR], [RC, *PEND])
    announce(state, "sailing", "guns")
    assert "play 1+2 trick 2" in legal(state, 0) and "play 1+2+3 trick 2" in legal(state, 0)
    with pytest.raises(IllegalAction, match="Magic trick is used only on a Played card"):
        state.apply({0: "play 1+3 trick 2", 1: "play 1"})
    play(state, "play 1+2+3 trick 2", "play 1")
    # Sailing supported by all Skills: 5 + max(2, 1, 2) + max(1, 0, 2).
    assert last(state)["totals"][0] == 9
    assert last(state)["tricks"][0] == {"text": "MAGIC - Sailing supported by all Skills.", "blocked": False,
                                       "card": NF}


def test_a_shadow_emblem_on_the_opponents_top_card_blocks_magic() -> None:
    state = game([GV, *PEND], [RAT, WD, LO, BF, BF])
    summary = round_(state, "guns", "sailing", "play 1 trick 1", "play 1")
    assert summary["tricks"][0]["blocked"] is True
    assert summary["winner"] == 0 and summary["discarded"] == [0, 2]   # no extra Discard
    state = game([GV, *PEND], [WD, LO, BF, BF, SG])
    summary = round_(state, "guns", "sailing", "play 1 trick 1", "play 1")
    assert summary["tricks"][0]["blocked"] is False and summary["discarded"] == [0, 3]


def test_a_blocked_magic_trick_leaves_no_trick_for_the_round() -> None:
    state = game([RC, PA, DH, *PEND], [RAT, *PIR])
    summary = round_(state, "guns", "sailing", "play 1+2 trick 2", "play 1")
    assert summary["totals"][0] == 5 + 2       # no Magic support, and not the Top Card's +3 either


def test_shadow_does_not_stop_a_trick_that_is_not_magic() -> None:
    state = game([RC, *PEND], [RIGGER, *PIR])
    summary = round_(state, "guns", "sailing", "play 1 trick 1", "play 1")
    assert summary["totals"][0] == 8


def test_magic_top_card_trick_blocked_by_shadow_keeps_its_win_effect() -> None:
    state = game([MOLLY, WD, LO, BF], [RIGGER, HS, DH], lead=1, down0=[SG])
    announce(state, "sailing", "sailing")
    play(state, "play 1+2 trick 1", "play 1")
    assert state.rnd == 2 and state.phase == 0          # no Capture question: next round already
    assert last(state)["captured"] is None and last(state)["recovered"][0] == 2


def test_one_trick_per_round_and_the_trick_used_is_announced_when_applied() -> None:
    state = game([RC, NF, *PEND], [TR, *PIR])
    announce(state, "guns", "sailing")
    tricks = [a for a in legal(state, 0) if "trick" in a]
    assert tricks == ["play 1 trick 1", "play 1+2 trick 1", "play 1+2 trick 2", "play 1+3 trick 1",
                      "play 1+2+3 trick 1", "play 1+2+3 trick 2"]
    assert all(a.count("trick") == 1 for a in tricks)
    assert down(state, 0) == []
