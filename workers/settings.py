"""A season's stored settings (JSON objects) read back into frozen parameter dataclasses."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, ClassVar, Self


class StoredParameters:
    """Mixed into a frozen dataclass whose ``__post_init__`` checks ranges: adds the JSON round trip.

    ``WHAT`` names one parameter in messages ("rating parameter"); ``ERROR`` is the error raised.
    """

    WHAT: ClassVar[str]
    ERROR: ClassVar[type[ValueError]]

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any]) -> Self:
        """Parameters from stored settings; missing keys take the defaults, unknown ones are named."""
        if not isinstance(values, Mapping):
            raise cls.ERROR(f"{cls.WHAT}s must be an object of name: value pairs, not {values!r}")
        known = {f.name for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
        unknown = sorted(set(values) - known)
        if unknown:
            raise cls.ERROR(f"unknown {cls.WHAT} {', '.join(unknown)}: the known ones are {', '.join(sorted(known))}")
        return cls(**values)

    def to_mapping(self) -> dict[str, Any]:
        return dataclasses.asdict(self)  # type: ignore[call-overload, no-any-return]
