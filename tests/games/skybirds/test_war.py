"""The end of the Great War: the Armistice, fractional tokens, final VP, the campaign limit."""

from __future__ import annotations

import random

from referee.games.core.playout import random_playout

from .helpers import game, legal, new, play, skip_pre_campaign

ARMISTICE_READY = {"C1": "up", "C3": "up", "D1": "up", "D2": "flipped"}
BIG_RESERVE = {"A1": "up", "A2": "up", "A3": "up", "B1": "up", "B2": "up", "C1": "up", "C3": "up", "plus1": 8}


def test_the_armistice_ends_the_war_after_the_current_dogfight() -> None:
    state = game([[0, 1, 1], [2, 2, 7], [3, 3, 8, 9]], aerodromes=[ARMISTICE_READY])
    skip_pre_campaign(state)
    play(state, "G 1 1")
    assert "take AR" in legal(state)
    play(state, "take AR")
    assert state.armistice == 0 and state.frac[0] == 3, "the finisher takes the largest fraction at once"
    assert not state.is_over(), "the dogfight is finished first"
    play(state, "pass", "9")
    assert not state.is_over()
    play(state, "pass")
    result = state.result()
    assert result is not None and result.reason == "armistice"
    # Still holding cards: fractions after the finishers, fewest cards first, then clockwise
    # from the dogfight's winner (seat 2, three cards left, before seat 1, three cards).
    assert state.frac == [3, 1, 2]
    assert result.details["finishing_order"] == [0, 2, 1]
    assert result.details["armistice"] == 0
    assert result.scores == (4 + 3 + 5 + 3 + 3 + 0.75, 0.25, 0.5)
    assert result.ranks == (0, 2, 1)


def test_finishers_of_the_last_dogfight_take_their_token_then_a_fraction() -> None:
    state = game([[0, 1, 1], [2, 2, 7], [9]], aerodromes=[ARMISTICE_READY, BIG_RESERVE])
    skip_pre_campaign(state)
    play(state, "G 1 1", "take AR", "pass", "9")
    assert state.observation(2)["take_place"] == 2
    play(state, "take A2")
    # The campaign is over (one seat left): last place takes its +1VP if it can (it has 8).
    result = state.result()
    assert result is not None and result.reason == "armistice"
    assert state.frac == [3, 1, 2]
    assert result.details["finishing_order"] == [0, 2, 1]


def test_the_armistice_taker_does_not_always_win() -> None:
    state = game([[0, 1, 1], [2, 2, 7], [3, 3, 8, 9]], aerodromes=[ARMISTICE_READY, BIG_RESERVE])
    skip_pre_campaign(state)
    play(state, "G 1 1", "take AR", "pass", "pass")
    result = state.result()
    assert result is not None
    assert result.scores[1] == 2 + 2 + 2 + 3 + 3 + 3 + 3 + 8 + 0.5  # fewer cards than seat 2
    assert result.winners() == [1]


def test_the_campaign_limit_ends_the_war_on_victory_points() -> None:
    state = game([[0, 1], [2]], campaign_limit=3, campaign=3)
    play(state, "G 1", "take A1", "take A3")
    result = state.result()
    assert result is not None and result.reason == "campaign-limit"
    assert "campaign_limit" in result.details["why"] and result.details["campaigns"] == 3
    assert result.scores == (2.75, 2.5) and result.ranks == (0, 1)
    assert state.to_move() == () and state.legal_actions(0) == []


def test_fractional_tokens_prevent_ties() -> None:
    """Every seat but (in 4p) one ends with a different fraction, so final VP never tie."""
    for players in (2, 3, 4):
        for seed in range(4):
            state = new(players, seed=seed, options={"campaign_limit": 2})
            random_playout(state, random.Random(seed))
            result = state.result()
            assert result is not None
            assert sorted(result.ranks) == list(range(players)), result.scores
            assert sorted(state.frac, reverse=True)[:3] == [3, 2, 1][:players]


def test_random_wars_end_by_the_limit_at_worst() -> None:
    for players in (2, 4):
        state = new(players, seed=11, options={"campaign_limit": 4})
        random_playout(state, random.Random(11))
        result = state.result()
        assert result is not None and result.reason in ("armistice", "campaign-limit")
        assert state.campaign <= 4
