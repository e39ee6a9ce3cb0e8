"""Scenario helpers: fixed deals and Aerodromes through ``setup``, moves by notation."""

from __future__ import annotations

from typing import Any

from referee.games import make
from referee.games.skybirds.state import SkybirdsState


def new(players: int, seed: int = 0, options: dict[str, Any] | None = None) -> SkybirdsState:
    """``make`` typed as the Skybirds state."""
    state = make("skybirds", players, seed=seed, options=options)
    assert isinstance(state, SkybirdsState)
    return state


def game(hands: list[list[Any]], aerodromes: list[dict[str, Any]] | None = None,
         next_deals: list[list[list[Any]]] | None = None, **options: Any) -> SkybirdsState:
    """A war whose first campaign is dealt ``hands`` (other cards in the box)."""
    setup: dict[str, Any] = {"hands": hands}
    if aerodromes is not None:
        setup["aerodromes"] = aerodromes
    if next_deals is not None:
        setup["next_deals"] = next_deals
    if "campaign" in options:
        setup["campaign"] = options.pop("campaign")
    state = make("skybirds", len(hands), seed=1, options={"setup": setup, **options})
    assert isinstance(state, SkybirdsState)
    return state


def skip_pre_campaign(state: SkybirdsState) -> SkybirdsState:
    """Every seat passes its pre-campaign tokens."""
    while state.phase == 1:
        play(state, "pass")
    return state


def legal(state: SkybirdsState, seat: int | None = None) -> list[str]:
    if seat is None:
        (seat,) = state.to_move()
    return [str(a) for a in state.legal_actions(seat)]


def play(state: SkybirdsState, *moves: str) -> SkybirdsState:
    """Apply moves in order, each by the single seat to move."""
    for move in moves:
        movers = state.to_move()
        assert len(movers) == 1, f"{movers} to move; use give()"
        state.apply({movers[0]: move})
    return state


def turn(state: SkybirdsState) -> int:
    (seat,) = state.to_move()
    return seat


def reserve(state: SkybirdsState, seat: int) -> dict[str, str]:
    return state.observation(seat)["aerodromes"][seat]["reserve"]
