"""The demo's process logs are the operator's alone: created 0600 in a 0700 folder, and an older
run's world-readable log (0644) is made private when the demo appends to it."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from workers.demo.processes import Child


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_childs_log_is_created_private_and_an_old_public_one_made_private(tmp_path: Path) -> None:
    fresh, old = tmp_path / "fresh.log", tmp_path / "old.log"
    old.write_bytes(b"an older run\n")
    old.chmod(0o644)
    previous = os.umask(0o022)  # the usual umask, which made them 0644 before
    try:
        for path in (fresh, old):
            child = Child("version", ["--version"], dict(os.environ), path)
            child.start()
            assert child.proc is not None and child.proc.wait(60) == 0
    finally:
        os.umask(previous)
    assert (_mode(fresh), _mode(old)) == (0o600, 0o600)
    assert old.read_bytes().startswith(b"an older run\n") and b"skyarena --version" in fresh.read_bytes()
