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
import functools
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, get_type_hints

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from skyarena.v1 import common_pb2, game_pb2

_orjson: Any
try:
    import orjson as _orjson
except ImportError:  # the SDK alone does not need it
    _orjson = None

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


_KINDS: dict[str, str | None] = {}
_OMIT: dict[str, bool] = {}


def _wrapper_kind(desc: Descriptor) -> str | None:
    """How a message stands for a plain JSON value: 'json' (any value), 'union' (one of
    several scalar types), 'list' (a list inside a list), 'nullable' (a list element that
    may be null), or None for a message that is a JSON object."""
    name = desc.full_name
    if name in _KINDS:
        return _KINDS[name]
    kind: str | None = None
    if name == "skyarena.v1.Json":
        kind = "json"
    elif any(o.name == "value" and len(o.fields) == len(desc.fields) for o in desc.oneofs):
        kind = "union"
    elif len(desc.fields) == 1:
        only = desc.fields[0]
        if only.name == "values" and only.is_repeated and not _is_map(only):
            kind = "list"
        elif only.name == "value" and not only.is_repeated and only.has_presence:
            kind = "nullable"
    _KINDS[name] = kind
    return kind


def _omitted(field: Field) -> bool:
    """The field's key is left out of the JSON when unset (option omit_when_unset)."""
    name = field.full_name
    if name not in _OMIT:
        _OMIT[name] = bool(field.GetOptions().Extensions[common_pb2.omit_when_unset])
    return _OMIT[name]


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
        if field.message_type is not None and not field.is_repeated:
            kind = _wrapper_kind(field.message_type)
            if kind == "json":
                getattr(message, name).null = True
            elif _omitted(field):
                raise ConversionError(f"{message.DESCRIPTOR.full_name}.{name} is null but an unset field "
                                      "means an absent key; make it a Json field")
            return
        if field.is_repeated or not field.has_presence:
            raise ConversionError(f"{message.DESCRIPTOR.full_name}.{name} is null but the field is not optional")
        if _omitted(field):
            raise ConversionError(f"{message.DESCRIPTOR.full_name}.{name} is null but an unset field means an "
                                  "absent key; make it a Json field")
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
    if kind == "json":
        _json_to_message(value, target)
    elif kind == "union":
        if value is None:
            target.SetInParent()
            return
        for member in desc.oneofs_by_name["value"].fields:
            try:
                setattr(target, member.name, _scalar(member, value, target, member.name))
                return
            except ConversionError:
                continue
        raise ConversionError(f"{desc.full_name} ({where}) has no member for {value!r}")
    elif kind == "list" and isinstance(value, (list, tuple)):
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


def _json_to_message(value: Any, target: Any) -> None:
    """Any JSON value into a skyarena.v1.Json message."""
    if value is None:
        target.null = True
    elif isinstance(value, bool):
        target.bool_value = value
    elif isinstance(value, int):
        target.int_value = value
    elif isinstance(value, float):
        target.number_value = value
    elif isinstance(value, str):
        target.string_value = value
    elif isinstance(value, (list, tuple)):
        items = target.list_value
        items.SetInParent()
        for item in value:
            _json_to_message(item, items.values.add())
    elif isinstance(value, Mapping):
        fields = target.object_value
        fields.SetInParent()
        for key, item in value.items():
            _json_to_message(item, fields.fields[str(key)])
    else:
        raise ConversionError(f"{value!r} ({type(value).__name__}) is not JSON")


def _json_from_message(message: Any) -> Any:
    which = message.WhichOneof("kind")
    if which is None or which == "null":
        return None
    if which == "list_value":
        return [_json_from_message(v) for v in message.list_value.values]
    if which == "object_value":
        source = message.object_value.fields
        return {k: _json_from_message(source[k]) for k in source}
    return getattr(message, which)


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
    """The dict :func:`dict_to_message` was given: unset optionals as None, and no key for an
    unset field marked omit_when_unset."""
    out: dict[str, Any] = {}
    for field in message.DESCRIPTOR.fields:
        if _omitted(field) and not _is_set(message, field):
            continue
        out[field.name] = _get_field(message, field)
    return out


def _is_set(message: Message, field: Field) -> bool:
    if field.is_repeated:
        return len(getattr(message, field.name)) > 0
    if field.has_presence:
        return message.HasField(field.name)
    return True


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
    if kind == "json":
        return _json_from_message(item)
    if kind == "union":
        which = item.WhichOneof("value")
        return None if which is None else getattr(item, which)
    if kind is not None:
        return _get_field(item, item.DESCRIPTOR.fields[0])
    return message_to_dict(item)


# ----- the fast paths --------------------------------------------------------------------
# The walk above checks everything and explains every mismatch, but it is slow (a Python
# step per field). On the hot path the referee and the SDK instead (1) turn the JSON into
# constructor arguments, rewriting only the values that need a wrapper message, and let the
# protobuf runtime build the whole message in C; (2) read a message back from ListFields()
# onto a per-type template of defaults. Both are compiled once per message type. When the
# fast build fails, the walk runs to say exactly what does not fit.

_PLANS: dict[str, dict[str, Any]] = {}
_TEMPLATES: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {}


def _plan(desc: Descriptor) -> dict[str, Any]:
    """Field name -> function rewriting its JSON value into constructor form, for the fields
    that need it (wrappers, Json, or messages containing such)."""
    name = desc.full_name
    plan = _PLANS.get(name)
    if plan is not None:
        return plan
    _PLANS[name] = plan = {}  # (recursive types see an empty plan while this one is built)
    for field in desc.fields:
        fn = _field_rewriter(field)
        if fn is not None:
            plan[field.name] = fn
    return plan


def _element_rewriter(desc: Descriptor) -> Any:
    """A function rewriting one JSON value held by a message of type ``desc``, or None if the
    value goes to the constructor as it is."""
    kind = _wrapper_kind(desc)
    if kind == "json":
        return _json_kwargs
    if kind == "nullable":
        return lambda v: {} if v is None else {"value": v}
    if kind == "union":
        members: dict[type, str] = {}
        for member in desc.oneofs_by_name["value"].fields:
            if member.type in _INT_TYPES:
                members[int] = member.name
            elif member.type == FieldDescriptor.TYPE_STRING:
                members[str] = member.name
            elif member.type in _FLOAT_TYPES:
                members[float] = member.name
            elif member.type == FieldDescriptor.TYPE_BOOL:
                members[bool] = member.name
        return lambda v: {} if v is None else {members[type(v)]: v}
    if kind == "list":
        inner = desc.fields[0]
        inner_fn = _element_rewriter(inner.message_type) if inner.message_type is not None else None
        if inner_fn is None:
            return lambda v: {"values": v}
        return lambda v: {"values": [inner_fn(x) for x in v]}
    plan = _plan(desc)
    if not plan:
        return None
    return lambda v: v if v is None else _rewrite(plan, v)


def _field_rewriter(field: Field) -> Any:
    if _is_map(field):
        value_field = field.message_type.fields_by_name["value"]
        if value_field.message_type is None:
            return None
        fn = _element_rewriter(value_field.message_type)
        return None if fn is None else (lambda v: {k: fn(x) for k, x in v.items()})
    if field.message_type is None:
        return None
    fn = _element_rewriter(field.message_type)
    if fn is None:
        return None
    if field.is_repeated:
        return lambda v: [fn(x) for x in v]
    if _wrapper_kind(field.message_type) == "json":
        return fn
    return lambda v: None if v is None else fn(v)


def _rewrite(plan: dict[str, Any], data: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(data)
    for name, fn in plan.items():
        if name in out:
            out[name] = fn(out[name])
    return out


def _json_kwargs(value: Any) -> dict[str, Any]:
    if value is None:
        return {"null": True}
    if isinstance(value, bool):
        return {"bool_value": value}
    if isinstance(value, int):
        return {"int_value": value}
    if isinstance(value, float):
        return {"number_value": value}
    if isinstance(value, str):
        return {"string_value": value}
    if isinstance(value, (list, tuple)):
        return {"list_value": {"values": [_json_kwargs(v) for v in value]}}
    if isinstance(value, Mapping):
        return {"object_value": {"fields": {str(k): _json_kwargs(v) for k, v in value.items()}}}
    raise ConversionError(f"{value!r} ({type(value).__name__}) is not JSON")


def message_kwargs(message_type: type[Message], data: Mapping[str, Any]) -> dict[str, Any]:
    """Constructor arguments building ``message_type`` from JSON data (see the module notes)."""
    plan = _plan(message_type.DESCRIPTOR)
    return _rewrite(plan, data) if plan else dict(data)


def build_message(message_type: type[Message], data: Mapping[str, Any]) -> Message:
    """``message_type`` from JSON data, fast; a ConversionError says what does not fit."""
    try:
        return message_type(**message_kwargs(message_type, data))
    except (ValueError, TypeError, KeyError, AttributeError):
        return dict_to_message(data, message_type())  # raises the precise ConversionError
        # (if it does not, the walk's result is right and only the fast path was too strict)


def _template(desc: Descriptor) -> tuple[dict[str, Any], dict[str, Any]]:
    """(defaults of the keys every dict has, field name -> reader of a set value)."""
    name = desc.full_name
    cached = _TEMPLATES.get(name)
    if cached is not None:
        return cached
    defaults: dict[str, Any] = {}
    readers: dict[str, Any] = {}
    _TEMPLATES[name] = (defaults, readers)
    for field in desc.fields:
        if not _omitted(field):
            if _is_map(field):
                defaults[field.name] = {}
            elif field.is_repeated:
                defaults[field.name] = []
            elif field.message_type is not None or field.has_presence:
                defaults[field.name] = None
            else:
                defaults[field.name] = field.default_value
        readers[field.name] = _field_reader(field)
    return defaults, readers


def _element_reader(desc: Descriptor) -> Any:
    kind = _wrapper_kind(desc)
    if kind == "json":
        return _json_from_message
    if kind == "union":
        return lambda m: None if (w := m.WhichOneof("value")) is None else getattr(m, w)
    if kind == "nullable":
        return lambda m: m.value if m.HasField("value") else None
    if kind == "list":
        inner = desc.fields[0]
        if inner.message_type is None:
            return lambda m: list(m.values)
        inner_read = _element_reader(inner.message_type)
        return lambda m: [inner_read(x) for x in m.values]
    return read_message


def _field_reader(field: Field) -> Any:
    if _is_map(field):
        value_field = field.message_type.fields_by_name["value"]
        if value_field.message_type is None:
            return lambda v: dict(v)
        read = _element_reader(value_field.message_type)
        return lambda v: {k: read(v[k]) for k in v}
    if field.message_type is not None:
        read = _element_reader(field.message_type)
        return (lambda v: [read(x) for x in v]) if field.is_repeated else read
    return list if field.is_repeated else None


def read_message(message: Message) -> dict[str, Any]:
    """The JSON dict of a message (the inverse of :func:`build_message`)."""
    defaults, readers = _template(message.DESCRIPTOR)
    out = dict(defaults)
    for field, value in message.ListFields():
        read = readers[field.name]
        out[field.name] = value if read is None else read(value)
    return out


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
def _type_hints(cls: type) -> dict[str, Any]:
    try:
        return get_type_hints(cls)
    except Exception:  # a forward reference we cannot resolve: fall back to plain values
        return {}


# ----- observations ----------------------------------------------------------------------

# json.dumps with arguments builds an encoder per call; this one is built once.
_json_encode = json.JSONEncoder(separators=(",", ":")).encode


def _compact_json(data: Any) -> str:
    """Compact JSON text; through orjson (the referee's ``server`` extra installs it) about
    ten times faster, which counts on the hot path of every game without typed messages."""
    if _orjson is not None:
        try:
            return _orjson.dumps(data, option=_orjson.OPT_NON_STR_KEYS).decode()
        except TypeError:  # what orjson refuses (an int beyond 64 bits, say): the standard library decides
            pass
    return _json_encode(data)


def observation_kwargs(game: str, data: Mapping[str, Any], wire: GameWire | None | bool = True) -> dict[str, Any]:
    """Constructor arguments of an ``Observation`` message: the game's typed message, or JSON
    text. ``wire`` may pass the game's GameWire (or None) when the caller looked it up."""
    if wire is True:
        wire = wire_for(game)
    if not isinstance(wire, GameWire):
        return {"json": _compact_json(data)}
    if wire.observation_out is not None:
        data = wire.observation_out(data)
    return {wire.field: message_kwargs(wire.observation_type, data)}


def observation_to_proto(game: str, data: Mapping[str, Any], out: game_pb2.Observation | None = None,
                         wire: GameWire | None | bool = True) -> game_pb2.Observation:
    """The wire form of an engine observation: the game's typed message, or JSON text."""
    if wire is True:
        wire = wire_for(game)
    if isinstance(wire, GameWire):
        if wire.observation_out is not None:
            data = wire.observation_out(data)
        typed = build_message(wire.observation_type, data)
        message = out if out is not None else game_pb2.Observation()
        getattr(message, wire.field).CopyFrom(typed)
        return message
    message = out if out is not None else game_pb2.Observation()
    message.json = _compact_json(data)
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
    data = read_message(getattr(message, which))
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
    return {_snake(type(action).__name__): _action_fields(action)}


def action_kwargs(game: str, action: Any, wire: GameWire | None) -> dict[str, Any]:
    """Constructor arguments of an ``Action`` message (notation, plus the typed form)."""
    if wire is None or isinstance(action, str):
        return {"notation": str(action)}
    data = wire.action_out(action) if wire.action_out is not None else _default_action_out(wire, action)
    return {"notation": str(action), wire.field: message_kwargs(wire.action_type, data)}


# Converted actions kept per game: a game offers the same few hundred actions over and over
# (Fly Away hands out about two hundred per decision). A game's store is emptied when it
# reaches this size.
ACTION_CACHE_SIZE = 50_000


class _PerGameCache:
    """Values kept per game, bounded: a game's store is emptied when it is full. Callers
    look up in ``store(game)`` themselves (the lookups sit in per-action loops) and keep
    new values with ``put``."""

    def __init__(self) -> None:
        self._stores: dict[str, dict[Any, Any]] = {}

    def store(self, game: str) -> dict[Any, Any]:
        store = self._stores.get(game)
        if store is None:
            store = self._stores[game] = {}
        return store

    @staticmethod
    def put(store: dict[Any, Any], key: Any, value: Any) -> None:
        if len(store) >= ACTION_CACHE_SIZE:
            store.clear()
        store[key] = value


_ACTION_BYTES = _PerGameCache()
_TYPED_BYTES = _PerGameCache()
_ACTIONS_READ = _PerGameCache()


def action_bytes(game: str, action: Any, wire: GameWire | None) -> bytes:
    """The serialized ``Action`` message of an engine action, kept per game: the referee
    splices these into turn requests, since building hundreds of action messages from dicts
    per decision costs more than the rest of a step."""
    store = _ACTION_BYTES.store(game)
    key = action_key(action)
    try:
        data: bytes | None = store.get(key)
    except TypeError:  # an unhashable action: convert it every time
        return game_pb2.Action(**action_kwargs(game, action, wire)).SerializeToString()
    if data is None:
        data = game_pb2.Action(**action_kwargs(game, action, wire)).SerializeToString()
        _ACTION_BYTES.put(store, key, data)
    return data


def action_key(action: Any) -> tuple[type, Any]:
    """What the per-action caches are keyed by: the value *and its class*. Most engines'
    actions are NamedTuples, and tuples of different classes with the same fields are equal
    with the same hash (Oddball's ``Announce(2) == Protect(2)``, ``Play((1, 2), 0) ==
    Prepare((1, 2), False)``): keyed by value alone, one would be sent as the other."""
    return type(action), action


def typed_action_bytes(game: str, action: Any, wire: GameWire) -> bytes:
    """The deterministic serialization of an engine action's typed message (the game's
    member of ``Action.game``), kept per game: the referee compares a bot's typed answer
    with these, by value, instead of building an engine object from the bot's numbers."""
    store: dict[Any, Any] | None = _TYPED_BYTES.store(game)
    key = action_key(action)
    try:
        data: bytes | None = store.get(key) if store is not None else None
    except TypeError:  # unhashable: convert every time
        data = store = None
    if data is None:
        message = game_pb2.Action.FromString(action_bytes(game, action, wire))
        data = getattr(message, wire.field).SerializeToString(deterministic=True)
        if store is not None:
            _TYPED_BYTES.put(store, key, data)
    return data


def repeated_field_bytes(number: int, payloads: Sequence[bytes]) -> bytes:
    """The wire form of a repeated message field: each payload with its tag and length.
    Merged into a message with ``MergeFromString``, it appends the elements."""
    tag = _varint(number << 3 | 2)
    parts = []
    for payload in payloads:
        parts.append(tag)
        parts.append(_varint(len(payload)))
        parts.append(payload)
    return b"".join(parts)


_SMALL_VARINTS = [bytes([i]) for i in range(0x80)]


def _varint(value: int) -> bytes:
    if value < 0x80:
        return _SMALL_VARINTS[value]
    out = bytearray()
    while value >= 0x80:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def action_from_proto(game: str, message: game_pb2.Action) -> Any:
    """The engine action of a typed action message, or its notation string when it has none."""
    wire = wire_for(game)
    if wire is None or _which(message, "game") != wire.field:
        return message.notation
    data = read_message(getattr(message, wire.field))
    if wire.action_in is not None:
        return wire.action_in(data)
    by_name = _action_classes_by_name(wire)
    typed = getattr(message, wire.field)
    which = typed.WhichOneof("kind")
    if which is None or which not in by_name:
        raise ConversionError(f"the {game} action message names no action kind")
    return _build_action(by_name[which], data[which])


@functools.cache
def _action_classes_by_name(wire: GameWire) -> dict[str, type]:
    return {_snake(c.__name__): c for c in wire.action_classes}


def legal_actions_from_proto(game: str, messages: Sequence[game_pb2.Action]) -> list[Any]:
    """The legal actions a bot is handed: engine action objects where the game has typed
    messages, notation strings otherwise (the same values local play hands it). Immutable
    (hashable) actions are kept by their bytes, so an action seen before is not rebuilt:
    the conversion runs on the bot's clock."""
    wire = wire_for(game)
    if wire is None:
        return [m.notation for m in messages]
    store = _ACTIONS_READ.store(game)
    out = []
    for message in messages:
        key = message.SerializeToString()
        action = store.get(key)
        if action is None:
            action = action_from_proto(game, message)
            if type(action).__hash__ is not None:  # only immutable actions are shared between turns
                _ACTIONS_READ.put(store, key, action)
        out.append(action)
    return out
