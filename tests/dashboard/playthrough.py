"""Seeded random games for the dashboard tests: the positions they pass through."""

from __future__ import annotations

import random
from collections.abc import Iterator

from referee.games import State, make
from referee.games.core.playout import random_joint_action

# (game, player counts) covered: the smallest, a middle and the largest table of each game.
TABLES: tuple[tuple[str, tuple[int, ...]], ...] = (
    ("skybirds", (2, 3, 4)),
    ("skyjo-action", (2, 5, 8)),
    ("sky-team", (2,)),
    ("oddball-aeronauts", (2,)),
    ("fly-away", (2, 3, 5)),
)
CASES = [(game, players, seed) for game, counts in TABLES for players in counts for seed in (1, 2)]
SAMPLES = 10  # positions rendered per game, spread over its length, the last one included


def finished_game(game: str, players: int, seed: int) -> State:
    state = make(game, players, seed)
    rng = random.Random(seed)
    while not state.is_over():
        state.apply(random_joint_action(state, rng))
    return state


def sampled_positions(game: str, players: int, seed: int, samples: int = SAMPLES) -> Iterator[State]:
    """About ``samples`` positions of one seeded random game, evenly spread, first and last
    included (the game is played once to learn its length, then again to stop at them)."""
    length = finished_game(game, players, seed).decisions
    wanted = {round(i * length / (samples - 1)) for i in range(samples)}
    state = make(game, players, seed)
    rng = random.Random(seed)
    step = 0
    while True:
        if step in wanted:
            yield state.clone()  # the caller may keep it while this game goes on
        if state.is_over():
            return
        state.apply(random_joint_action(state, rng))
        step += 1
