"""Engine data <-> wire messages, for the referee and the SDK alike.

The engines speak JSON-ready dicts (observations) and small immutable action values; the
wire speaks ``skyarena.v1`` messages. Both directions live here so the referee and the
bots convert with the same code, and a round-trip test can prove that a bot sees on the
platform exactly what it sees locally.

A game with typed messages registers a :class:`GameWire` (see :mod:`.games_wire`); any
other game travels as JSON text (observations) and notation strings (actions), which is
exact for games whose actions are strings (the toy game) and keeps a brand-new game
playable on the wire before its messages are written.

The dict <-> message walk is driven by the message descriptors, with the conventions
documented in ``proto/skyarena/v1/game.proto``: JSON null is an unset ``optional``
field, a list of lists is a repeated wrapper message whose only field is ``repeated
values``, a nullable list element is a wrapper whose only field is ``optional value``,
and an object with data-dependent keys is a ``map<string, ...>``.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from skyarena.v1 import game_pb2

# Descriptors are typed loosely: the upb runtime hands out its own descriptor classes.
Descriptor = Any
Field = Any

_FLOAT_TYPES = (FieldDescriptor.TYPE_DOUBLE, FieldDescriptor.TYPE_FLOAT)
_INT_TYPES = (
    FieldDescriptor.TYPE_INT32, FieldDescriptor.TYPE_INT64, FieldDescriptor.TYPE_SINT32, FieldDescriptor.TYPE_SINT64,
    FieldDescriptor.TYPE_UINT32, FieldDescriptor.TYPE_UINT64, FieldDescriptor.TYPE_FIXED32,
    FieldDescriptor.TYPE_FIXED64, FieldDescriptor.TYPE_SFIXED32, FieldDescriptor.TYPE_SFIXED64,
)


class ConversionError(ValueError):
    """Data that does not fit its wire message: a bug in an engine or in a .proto file,
    never a bot's fault. The message names the message, the field and the value."""


# ----- the generic walk --------------------------------------------------------------------

def _is_map(field: Field) -> bool:
    return field.message_type is not None and field.message_type.GetOptions().map_entry


def _wrapper_kind(desc: Descriptor) -> str | None:
    """'list' for a list-of-lists wrapper, 'nullable' for a nullable-element wrapper."""
    if len(desc.fields) != 1:
        return None
    only = desc.fields[0]
    if only.name == "values" and only.is_repeated and not _is_map(only):
        return "list"
    if only.name == "value" and not only.is_repeated and only.has_presence:
        return "nullable"
    return None


def dict_to_message(data: Mapping[str, Any], message: Message) -> Message:
    """Fill ``message`` from a JSON-ready dict; every key must have a field."""
    desc = message.DESCRIPTOR
    fields = desc.fields_by_name
    for key, value in data.items():
        field = fields.get(key)
        if field is None:
            raise ConversionError(
                f"{desc.full_name} has no field {key!r} (value {value!r}); add it to the .proto file "
                "and run `make proto`."
            )
        _set_field(message, field, value)
    return message


def _set_field(message: Message, field: Field, value: Any) -> None:
    name = field.name
    if value is None:
        if field.is_repeated or not (field.has_presence or field.message_type is not None):
            raise ConversionError(f"{message.DESCRIPTOR.full_name}.{name} is null but the field is not optional")
        return
    if _is_map(field):
        if not isinstance(value, Mapping):
            raise ConversionError(f"{message.DESCRIPTOR.full_name}.{name} expects an object, got {value!r}")
        target = getattr(message, name)
        value_field = field.message_type.fields_by_name["value"]
        for k, v in value.items():
            if value_field.message_type is not None:
                _fill_element(target[str(k)], value_field.message_type, v, f"{name}[{k!r}]")
            else:
                target[str(k)] = _scalar(value_field, v, message, name)
        return
    if field.is_repeated:
        if not isinstance(value, (list, tuple)):
            raise ConversionError(f"{message.DESCRIPTOR.full_name}.{name} expects a list, got {value!r}")
        container = getattr(message, name)
        if field.message_type is not None:
            for item in value:
                _fill_element(container.add(), field.message_type, item, name)
        else:
            container.extend(_scalar(field, item, message, name) for item in value)
        return
    if field.message_type is not None:
        _fill_element(getattr(message, name), field.message_type, value, name)
        return
    setattr(message, name, _scalar(field, value, message, name))


def _fill_element(target: Message, desc: Descriptor, value: Any, where: str) -> None:
    kind = _wrapper_kind(desc)
    if kind == "list" and isinstance(value, (list, tuple)):
        _set_field(target, desc.fields[0], value)
    elif kind == "nullable" and not isinstance(value, Mapping):
        if value is not None:
            _set_field(target, desc.fields[0], value)
        else:
            target.SetInParent()
    elif isinstance(value, Mapping):
        dict_to_message(value, target)
        target.SetInParent()
    else:
        raise ConversionError(f"{desc.full_name} ({where}) expects an object, got {value!r}")


def _scalar(field: Field, value: Any, message: Message, name: str) -> Any:
    kind = field.type
    ok = (
        (kind in _INT_TYPES and isinstance(value, int) and not isinstance(value, bool))
        or (kind in _FLOAT_TYPES and isinstance(value, (int, float)) and not isinstance(value, bool))
        or (kind == FieldDescriptor.TYPE_STRING and isinstance(value, str))
        or (kind == FieldDescriptor.TYPE_BOOL and isinstance(value, bool))
    )
    if not ok:
        raise ConversionError(
            f"{message.DESCRIPTOR.full_name}.{name}: {value!r} ({type(value).__name__}) does not fit a "
            f"{_type_name(field)} field"
        )
    return value


def _type_name(field: Field) -> str:
    for attr in dir(FieldDescriptor):
        if attr.startswith("TYPE_") and getattr(FieldDescriptor, attr) == field.type:
            return attr[5:].lower()
    return str(field.type)


def message_to_dict(message: Message) -> dict[str, Any]:
    """The dict :func:`dict_to_message` was given: every field appears, unset optionals as None."""
    out: dict[str, Any] = {}
    for field in message.DESCRIPTOR.fields:
        out[field.name] = _get_field(message, field)
    return out


def _get_field(message: Message, field: Field) -> Any:
    name = field.name
    if _is_map(field):
        value_field = field.message_type.fields_by_name["value"]
        source = getattr(message, name)
        if value_field.message_type is not None:
            return {k: _read_element(source[k]) for k in sorted(source)}
        return {k: source[k] for k in sorted(source)}
    if field.is_repeated:
        container = getattr(message, name)
        if field.message_type is not None:
            return [_read_element(item) for item in container]
        return list(container)
    if field.message_type is not None:
        if not message.HasField(name):
            return None
        return _read_element(getattr(message, name))
    if field.has_presence and not message.HasField(name):
        return None
    return getattr(message, name)


def _read_element(item: Message) -> Any:
    kind = _wrapper_kind(item.DESCRIPTOR)
    if kind is not None:
        return _get_field(item, item.DESCRIPTOR.fields[0])
    return message_to_dict(item)


def _which(message: Message, oneof: str) -> str | None:
    """``WhichOneof`` through the base class (the typed stubs reject oneofs that have no
    member yet, e.g. before any game has typed actions)."""
    return message.WhichOneof(oneof)


# ----- per-game wire descriptions --------------------------------------------------------

@dataclass(frozen=True)
class GameWire:
    """How one game's observations and actions map onto its typed messages.

    ``field`` is the game's name in the ``Observation``/``Action`` oneofs (``sky_team``).
    ``action_to_dict``/``action_from_dict`` map an engine action onto its typed action
    message's fields; by default a NamedTuple or dataclass action maps field by field, and
    a game with several action classes names them in ``action_classes`` (the oneof field of
    each class is its snake_case name).
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


WIRES: dict[str, GameWire] = {}


def register_wire(wire: GameWire) -> GameWire:
    WIRES[wire.game] = wire
    return wire


def wire_for(game: str) -> GameWire | None:
    if not WIRES:
        _load_game_wires()
    return WIRES.get(game)


_loaded = False


def _load_game_wires() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    from . import games_wire  # noqa: F401  (registers the typed games)


def _snake(name: str) -> str:
    out = []
    for i, ch in enumerate(name):
        if ch.isupper() and i and not name[i - 1].isupper():
            out.append("_")
        out.append(ch.lower())
    return "".join(out)


def _action_fields(action: Any) -> dict[str, Any]:
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


def _build_action(cls: type, data: Mapping[str, Any]) -> Any:
    """Rebuild an action of class ``cls`` from its field dict (lists become tuples)."""
    hints = {}
    try:
        from typing import get_type_hints

        hints = get_type_hints(cls)
    except Exception:  # a forward reference we cannot resolve: fall back to plain values
        hints = {}
    kwargs = {}
    for key, value in data.items():
        hint = hints.get(key)
        if isinstance(value, list):
            value = tuple(value)
        if isinstance(hint, type) and hasattr(hint, "__members__") and value is not None:
            value = hint(value)  # an Enum field
        kwargs[key] = value
    return cls(**kwargs)


# ----- observations ----------------------------------------------------------------------

def observation_to_proto(game: str, data: Mapping[str, Any], out: game_pb2.Observation | None = None,
                         wire: GameWire | None | bool = True) -> game_pb2.Observation:
    """The wire form of an engine observation: the game's typed message, or JSON text.
    ``wire`` may pass the game's GameWire (or None) when the caller already looked it up."""
    message = out if out is not None else game_pb2.Observation()
    if wire is True:
        wire = wire_for(game)
    if not isinstance(wire, GameWire):
        message.json = json.dumps(data, separators=(",", ":"))
        return message
    if wire.observation_out is not None:
        data = wire.observation_out(data)
    dict_to_message(data, getattr(message, wire.field))
    getattr(message, wire.field).SetInParent()
    return message


def observation_from_proto(game: str, message: game_pb2.Observation) -> dict[str, Any]:
    """The engine's observation dict back from the wire."""
    which = message.WhichOneof("game")
    if which == "json":
        data = json.loads(message.json)
        if not isinstance(data, dict):
            raise ConversionError("the observation JSON is not an object")
        return data
    if which is None:
        raise ConversionError("the observation is empty: the referee sent neither JSON nor a typed message")
    wire = wire_for(game)
    if wire is None or wire.field != which:
        raise ConversionError(f"the referee sent a {which!r} observation for game {game!r}; is the SDK up to date?")
    data = message_to_dict(getattr(message, which))
    if wire.observation_in is not None:
        data = wire.observation_in(data)
    return data


# ----- actions ---------------------------------------------------------------------------

def action_to_proto(game: str, action: Any, out: game_pb2.Action | None = None,
                    wire: GameWire | None = None) -> game_pb2.Action:
    """The wire form of an engine action: notation, plus the typed message if the game has one."""
    message = out if out is not None else game_pb2.Action()
    message.notation = str(action)
    wire = wire if wire is not None else wire_for(game)
    if wire is not None and not isinstance(action, str):
        data = wire.action_out(action) if wire.action_out is not None else _default_action_out(wire, action)
        typed = getattr(message, wire.field)
        dict_to_message(data, typed)
        typed.SetInParent()
    return message


def _default_action_out(wire: GameWire, action: Any) -> dict[str, Any]:
    fields = _action_fields(action)
    if len(wire.action_classes) > 1:
        return {_snake(type(action).__name__): fields}
    return fields


def action_from_proto(game: str, message: game_pb2.Action) -> Any:
    """The engine action of a typed action message, or its notation string when it has none."""
    wire = wire_for(game)
    if wire is None or _which(message, "game") != wire.field:
        return message.notation
    data = message_to_dict(getattr(message, wire.field))
    if wire.action_in is not None:
        return wire.action_in(data)
    classes = wire.action_classes
    if len(classes) == 1:
        return _build_action(classes[0], data)
    by_name = {_snake(c.__name__): c for c in classes}
    typed = getattr(message, wire.field)
    which = typed.WhichOneof("kind")
    if which is None or which not in by_name:
        raise ConversionError(f"the {game} action message names no action kind")
    return _build_action(by_name[which], data[which])


def legal_actions_from_proto(game: str, messages: Sequence[game_pb2.Action]) -> list[Any]:
    """The legal actions a bot is handed: engine action objects where the game has typed
    messages, notation strings otherwise (the same values local play hands it)."""
    wire = wire_for(game)
    if wire is None:
        return [m.notation for m in messages]
    return [action_from_proto(game, m) for m in messages]
