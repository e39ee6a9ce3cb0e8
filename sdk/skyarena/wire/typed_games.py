"""The games that travel as typed messages, registered on first use (see :class:`.registry.GameWire`).

A game listed here travels as its typed messages from ``proto/skyarena/v1/games/``; any
other game travels as JSON text and notation strings. The action classes are found from
the messages themselves: each nested message of ``<Game>Action`` is named after the engine
action class it carries (``proto/draft_game.py`` writes them so). A game whose engine no
longer has a class named in its messages is left untyped (with a warning) rather than
breaking: it still plays, as JSON and notation.
"""

from __future__ import annotations

import importlib
import warnings
from typing import Any

from google.protobuf.message import Message

from ..v1 import game_pb2
from .registry import GameWire, register_wire

# game name -> its field in the Observation/Action oneofs (also the engine package's name)
TYPED_GAMES = {
    "sky-team": "sky_team",
    "skyjo-action": "skyjo_action",
    "skybirds": "skybirds",
    "oddball-aeronauts": "oddball_aeronauts",
    "fly-away": "fly_away",
}


def _message_type(container: type[Message], field: str) -> type[Message]:
    return type(getattr(container(), field))


def _action_classes(package: str, action_type: type[Message]) -> tuple[type, ...]:
    names = [f.message_type.name for f in action_type.DESCRIPTOR.oneofs_by_name["kind"].fields
             if f.message_type is not None]
    modules: list[Any] = []
    for name in (f"referee.games.{package}.actions", f"referee.games.{package}"):
        try:
            modules.append(importlib.import_module(name))
        except ImportError:
            continue
    classes = []
    for name in names:
        found = next((getattr(m, name) for m in modules if isinstance(getattr(m, name, None), type)), None)
        if found is None:
            raise LookupError(f"referee.games.{package} has no action class {name}")
        classes.append(found)
    return tuple(classes)


def register_all() -> None:
    for game, field in TYPED_GAMES.items():
        action_type = _message_type(game_pb2.Action, field)
        try:
            classes = _action_classes(field, action_type)
        except LookupError as exc:
            warnings.warn(f"{game} plays untyped on the wire: {exc}; run proto/draft_game.py", stacklevel=2)
            continue
        register_wire(GameWire(game=game, field=field, observation_type=_message_type(game_pb2.Observation, field),
                               action_type=action_type, action_classes=classes))


register_all()
