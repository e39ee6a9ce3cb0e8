"""Shared helpers for the Sky Team scenario tests: fixed positions and scripted plays."""

from __future__ import annotations

from typing import Any

from referee.games import Result, make
from referee.games.sky_team import SkyTeamState

P, C = 0, 1
SEAT = {"P": P, "C": C}


def game(setup: dict[str, Any] | None = None, seed: int = 0, **options: Any) -> SkyTeamState:
    """A Sky Team game from a setup (see the engine README) and options."""
    state = make("sky-team", 2, seed=seed, options={"setup": setup, **options})
    assert isinstance(state, SkyTeamState)
    return state


def dice(pilot: list[int], copilot: list[int]) -> dict[str, list[int]]:
    return {"pilot": pilot, "copilot": copilot}


def play(state: SkyTeamState, *moves: str) -> SkyTeamState:
    """Apply moves written 'P:4>axis' / 'C:reroll'; 'P:roll 1,3|C:roll none' for a joint move."""
    for move in moves:
        joint = {}
        for part in move.split("|"):
            who, text = part.split(":", 1)
            joint[SEAT[who]] = text
        assert set(joint) == set(state.to_move()), f"{move}: to move is {state.to_move()}"
        state.apply(joint)
    return state


def legal(state: SkyTeamState, seat: int) -> list[str]:
    return [str(a) for a in state.legal_actions(seat)]


def spaces(state: SkyTeamState, seat: int) -> set[str]:
    """The spaces where the seat may place now."""
    return {text.split(">")[1] for text in legal(state, seat) if ">" in text}


def outcome(state: SkyTeamState) -> Result:
    result = state.result()
    assert result is not None, "the game is not over"
    return result
