"""Random playouts: the driver of the invariant suite, the golden files and the benchmarks."""

from __future__ import annotations

import random
from typing import Any

from .state import State


def random_joint_action(state: State, rng: random.Random) -> dict[int, Any]:
    """One uniformly random legal action for every seat to move."""
    joint = {}
    for seat in state.to_move():
        legal = state.legal_actions(seat)
        joint[seat] = legal[rng.randrange(len(legal))]
    return joint


def random_playout(state: State, rng: random.Random, max_steps: int | None = None) -> int:
    """Play random legal actions until the game ends (or max_steps); returns steps played."""
    steps = 0
    while not state.is_over():
        if max_steps is not None and steps >= max_steps:
            break
        state.apply(random_joint_action(state, rng))
        steps += 1
    return steps
