"""Engine observations <-> ``Observation`` messages: the game's typed message, or JSON text."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from skyarena.v1 import game_pb2

from .fast import build_message, message_kwargs, read_message
from .registry import GameWire, wire_for
from .shapes import ConversionError

_orjson: Any
try:
    import orjson as _orjson
except ImportError:  # the SDK alone does not need it
    _orjson = None

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
