"""House bots: legal answers, the heuristic clearly beats random, and neither faction
dominates when the same bot plays both (the 1000-game figures are in the README)."""

from __future__ import annotations

from .botplay import faction_balance, play_game, win_rate


def test_heuristic_beats_random_clearly() -> None:
    rates = win_rate(("heuristic", "random"), 200)
    assert rates["heuristic#a"] >= 0.9, rates


def test_random_bots_finish_games() -> None:
    for seed in range(20):
        result = play_game(("random", "random"), seed)
        assert result.reason in ("routed", "mutual-rout", "round-limit")


def test_factions_are_balanced_for_the_same_bot() -> None:
    shares = faction_balance(200, first_seed=10_000)
    assert 0.35 <= shares["pendragon"] <= 0.62 and 0.35 <= shares["pirates"] <= 0.62, shares
