"""A season's stored parameters (rating, matchmaking: JSON objects) read back into frozen dataclasses."""

from __future__ import annotations

import dataclasses
import math
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

    def check_range(self, name: str, low: float, high: float, *, whole: bool = False, upper_name: str = "") -> None:
        """Raise ``ERROR`` unless field ``name`` is a number (``whole``: an integer) from low to high."""
        value = getattr(self, name)
        if whole and (isinstance(value, bool) or not isinstance(value, int)):
            raise self.ERROR(f"{self.WHAT} {name}={value!r} must be a whole number")
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            raise self.ERROR(f"{self.WHAT} {name}={value!r} must be a finite number")
        if not low <= value <= high:
            upper = f"{upper_name} ({high:g})" if upper_name else f"{high:g}"
            raise self.ERROR(f"{self.WHAT} {name}={value:g} is out of range: choose a value from {low:g} to {upper}")
