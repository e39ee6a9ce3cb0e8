"""The checked walk between JSON-ready dicts and messages: slow, exact, and it explains.

A Python step per field, driven by the message descriptors (the conventions are in
:mod:`.shapes`): every key must have a field and every value must fit it, and a mismatch is a
:class:`~.shapes.ConversionError` naming the message, the field and the value. The hot path
uses :mod:`.fast` instead and falls back to this walk only to say what does not fit.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from .shapes import (
    FLOAT_TYPES,
    INT_TYPES,
    ConversionError,
    Descriptor,
    Field,
    is_map,
    json_from_message,
    json_to_message,
    omitted,
    wrapper_kind,
)


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
            kind = wrapper_kind(field.message_type)
            if kind == "json":
                getattr(message, name).null = True
            elif omitted(field):
                raise ConversionError(f"{message.DESCRIPTOR.full_name}.{name} is null but an unset field "
                                      "means an absent key; make it a Json field")
            return
        if field.is_repeated or not field.has_presence:
            raise ConversionError(f"{message.DESCRIPTOR.full_name}.{name} is null but the field is not optional")
        if omitted(field):
            raise ConversionError(f"{message.DESCRIPTOR.full_name}.{name} is null but an unset field means an "
                                  "absent key; make it a Json field")
        return
    if is_map(field):
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
    kind = wrapper_kind(desc)
    if kind == "json":
        json_to_message(value, target)
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


def _scalar(field: Field, value: Any, message: Message, name: str) -> Any:
    kind = field.type
    ok = (
        (kind in INT_TYPES and isinstance(value, int) and not isinstance(value, bool))
        or (kind in FLOAT_TYPES and isinstance(value, (int, float)) and not isinstance(value, bool))
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
        if omitted(field) and not _is_set(message, field):
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
    if is_map(field):
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
    kind = wrapper_kind(item.DESCRIPTOR)
    if kind == "json":
        return json_from_message(item)
    if kind == "union":
        which = item.WhichOneof("value")
        return None if which is None else getattr(item, which)
    if kind is not None:
        return _get_field(item, item.DESCRIPTOR.fields[0])
    return message_to_dict(item)
