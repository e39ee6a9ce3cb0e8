"""The forward model for bots: full engine states consistent with what a seat knows.

``sample_state(observation, info, rng)`` (or ``Bot.sample_state(observation)``) returns a
real engine state (``clone``, ``legal_actions``, ``apply``, ``is_over``, ``result``) whose
view for the seat is exactly its observation: the seat's own hidden cards as they are,
everything it cannot see drawn at random from what remains (``referee.games.<game>.rebuild``),
and a future of its own (dice, draws) from ``rng``. Draw one per search iteration and play
it forward: that is determinisation. A sample depends only on the observation, the match's
public options and ``rng``, so it reveals nothing the seat does not already know.

The engines are pure Python and ship with the SDK, so this runs inside a hosted bot's
sandbox with nothing more to install. Each game's cost per sample is in its README.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from referee.games import State
from referee.games.core.errors import ObservationError
from referee.games.core.rebuild import sample_state as rebuild_state
from referee.games.core.rng import CounterRng

from .bot import MatchInfo
from .games import module_name
from .observation import Observation


def sample_state(observation: Observation | Mapping[str, Any], info: MatchInfo,
                 rng: random.Random | CounterRng | int) -> State:
    """A state of ``info.game`` consistent with ``observation`` (the typed observation a
    bot is handed, or its ``raw`` dict), drawn with ``rng`` (a ``random.Random``, such as
    ``Bot.random``, a ``CounterRng`` or an integer seed)."""
    if isinstance(observation, Observation):
        origin = type(observation).__module__.rpartition(".")[2]
        if origin != module_name(info.game) and type(observation).__module__.startswith("skyarena.games."):
            raise ObservationError(f"{info.game}: this is an observation of {origin.replace('_', '-')}, "
                                   f"not of {info.game}; pass the observation of this match.")
        view: Mapping[str, Any] = observation.raw
    else:
        view = observation
    return rebuild_state(info.game, info.players, info.options, view, _counter(rng))


def _counter(rng: random.Random | CounterRng | int) -> CounterRng:
    if isinstance(rng, CounterRng):
        return rng
    if isinstance(rng, random.Random):
        return CounterRng(rng.getrandbits(62))
    if type(rng) is int:
        return CounterRng(rng)
    raise TypeError(f"sample_state: rng must be a random.Random, a CounterRng or an int seed, "
                    f"got {type(rng).__name__}.")
