"""Every registered game and player count has a golden playthrough that still matches."""

from __future__ import annotations

import difflib

import pytest

from tests.games.golden import all_cases, golden_path, playthrough


@pytest.mark.parametrize(("game", "players"), all_cases())
def test_golden_playthrough_matches(game: str, players: int) -> None:
    path = golden_path(game, players)
    assert path.exists(), f"no golden file {path.name}; run `make golden` and commit it"
    expected = path.read_text()
    actual = playthrough(game, players)
    if actual != expected:
        diff = "".join(list(difflib.unified_diff(
            expected.splitlines(True), actual.splitlines(True), "golden", "now", n=1))[:60])
        pytest.fail(f"{path.name} differs from the engine's playthrough (run `make golden` if intended):\n{diff}")
