"""Every bad archive is refused by the real Arena with a message that says what to fix, and
nothing is stored; a bot that passes the checks but crashes in its smoke match is failed with
its log, and stays off the ladders."""

from __future__ import annotations

import io
import tarfile
import zipfile
from collections.abc import Callable

import grpc
import pytest

from skyarena.v1 import arena_pb2 as pb
from workers.store import Database

from .support import GOOD_BOT, TEST_LIMITS, ArenaUnderTest, manifest, tar_archive


def _special(name: str, kind: bytes, target: str = "") -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type = kind
    info.linkname = target
    return info


def _zip(entries: list[tuple[str, bytes, int]]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data, mode in entries:
            info = zipfile.ZipInfo(name)
            info.external_attr = mode << 16
            archive.writestr(info, data)
    return buffer.getvalue()


BASE = [("skyarena.toml", manifest()), ("bot.py", GOOD_BOT)]

BAD_ARCHIVES: dict[str, tuple[Callable[[], bytes], str]] = {
    "zip-slip": (lambda: tar_archive([*BASE, ("../x", b"escape")]), "climbs out of the bot's folder"),
    "zip-slip in a zip": (lambda: _zip([("skyarena.toml", manifest(), 0o100644), ("bot.py", GOOD_BOT, 0o100644),
                                        ("a/../../x", b"escape", 0o100644)]), "climbs out of the bot's folder"),
    "absolute path": (lambda: tar_archive([*BASE, ("/etc/cron.d/x", b"* * * * * root sh")]), "absolute path"),
    "symlink": (lambda: tar_archive([*BASE, _special("data", tarfile.SYMTYPE, "/etc/passwd")]), "is a link"),
    "symlink in a zip": (lambda: _zip([("skyarena.toml", manifest(), 0o100644), ("bot.py", GOOD_BOT, 0o100644),
                                       ("data", b"/etc/passwd", 0o120777)]), "is a link"),
    "hard link": (lambda: tar_archive([*BASE, _special("data", tarfile.LNKTYPE, "bot.py")]), "is a link"),
    "device": (lambda: tar_archive([*BASE, _special("disk", tarfile.CHRTYPE)]), "device"),
    "fifo": (lambda: tar_archive([*BASE, _special("pipe", tarfile.FIFOTYPE)]), "device, fifo"),
    "bomb past the unpacked cap": (
        lambda: tar_archive([*BASE, ("zeros.bin", bytes(TEST_LIMITS.max_unpacked_bytes + 1))]), "unpacks to more than"),
    "too many files": (lambda: tar_archive([*BASE, *((f"f{i}.txt", b"x") for i in range(TEST_LIMITS.max_files))]),
                       f"more than {TEST_LIMITS.max_files} entries"),
    "not an archive": (lambda: b"just some bytes, not a tar or zip" * 10, "not a tar, tar.gz or zip"),
    "missing manifest": (lambda: tar_archive([("bot.py", GOOD_BOT)]), "has no skyarena.toml"),
    "malformed manifest": (lambda: tar_archive([("skyarena.toml", b"game = sky-team\n["), ("bot.py", GOOD_BOT)]),
                           "not valid TOML"),
    "manifest without entry": (lambda: tar_archive([("skyarena.toml", b'game = "sky-team"\nname = "x"\n'),
                                             ("bot.py", GOOD_BOT)]), "names no entry point"),
    "unknown game": (lambda: tar_archive([("skyarena.toml", manifest(game="chess")), ("bot.py", GOOD_BOT)]),
                     "unknown game 'chess'"),
    "missing entry point": (lambda: tar_archive([("skyarena.toml", manifest(entry="main.py")), ("bot.py", GOOD_BOT)]),
                            "'main.py' named in skyarena.toml is not in the archive"),
    "entry point without a Bot": (lambda: tar_archive([("skyarena.toml", manifest()), ("bot.py", b"x = 1\n")]),
                                  "defines no subclass of skyarena.Bot"),
    "entry point that fails to import": (lambda: tar_archive([("skyarena.toml", manifest()),
                                                       ("bot.py", b"import not_a_module_anywhere\n")]),
                                         "No module named 'not_a_module_anywhere'"),
    "Bot without act": (lambda: tar_archive([("skyarena.toml", manifest()),
                                      ("bot.py", b"from skyarena import Bot\nclass Lazy(Bot):\n    pass\n")]),
                        "does not implement act"),
}


def _stored(db: Database) -> dict[str, int]:
    with db.connection() as conn:
        return {table: conn.execute(f"SELECT count(*) AS n FROM {table}").fetchone()["n"]  # type: ignore[index]
                for table in ("blobs", "bots", "bot_versions", "matches")}


@pytest.mark.parametrize("case", sorted(BAD_ARCHIVES))
def test_a_bad_archive_is_refused_with_what_to_fix_and_nothing_is_stored(case: str, arena: ArenaUnderTest,
                                                                        db: Database) -> None:
    make, expected = BAD_ARCHIVES[case]
    token = arena.token("mallory")
    with pytest.raises(grpc.RpcError) as refused:
        arena.submit(make(), token)
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT, refused.value.details()
    assert expected in refused.value.details()
    assert _stored(db) == {"blobs": 0, "bots": 0, "bot_versions": 0, "matches": 0}
    assert arena.smokes.threads == []


def test_an_upload_past_the_cap_is_cut_off_whatever_its_header_says(arena: ArenaUnderTest,
                                                                    db: Database) -> None:
    token = arena.token("mallory")
    too_big = bytes(TEST_LIMITS.max_archive_bytes + 1)
    with pytest.raises(grpc.RpcError) as announced:
        arena.submit(too_big, token)
    assert announced.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert "above the cap" in announced.value.details()

    def lying() -> object:
        yield pb.SubmitChunk(header=pb.SubmitHeader(size=10))
        for _ in range(TEST_LIMITS.max_archive_bytes // 32768 + 2):
            yield pb.SubmitChunk(data=bytes(32768))

    with pytest.raises(grpc.RpcError) as streamed:
        arena.stub.SubmitVersion(lying(), metadata=(("authorization", f"Bearer {token}"),), timeout=60)
    assert streamed.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert "passed the cap" in streamed.value.details()
    assert _stored(db)["blobs"] == 0


def test_a_damaged_upload_is_refused_by_its_hash(arena: ArenaUnderTest, db: Database) -> None:
    with pytest.raises(grpc.RpcError) as refused:
        arena.submit(tar_archive(BASE), arena.token("mallory"), sha256="0" * 64)
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "upload was damaged" in refused.value.details()
    assert _stored(db)["blobs"] == 0


CRASHING_BOT = b'''import sys
from skyarena import Bot


class Crashing(Bot):
    def act(self, observation, legal_actions):
        print("about to divide by zero", file=sys.stderr)
        return 1 // 0
'''


def test_a_bot_that_crashes_in_its_smoke_match_fails_with_its_log_and_stays_off_the_ladders(
        arena: ArenaUnderTest, db: Database) -> None:
    token = arena.token("dave")
    response = arena.submit(tar_archive([("skyarena.toml", manifest(name="crashy")), ("bot.py", CRASHING_BOT)]), token)
    assert response.version.status == "smoke"
    [result] = arena.smokes.wait()
    assert result.status == "failed" and result.scheduled == ()
    info = arena.call("GetVersion", pb.GetVersionRequest(version_id=response.version.id), token)
    assert info.status == "failed"
    assert "failed its smoke match" in info.status_message and "exception" in info.status_message
    assert f"skyarena logs {info.smoke_match_id}" in info.status_message  # what to do next
    log = arena.call("GetBotLog", pb.GetBotLogRequest(match_id=info.smoke_match_id, seat=-1), token)
    assert b"about to divide by zero" in log.log
    with db.connection() as conn:
        kept = conn.execute("SELECT smoke_log FROM bot_versions WHERE id = %s", (info.id,)).fetchone()
    assert kept is not None and b"about to divide by zero" in bytes(kept["smoke_log"])
