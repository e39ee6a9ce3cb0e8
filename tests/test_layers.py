"""The import arrows DESIGN.md draws, pinned.

Data flows one way (bot → referee → worker → store → dashboard) and each layer knows only
the ones it stands on. An arrow the wrong way is how a bot author's `pip install .` ends up
needing Postgres, or the referee ends up depending on the bot's client: nothing fails at
first, so a test has to say it. Every import statement counts, also one inside a function
(a lazy import is still a dependency, only a later one). What a running author's command
loads is checked by `tests/sdk/test_import_boundaries.py`.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Where each package's files are, by import name.
PACKAGE_DIRS = {
    "referee": ROOT / "referee",
    "skyarena": ROOT / "sdk" / "skyarena",
    "workers": ROOT / "workers",
    "dashboard": ROOT / "dashboard",
    "serving": ROOT / "serving",
}

# (layer, what it must not import, why). A layer is a package or module prefix; an import
# is refused when it is a refused prefix or lies below one.
RULES: list[tuple[str, tuple[str, ...], str]] = [
    ("referee.games", ("referee.match", "referee.service", "skyarena", "workers", "dashboard", "serving"),
     "the engines are pure rules: no runner, service, bot client or platform"),
    ("referee.match", ("referee.service", "skyarena", "workers", "dashboard", "serving"),
     "the match runner owns clocks and faults for every host (local play, the referee): it knows no host"),
    ("referee.service", ("skyarena.remote", "skyarena.cli", "skyarena.arena", "workers", "dashboard"),
     "the referee serves any client: it must not depend on the bot's client or the platform above it"),
    ("serving", ("referee", "skyarena.remote", "skyarena.cli", "workers", "dashboard"),
     "what both gRPC servers share stands below both"),
    ("workers", ("dashboard", "referee.service"),
     "the workers reach the referee over gRPC only, and the dashboard only reads what they store"),
    ("skyarena", ("workers", "dashboard", "referee.service", "serving"),
     "a bot author's `pip install .` has no server parts"),
    ("dashboard", ("referee.service",),
     "the dashboard reads the store; it never talks to a referee's internals"),
]

def module_name(path: Path) -> str:
    for package, folder in PACKAGE_DIRS.items():
        if path.is_relative_to(folder):
            parts = [package, *path.relative_to(folder).with_suffix("").parts]
            return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
    raise AssertionError(f"{path} is in no package")


def imports_of(path: Path) -> Iterator[tuple[int, str]]:
    """Every absolute module an import statement in the file names, with its line."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.lineno, node.module
            for alias in node.names:  # `from referee import service` names referee.service
                yield node.lineno, f"{node.module}.{alias.name}"


def under(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def source_files() -> Iterator[Path]:
    for folder in PACKAGE_DIRS.values():
        if folder.is_dir():
            yield from (p for p in folder.rglob("*.py") if "v1" not in p.relative_to(folder).parts)


def arrows_against_the_layers() -> list[str]:
    """One line per import statement that points the wrong way."""
    found = {}
    for path in source_files():
        module = module_name(path)
        for layer, refused, why in RULES:
            if not under(module, layer):
                continue
            for line, target in imports_of(path):
                bad = next((r for r in refused if under(target, r)), None)
                where = f"{path.relative_to(ROOT)}:{line}"
                if bad is not None and where not in found:
                    found[where] = f"{where} imports {target}: {layer} must not import {bad} ({why})"
    return sorted(found.values())


def test_every_import_follows_the_layers() -> None:
    assert arrows_against_the_layers() == []


def test_the_scan_sees_lazy_and_from_imports(tmp_path: Path) -> None:
    """The scan must see an arrow however it is written, or the test above proves nothing."""
    sample = tmp_path / "sample.py"
    sample.write_text("def f():\n    from referee import service\n    import workers.store\n", encoding="utf-8")
    names = [name for _, name in imports_of(sample)]
    assert "referee.service" in names and "workers.store" in names


@pytest.mark.parametrize("layer", sorted({rule[0] for rule in RULES}))
def test_each_layer_has_code(layer: str) -> None:
    """A rule over a layer that no file is in would pass forever: each names real code."""
    assert any(under(module_name(p), layer) for p in source_files()), f"no module is in {layer}"
