"""The Aerodrome: prerequisites, ribbons, flipping and returning, every token's bonus,
pre-campaign trades, trade-ins and the tiebreaker."""

from __future__ import annotations

from typing import Any

import pytest

from referee.games import IllegalAction
from referee.games.skybirds.data import AERODROME, INDEX, trade_in_cost

from .helpers import game, legal, play, reserve, skip_pre_campaign, turn


# ----- the table -------------------------------------------------------------------------
def test_the_aerodrome_table_is_the_rulings_table() -> None:
    rows = {t.name: (t.ribbon, t.needs, t.needs_all, t.vp_front, t.vp_back, t.kind) for t in AERODROME}
    assert rows == {
        "A1": ((1, 2, 3), (), False, 2, 1, "dogfight"),
        "A2": ((1, 2, 3), (), False, 2, 1, "pre-campaign"),
        "A3": ((1, 2, 3), (), False, 2, 1, "dogfight"),
        "B1": ((1, 2), ("A1", "A2"), False, 3, 2, "dogfight"),
        "B2": ((1, 2), ("A2", "A3"), False, 3, 2, "dogfight"),
        "C1": ((1, 2), ("B1",), False, 3, 2, "dogfight"),
        "C2": ((1, 2), ("B1", "B2"), False, 3, 3, "tiebreaker"),
        "C3": ((1, 2), ("B2",), False, 3, 2, "pre-campaign"),
        "D1": ((1,), ("C1",), False, 4, 3, "dogfight"),
        "D2": ((1,), ("C3",), False, 4, 3, "dogfight"),
        "AR": ((1,), ("D1", "D2"), True, 5, 5, "armistice"),
    }
    assert [trade_in_cost(t) for t in AERODROME] == [2, 2, 2, 3, 3, 3, 3, 3, 4, 4, 4]


def first_place_options(aerodrome: dict[str, Any], **options: Any) -> list[str]:
    """What a seat with this Aerodrome may take on finishing first (2 players)."""
    state = skip_pre_campaign(game([[0, 1], [2]], aerodromes=[aerodrome], **options))
    play(state, "G 1")
    return legal(state) if state.phase == 5 else []


# ----- prerequisites and ribbons -----------------------------------------------------------
def test_the_first_token_is_a_starting_token_example() -> None:
    assert first_place_options({}) == ["take A1", "take A2", "take A3", "take +1"]


def test_after_the_middle_starting_token_both_b_tokens_open_example() -> None:
    assert first_place_options({"A2": "up"}) == ["take A1", "take A3", "take B1", "take B2", "take +1"]


def test_one_of_two_prerequisites_is_enough_example() -> None:
    """C2 has two arrows: either B token opens it (1st or 2nd place)."""
    assert "take C2" in first_place_options({"A3": "up", "B2": "flipped"})
    assert "take C3" in first_place_options({"B2": "up"})
    assert "take C1" not in first_place_options({"B2": "up"})
    assert not any(o.startswith("take C") for o in first_place_options({"A1": "up", "A2": "up"}))


def test_only_the_immediate_prerequisite_counts_example() -> None:
    """Once B is held, A may be used up (returned to the mat) and C can still be taken."""
    assert "take C1" in first_place_options({"B1": "up"})
    state = game([[0, 1, 5], [6, 2]], aerodromes=[{"A1": "flipped", "B1": "up"}])
    play(state, "G", "5 A1")  # the second use of A1 returns it to the Aerodrome
    assert reserve(state, 0) == {"B1": "up"}
    play(state, "pass", "1")
    assert "take C1" in legal(state) and "take A1" in legal(state)


def test_a_returned_prerequisite_blocks_the_next_token_example() -> None:
    """Using B twice puts it back on the mat: C needs B re-earned first."""
    state = game([[0, 1, 5, 5], [5, 5, 2]], aerodromes=[{"A1": "up", "B1": "flipped"}])
    play(state, "G 1", "5 5")
    assert "5 5 B1" in legal(state)
    play(state, "5 5 B1")  # second use: B1 goes back to the mat; seat 0 is out first
    assert reserve(state, 0) == {"A1": "up"}
    assert legal(state) == ["take A2", "take A3", "take B1", "take +1"], "no C1 without B1"


def test_first_use_flips_second_use_returns_and_vp_follow() -> None:
    state = game([[0, 1, 5, 5, 3], [5, 5, 2, 7]], aerodromes=[{"A1": "up", "B1": "up"}])
    assert state.observation(0)["aerodromes"][0]["vp"] == 5  # A1 2 + B1 3
    play(state, "G 1", "5 5", "5 5 B1")
    assert reserve(state, 0) == {"A1": "up", "B1": "flipped"}
    assert state.observation(1)["aerodromes"][0]["vp"] == 4  # B1's back is worth 2
    assert state.tokens[0][INDEX["B1"]] == 2


def test_the_armistice_needs_both_prerequisites_and_first_place() -> None:
    assert "take AR" not in first_place_options({"D1": "up"})
    assert "take AR" in first_place_options({"D1": "up", "D2": "flipped"})
    assert "take AR" in first_place_options({"D1": "up"}, short_war=True), "the optional shorter war"
    state = game([[0, 1], [2]], aerodromes=[{}, {"D1": "up", "D2": "up", "C1": "up"}])
    play(state, "G 1", "take A1")
    assert legal(state) == ["take A1", "take A2", "take A3", "take +1"], "2nd place: no 1-only token"


def test_ribbons_second_place_cannot_take_first_only_tokens() -> None:
    state = game([[0, 1], [2]], aerodromes=[{}, {"C1": "up", "C3": "up"}])
    play(state, "G 1", "take A1")
    assert "take D1" not in legal(state) and "take D2" not in legal(state)


def test_tokens_on_the_mat_give_no_bonus() -> None:
    state = game([[0, 1, 5, 5], [5, 5, 2]])
    play(state, "G 1", "5 5")
    assert legal(state) == ["pass"]


# ----- dogfight tokens -----------------------------------------------------------------------
def test_a1_a_card_with_a_token_medallion_flies_alone() -> None:
    state = game([[0, 1, 1, 1, 8], [5, 2, 2, 2]], aerodromes=[{}, {"A1": "up"}])
    play(state, "G", "1 1 1")
    assert set(legal(state)) == {"pass", "2 2 2", "2 A1", "5 A1", "2 2 2 A1"}
    play(state, "5 A1")
    dogfight = state.observation(0)["dogfight"]
    assert dogfight["to_beat"]["medallions"] == 1 and dogfight["size"] == 3
    assert legal(state) == ["pass"], "an 8 has no medallion"
    assert reserve(state, 1) == {"A1": "flipped"}


def test_d1_two_medallions_beat_the_red_baron() -> None:
    state = game([[0, 1, 10], [3, 4]], aerodromes=[{}, {"D1": "up"}])
    play(state, "G", "10")
    assert legal(state) == ["pass", "3 D1", "4 D1"]
    play(state, "3 D1")
    assert state.observation(0)["dogfight"]["to_beat"] == {"seat": 1, "action": "3 D1", "size": 1, "value": 3,
                                                            "medallions": 2}


def test_a3_one_card_is_wild_and_its_value_declared() -> None:
    state = game([[0, 1, 4, 4, 4], [5, 5, 2, 7, 8]], aerodromes=[{}, {"A3": "up"}])
    play(state, "G", "4 4 4")
    options = legal(state)
    assert "5 5 * A3 =5" in options and "* * A3 =5" not in options
    assert all("B2" not in o for o in options)
    play(state, "5 5 * A3 =5")
    assert state.phase == 4 and turn(state) == 1
    assert state.observation(0)["pending"] == "5 5 * A3 =5"
    assert legal(state) == ["wild 2", "wild 7", "wild 8"], "any card that is not already a 5"
    play(state, "wild 7")
    assert state.hands[1][7] == 0 and state.hands[1][5] == 0 and state.sizes[1] == 2
    record = state.observation(0)["dogfight"]["to_beat"]
    assert record == {"seat": 1, "action": "5 5 *7 A3 =5", "size": 3, "value": 5, "medallions": 0}


def test_a3_a_single_wild_card_may_be_any_value() -> None:
    state = game([[0, 1, 9], [2, 3]], aerodromes=[{}, {"A3": "up"}])
    play(state, "G", "1")
    options = legal(state)
    assert "* A3 =10" in options and "* A3 =1" not in options
    play(state, "* A3 =10")
    assert legal(state) == ["wild 2", "wild 3"]
    play(state, "wild 2")
    assert legal(state) == ["pass", "9"], "a declared 10 has no medallion: the 9 beats it"


def test_a_wild_card_brings_no_medallion() -> None:
    """Ruling: a wild card counts only as its declared value: the Red Baron played as a 6
    loses his medallion, and no card declared 9 or 10 gains one."""
    state = game([[0, 1, 1, 2], [6, 10, 3]], aerodromes=[{}, {"A3": "up"}])
    play(state, "G", "1 1")
    assert "6 * A3 =6" in legal(state)
    play(state, "6 * A3 =6")
    assert legal(state) == ["wild 3", "wild 10"]
    play(state, "wild 10")
    assert state.observation(0)["dogfight"]["to_beat"] == {"seat": 1, "action": "6 *10 A3 =6", "size": 2, "value": 6,
                                                            "medallions": 0}


def test_d2_two_cards_are_wild() -> None:
    state = game([[0, 1, 1, 2], [3, 4, 5]], aerodromes=[{}, {"D2": "up"}])
    play(state, "G", "1 1")
    assert "* * D2 =10" in legal(state) and "3 * D2 =3" in legal(state)
    play(state, "* * D2 =10")
    assert legal(state) == ["wild 3 4", "wild 3 5", "wild 4 5"]
    play(state, "wild 3 5")
    assert state.hands[1][4] == 1 and state.sizes[1] == 1


def test_a3_and_d2_together_make_three_wild_cards() -> None:
    state = game([[0, 1, 1, 1, 2], [3, 4, 5, 6]], aerodromes=[{}, {"A3": "up", "D2": "up"}])
    play(state, "G", "1 1 1")
    options = legal(state)
    assert "* * * A3 D2 =8" in options and "3 * * A3 D2 =3" not in options, "two wilds need D2 only"
    assert "3 * * D2 =3" in options and "3 * A3 =3" not in options  # size 3: two wild cards with a natural 3


def test_b1_may_equal_the_previous_value() -> None:
    state = game([[0, 1, 5, 5, 2], [5, 5, 2, 7]], aerodromes=[{}, {"B1": "up"}])
    play(state, "G", "5 5")
    assert legal(state) == ["pass", "5 5 B1"], "B1 is only offered to equal"


def test_b2_a_run_counts_as_its_lowest_value_the_run_token_example() -> None:
    state = game([[0, 1, 2, 2, 2, 7], [3, 4, 5, 4, 4]], aerodromes=[{}, {"B2": "up"}])
    play(state, "G", "2 2 2")
    options = legal(state)
    assert "3 4 5 B2" in options, "three unmatched cards make a squadron of three 3s"
    play(state, "3 4 5 B2")
    to_beat = state.observation(0)["dogfight"]["to_beat"]
    assert to_beat["value"] == 3 and state.size == 3
    state2 = game([[0, 1, 4, 4, 4, 7], [3, 4, 5, 8]], aerodromes=[{}, {"B2": "up"}])
    play(state2, "G", "4 4 4")
    assert "3 4 5 B2" not in legal(state2), "a run of 3-4-5 counts as 3s: it does not beat 4s"


def test_b2_runs_of_two_and_a_wild_in_a_run() -> None:
    state = game([[0, 1, 1, 9], [6, 7, 3, 5, 8]], aerodromes=[{}, {"B2": "up", "A3": "up"}])
    play(state, "G", "1 1")
    options = legal(state)
    assert "6 7 B2" in options and "7 8 B2" in options
    assert "3 * 5 A3 B2 =3" not in options, "size 2: a run of three needs C1"
    play(state, "6 7 B2", "pass")
    assert turn(state) == 1 and "3" in legal(state)
    assert "3 * 5 A3 B2 =3" in legal(state) and "5 * 7 A3 B2 =5" not in legal(state)


def test_c1_one_card_more_or_fewer() -> None:
    state = game([[0, 1, 1, 1, 9], [2, 2, 2, 2, 6, 6]], aerodromes=[{}, {"C1": "up"}])
    play(state, "G", "1 1 1")
    options = legal(state)
    assert {"2 2 C1", "6 6 C1", "2 2 2", "2 2 2 2 C1"} <= set(options)
    assert "6 C1" not in options and "2 C1" not in options, "two fewer is not allowed"
    play(state, "6 6 C1")
    assert state.size == 3, "the dogfight keeps its size"


def test_garros_never_joins_a_run_but_joins_a_wild_squadron_at_its_declared_value() -> None:
    state = game([[0, 3, 4, 5, 8], [1, 2]], aerodromes=[{"B2": "up", "A3": "up"}])
    options = legal(state)
    assert not any("B2" in o for o in options)
    assert "G 8" in options and "G * A3 =8" in options, "the real 8, or another card as an 8"
    assert "G * A3 =7" in options and "G 3 * A3 =3" in options
    play(state, "G * A3 =7", "wild 3")
    assert state.observation(1)["dogfight"]["to_beat"] == {"seat": 0, "action": "G *3 A3 =7", "size": 2,
                                                            "value": 7, "medallions": 0}


def test_the_same_token_cannot_be_used_twice_in_a_turn() -> None:
    state = game([[0, 1, 5], [2]], aerodromes=[{"A1": "up"}])
    with pytest.raises(IllegalAction, match="listed twice"):
        state.apply({0: "G 5 A1 A1"})
    assert all(o.split().count("A1") <= 1 for o in legal(state))


# ----- pre-campaign tokens -----------------------------------------------------------------
def test_pre_campaign_tokens_in_order_from_the_garros_holder() -> None:
    state = game([[1, 2, 3], [0, 4, 5], [6, 7, 8]], aerodromes=[{"A2": "up"}, {}, {"A2": "up"}])
    assert state.observation(0)["phase"] == "pre-campaign"
    assert turn(state) == 2, "seat 1 has Garros and no token: seat 2 is next clockwise"
    assert legal(state) == ["pass", "A2>0", "A2>1"]
    play(state, "pass")
    assert turn(state) == 0
    play(state, "pass")
    assert turn(state) == 1 and state.phase == 3 and legal(state)[0] == "G"


def test_a2_trade_each_gives_a_card_and_garros_may_change_hands() -> None:
    state = game([[1, 2, 3], [0, 4, 5], [6, 7, 8]], aerodromes=[{}, {}, {"A2": "up"}])
    play(state, "A2>1")
    assert state.to_move() == (1, 2), "both seats choose their card at the same time"
    assert state.observation(0)["trade"] == {"token": "A2", "user": 2, "target": 1, "cards": 1}
    assert [str(a) for a in state.legal_actions(1)] == ["give G", "give 4", "give 5"]
    state.apply({1: "give G", 2: "give 6"})
    assert state.hands[2][0] == 1 and state.hands[1][6] == 1
    assert reserve(state, 2) == {"A2": "flipped"}
    assert state.observation(1)["known_cards"][2] == [0], "seat 1 knows where Garros went"
    assert state.observation(2)["known_cards"][1] == [6]
    assert state.observation(0)["known_cards"] == [[], [], []], "a bystander knows neither card"
    assert turn(state) == 2 and legal(state)[0] == "G", "whoever now holds Garros leads"


def test_a_pre_campaign_token_once_per_campaign_and_c3_trades_two_cards() -> None:
    state = game([[1, 2, 3], [0, 4, 5], [6, 7, 8]], aerodromes=[{}, {}, {"A2": "flipped", "C3": "up"}])
    play(state, "A2>0")
    state.apply({0: "give 1", 2: "give 8"})
    assert reserve(state, 2) == {"C3": "up"}, "second use: A2 back on the mat"
    assert legal(state) == ["pass", "C3>0", "C3>1"], "A2 is spent; C3 may still be used"
    play(state, "C3>1")
    assert [str(a) for a in state.legal_actions(1)] == ["give G 4", "give G 5", "give 4 5"]
    state.apply({1: "give 4 5", 2: "give 1 7"})
    assert state.sizes == [3, 3, 3] and state.hands[1][1] == 1 and state.hands[2][4] == 1
    assert state.phase == 3 and turn(state) == 1


# ----- trade-ins -----------------------------------------------------------------------------
def test_trading_in_plus_one_tokens_after_a_campaign() -> None:
    state = game([[0, 1], [2]], aerodromes=[{"plus1": 3}])
    play(state, "G 1", "take +1", "take A1")
    assert state.observation(0)["phase"] == "trade-in" and turn(state) == 0
    assert legal(state) == ["pass", "trade A1", "trade A2", "trade A3"]
    play(state, "trade A2")
    assert state.plus1[0] == 2 and reserve(state, 0) == {"A2": "up"}
    assert legal(state) == ["pass", "trade A1", "trade A3"], "a seat may trade in again"
    play(state, "pass")
    assert state.campaign == 2


@pytest.mark.parametrize(("held", "plus1", "expected"), [
    ({"A1": "up"}, 3, ["trade A2", "trade A3", "trade B1"]),
    ({"B1": "up"}, 3, ["trade A1", "trade A2", "trade A3", "trade C1", "trade C2"]),
    ({"C1": "up"}, 3, ["trade A1", "trade A2", "trade A3"]),
    ({"C1": "up"}, 4, ["trade A1", "trade A2", "trade A3", "trade D1"]),
    ({"D1": "up", "D2": "up"}, 8, ["trade A1", "trade A2", "trade A3"]),
])
def test_trade_in_costs_follow_the_ribbon_and_never_buy_the_armistice(held: dict[str, object], plus1: int,
                                                                      expected: list[str]) -> None:
    state = game([[0, 1], [2]], aerodromes=[{**held, "plus1": plus1 - 1}])
    play(state, "G 1", "take +1", "take A1")
    assert legal(state) == ["pass"] + expected


def test_trading_for_the_tiebreaker_takes_a_fraction() -> None:
    state = game([[0, 1], [2]], aerodromes=[{"B2": "up", "plus1": 2}, {"fraction": "3/4"}])
    play(state, "G 1", "take +1", "take A1", "trade C2")
    assert state.frac[0] == 2 and state.observation(1)["fractions_left"] == [0.25]


# ----- the tiebreaker ------------------------------------------------------------------------
def test_tiebreakers_take_three_quarters_then_a_half_then_a_quarter() -> None:
    state = game([[0, 1], [2, 2], [3, 3]], aerodromes=[{"B1": "up"}, {"B2": "up"}, {"B1": "up"}],
                 next_deals=[[[4, 5], [0, 6], [7]]])
    play(state, "G 1", "take C2")
    assert state.frac == [3, 0, 0]
    play(state, "2 2", "take C2")
    assert state.frac == [3, 2, 0]
    assert reserve(state, 0)["C2"] == "up" and state.observation(0)["fractions_left"] == [0.25]
    assert state.observation(0)["aerodromes"][0]["vp"] == 3 + 3 + 0.75


def test_no_trade_ins_after_the_final_campaign() -> None:
    """Trade-ins come "prior to the start of a Campaign": after the last one there is none."""
    state = game([[0, 1], [2]], aerodromes=[{"plus1": 3}], campaign_limit=1)
    play(state, "G 1", "take +1", "take A1")
    result = state.result()
    assert result is not None and result.reason == "campaign-limit" and state.plus1[0] == 4


def test_c3_is_offered_only_against_a_seat_that_holds_two_cards_to_trade() -> None:
    state = game([[0, 4, 5], [2], [6, 7, 8]], aerodromes=[{"C3": "up"}])
    assert legal(state) == ["pass", "C3>2"], "seat 1 holds one card: it cannot hand over two"
    short = game([[0], [2, 3], [6, 7, 8]], aerodromes=[{"C3": "up"}])
    assert short.phase == 3, "with one card seat 0 cannot trade two: no pre-campaign decision"
