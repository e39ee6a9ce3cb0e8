"""The fast path between JSON-ready dicts and messages, for every decision of every match.

The checked walk (:mod:`.walk`) checks everything and explains every mismatch, but it is
slow (a Python step per field). On the hot path the referee and the SDK instead (1) turn the
JSON into constructor arguments, rewriting only the values that need a wrapper message, and
let the protobuf runtime build the whole message in C; (2) read a message back from
``ListFields()`` onto a per-type template of defaults. Both are compiled once per message
type. When the fast build fails, the walk runs to say exactly what does not fit.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from .shapes import (
    FLOAT_TYPES,
    INT_TYPES,
    Descriptor,
    Field,
    is_map,
    json_from_message,
    json_kwargs,
    omitted,
    wrapper_kind,
)
from .walk import dict_to_message

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
    kind = wrapper_kind(desc)
    if kind == "json":
        return json_kwargs
    if kind == "nullable":
        return lambda v: {} if v is None else {"value": v}
    if kind == "union":
        members: dict[type, str] = {}
        for member in desc.oneofs_by_name["value"].fields:
            if member.type in INT_TYPES:
                members[int] = member.name
            elif member.type == FieldDescriptor.TYPE_STRING:
                members[str] = member.name
            elif member.type in FLOAT_TYPES:
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
    if is_map(field):
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
    if wrapper_kind(field.message_type) == "json":
        return fn
    return lambda v: None if v is None else fn(v)


def _rewrite(plan: dict[str, Any], data: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(data)
    for name, fn in plan.items():
        if name in out:
            out[name] = fn(out[name])
    return out


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
        if not omitted(field):
            if is_map(field):
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
    kind = wrapper_kind(desc)
    if kind == "json":
        return json_from_message
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
    if is_map(field):
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
