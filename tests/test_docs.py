"""The rulebooks in docs/rules and docs/DESIGN.md are the specification's copies: they must not drift."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "rules"


@pytest.mark.parametrize("name", sorted(p.name for p in (ROOT / "docs" / "rules").glob("*.md")))
def test_rulebook_copy_matches_the_specification(name: str) -> None:
    if not SHARED.is_dir():
        pytest.skip("../shared/rules is not beside this checkout (only CI and developers have it)")
    assert (ROOT / "docs" / "rules" / name).read_text() == (SHARED / name).read_text(), (
        f"docs/rules/{name} differs from ../shared/rules/{name}; copy the specification over")


def test_design_copy_matches_the_specification() -> None:
    shared = ROOT.parent / "shared" / "DESIGN.md"
    if not shared.is_file():
        pytest.skip("../shared/DESIGN.md is not beside this checkout (only CI and developers have it)")
    assert (ROOT / "docs" / "DESIGN.md").read_text() == shared.read_text(), (
        "docs/DESIGN.md differs from ../shared/DESIGN.md; copy the specification over")


def test_every_rulebook_is_copied() -> None:
    names = {p.name for p in (ROOT / "docs" / "rules").glob("*.md")}
    assert {"sky-team.md", "skyjo-action.md", "skybirds.md", "oddball-aeronauts.md", "fly-away.md",
            "RULINGS.md"} <= names
