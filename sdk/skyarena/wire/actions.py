"""Engine actions <-> ``Action`` messages: the notation, plus the typed message if the game has one."""

from __future__ import annotations

from typing import Any

from skyarena.v1 import game_pb2

from .fast import message_kwargs, read_message
from .registry import GameWire, action_classes_by_name, build_action, wire_for
from .shapes import ConversionError
from .walk import dict_to_message


def action_to_proto(game: str, action: Any, out: game_pb2.Action | None = None,
                    wire: GameWire | None = None) -> game_pb2.Action:
    """The wire form of an engine action: notation, plus the typed message if the game has one."""
    message = out if out is not None else game_pb2.Action()
    message.notation = str(action)
    wire = wire if wire is not None else wire_for(game)
    if wire is not None and not isinstance(action, str):
        typed = getattr(message, wire.field)
        dict_to_message(wire.action_data(action), typed)
        typed.SetInParent()
    return message


def action_kwargs(game: str, action: Any, wire: GameWire | None) -> dict[str, Any]:
    """Constructor arguments of an ``Action`` message (notation, plus the typed form)."""
    if wire is None or isinstance(action, str):
        return {"notation": str(action)}
    return {"notation": str(action), wire.field: message_kwargs(wire.action_type, wire.action_data(action))}


def action_from_proto(game: str, message: game_pb2.Action) -> Any:
    """The engine action of a typed action message, or its notation string when it has none."""
    wire = wire_for(game)
    if wire is None or message.WhichOneof("game") != wire.field:
        return message.notation
    data = read_message(getattr(message, wire.field))
    if wire.action_in is not None:
        return wire.action_in(data)
    by_name = action_classes_by_name(wire)
    typed = getattr(message, wire.field)
    which = typed.WhichOneof("kind")
    if which is None or which not in by_name:
        raise ConversionError(f"the {game} action message names no action kind")
    return build_action(by_name[which], data[which])
