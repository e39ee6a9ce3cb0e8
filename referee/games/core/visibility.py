"""Which moves may be told to the other seats and to spectators.

A move's notation can name hidden information (a card chosen face down, a die behind a
screen before it is placed), and the engine contract has no general "public notation".
So the referee tells a move only where it is known to be public:

- a game's State may define ``public_action(seat, action) -> str | None`` (the public
  notation, or None when the move is hidden); the referee uses it when present;
- otherwise the game's row of `referee.games.core.public_moves` (what its rulebook makes
  public, per decision kind) says whether the notation is told, in full or its first word;
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
    """The visibility rule for a state's moves, looked up once per match. A game's hook is
    called on the state as it is after the move was applied."""
    hook = getattr(state, "public_action", None)
    if hook is not None:
        return lambda seat, action: None if (text := hook(seat, action)) is None else str(text)
    game = state.game
    return lambda seat, action: public_text(game, action)

