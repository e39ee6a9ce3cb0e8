"""Hidden information: hands stay hidden, tokens are public, resampling keeps what a seat knows."""

from __future__ import annotations

import json

from referee.games import CounterRng

from .helpers import game, legal, new, play


def test_views_show_only_ones_own_hand() -> None:
    state = new(3, seed=9)
    public = state.public_view()
    assert "hand" not in public and "known_cards" not in public
    for seat in range(3):
        obs = state.observation(seat)
        assert len(obs["hand"]) == 12
        text = json.dumps(obs)
        assert "hands" not in text and "box\"" not in text
    assert state.observation(0)["hand"] != state.observation(1)["hand"]


def test_tokens_are_public_face_up_or_flipped() -> None:
    state = game([[0, 1], [2]], aerodromes=[{"A1": "up", "B1": "flipped", "plus1": 2}])
    for seat in (0, 1):
        assert state.observation(seat)["aerodromes"][0]["reserve"] == {"A1": "up", "B1": "flipped"}
    assert state.public_view()["aerodromes"][0]["plus1"] == 2


def test_resampling_redraws_hands_but_never_puts_garros_in_the_box() -> None:
    state = new(2, seed=4)
    me = 1 - state.garros
    for i in range(50):
        other = state.resample_hidden(me, CounterRng(i))
        assert other.hands[me] == state.hands[me]
        assert other.box[0] == 0 and other.hands[state.garros][0] == 1, "Garros is announced by his holder"
        assert other.sizes == state.sizes and sum(other.box) == 8


def test_resampling_keeps_cards_a_seat_handed_over() -> None:
    state = game([[1, 2, 3], [0, 4, 5], [6, 7, 8]], aerodromes=[{}, {}, {"A2": "up"}])
    play(state, "A2>0")
    state.apply({0: "give 1", 2: "give 7"})
    for i in range(30):
        other = state.resample_hidden(2, CounterRng(i))
        assert other.hands[0][7] >= 1, "seat 2 gave seat 0 a 7"
        assert other.observation(2) == state.observation(2)
    changed = {tuple(state.resample_hidden(1, CounterRng(i)).hands[0]) for i in range(30)}
    assert len(changed) > 1, "seat 1 saw nothing of that trade"


def test_resampling_keeps_the_cards_of_an_announced_squadron() -> None:
    state = game([[0, 1, 1, 1, 2], [5, 5, 3, 4]], aerodromes=[{}, {"A3": "up"}])
    play(state, "G", "1 1 1", "5 5 * A3 =5")
    for i in range(30):
        other = state.resample_hidden(0, CounterRng(i))
        assert other.hands[1][5] >= 2
        assert legal(other, 1), "the mover still has a card for the wild slot"
        assert other.observation(0) == state.observation(0)


def test_the_wild_choice_is_asked_even_with_one_answer() -> None:
    state = game([[0, 1, 1, 1, 2], [5, 5, 3]], aerodromes=[{}, {"A3": "up"}])
    play(state, "G", "1 1 1", "5 5 * A3 =5")
    assert legal(state) == ["wild 3"], "a seat's hand never changes who is asked what"


def test_legal_lists_stay_bounded_with_every_token() -> None:
    everything = {name: "up" for name in ("A1", "A3", "B1", "B2", "C1", "D1", "D2")}
    state = game([[0, 1, 1, 2, 2, 3, 4, 5, 6, 7, 8, 9], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 3, 4]],
                 aerodromes=[{}, everything])
    play(state, "G", "1 1")
    assert 100 < len(legal(state)) < 1000
    lead = game([[0, 1, 1, 2, 2, 3, 4, 5, 6, 7, 8, 9, 10], [3]], aerodromes=[everything])
    play(lead, "G")
    assert 100 < len(legal(lead)) < 1000
