"""Observation objects handed to bots.

The engines produce JSON-ready dicts; each game's SDK module turns them into a typed,
documented dataclass (``skyarena.games.<game>.Observation``). Local play and remote play
(gRPC or stdio) build the same objects from the same data, so a bot behaves identically
on a laptop and on the platform.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, TypeVar, get_type_hints

ObsT = TypeVar("ObsT", bound="Observation")


@dataclasses.dataclass(frozen=True)
class Observation:
    """Base of every game's observation. ``raw`` keeps the engine's dict as received."""

    raw: Mapping[str, Any] = dataclasses.field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_json(cls: type[ObsT], data: Mapping[str, Any]) -> ObsT:
        """Build from the engine's dict; fields are filled by name, nested dataclasses too.

        A game whose dict does not map one-to-one onto its fields overrides this.
        """
        return _build(cls, data, keep_raw=True)

    def to_json(self) -> dict[str, Any]:
        return dict(self.raw)

    def __getitem__(self, key: str) -> Any:
        return self.raw[key]


_FIELD_HINTS: dict[type[Any], tuple[tuple[str, Any], ...]] = {}


def _field_hints(cls: type[Any]) -> tuple[tuple[str, Any], ...]:
    """(name, type hint) of a dataclass's fields, computed once per class: resolving string
    annotations is far slower than building the observation itself."""
    cached = _FIELD_HINTS.get(cls)
    if cached is None:
        hints = get_type_hints(cls)
        cached = tuple((f.name, hints.get(f.name)) for f in dataclasses.fields(cls) if f.name != "raw")
        _FIELD_HINTS[cls] = cached
    return cached


def _build(cls: type[Any], data: Mapping[str, Any], keep_raw: bool = False) -> Any:
    kwargs: dict[str, Any] = {}
    for name, hint in _field_hints(cls):
        if name in data:
            kwargs[name] = _convert(hint, data[name])
    if keep_raw:
        kwargs["raw"] = dict(data)
    return cls(**kwargs)


def _convert(hint: Any, value: Any) -> Any:
    if isinstance(hint, type) and dataclasses.is_dataclass(hint) and isinstance(value, Mapping):
        return _build(hint, value)
    args = getattr(hint, "__args__", None)
    origin = getattr(hint, "__origin__", None)
    if args and origin in (list, tuple) and isinstance(value, list):
        inner = args[0]
        if isinstance(inner, type) and dataclasses.is_dataclass(inner):
            items = [_build(inner, v) if isinstance(v, Mapping) else v for v in value]
        else:
            items = [_convert(inner, v) for v in value]
        return tuple(items) if origin is tuple else items
    if isinstance(value, list):
        return tuple(value) if origin is tuple else value
    return value


@dataclasses.dataclass(frozen=True)
class GenericObservation(Observation):
    """For a game without a typed class: index it like the engine's dict."""

    def __getattr__(self, name: str) -> Any:
        try:
            return self.raw[name]
        except KeyError:
            raise AttributeError(name) from None
