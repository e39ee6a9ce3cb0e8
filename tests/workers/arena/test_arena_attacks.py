"""Issue 29's attacks, each made on a real ``skyarena arena serve`` process from outside, as the
live runs made them: what did not hold then is refused or served now, and the Arena stays healthy
(health and a read answer within a second) throughout the stalled-stream and bomb attacks.

One process for the module (its limits are small: see attack_support.LIMITS); each test uses
accounts of its own, so the per-account limits of one test never meet another's.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from skyarena.v1 import arena_pb2 as pb
from workers.house_bots import house_archive
from workers.seasons import SeasonSpec
from workers.store import Database
from workers.store.seasons import create_season, start_season
from workers.store.versions import add_active_version

from ..conftest import database_copy
from ..services import SKYARENA
from .attack_support import (
    STREAM_DEADLINE_S,
    ArenaProcess,
    Prober,
    StalledStream,
    auth,
    folder_entry,
    good_archive,
    pax_bomb,
    start_arena,
)
from .support import GOOD_BOT, cli, manifest, tar_archive


@pytest.fixture(scope="module")
def attacked(postgres_server_url: str, template_database: str) -> Iterator[ArenaProcess]:
    folder = Path(tempfile.mkdtemp(prefix="sk-attack-", dir="/tmp"))
    with database_copy(postgres_server_url, template_database) as url:
        db = Database(url, max_size=2)
        arena = start_arena(db, folder)
        try:
            yield arena
        finally:
            arena.stop()
            db.close()
            shutil.rmtree(folder, ignore_errors=True)


def account() -> str:
    return f"a{uuid.uuid4().hex[:10]}"


def refusal(call: object) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as caught:
        call()  # type: ignore[operator]
    error: grpc.RpcError = caught.value
    return error


# ----- stalled streams ------------------------------------------------------------------------
def test_stalled_uploads_are_capped_and_cut_off_while_health_and_reads_answer(attacked: ArenaProcess) -> None:
    tokens = [attacked.token(account()) for _ in range(8)]
    with Prober(attacked, attacked.token(account())) as prober:
        started = time.monotonic()
        streams = [StalledStream(attacked, token, send_header=i % 2 == 0) for token in tokens for i in range(2)]
        try:
            codes = [s.code(STREAM_DEADLINE_S + 10) for s in streams]
        finally:
            for s in streams:
                s.close()
        took = time.monotonic() - started
        # Four slots in all (two per account): those four run into the stream deadline, the other twelve
        # are refused at once, none waits for a thread.
        assert sorted(c.name for c in codes) == ["DEADLINE_EXCEEDED"] * 4 + ["RESOURCE_EXHAUSTED"] * 12
        assert took < STREAM_DEADLINE_S + 5
        # The slots are free again: the next upload is served.
        again = refusal(lambda: attacked.submit(b"not an archive", tokens[0]))
        assert again.code() == grpc.StatusCode.INVALID_ARGUMENT
    prober.check()


def test_uploads_past_the_cap_are_told_when_to_retry(attacked: ArenaProcess) -> None:
    token = attacked.token(account())
    streams = [StalledStream(attacked, token) for _ in range(2)]
    time.sleep(0.5)  # both hold their slots
    try:
        third = refusal(lambda: attacked.submit(good_archive("third"), token))
    finally:
        for s in streams:
            s.close()
    assert third.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert "uploads in progress already" in third.details() and "try again" in third.details()
    assert dict(third.trailing_metadata())["retry-after"] == "5"


def test_a_stream_of_too_many_chunks_is_refused(attacked: ArenaProcess) -> None:
    def chunks() -> Iterator[pb.SubmitChunk]:
        yield pb.SubmitChunk(header=pb.SubmitHeader(size=10, format="tar.gz"))
        for _ in range(1000):
            yield pb.SubmitChunk(data=b"")

    error = refusal(lambda: attacked.stub.SubmitVersion(chunks(), metadata=auth(attacked.token(account())),
                                                        timeout=30))
    assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED and "more than 40 chunks" in error.details()


# ----- the pax-header bomb ----------------------------------------------------------------------
def test_a_pax_header_bomb_is_refused_before_it_is_read(attacked: ArenaProcess) -> None:
    bomb = pax_bomb()
    assert len(bomb) < 200_000
    token = attacked.token(account())
    before = attacked.rss()
    with Prober(attacked, attacked.token(account())) as prober:
        started = time.monotonic()
        error = refusal(lambda: attacked.submit(bomb, token, format="tar.gz"))
        took = time.monotonic() - started
        time.sleep(0.5)
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "extended tar header" in error.details() and "\n" not in error.details()
    assert took < 2.0
    assert attacked.rss() - before < 16 << 20, "the header's body was read into memory"
    prober.check()


# ----- limits and quotas ------------------------------------------------------------------------
def test_submissions_past_the_rate_are_refused_with_the_retry_time(attacked: ArenaProcess) -> None:
    token = attacked.token(account())
    codes = []
    for _ in range(5):  # the burst: refused archives count too
        codes.append(refusal(lambda: attacked.submit(b"junk", token)).code())
    assert codes == [grpc.StatusCode.INVALID_ARGUMENT] * 5
    limited = refusal(lambda: attacked.submit(b"junk", token))
    assert limited.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert "too many submissions" in limited.details() and "try again in 1 s (after " in limited.details()
    assert dict(limited.trailing_metadata())["retry-after"] == "1"
    other = refusal(lambda: attacked.submit(b"junk", attacked.token(account())))
    assert other.code() == grpc.StatusCode.INVALID_ARGUMENT, "another account's allowance is its own"


def test_versions_past_the_daily_quota_are_refused_with_the_retry_time(attacked: ArenaProcess) -> None:
    token = attacked.token(account())
    one, two = good_archive("quota", "one"), good_archive("quota", "two")
    for archive in (one, two):
        response, _ = attacked.submit(archive, token)
        assert not response.existing and response.version.status == "smoke"
    again, _ = attacked.submit(two, token)  # the same bytes (a gzip header holds its time)
    assert again.existing, "the same archive again stores nothing and counts nothing"
    third = refusal(lambda: attacked.submit(good_archive("quota", "three"), token))
    assert third.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert "stored 2 new versions in the last 24 hours" in third.details()
    retry = int(dict(third.trailing_metadata())["retry-after"])
    assert 86_000 < retry <= 86_400


# ----- standings --------------------------------------------------------------------------------
def test_standings_say_whose_bot_each_row_is(attacked: ArenaProcess, tmp_path: Path) -> None:
    season, authors = f"s{uuid.uuid4().hex[:8]}", [account(), account()]
    with attacked.db.connection() as conn:
        ladder = start_season(conn, create_season(conn, SeasonSpec(season, "sky-team", (2,))).name).ladders[2]
        for i, owner in enumerate(authors):
            version = add_active_version(conn, owner, "bobbot", "sky-team", house_archive("sky-team", "random"),
                                         {"game": "sky-team", "entry": "bot.py", "name": "bobbot"})
            conn.execute("INSERT INTO ratings (ladder_id, version_id, mu, sigma, matches) VALUES (%s, %s, %s, 2, 3)"
                         " ON CONFLICT (ladder_id, version_id) DO UPDATE SET mu = excluded.mu, matches = 3",
                         (ladder, version, 30.0 - i))
    token = attacked.token(account())
    standings = attacked.stub.GetStandings(pb.GetStandingsRequest(season=season), metadata=auth(token), timeout=10)
    assert [(r.bot, r.account) for r in standings.ladders[0].rows] == [("bobbot", a) for a in authors]
    shown = cli(tmp_path, "standings", season, "--arena", attacked.address, "--token", token)
    assert shown.exit_code == 0 and all(a in shown.output for a in authors), shown.output
    as_json = json.loads(cli(tmp_path, "standings", season, "--arena", attacked.address, "--token", token,
                             "--json").stdout)
    assert [r["account"] for r in as_json["ladders"][0]["rows"]] == authors


# ----- one-line refusals ------------------------------------------------------------------------
def test_a_name_ending_in_a_newline_is_refused_in_one_line(attacked: ArenaProcess) -> None:
    token = attacked.token(account())
    bot = refusal(lambda: attacked.submit(good_archive("nl"), token, bot="bobbot\n"))
    assert bot.code() == grpc.StatusCode.INVALID_ARGUMENT and "is not allowed" in bot.details()
    in_manifest = tar_archive([("bot.py", GOOD_BOT), ("skyarena.toml", b'game = "sky-team"\nentry = "bot.py"\n'
                                                                       b'name = "bobbot\\n"\n')])
    assert refusal(lambda: attacked.submit(in_manifest, token)).code() == grpc.StatusCode.INVALID_ARGUMENT
    organiser = attacked.token(account(), "organiser")
    made = refusal(lambda: attacked.stub.CreateToken(pb.CreateTokenRequest(account="eve\n", scope="author"),
                                                     metadata=auth(organiser), timeout=10))
    assert made.code() == grpc.StatusCode.INVALID_ARGUMENT and "is not allowed" in made.details()
    season = refusal(lambda: attacked.stub.CreateSeason(pb.CreateSeasonRequest(name="spring\n", game="sky-team"),
                                                        metadata=auth(organiser), timeout=10))
    assert season.code() == grpc.StatusCode.INVALID_ARGUMENT, season.details()


@pytest.mark.parametrize("entries", [
    [("bot.py", GOOD_BOT), ("skyarena.toml", manifest()), (".", b"x")],
    [("bot.py", GOOD_BOT), ("skyarena.toml", manifest()), ("lib", b"x"), ("lib/util.py", b"x = 1\n")],
    [("bot.py", GOOD_BOT), ("skyarena.toml", manifest()), ("lib", b"x"), folder_entry("lib")],
], ids=["a file named .", "a file and a folder of one name", "a file and a folder entry of one name"])
def test_an_entry_the_folder_cannot_hold_is_refused_in_one_line(attacked: ArenaProcess, entries: list) -> None:
    error = refusal(lambda: attacked.submit(tar_archive(entries), attacked.token(account())))
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT, error.details()
    assert "'.'" in error.details() or "both as a file and as a folder" in error.details()


@pytest.mark.parametrize("expiry", [math.inf, -math.inf, math.nan, 1e300])
def test_an_infinite_or_nan_token_expiry_is_refused_in_one_line(attacked: ArenaProcess, expiry: float) -> None:
    organiser = attacked.token(account(), "organiser")
    error = refusal(lambda: attacked.stub.CreateToken(pb.CreateTokenRequest(account=account(), scope="author",
                                                                            expires_in_s=expiry),
                                                      metadata=auth(organiser), timeout=10))
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT and "expires_in_s must be" in error.details()


def test_oversized_header_fields_are_cut_in_the_refusal_and_the_log(attacked: ArenaProcess) -> None:
    huge = "x" * (64 * 1024)
    logged = attacked.log_path.stat().st_size
    for field in ("bot", "game", "format"):
        token = attacked.token(account())  # four calls each: within an account's burst
        for _ in range(4):  # twelve calls, as in the issue
            error = refusal(lambda t=token, f=field: attacked.submit(good_archive("cut"), t, **{f: huge}))
            assert error.code() == grpc.StatusCode.INVALID_ARGUMENT, (field, error.code(), error.details()[:200])
            assert "[cut: 65536 characters]" in error.details() and len(error.details()) < 1200
    time.sleep(0.5)
    assert attacked.log_path.stat().st_size - logged < 64 * 1024, "twelve refusals must not write the input"


# ----- revoking tokens --------------------------------------------------------------------------
def test_an_organiser_revokes_a_token_or_an_accounts_tokens(attacked: ArenaProcess, tmp_path: Path) -> None:
    organiser, holder = attacked.token(account(), "organiser"), account()
    leaked, laptop, phone = (attacked.token(holder) for _ in range(3))
    args = ("--arena", attacked.address, "--token", organiser)
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("SKYARENA_")},
           "SKYARENA_CONFIG_DIR": str(tmp_path)}
    by_token = subprocess.run([SKYARENA, "token", "revoke", "-", *args], input=leaked + "\n", capture_output=True,
                              text=True, timeout=60, env=env)  # the token on stdin, out of the shell's history
    assert by_token.returncode == 0 and "revoked the token" in by_token.stdout, by_token.stderr
    listed = pb.ListBotsRequest()
    gone = refusal(lambda: attacked.stub.ListBots(listed, metadata=auth(leaked), timeout=10))
    assert gone.code() == grpc.StatusCode.UNAUTHENTICATED and "revoked" in gone.details()
    attacked.stub.ListBots(listed, metadata=auth(laptop), timeout=10)

    by_author = refusal(lambda: attacked.stub.RevokeToken(pb.RevokeTokenRequest(account=holder),
                                                          metadata=auth(laptop), timeout=10))
    assert by_author.code() == grpc.StatusCode.PERMISSION_DENIED
    result = cli(tmp_path, "token", "revoke", "--account", holder, *args, "--json")
    assert result.exit_code == 0 and json.loads(result.stdout) == {"revoked": 2}, result.output
    for token in (laptop, phone):
        assert refusal(lambda t=token: attacked.stub.ListBots(listed, metadata=auth(t), timeout=10)).code() == \
            grpc.StatusCode.UNAUTHENTICATED
    unknown = cli(tmp_path, "token", "revoke", "not-a-token", *args)
    assert unknown.exit_code != 0 and "not known" in unknown.output

