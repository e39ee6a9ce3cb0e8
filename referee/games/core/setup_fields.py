"""Reading the fields of a game's ``setup`` option: one reader for every game.

``setup`` is free JSON that a scenario author writes by hand, so every game checks it field
by field and refuses the first wrong one with an OptionError that names the field, what it
must be, and where the format is described. The checks themselves are the same in every
game (an object with known keys, an integer in a range, a seat, a list of a length; a bool
is never an integer, though Python says it is); only the wording around them is the game's,
which the template gives.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NoReturn

from .errors import OptionError


def is_integer(value: Any) -> bool:
    """An int that is not a bool: JSON's true is no card, count or seat."""
    return isinstance(value, int) and not isinstance(value, bool)


class SetupFields:
    """The ``setup`` reader of one game. ``template`` wraps every message: it holds ``{}``
    where the message goes, e.g. ``"sky-team: option 'setup': {} (see its README)."``."""

    __slots__ = ("_template",)

    def __init__(self, template: str) -> None:
        self._template = template

    def error(self, message: str) -> OptionError:
        """The error to raise for ``message`` (for a game's own checks)."""
        return OptionError(self._template.format(message))

    def fail(self, message: str) -> NoReturn:
        raise self.error(message)

    def known_keys(self, raw: dict[str, Any], known: Iterable[str], where: str = "") -> None:
        """Refuses the first key (in sorted order) that is not one of ``known``."""
        names = tuple(known)
        unknown = sorted(set(raw) - set(names), key=str)
        if unknown:
            self.fail(f"{where}unknown key {unknown[0]!r}; known keys: {', '.join(names)}")

    def integer(self, value: Any, what: str, low: int | None = None, high: int | None = None) -> int:
        """``value`` as an integer within ``low``..``high`` (either bound may be open)."""
        if not is_integer(value) or (low is not None and value < low) or (high is not None and value > high):
            if low is not None and high is not None:
                bounds = f" from {low} to {high}"
            elif low is not None:
                bounds = f" of at least {low}"
            elif high is not None:
                bounds = f" of at most {high}"
            else:
                bounds = ""
            self.fail(f"{what} must be an integer{bounds}, got {value!r}")
        return int(value)

    def seat(self, value: Any, what: str, players: int) -> int:
        """``value`` as one of the game's seats."""
        if not is_integer(value) or not 0 <= value < players:
            self.fail(f"{what} must be a seat from 0 to {players - 1}, got {value!r}")
        return int(value)

    def listed(self, value: Any, what: str, length: int | None = None, per: str = "") -> list[Any]:
        """``value`` as a list, of exactly ``length`` entries when given (``per`` says what
        each is for, e.g. "one per seat")."""
        if not isinstance(value, list):
            self.fail(f"{what} must be a list, got {type(value).__name__}")
        if length is not None and len(value) != length:
            self.fail(f"{what} must have {length} entries{f' ({per})' if per else ''}, got {len(value)}")
        return value
