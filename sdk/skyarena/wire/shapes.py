"""How a message stands for a JSON value: the conventions every conversion follows.

The conventions are documented in ``proto/skyarena/v1/game.proto``: JSON null is an unset
``optional`` field, a list of lists is a repeated wrapper message whose only field is
``repeated values``, a nullable list element is a wrapper whose only field is ``optional
value``, an object with data-dependent keys is a ``map<string, ...>``, and any JSON value at
all is a ``skyarena.v1.Json``. Both the checked walk (:mod:`.walk`) and the fast path
(:mod:`.fast`) read a message's shape from here, so they cannot disagree on it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from google.protobuf.descriptor import FieldDescriptor

from skyarena.v1 import common_pb2

# Descriptors are typed loosely: the upb runtime hands out its own descriptor classes.
Descriptor = Any
Field = Any

FLOAT_TYPES = (FieldDescriptor.TYPE_DOUBLE, FieldDescriptor.TYPE_FLOAT)
INT_TYPES = (
    FieldDescriptor.TYPE_INT32, FieldDescriptor.TYPE_INT64, FieldDescriptor.TYPE_SINT32, FieldDescriptor.TYPE_SINT64,
    FieldDescriptor.TYPE_UINT32, FieldDescriptor.TYPE_UINT64, FieldDescriptor.TYPE_FIXED32,
    FieldDescriptor.TYPE_FIXED64, FieldDescriptor.TYPE_SFIXED32, FieldDescriptor.TYPE_SFIXED64,
)


class ConversionError(ValueError):
    """Data that does not fit its wire message: a bug in an engine or in a .proto file,
    never a bot's fault. The message names the message, the field and the value."""


def is_map(field: Field) -> bool:
    return field.message_type is not None and field.message_type.GetOptions().map_entry


_KINDS: dict[str, str | None] = {}
_OMIT: dict[str, bool] = {}


def wrapper_kind(desc: Descriptor) -> str | None:
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
        if only.name == "values" and only.is_repeated and not is_map(only):
            kind = "list"
        elif only.name == "value" and not only.is_repeated and only.has_presence:
            kind = "nullable"
    _KINDS[name] = kind
    return kind


def omitted(field: Field) -> bool:
    """The field's key is left out of the JSON when unset (option omit_when_unset)."""
    name = field.full_name
    if name not in _OMIT:
        _OMIT[name] = bool(field.GetOptions().Extensions[common_pb2.omit_when_unset])
    return _OMIT[name]


# ----- the skyarena.v1.Json message ------------------------------------------------------

def json_to_message(value: Any, target: Any) -> None:
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
            json_to_message(item, items.values.add())
    elif isinstance(value, Mapping):
        fields = target.object_value
        fields.SetInParent()
        for key, item in value.items():
            json_to_message(item, fields.fields[str(key)])
    else:
        raise ConversionError(f"{value!r} ({type(value).__name__}) is not JSON")


def json_from_message(message: Any) -> Any:
    which = message.WhichOneof("kind")
    if which is None or which == "null":
        return None
    if which == "list_value":
        return [json_from_message(v) for v in message.list_value.values]
    if which == "object_value":
        source = message.object_value.fields
        return {k: json_from_message(source[k]) for k in source}
    return getattr(message, which)


def json_kwargs(value: Any) -> dict[str, Any]:
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
        return {"list_value": {"values": [json_kwargs(v) for v in value]}}
    if isinstance(value, Mapping):
        return {"object_value": {"fields": {str(k): json_kwargs(v) for k, v in value.items()}}}
    raise ConversionError(f"{value!r} ({type(value).__name__}) is not JSON")
