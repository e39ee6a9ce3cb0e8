"""Dogfights: Roland Garros, squadron size and value, medallions, passing, going out."""

from __future__ import annotations

from .helpers import game, legal, play, reserve, turn


def test_garros_alone_wins_at_once_and_his_player_leads_again() -> None:
    state = game([[0, 2, 7], [3, 3, 8], [4, 4, 9]])
    play(state, "G")
    assert turn(state) == 0
    obs = state.observation(0)
    assert obs["dogfight"]["plays"] == [] and obs["dogfight"]["size"] == 0
    assert obs["previous_dogfight"] == [[0, "G"]]
    assert legal(state) == ["2", "7"], "a new dogfight of any size, and no pass for the leader"


def test_garros_alone_as_the_last_card_puts_his_player_out_and_the_next_seat_leads() -> None:
    """Played alone he wins the dogfight; with no card left his player is out (first place,
    takes its token) and the lead passes clockwise, as when any dogfight winner is out."""
    state = game([[0], [2, 3], [5, 6]])
    play(state, "G")
    assert state.observation(0)["finished"] == [0] and state.observation(0)["take_place"] == 1
    assert legal(state) == ["take A1", "take A2", "take A3", "take +1"]
    play(state, "take A1")
    assert turn(state) == 1 and legal(state) == ["2", "3"], "seat 1 leads a new dogfight"
    assert state.observation(1)["previous_dogfight"] == [[0, "G"]]


def test_garros_received_as_the_only_card_through_a_trade_puts_his_player_out() -> None:
    state = game([[0, 4, 5], [2], [6, 7, 8]], aerodromes=[{}, {"A2": "up"}])
    play(state, "A2>0")
    state.apply({0: "give G", 1: "give 2"})
    assert turn(state) == 1 and legal(state) == ["G"]
    play(state, "G", "take A1")
    assert state.observation(2)["finished"] == [1] and turn(state) == 2 and legal(state) == ["6", "7", "8"]


def test_garros_alone_as_the_last_card_taking_the_armistice_ends_the_war_at_once() -> None:
    """The dogfight the Armistice must finish is the one Garros already won."""
    state = game([[0], [2, 3], [5, 6]], aerodromes=[{"C1": "up", "C3": "up", "D1": "up", "D2": "up"}])
    play(state, "G", "take AR")
    result = state.result()
    assert result is not None and result.reason == "armistice" and result.details["finishing_order"][0] == 0


def test_garros_joins_a_squadron_at_its_value_rulebook_examples() -> None:
    state = game([[0, 1, 2, 2, 4, 5, 5], [3, 3, 6]])
    options = legal(state)
    # Garros + a single 4: size 2 value 4; Garros + a pair of 5s: size 3 value 5;
    # Garros + two 2s: size 3 value 2; Garros + a single 1: size 2 value 1.
    for example in ("G 4", "G 5 5", "G 2 2", "G 1"):
        assert example in options
    play(state, "G 2 2")
    dogfight = state.observation(1)["dogfight"]
    assert dogfight["size"] == 3
    assert dogfight["to_beat"] == {"seat": 0, "action": "G 2 2", "size": 3, "value": 2, "medallions": 0}


def test_the_leader_sets_the_size_and_fives_cannot_follow_fives() -> None:
    state = game([[0, 1, 5, 5], [1, 5, 5, 6, 6, 9]])
    play(state, "G", "5 5")
    assert legal(state) == ["pass", "6 6", "9"], "same size and strictly higher, or a medallion singleton"


def test_a_medallion_ace_flies_alone_in_any_size_and_medallions_compare_first() -> None:
    state = game([[0, 1, 4, 4, 4], [2, 2, 9], [3, 10, 9]])
    play(state, "G", "4 4 4")
    assert legal(state) == ["pass", "9"]
    play(state, "9")
    # Equal medallions compare value: the 10 beats the 9, the other 9 does not.
    assert legal(state) == ["pass", "10"]
    play(state, "10")
    assert legal(state) == ["pass"]


def test_two_medallions_beat_one_whatever_the_value() -> None:
    state = game([[0, 1, 1, 2, 8, 8], [10, 3], [9, 9, 4]])
    play(state, "G", "1 1", "10")
    assert legal(state) == ["pass", "9 9"], "two 9s: two medallions beat the 10's one"
    play(state, "9 9")
    assert legal(state) == ["pass"], "8 8 has no medallion"


def test_passing_then_jumping_back_in_and_the_dogfight_ends_when_all_others_pass() -> None:
    state = game([[0, 1, 1, 7], [4, 4, 8], [3, 3, 9]])
    play(state, "G", "1 1", "pass", "3 3", "pass")
    assert turn(state) == 1 and "4 4" in legal(state), "a seat that passed may play again"
    play(state, "4 4", "pass", "pass")
    assert turn(state) == 1
    assert legal(state) == ["8"], "the winner leads the next dogfight"
    assert state.observation(1)["dogfight"]["size"] == 0


def test_going_out_finishing_order_and_last_place_takes_only_a_plus_one() -> None:
    state = game([[0, 1, 1, 7], [4, 4, 8], [3, 3, 9]])
    play(state, "G", "1 1", "pass", "3 3", "pass", "4 4", "pass", "pass", "8")
    # Seat 1 is out first: it takes a token at once, from the starting tokens.
    assert state.observation(1)["phase"] == "take" and state.observation(1)["take_place"] == 1
    assert legal(state) == ["take A1", "take A2", "take A3", "take +1"]
    play(state, "take A1")
    assert turn(state) == 2, "play goes on clockwise, skipping nobody yet"
    play(state, "9")  # seat 2 goes out second: it may take an A token
    assert legal(state) == ["take A1", "take A2", "take A3", "take +1"]
    play(state, "take A3")
    # Seat 0 is last of three: only a +1VP token, taken without a decision.
    assert state.plus1 == [1, 0, 0]
    assert reserve(state, 1) == {"A1": "up"} and reserve(state, 2) == {"A3": "up"}
    assert state.campaign == 2


def test_seats_that_are_out_are_skipped_and_the_next_seat_leads_after_an_out_winner() -> None:
    state = game([[0, 2, 2], [5, 5], [3, 3, 6]])
    play(state, "G", "2 2", "take A1")  # seat 0 leads its last cards and is out
    assert turn(state) == 1
    play(state, "5 5", "take A2")  # seat 1 goes out too: the campaign is over
    assert state.campaign == 2 and state.out == [] and state.plus1 == [0, 0, 1]


def test_after_an_out_winner_the_next_active_seat_leads() -> None:
    state = game([[0, 2, 2], [1, 7], [3, 6], [4, 8]])
    play(state, "G", "2 2", "take A1")
    assert turn(state) == 1
    play(state, "pass", "pass", "pass")
    assert turn(state) == 1, "seat 0 won the dogfight but is out: the next seat clockwise leads"
    assert legal(state) == ["1", "7"]


def test_two_player_last_place_takes_a_progress_token() -> None:
    state = game([[0, 1], [2]])
    play(state, "G 1", "take A2")
    assert legal(state) == ["take A1", "take A2", "take A3", "take +1"]


def test_four_players_third_may_take_a_1_2_3_token_and_fourth_only_plus_one() -> None:
    state = game([[0, 1], [2], [3], [4, 4]], aerodromes=[{}, {"A1": "up"}, {}, {"A1": "up", "A3": "up"}])
    play(state, "G 1", "take A1", "pass", "pass", "4 4")
    assert legal(state) == ["take A2", "take B1", "take B2", "take +1"], "second: ribbons 1-2 and 1-2-3"
    play(state, "take B1", "pass", "pass")
    assert turn(state) == 1
    play(state, "2")
    assert legal(state) == ["take A2", "take A3", "take +1"], "third: 1-2-3 ribbons only (not B2)"
    play(state, "take +1")
    assert state.plus1 == [0, 1, 1, 0]
    assert state.campaign == 2


def test_last_place_rule_example_three_players() -> None:
    """Rulebook: in 3p the first and second take progress tokens, third only a +1VP."""
    state = game([[0, 1], [2], [3, 3]], aerodromes=[{}, {}, {"A1": "up"}])
    play(state, "G 1", "take A3", "pass", "3 3")
    assert "take B1" in legal(state)
    play(state, "take B1")
    assert state.plus1 == [0, 1, 0] and reserve(state, 1) == {}


def test_a_seat_with_nothing_left_to_take_takes_nothing() -> None:
    state = game([[0, 1], [2], [3, 3]], aerodromes=[{}, {"plus1": 8}])
    play(state, "G 1", "take A1", "pass", "3 3", "take A2")
    assert state.plus1[1] == 8, "last place: no +1VP token left, and nothing else allowed"
    assert state.observation(1)["phase"] == "trade-in" and turn(state) == 1
