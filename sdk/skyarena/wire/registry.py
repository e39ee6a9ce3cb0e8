"""Which games travel as typed messages, and how their engine actions map onto them.

A game with typed messages has a :class:`GameWire`, registered on first use by
:mod:`.typed_games`; any other game travels as JSON text (observations) and notation strings
(actions), which is exact for games whose actions are strings (the toy game) and keeps a
brand-new game playable on the wire before its messages are written.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, get_type_hints

from google.protobuf.message import Message

from .shapes import ConversionError


@dataclass(frozen=True)
class GameWire:
    """How one game's observations and actions map onto its typed messages.

    ``field`` is the game's name in the ``Observation``/``Action`` oneofs (``sky_team``).
    By default an engine action (a NamedTuple or a dataclass) maps field by field onto the
    member of its typed message's ``kind`` oneof named after its class in snake_case
    (``PlaceDie`` -> ``place_die``), and is rebuilt from the member of that name among
    ``action_classes``. A game whose data does not fit that rule gives its own mappings:
    ``observation_out``/``observation_in`` rewrite an observation dict on its way to / from
    the message, ``action_out``/``action_in`` map an action to / from its message's fields.
    """

    game: str
    field: str
    observation_type: type[Message]
    action_type: type[Message]
    action_classes: tuple[type, ...] = ()
    observation_out: Callable[[Mapping[str, Any]], Mapping[str, Any]] | None = None
    observation_in: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    action_out: Callable[[Any], Mapping[str, Any]] | None = None
    action_in: Callable[[dict[str, Any]], Any] | None = None

    def action_data(self, action: Any) -> Mapping[str, Any]:
        """The fields of ``action``'s typed message, as JSON-ready data."""
        if self.action_out is not None:
            return self.action_out(action)
        return {snake_name(type(action).__name__): action_fields(action)}


WIRES: dict[str, GameWire] = {}


def register_wire(wire: GameWire) -> GameWire:
    """Make ``game`` travel as its typed messages (a game registered by hand, e.g. in a test,
    keeps the built-in typed games from loading: see :func:`wire_for`)."""
    WIRES[wire.game] = wire
    return wire


def wire_for(game: str) -> GameWire | None:
    """The game's GameWire, or None when it travels as JSON and notation. The typed games
    load on the first call, not at import: each imports its engine's action classes."""
    if not WIRES:
        _load_game_wires()
    return WIRES.get(game)


_loaded = False


def _load_game_wires() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    from . import typed_games  # noqa: F401  (registers the typed games)


def snake_name(name: str) -> str:
    """``PlaceDie`` -> ``place_die``: an action class's member name in its game's ``kind`` oneof."""
    out = []
    for i, ch in enumerate(name):
        if ch.isupper() and i and not name[i - 1].isupper():
            out.append("_")
        out.append(ch.lower())
    return "".join(out)


def action_fields(action: Any) -> dict[str, Any]:
    """A NamedTuple or dataclass action's fields as JSON-ready values (tuples as lists, Enums as values)."""
    if dataclasses.is_dataclass(action) and not isinstance(action, type):
        return {f.name: _jsonable(getattr(action, f.name)) for f in dataclasses.fields(action)}
    if isinstance(action, tuple) and hasattr(action, "_fields"):
        return {name: _jsonable(getattr(action, name)) for name in action._fields}
    raise ConversionError(f"cannot convert action {action!r} ({type(action).__name__}) to its typed message")


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple) and not hasattr(value, "_fields"):
        return [_jsonable(v) for v in value]
    if hasattr(value, "value") and type(value).__module__ != "builtins" and hasattr(type(value), "__members__"):
        return value.value  # an Enum
    return value


def build_action(cls: type, data: Mapping[str, Any]) -> Any:
    """Rebuild an action of class ``cls`` from its field dict (lists become tuples)."""
    hints = _type_hints(cls)
    kwargs = {}
    for key, value in data.items():
        hint = hints.get(key)
        if isinstance(value, list):
            value = tuple(value)
        if isinstance(hint, type) and hasattr(hint, "__members__") and value is not None:
            value = hint(value)  # an Enum field
        kwargs[key] = value
    return cls(**kwargs)


@functools.cache
def action_classes_by_name(wire: GameWire) -> dict[str, type]:
    return {snake_name(c.__name__): c for c in wire.action_classes}


@functools.cache
def _type_hints(cls: type) -> dict[str, Any]:
    try:
        return get_type_hints(cls)
    except Exception:  # a forward reference we cannot resolve: fall back to plain values
        return {}
