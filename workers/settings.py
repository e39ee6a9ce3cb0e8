"""A season's stored settings (JSON objects) read back into the frozen parameter classes."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, TypeVar

T = TypeVar("T")


def from_mapping(cls: type[T], values: Mapping[str, Any], what: str, error: type[ValueError]) -> T:
    """``cls(**values)``, with unknown keys named in ``error`` (the class checks the ranges itself)."""
    if not isinstance(values, Mapping):
        raise error(f"{what} must be an object of name: value pairs, not {values!r}")
    known = {f.name for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    unknown = sorted(set(values) - known)
    if unknown:
        raise error(f"unknown {what} {', '.join(unknown)}: the known ones are {', '.join(sorted(known))}")
    return cls(**values)
