"""The shared reader of the ``setup`` option: the checks every game makes alike."""

from __future__ import annotations

import pytest

from referee.games import OptionError
from referee.games.core.setup_fields import SetupFields, is_integer

FIELDS = SetupFields("demo: option 'setup': {} (see the README).")


def test_a_bool_is_never_an_integer_nor_a_seat() -> None:
    assert is_integer(3) and not is_integer(True) and not is_integer(3.0)
    with pytest.raises(OptionError, match=r"^demo: option 'setup': 'round' must be an integer from 1 to 7, "
                                          r"got True \(see the README\)\.$"):
        FIELDS.integer(True, "'round'", 1, 7)
    with pytest.raises(OptionError, match="'lead' must be a seat from 0 to 1, got False"):
        FIELDS.seat(False, "'lead'", 2)


@pytest.mark.parametrize(("value", "low", "high", "says"), [
    (0, 1, None, "campaign must be an integer of at least 1, got 0"),
    (9, None, 8, "campaign must be an integer of at most 8, got 9"),
    ("2", None, None, "campaign must be an integer, got '2'"),
])
def test_integer_bounds_are_named(value: object, low: int | None, high: int | None, says: str) -> None:
    with pytest.raises(OptionError, match=says):
        FIELDS.integer(value, "campaign", low, high)
    assert FIELDS.integer(5, "campaign", low, high) == 5


def test_keys_and_lists() -> None:
    with pytest.raises(OptionError, match="setup: unknown key 'deal'; known keys: hands, lead"):
        FIELDS.known_keys({"hands": [], "deal": 1}, ("hands", "lead"), "setup: ")
    FIELDS.known_keys({"lead": 0}, ("hands", "lead"))
    with pytest.raises(OptionError, match="'grids' must be a list, got dict"):
        FIELDS.listed({}, "'grids'")
    with pytest.raises(OptionError, match=r"'grids' must have 3 entries \(one per seat\), got 2"):
        FIELDS.listed([[], []], "'grids'", 3, "one per seat")
    assert FIELDS.listed([1, 2], "'grids'", 2) == [1, 2]
