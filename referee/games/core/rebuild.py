"""The forward model: a full engine state rebuilt from one seat's observation.

A bot that searches needs positions it can play forward (``clone``, ``legal_actions``,
``apply``, ``is_over``, ``result``), but it only ever sees its observation. Each game's
``rebuild.py`` fills a fresh state with what the observation shows (public cards, the
seat's own hidden cards, counters, whose turn) and draws everything the seat cannot see
from what remains, with the caller's random numbers. The shared part here checks the
input, starts the fresh state and gives it a future of its own (its chance draws come
from ``rng``, never from the match's seed), so a sample depends on the observation and
the caller's generator only: the truth behind the observation cannot leak into it.
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib import import_module
from typing import Any, Protocol

from .errors import ObservationError
from .registry import make, spec
from .rng import CounterRng
from .state import State


class Rebuilder(Protocol):
    """What a game's ``rebuild.py`` provides."""

    def rebuild(self, state: Any, seat: int, view: Mapping[str, Any], rng: CounterRng) -> None:
        """Overwrite the fresh ``state`` in place so that ``state.observation(seat) == view``,
        everything ``seat`` cannot see drawn from what remains with ``rng``."""


def rebuilder(game: str) -> Rebuilder:
    """The game's rebuild module (imported on first use, like its engine)."""
    name = f"referee.games.{game.replace('-', '_')}.rebuild"
    try:
        module: Rebuilder = import_module(name)  # type: ignore[assignment]
    except ModuleNotFoundError as exc:
        if exc.name != name:
            raise
        raise ObservationError(f"{game}: there is no forward model for this game yet; a bot can only read its "
                               "observation.") from None
    return module


def sample_state(game: str, players: int, options: Mapping[str, Any] | None, view: Mapping[str, Any],
                 rng: CounterRng) -> State:
    """A full state of ``game`` consistent with ``view`` (one seat's observation), its
    hidden parts and its future chance drawn with ``rng``. ``options`` are the match's
    public options (``MatchInfo.options``); a ``setup`` in them is ignored, as the deal
    it fixes is over."""
    spec(game)  # an unknown game: the registry's own message
    model = rebuilder(game)
    if not isinstance(view, Mapping):
        raise ObservationError(f"{game}: sample_state needs a seat's observation (a mapping), "
                               f"got {type(view).__name__}.")
    seat = view.get("seat")
    if type(seat) is not int or not 0 <= seat < players:
        raise ObservationError(f"{game}: sample_state needs a seat's observation with 'seat' from 0 to "
                               f"{players - 1}, got seat {seat!r} (a spectator's view hides too much to rebuild).")
    public = {k: v for k, v in (options or {}).items() if k != "setup"}
    state = make(game, players, 0, public)
    expected = set(state.observation(seat))
    if set(view) != expected:
        missing, extra = sorted(expected - set(view)), sorted(set(view) - expected)
        raise ObservationError(f"{game}: this is not a {game} observation (missing {missing}, unexpected {extra}); "
                               "pass the observation of a seat of this game.")
    if not view.get("to_move"):
        raise ObservationError(f"{game}: the match is over (no seat is to move); there is nothing to search.")
    model.rebuild(state, seat, view, rng)
    state._rng = CounterRng(rng.below(1 << 62))
    return state
