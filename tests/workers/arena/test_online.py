"""Online versions (issue 27) on a real Arena, referee and store: registering, connecting, invitations,
no-shows, play tokens, and online and hosted versions on one rated ladder."""

from __future__ import annotations

import json
import os
import queue as queues
import signal
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest

from skyarena.v1 import arena_pb2 as arena_pb
from skyarena.v1 import online_pb2 as pb
from skyarena.v1 import online_pb2_grpc as pb_grpc
from workers.matchmaking import MatchmakingParameters
from workers.play import MatchPlayer, PlaySettings, play_match
from workers.referees import Referees
from workers.scheduling import schedule_active
from workers.store import Database, queue, versions
from workers.store import online as online_store
from workers.store.recompute import recompute_season
from workers.store.seasons import get_season
from workers.store.versions import add_active_version

from ..online_league import OnlineBot, Storm, play_season, register_online_versions, storm_findings, wait_online
from ..services import SERVICE_TOKEN, SKYARENA, RefereeProcess, house_league
from .support import ArenaUnderTest, cli

ACCEPT_S = 1.5   # the invitation deadlines of this module's worker: short, so no-shows are quick
JOIN_S = 2.0
CLOCKS = {"move_s": 2.0, "bank_s": 5.0, "first_move_s": 10.0}


@pytest.fixture
def player(db: Database, referee: RefereeProcess) -> Iterator[MatchPlayer]:
    p = MatchPlayer(db, Referees([referee.address], SERVICE_TOKEN),
                    PlaySettings(owner="online-test", invitation_timeout_s=ACCEPT_S, online_join_timeout_s=JOIN_S))
    yield p
    p.close()


def auth(token: str) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {token}"),)


def online_stub(arena: ArenaUnderTest) -> Any:
    return pb_grpc.OnlineStub(arena.channel)


class RawConnection:
    """A Connect stream read on a thread, for bots that misbehave: its events land in a queue."""

    def __init__(self, arena: ArenaUnderTest, token: str, **request: Any) -> None:
        self.call = online_stub(arena).Connect(pb.ConnectRequest(**request), metadata=auth(token))
        self.events: queues.Queue[pb.OnlineEvent] = queues.Queue()
        self.error: grpc.RpcError | None = None
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        try:
            for event in self.call:
                self.events.put(event)
        except grpc.RpcError as exc:
            self.error = exc

    def next(self, kind: str, timeout_s: float = 30.0) -> Any:
        deadline = time.monotonic() + timeout_s
        while True:
            event = self.events.get(timeout=max(0.01, deadline - time.monotonic()))
            if event.WhichOneof("kind") == kind:
                return getattr(event, kind)

    def ended(self, timeout_s: float = 10.0) -> grpc.RpcError | None:
        self.thread.join(timeout_s)
        assert not self.thread.is_alive(), "the stream did not end"
        return self.error

    def close(self) -> None:
        self.call.cancel()
        self.thread.join(10)


def refused(call: Any, *args: Any, **kwargs: Any) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as caught:
        call(*args, **kwargs)
    return caught.value


def cli_json(tmp_path: Path, arena: ArenaUnderTest, token: str, *args: str) -> Any:
    result = cli(tmp_path, *args, "--arena", arena.address, "--token", token, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_an_online_version_plays_its_smoke_match_from_its_machine_and_enters_the_ladders(
        arena: ArenaUnderTest, db: Database, tmp_path: Path) -> None:
    author = arena.token("ada")
    registered = cli_json(tmp_path, arena, author, "submit", "--online", "ada-bot", "--game", "sky-team")
    version = registered["version"]
    assert (version["status"], registered["existing"]) == ("smoke", False)
    assert "skyarena connect ada-bot" in version["status_message"]
    again = cli_json(tmp_path, arena, author, "submit", "--online", "ada-bot", "--game", "sky-team")
    assert (again["version"]["id"], again["existing"]) == (version["id"], True)  # one live online version
    play = cli_json(tmp_path, arena, author, "token", "create", "--scope", "play")
    assert (play["scope"], play["account"]) == ("play", "ada")

    bot = OnlineBot(arena.address, play["token"], "ada-bot", "sky-team", code="heuristic", max_games=1).start()
    try:
        deadline = time.monotonic() + 30
        while not arena.smokes.threads:  # its first connection dispatches the smoke match
            assert time.monotonic() < deadline and bot.refused is None, (bot.refused, bot.lines)
            time.sleep(0.05)
        [smoke] = arena.smokes.wait()
        assert smoke.status == "active", (smoke.message, bot.lines)
    finally:
        bot.stop()
    with db.connection() as conn:
        row = versions.version(conn, version["id"])
        [invitation] = online_store.invitations_of_match(conn, row["smoke_match_id"])
    assert row["status"] == "active" and row["hosting"] == "online"
    assert invitation["state"] == "done" and invitation["version_id"] == version["id"]
    status = queue.match_status(db, row["smoke_match_id"])
    assert status is not None and status["status"] == "finished"
    assert any("ranked" in line for line in bot.lines), bot.lines
    deadline = time.monotonic() + 5  # offline as soon as its stream ended
    while True:
        with db.connection() as conn:
            if not online_store.online_versions(conn):
                break
        assert time.monotonic() < deadline, "the version stayed online after its stream ended"
        time.sleep(0.1)


def test_a_play_token_connects_and_plays_and_the_arena_refuses_it_everything_else(
        arena: ArenaUnderTest, tmp_path: Path) -> None:
    play = arena.token("ada", "play")
    for method, request in (("ListBots", arena_pb.ListBotsRequest()),
                            ("GetStandings", arena_pb.GetStandingsRequest(season="x")),
                            ("GetVersion", arena_pb.GetVersionRequest(version_id=1)),
                            ("CreateToken", arena_pb.CreateTokenRequest(account="ada", scope="author"))):
        error = refused(arena.call, method, request, play)
        assert error.code() == grpc.StatusCode.PERMISSION_DENIED, method
        assert "the play scope" in (error.details() or ""), error.details()
    error = refused(arena.submit, b"x", play)
    assert error.code() == grpc.StatusCode.PERMISSION_DENIED
    error = refused(online_stub(arena).RegisterOnlineVersion, pb.RegisterOnlineRequest(bot="b", game="sky-team"),
                    metadata=auth(play))
    assert error.code() == grpc.StatusCode.PERMISSION_DENIED
    # and an author may make play tokens for their own account only
    error = refused(arena.call, "CreateToken", arena_pb.CreateTokenRequest(account="bob", scope="play"),
                    arena.token("ada"))
    assert error.code() == grpc.StatusCode.PERMISSION_DENIED and "own account only" in (error.details() or "")


def test_bad_registrations_and_connections_are_refused_each_with_one_line(arena: ArenaUnderTest, db: Database,
                                                                           tmp_path: Path) -> None:
    author, bob = arena.token("ada"), arena.token("bob", "play")
    stub = online_stub(arena)
    registered = stub.RegisterOnlineVersion(pb.RegisterOnlineRequest(bot="flyer", game="sky-team"),
                                            metadata=auth(author))
    version_id = registered.version.id
    cases = [
        (stub.RegisterOnlineVersion, pb.RegisterOnlineRequest(bot="flyer", game="skyjo-action"), author,
         grpc.StatusCode.FAILED_PRECONDITION, "declared for sky-team"),
        (stub.RegisterOnlineVersion, pb.RegisterOnlineRequest(bot="other", game="chess"), author,
         grpc.StatusCode.INVALID_ARGUMENT, "chess"),
        (stub.RegisterOnlineVersion, pb.RegisterOnlineRequest(bot="bad name!", game="sky-team"), author,
         grpc.StatusCode.INVALID_ARGUMENT, "not allowed"),
    ]
    for call, request, token, code, words in cases:
        error = refused(call, request, metadata=auth(token))
        assert error.code() == code and words in (error.details() or ""), (request, error.details())
        assert "\n" not in (error.details() or "")

    def connect_error(token: str, **request: Any) -> grpc.RpcError:
        connection = RawConnection(arena, token, **request)
        error = connection.ended()
        assert error is not None
        return error

    error = connect_error(bob, version_id=version_id)  # another account's version
    assert error.code() == grpc.StatusCode.PERMISSION_DENIED and "another account" in (error.details() or "")
    error = connect_error(bob, bot="flyer")             # bob has no bot of that name
    assert error.code() == grpc.StatusCode.NOT_FOUND and "submit --online flyer" in (error.details() or "")
    with db.connection() as conn:
        hosted = add_active_version(conn, "ada", "boxed", "sky-team", b"archive", {"game": "sky-team",
                                                                                   "entry": "bot.py"})
    error = connect_error(author, version_id=hosted)
    assert error.code() == grpc.StatusCode.FAILED_PRECONDITION and "is hosted" in (error.details() or "")
    error = connect_error(author, bot="flyer", max_games=65)
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT and "max_games" in (error.details() or "")
    error = refused(stub.AcceptInvitation, pb.AcceptInvitationRequest(invitation_id=12345), metadata=auth(author))
    assert error.code() == grpc.StatusCode.NOT_FOUND

    # The commands say the same, in one line each.
    connect = cli(tmp_path, "connect", "nobot", "--bot", "random", "--arena", arena.address, "--token", bob)
    assert connect.exit_code != 0 and len(connect.output.strip().splitlines()) == 1, connect.output
    assert "the Arena refused the connection: you have no bot called 'nobot'" in connect.output
    unnamed = cli(tmp_path, "connect", "nobot", "--arena", arena.address, "--token", bob)
    assert unnamed.exit_code != 0 and "--bot FILE.py" in unnamed.output
    gameless = cli(tmp_path, "submit", "--online", "flyer2", "--arena", arena.address, "--token", author)
    assert gameless.exit_code != 0 and "pass --game GAME" in gameless.output

    # Connecting twice: the newer connection replaces the older, which ends ABORTED saying so.
    first = RawConnection(arena, author, bot="flyer")
    assert first.next("connected").version_id == version_id
    second = RawConnection(arena, author, bot="flyer", max_games=2)
    assert second.next("connected").max_games == 2
    error = first.ended(timeout_s=online_store.HEARTBEAT_S * 3)
    assert error is not None and error.code() == grpc.StatusCode.ABORTED
    assert "replaced" in (error.details() or "")
    assert second.next("heartbeat").sequence >= 1  # the newer one lives on
    with db.connection() as conn:
        [online] = online_store.online_versions(conn)
    assert (online["version_id"], online["max_games"]) == (version_id, 2)
    second.close()


def online_rival(db: Database, arena: ArenaUnderTest) -> tuple[int, str]:
    """A season with one hosted house bot and one online version of ada: every match pairs them
    (no co-operative self-play, which would seat either with itself)."""
    house_league(db, "duo", "sky-team", (2,), 1, matches_in_flight=1,
                 matchmaking=MatchmakingParameters(self_play_share=0.0), **CLOCKS)
    [version_id] = register_online_versions(db, "ada", "sky-team", ["ada-bot"])
    return version_id, arena.token("ada", "play")


def scheduled_one(db: Database) -> str:
    [match_id] = [m for s in schedule_active(db) for m in s.match_ids]
    return match_id


def nothing_rated(db: Database, match_id: str) -> None:
    with db.connection() as conn:
        history = conn.execute("SELECT count(*) AS n FROM rating_history WHERE match_id = %s",
                               (match_id,)).fetchone()
        strikes = conn.execute("SELECT coalesce(sum(strikes), 0) AS n FROM participants WHERE match_id = %s",
                               (match_id,)).fetchone()
    assert history is not None and history["n"] == 0
    assert strikes is not None and strikes["n"] == 0


def test_no_shows_void_their_matches_unrated_and_repeated_ones_pause_until_the_bot_reconnects(
        arena: ArenaUnderTest, db: Database, player: MatchPlayer) -> None:
    version_id, play = online_rival(db, arena)
    assert [m for s in schedule_active(db) for m in s.match_ids] == []  # offline: not scheduled
    silent = RawConnection(arena, play, bot="ada-bot")
    silent.next("connected")

    # 1. An invitation nobody accepts: void, unrated, no strike; a late answer is refused.
    match_id = scheduled_one(db)
    result = play_match(player, match_id)
    assert result.status == "void" and "did not accept its invitation within 1.5 s" in result.detail
    invitation = silent.next("invitation")
    assert (invitation.match_id, invitation.seat_token != "", invitation.resume) == (match_id, True, False)
    assert invitation.game == "sky-team" and invitation.time_control.move_s == CLOCKS["move_s"]
    late = refused(online_stub(arena).AcceptInvitation, pb.AcceptInvitationRequest(invitation_id=invitation.id),
                   metadata=auth(play))
    assert late.code() == grpc.StatusCode.FAILED_PRECONDITION and "expired" in (late.details() or "")
    nothing_rated(db, match_id)
    row = queue.match_status(db, match_id)
    assert row is not None and row["void_reason"].startswith("no-show:")

    # 2. Accepted and never joined: void too, with its own reason.
    match_id = scheduled_one(db)
    played: queues.Queue[Any] = queues.Queue()
    threading.Thread(target=lambda: played.put(play_match(player, match_id)), daemon=True).start()
    invitation = silent.next("invitation")
    accepted = online_stub(arena).AcceptInvitation(pb.AcceptInvitationRequest(invitation_id=invitation.id),
                                                   metadata=auth(play))
    assert accepted.match_id == match_id and accepted.join_within_s == JOIN_S
    result = played.get(timeout=30)
    assert result.status == "void" and "accepted its invitation but did not join" in result.detail
    nothing_rated(db, match_id)
    again = refused(online_stub(arena).AcceptInvitation, pb.AcceptInvitationRequest(invitation_id=invitation.id),
                    metadata=auth(play))
    assert again.code() == grpc.StatusCode.FAILED_PRECONDITION and "voided" in (again.details() or "")

    # 3. The third no-show in a row pauses the version; connecting again reinstates it.
    assert play_match(player, scheduled_one(db)).status == "void"
    with db.connection() as conn:
        paused = versions.version(conn, version_id)
    assert paused["status"] == "paused" and "missed its last 3 invitations" in paused["status_message"]
    assert [m for s in schedule_active(db) for m in s.match_ids] == []
    silent.close()
    back = RawConnection(arena, play, bot="ada-bot")
    assert back.next("connected").status == "active"
    with db.connection() as conn:
        assert online_store.no_shows(conn, version_id) == 0
    back.close()


def test_online_and_hosted_versions_share_one_rated_ladder(arena: ArenaUnderTest, db: Database,
                                                          player: MatchPlayer) -> None:
    """4 online and 4 hosted versions; every match completes and the ratings recompute exactly.
    (bench/online.py plays 200 such matches; here a count that fits a test.)"""
    matches = 60
    season, _hosted = house_league(db, "mixed", "skyjo-action", (2,), 4, matches_in_flight=4, **CLOCKS)
    names = [f"online-{i}" for i in range(4)]
    online_ids = register_online_versions(db, "ada", "skyjo-action", names)
    play = arena.token("ada", "play")
    bots = [OnlineBot(arena.address, play, name, "skyjo-action", max_games=2).start() for name in names]
    try:
        wait_online(db, online_ids)
        run = play_season(db, player, matches, slots=3)
    finally:
        for bot in bots:
            bot.stop()
    assert run.finished >= matches, [r.detail for r in run.results if r.status != "finished"]
    assert all(r.status == "finished" for r in run.results), [r.detail for r in run.results]
    with db.connection() as conn:
        open_rows = conn.execute("SELECT count(*) AS n FROM matches WHERE status IN ('queued', 'running')"
                                 ).fetchone()
        online_seats = conn.execute(
            "SELECT count(*) AS n FROM participants p JOIN matches m ON m.id = p.match_id"
            " WHERE m.status = 'finished' AND m.kind = 'rated' AND p.version_id = ANY(%s)", (online_ids,)).fetchone()
        reports = recompute_season(conn, get_season(conn, season.name))
        latencies = [versions.answer_latency(conn, v) for v in online_ids]
    assert open_rows is not None and open_rows["n"] == 0
    # each version's median answer time, as the referee measured it (its dashboard page shows it)
    assert all(lat["matches"] >= 1 and lat["median_s"] > 0 for lat in latencies if lat["matches"]), latencies
    assert any(lat["matches"] for lat in latencies)
    assert online_seats is not None and online_seats["n"] >= matches // 2  # the online bots really played
    assert [r.differences for r in reports] == [()] and reports[0].matches == run.finished


SLOW_BOT = b"""import time

from skyarena import Bot


class Slow(Bot):
    def act(self, observation, legal_actions):
        time.sleep(0.25)
        return self.random.randrange(len(legal_actions))
"""


def test_a_bot_whose_process_dies_mid_match_rejoins_it_when_it_connects_again(
        arena: ArenaUnderTest, db: Database, player: MatchPlayer, tmp_path: Path) -> None:
    version_id, play = online_rival(db, arena)
    (tmp_path / "slow.py").write_bytes(SLOW_BOT)
    argv = [SKYARENA, "connect", "ada-bot", "--bot", str(tmp_path / "slow.py"), "--arena", arena.address,
            "--token", play, "--games", "1"]
    logs = [tmp_path / "first.log", tmp_path / "second.log"]
    with open(logs[0], "wb") as out:
        first = subprocess.Popen(argv, stderr=out, stdout=subprocess.DEVNULL, start_new_session=True)
    try:
        wait_online(db, [version_id])
        match_id = scheduled_one(db)
        played: queues.Queue[Any] = queues.Queue()
        threading.Thread(target=lambda: played.put(play_match(player, match_id)), daemon=True).start()
        deadline = time.monotonic() + 30
        while f"playing match {match_id}" not in logs[0].read_text():
            assert time.monotonic() < deadline, logs[0].read_text()
            time.sleep(0.1)
        time.sleep(1.0)
        os.killpg(first.pid, signal.SIGKILL)  # mid-match: the referee keeps its clock running
        first.wait()
        with open(logs[1], "wb") as out:
            second = subprocess.run(argv, stderr=out, stdout=subprocess.DEVNULL, timeout=120)
        text = logs[1].read_text()
        assert second.returncode == 0, text
        assert f"rejoining match {match_id}" in text and "ranked" in text, text
        result = played.get(timeout=60)
        assert result.status == "finished", result
    finally:
        if first.poll() is None:
            os.killpg(first.pid, signal.SIGKILL)
    with db.connection() as conn:
        rated = conn.execute("SELECT count(*) AS n FROM rating_history WHERE match_id = %s", (match_id,)).fetchone()
    assert rated is not None and rated["n"] == 2


def test_a_disconnect_storm_loses_no_match_rates_none_twice_and_voids_each_no_show_with_its_reason(
        arena: ArenaUnderTest, db: Database, player: MatchPlayer) -> None:
    season, _hosted = house_league(db, "storm", "skyjo-action", (2,), 2, matches_in_flight=6, **CLOCKS)
    names = [f"storm-{i}" for i in range(20)]
    online_ids = register_online_versions(db, "ada", "skyjo-action", names)
    play = arena.token("ada", "play")
    storm = Storm({name: OnlineBot(arena.address, play, name, "skyjo-action", max_games=1).start()
                   for name in names})
    wait_online(db, online_ids)
    storm.start()
    try:
        run = play_season(db, player, 30, slots=3)
    finally:
        storm.calm()
        for bot in storm.bots.values():
            bot.stop()
    findings = storm_findings(db, season.name)
    assert set(findings["statuses"]) <= {"finished", "void"}, findings  # none stuck
    assert findings["badly_rated"] == [], findings                    # none lost or rated twice
    assert findings["open_invitations"] == 0, findings
    assert all(reason.startswith("no-show: ") for reason in findings["void_reasons"]), findings
    assert run.finished >= 30
    assert any(e.endswith("offline") for e in storm.events) and any(e.endswith("dropped") for e in storm.events)
    with db.connection() as conn:
        reports = recompute_season(conn, get_season(conn, season.name))
    assert [r.differences for r in reports] == [()]
