"""Shared fixtures."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from referee.games import GAMES
from tests.toy_game import SPEC as TOY_SPEC


@pytest.fixture
def toy_game() -> Iterator[str]:
    """Registers the toy test game for the duration of one test."""
    GAMES[TOY_SPEC.name] = TOY_SPEC
    try:
        yield TOY_SPEC.name
    finally:
        GAMES.pop(TOY_SPEC.name, None)
