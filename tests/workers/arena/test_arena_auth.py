"""Tokens and ownership on the real Arena: wrong, expired, revoked and under-scoped tokens are
refused with what to do; one author never reads another's logs nor retires or pauses their bot;
organiser calls run seasons and issue tokens; a token gets the same verdict from every service."""

from __future__ import annotations

import json
import time
from pathlib import Path

import grpc
import pytest

from skyarena.v1 import arena_pb2 as pb
from workers.store.accounts import TokenRefused, check_token, revoke_token

from .support import GOOD_BOT, ArenaUnderTest, cli, manifest, tar_archive


def _refused(call: object, *args: object) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as refused:
        call(*args)  # type: ignore[operator]
    return refused.value


def test_missing_wrong_expired_and_revoked_tokens_are_unauthenticated(arena: ArenaUnderTest) -> None:
    listing = pb.ListBotsRequest()
    no_token = _refused(arena.stub.ListBots, listing)
    assert no_token.code() == grpc.StatusCode.UNAUTHENTICATED and "authorization: Bearer" in no_token.details()

    wrong = _refused(arena.call, "ListBots", listing, "not-a-token")
    assert wrong.code() == grpc.StatusCode.UNAUTHENTICATED and "not known" in wrong.details()

    expiring = arena.token("erin", expires_in_s=0.2)
    assert arena.call("ListBots", listing, expiring).bots == []  # live until it expires
    time.sleep(0.4)
    expired = _refused(arena.call, "ListBots", listing, expiring)
    assert expired.code() == grpc.StatusCode.UNAUTHENTICATED and "expired" in expired.details()

    revoked = arena.token("erin")
    with arena.db.connection() as conn:
        assert revoke_token(conn, revoked)
    refused = _refused(arena.call, "ListBots", listing, revoked)
    assert refused.code() == grpc.StatusCode.UNAUTHENTICATED and "revoked" in refused.details()


def test_author_and_service_tokens_cannot_make_organiser_calls(arena: ArenaUnderTest) -> None:
    author = arena.token("alice")
    service = arena.token("platform", "service")
    calls = [("CreateSeason", pb.CreateSeasonRequest(name="s", game="sky-team")),
             ("StartSeason", pb.SeasonRequest(name="s")), ("CloseSeason", pb.SeasonRequest(name="s")),
             ("PauseVersion", pb.VersionStatusRequest(version_id=1)),
             ("ReinstateVersion", pb.VersionStatusRequest(version_id=1)),
             ("CreateToken", pb.CreateTokenRequest(account="alice", scope="organiser"))]
    for method, request in calls:
        refused = _refused(arena.call, method, request, author)
        assert refused.code() == grpc.StatusCode.PERMISSION_DENIED, method
        assert "author scope; this needs a token with the organiser scope" in refused.details()
    refused = _refused(arena.call, "ListBots", pb.ListBotsRequest(), service)
    assert refused.code() == grpc.StatusCode.PERMISSION_DENIED and "service scope" in refused.details()
    with arena.db.connection() as conn:
        assert conn.execute("SELECT count(*) AS n FROM seasons").fetchone()["n"] == 0  # type: ignore[index]


def test_one_author_never_reads_anothers_logs_nor_retires_or_pauses_their_bot(arena: ArenaUnderTest) -> None:
    alice, bob = arena.token("alice"), arena.token("bob")
    submitted = arena.submit(tar_archive([("skyarena.toml", manifest(name="alices-bot")), ("bot.py", GOOD_BOT)]), alice)
    arena.smokes.wait()
    version = arena.call("GetVersion", pb.GetVersionRequest(version_id=submitted.version.id), alice)
    assert version.status == "active"

    for seat in (-1, 0):  # neither "my seat" nor naming alice's seat gives bob her log
        refused = _refused(arena.call, "GetBotLog", pb.GetBotLogRequest(match_id=version.smoke_match_id, seat=seat),
                           bob)
        assert refused.code() == grpc.StatusCode.PERMISSION_DENIED and "your own bots' logs" in refused.details()
    assert arena.call("GetBotLog", pb.GetBotLogRequest(match_id=version.smoke_match_id, seat=0), alice).log
    peek = _refused(arena.call, "GetVersion", pb.GetVersionRequest(version_id=version.id), bob)
    assert peek.code() == grpc.StatusCode.PERMISSION_DENIED  # nor her version's manifest and archive hash

    not_his = _refused(arena.call, "RetireBot", pb.RetireBotRequest(bot="alices-bot"), bob)
    assert not_his.code() == grpc.StatusCode.NOT_FOUND and "you have no bot called" in not_his.details()
    naming = _refused(arena.call, "RetireBot", pb.RetireBotRequest(bot="alices-bot", account="alice"), bob)
    assert naming.code() == grpc.StatusCode.PERMISSION_DENIED
    pause = _refused(arena.call, "PauseVersion", pb.VersionStatusRequest(version_id=version.id), bob)
    assert pause.code() == grpc.StatusCode.PERMISSION_DENIED
    assert arena.call("ListBots", pb.ListBotsRequest(), bob).bots == []  # bob sees only his own (none)
    assert arena.call("GetVersion", pb.GetVersionRequest(version_id=version.id), alice).status == "active"


def test_organisers_run_seasons_pause_versions_and_issue_tokens(arena: ArenaUnderTest) -> None:
    organiser = arena.token("org", "organiser")
    bad = _refused(arena.call, "CreateSeason", pb.CreateSeasonRequest(name="s1", game="chess"), organiser)
    assert bad.code() == grpc.StatusCode.INVALID_ARGUMENT and "unknown game 'chess'" in bad.details()
    created = arena.call("CreateSeason", pb.CreateSeasonRequest(name="s1", game="sky-team", move_s=2), organiser)
    assert (created.state, list(created.player_counts)) == ("draft", [2])
    assert json.loads(created.summary_json)["move_s"] == 2
    summary = json.loads(created.summary_json)
    assert (summary["cpu_clock"], summary["wall_backstop"]) == (True, 4)
    walled = arena.call("CreateSeason", pb.CreateSeasonRequest(name="s2", game="sky-team", cpu_clock=False,
                                                               wall_backstop=8), organiser)
    summary = json.loads(walled.summary_json)
    assert (summary["cpu_clock"], summary["wall_backstop"]) == (False, 8)
    assert arena.call("StartSeason", pb.SeasonRequest(name="s1"), organiser).state == "active"
    again = _refused(arena.call, "StartSeason", pb.SeasonRequest(name="s1"), organiser)
    assert again.code() == grpc.StatusCode.INVALID_ARGUMENT and "cannot become active" in again.details()
    for request, message in [
            (pb.SeasonRequest(name="s1", finals=1), "finals need at least 2 finalists"),
            (pb.SeasonRequest(name="s1", finals=2, games_per_pair=0), "game budget must be 1 to 10,000"),
            (pb.SeasonRequest(name="s1", games_per_pair=3), "belong to a final: set finals"),
            (pb.SeasonRequest(name="s1", finals=2), "has 0 active version(s) that played, fewer than the 2")]:
        refused = _refused(arena.call, "CloseSeason", request, organiser)       # nothing half-done: still active
        assert refused.code() == grpc.StatusCode.INVALID_ARGUMENT and message in refused.details(), refused.details()
    unsure = _refused(arena.call, "CreateSeason", pb.CreateSeasonRequest(
        name="s2", game="sky-team", matchmaking_json='{"settle_probability": 1}'), organiser)
    assert unsure.code() == grpc.StatusCode.INVALID_ARGUMENT and "strictly between 0.5" in unsure.details()
    assert arena.call("CloseSeason", pb.SeasonRequest(name="s1"), organiser).state == "closed"
    missing = _refused(arena.call, "GetStandings", pb.GetStandingsRequest(season="nope"), organiser)
    assert missing.code() == grpc.StatusCode.NOT_FOUND and "unknown season 'nope'" in missing.details()

    issued = arena.call("CreateToken", pb.CreateTokenRequest(account="frank", scope="author", expires_in_s=3600),
                        organiser)
    assert issued.expires_at and arena.call("ListBots", pb.ListBotsRequest(), issued.token).bots == []
    service = _refused(arena.call, "CreateToken", pb.CreateTokenRequest(account="x", scope="service"), organiser)
    assert service.code() == grpc.StatusCode.INVALID_ARGUMENT

    franks = tar_archive([("skyarena.toml", manifest(name="franks")), ("bot.py", GOOD_BOT)])
    submitted = arena.submit(franks, issued.token)
    arena.smokes.wait()
    paused = arena.call("PauseVersion", pb.VersionStatusRequest(version_id=submitted.version.id, reason="checking"),
                        organiser)
    assert (paused.status, paused.status_message) == ("paused", "checking")
    twice = _refused(arena.call, "PauseVersion", pb.VersionStatusRequest(version_id=submitted.version.id), organiser)
    assert twice.code() == grpc.StatusCode.FAILED_PRECONDITION and "only an active version" in twice.details()
    back = arena.call("ReinstateVersion", pb.VersionStatusRequest(version_id=submitted.version.id), organiser)
    assert back.status == "active"


@pytest.mark.parametrize("padded", [" {}", "{} ", "{}\n", "{}\t"], ids=["leading space", "trailing space",
                                                                      "line break", "tab"])
def test_a_token_with_whitespace_gets_one_verdict_from_every_service(arena: ArenaUnderTest, database_url: str,
                                                                     tmp_path: Path, padded: str) -> None:
    token = arena.token("olga", "organiser")
    sent = padded.format(token)
    with arena.db.connection() as conn, pytest.raises(TokenRefused) as store_verdict:
        check_token(conn, sent, "organiser")  # the dashboard's sign-in calls this very function
    verdict = str(store_verdict.value)
    assert "paste it again without them" in verdict

    if "\n" not in sent and "\t" not in sent:  # gRPC metadata cannot carry a line break or a tab at all
        refused = _refused(arena.call, "ListBots", pb.ListBotsRequest(), sent)
        assert refused.code() == grpc.StatusCode.UNAUTHENTICATED and refused.details() == verdict

    command = cli(tmp_path, "season", "list", "--database-url", database_url, "--token", sent)
    assert command.exit_code == 2 and verdict in command.output, command.output

    assert arena.call("ListBots", pb.ListBotsRequest(), token).bots == []  # the token as issued is fine
