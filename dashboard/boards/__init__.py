"""Pictures of the table: one module per game, each a pure function of a view.

``board_svg(game, view, seat=...)`` draws the engine's ``public_view()`` (``seat=None``,
the spectator) or a seat's ``observation(seat)`` as a self-contained SVG string. Games
without a board of their own, and views a board cannot read (an older engine's, say), get
the generic key/value panel with a note saying why, so the replay viewer always shows
something.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import fly_away, generic, oddball_aeronauts, sky_team, skybirds, skyjo_action

Board = Callable[[dict[str, Any], int | None], str]

BOARDS: dict[str, Board] = {
    "skybirds": skybirds.render,
    "skyjo-action": skyjo_action.render,
    "sky-team": sky_team.render,
    "oddball-aeronauts": oddball_aeronauts.render,
    "fly-away": fly_away.render,
}


def board_svg(game: str, view: dict[str, Any], *, seat: int | None = None) -> str:
    """The picture of ``view``; ``seat`` is whose view it is (``None``: the spectator's)."""
    if not isinstance(view, dict):
        raise TypeError(f"a view is a dict (public_view() or observation(seat)), not {type(view).__name__}")
    board = BOARDS.get(game)
    if board is None:
        return generic.render(view, seat, game, note="no board for this game yet: the view's fields")
    try:
        return board(view, seat)
    except (AttributeError, KeyError, IndexError, TypeError, ValueError) as exc:
        return generic.render(view, seat, game, note=f"the {game} board cannot read this view ({exc!r})")


__all__ = ["BOARDS", "Board", "board_svg"]
