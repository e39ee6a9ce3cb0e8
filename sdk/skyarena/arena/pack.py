"""Packing a bot's folder into the archive ``skyarena submit`` uploads.

A gzip tar with sorted entries, no owners and no timestamps: the same folder always packs to
the same bytes, so submitting an unchanged bot again is recognised as the same version.
Caches, version-control folders and virtual environments are left out; links are packed
as links, which the Arena refuses with a message naming them.
"""

from __future__ import annotations

import gzip
import io
import tarfile
from pathlib import Path

SKIPPED_DIRS = frozenset({"__pycache__", ".git", ".hg", ".venv", "venv", ".mypy_cache", ".pytest_cache",
                          ".ruff_cache"})
SKIPPED_SUFFIXES = (".pyc", ".pyo")


def _members(folder: Path) -> list[Path]:
    found = []
    for path in sorted(folder.rglob("*")):
        relative = path.relative_to(folder)
        if any(part in SKIPPED_DIRS for part in relative.parts) or path.name.endswith(SKIPPED_SUFFIXES):
            continue
        found.append(path)
    return found


def pack_folder(folder: Path) -> bytes:
    buffer = io.BytesIO()
    # mtime=0 in the gzip header too: the bytes depend on the files only.
    with gzip.GzipFile(fileobj=buffer, mode="wb", mtime=0) as gz, tarfile.open(fileobj=gz, mode="w") as archive:
        for path in _members(folder):
            info = archive.gettarinfo(str(path), arcname=path.relative_to(folder).as_posix())
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            info.mtime = 0
            info.mode = 0o755 if info.isdir() else 0o644
            if info.isreg():
                with open(path, "rb") as source:
                    archive.addfile(info, source)
            else:
                archive.addfile(info)
    return buffer.getvalue()
