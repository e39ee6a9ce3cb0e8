"""One archive rule for the Arena and the worker: what intake accepts, the worker unpacks; what the
worker would refuse, intake refuses first, with the same message.

The archive ``tar -C mybot -czf mybot.tgz .`` makes (a ``./`` entry first) goes through the real
Arena and its smoke match on a real worker path (MatchPlayer: CodeCache, sandbox, referee) to
``active``; the hostile archives are refused by both readers without costing either memory."""

from __future__ import annotations

import subprocess
import time
import tracemalloc
from pathlib import Path

import pytest

from workers.archive_rules import ArchiveLimits, ArchiveRefused, read_archive
from workers.bot_code import ArchiveRejected, unpack

from .attack_support import folder_entry, pax_bomb
from .support import GOOD_BOT, ArenaUnderTest, manifest, tar_archive


def _tar_of_folder(tmp_path: Path) -> bytes:
    folder = tmp_path / "mybot"
    (folder / "lib").mkdir(parents=True)
    (folder / "bot.py").write_bytes(GOOD_BOT)
    (folder / "lib" / "__init__.py").write_bytes(b"")
    (folder / "lib" / "choice.py").write_bytes(b"def first():\n    return 0\n")
    (folder / "skyarena.toml").write_bytes(manifest(name="dotslash"))
    out = tmp_path / "mybot.tgz"
    subprocess.run(["tar", "-C", str(folder), "-czf", str(out), "."], check=True)
    return out.read_bytes()


def test_a_tar_of_dot_is_accepted_by_the_arena_and_unpacked_by_the_worker(arena: ArenaUnderTest,
                                                                          tmp_path: Path) -> None:
    archive = _tar_of_folder(tmp_path)
    names = subprocess.run(["tar", "-tzf", str(tmp_path / "mybot.tgz")], capture_output=True, text=True,
                           check=True).stdout.split()
    assert names[0] == "./", names
    token = arena.token("dot")
    response = arena.submit(archive, token)
    assert response.version.status == "smoke"
    [result] = arena.smokes.wait()
    assert result.status == "active", result
    unpacked = tmp_path / "worker"
    unpack(archive, unpacked)
    assert (unpacked / "lib" / "choice.py").read_bytes() == b"def first():\n    return 0\n"


@pytest.mark.parametrize(("entries", "message"), [
    ([("bot.py", GOOD_BOT), (".", b"x")], "a file entry named '.'"),
    ([("bot.py", GOOD_BOT), ("lib", b"x"), ("lib/util.py", b"x = 1\n")], "both as a file and as a folder"),
    ([("bot.py", GOOD_BOT), folder_entry("bot.py")], "both as a file and as a folder"),
    ([("../bot.py", GOOD_BOT)], "climbs out"),
])
def test_the_worker_refuses_what_the_arena_refuses_with_the_same_reason(tmp_path: Path, entries: list,
                                                                        message: str) -> None:
    archive = tar_archive([("skyarena.toml", manifest()), *entries])
    with pytest.raises(ArchiveRefused, match=message):
        read_archive(archive, ArchiveLimits())
    with pytest.raises(ArchiveRejected, match=message):
        unpack(archive, tmp_path / "out")


def test_a_pax_header_bomb_costs_neither_reader_its_body(tmp_path: Path) -> None:
    bomb = pax_bomb()
    for read in (lambda: read_archive(bomb, ArchiveLimits()), lambda: unpack(bomb, tmp_path / "out")):
        tracemalloc.start()
        started = time.monotonic()
        with pytest.raises((ArchiveRefused, ArchiveRejected), match="extended tar header"):
            read()
        took = time.monotonic() - started
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        assert took < 1.0 and peak < 4 << 20, (took, peak)
