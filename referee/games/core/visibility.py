"""Which moves may be told to the other seats and to spectators.

A move's notation can name hidden information (a card chosen face down, a die behind a
screen before it is placed), and the engine contract has no general "public notation".
So the referee tells a move only where it is known to be public:

- the game's row of `referee.games.core.public_moves` (what its rulebook makes public,
  per decision kind) says whether the notation is told, in full or in part;
- a game or decision kind the table does not list is hidden: the event only says that
  the seat moved.

Spectators always get the game's ``public_view()``, which the engines guarantee holds no
hidden information; the events add nothing hidden to it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .public_moves import public_text
from .state import State


def policy(state: State) -> Callable[[int, Any], str | None]:
    """The visibility rule for a state's moves, looked up once per match: one table for every
    game, so what is public is read in one place beside the rulebooks' words."""
    game = state.game
    return lambda seat, action: public_text(game, action)

