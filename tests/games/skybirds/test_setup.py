"""Setup: the deck, the deal and the box for 2, 3 and 4 players, and the setup option."""

from __future__ import annotations

import pytest

from referee.games.skybirds.data import DECK, DECK_SIZE

from .helpers import game, legal, new


def test_the_deck_has_forty_aces() -> None:
    assert DECK_SIZE == 40
    assert list(DECK) == [1, 5, 5, 5, 5, 5, 5, 3, 3, 2, 1]


@pytest.mark.parametrize(("players", "per_hand", "box"), [(2, 16, 8), (3, 12, 4), (4, 10, 0)])
def test_every_player_is_dealt_the_same_number_and_the_rest_go_in_the_box(players: int, per_hand: int,
                                                                            box: int) -> None:
    for seed in range(25):
        state = new(players, seed=seed)
        assert state.sizes == [per_hand] * players
        assert sum(state.box) == box
        assert state.box[0] == 0, "Roland Garros is set aside before cards go into the box"
        totals = [sum(h[v] for h in state.hands) + state.box[v] for v in range(11)]
        assert totals == list(DECK)
        obs = state.observation(0)
        assert obs["box_size"] == box and len(obs["hand"]) == per_hand


def test_the_box_is_drawn_from_the_deck_without_garros_then_garros_is_shuffled_back() -> None:
    state = new(3, seed=5)
    labels = [entry[1] for entry in state.history() if entry[0] == "c"]
    assert labels == ["box", "deal"]
    box, deal = [entry[2] for entry in state.history() if entry[0] == "c"]
    assert len(box) == 39 and len(deal) == 36
    four = new(4, seed=5)
    assert [entry[1] for entry in four.history() if entry[0] == "c"] == ["deal"]


def test_garros_holder_starts_the_first_dogfight_and_must_play_him() -> None:
    state = game([[1, 1], [3, 3], [0, 4, 6], [5, 5]])
    assert state.to_move() == (2,)
    assert state.observation(0)["garros_dealt_to"] == 2
    options = legal(state)
    assert options == ["G", "G 4", "G 6"]
    assert all(o.startswith("G") for o in options)


def test_setup_fixes_later_deals_then_deals_at_random() -> None:
    state = game([[0, 1], [2]], next_deals=[[[3], [0, 4]]])
    assert state.hands[0][0] == 1 and state.box[5] == 5
    # Campaign 1: G 1 leads and goes out; seat 1 is last.
    state.apply({0: "G 1"})
    state.apply({0: "take A1"})
    state.apply({1: "take A3"})
    assert state.campaign == 2
    assert state.hands == [[0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0], [1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0]]
    assert state.to_move() == (1,)  # seat 1 was dealt Garros
    state.apply({1: "G 4"})
    state.apply({1: "take B2"})
    state.apply({0: "take B1"})
    assert state.campaign == 3 and state.sizes == [16, 16]  # a random deal again
