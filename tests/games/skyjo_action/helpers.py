"""Building Skyjo Action positions for scenario tests.

Grids are written row by row as strings (``"5 5 * 1 / 2 3 4 6 / 7 8 9 10"``); ``fixed``
makes a game whose first round is fully dealt by the ``setup`` option, with no random
reveal (unless ``reveal`` says which positions start face up) and seat 0 to start.
"""

from __future__ import annotations

from typing import Any

from referee.games import make
from referee.games.skyjo_action.state import SkyjoActionState

FILLER = "1 2 3 4 / 5 6 7 8 / 9 10 11 12"


def cards(text: str) -> list[Any]:
    return [c if c == "*" or not c.lstrip("-").isdigit() else int(c) for c in text.replace("/", " ").split()]


def fixed(players: int = 2, grids: list[str] | None = None, reveal: list[list[str]] | None = None,
          deck: str | None = None, discard: str = "0", seed: int = 1, **options: Any) -> SkyjoActionState:
    setup: dict[str, Any] = dict(options.pop("setup", {}))
    setup.setdefault("grids", [cards(g) for g in (grids or [FILLER] * players)])
    setup.setdefault("reveal", reveal or [[] for _ in range(players)])
    setup.setdefault("discard", cards(discard))
    setup.setdefault("first", 0)
    if setup["discard"] is None:
        del setup["discard"]               # turned over from the deck
    if setup["first"] is None:
        del setup["first"]                 # the opening rule decides
    if deck is not None:
        setup["deck"] = cards(deck)
    state = make("skyjo-action", players, seed=seed, options={"setup": setup, **options})
    assert isinstance(state, SkyjoActionState)
    return state


def mover(state: SkyjoActionState) -> int:
    (seat,) = state.to_move()
    return seat


def legal(state: SkyjoActionState) -> list[str]:
    return [str(a) for a in state.legal_actions(mover(state))]


def play(state: SkyjoActionState, *moves: str) -> SkyjoActionState:
    """Apply each move for whoever is to move (asserting it is legal)."""
    for text in moves:
        seat = mover(state)
        options = legal(state)
        assert text in options, f"{text!r} is not legal for seat {seat} now; legal: {options}"
        state.apply({seat: text})
    return state


def grid(state: SkyjoActionState, seat: int) -> list[Any]:
    """A seat's area as the engine holds it: card values, '*' and None for cleared."""
    from referee.games.skyjo_action.data import CARD_JSON
    return [CARD_JSON[c] for c in state.cards[seat]]


def face_up(state: SkyjoActionState, seat: int) -> list[bool]:
    return [bool((state.up[seat] >> p) & 1) for p in range(len(state.cards[seat]))]


def all_up(cols: int = 4) -> list[str]:
    return [f"{'ABCD'[i % cols]}{i // cols + 1}" for i in range(3 * cols)]


def except_(*positions: str, cols: int = 4) -> list[str]:
    return [p for p in all_up(cols) if p not in positions]
