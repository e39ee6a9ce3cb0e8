"""Hands as counts per card value: what the state keeps, and the list of cards back."""

from __future__ import annotations

from typing import Any


def counts(cards: Any) -> list[int]:
    """Card values to counts per value (0 = Garros to 10): the form hands and the box are kept in."""
    hand = [0] * 11
    for c in cards:
        hand[c] += 1
    return hand


_REPEATS = [[[v] * k for k in range(8)] for v in range(11)]


def card_list(hand: list[int]) -> list[int]:
    """Counts per value back to the list of card values, ascending."""
    out: list[int] = []
    for v in range(11):
        if hand[v]:
            out.extend(_REPEATS[v][hand[v]])
    return out
