"""The bot author's round trip against a real Arena: skyarena new → login → submit --wait → smoke
match in the sandbox → rated matches on the ladder → standings, matches, logs, replay, all read
back through the commands' --json. Plus versions: content-hashed, superseded, retired."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import grpc

from skyarena.v1 import arena_pb2 as pb
from workers.arena.server import ArenaServer
from workers.arena.smoke import conclude_match
from workers.play import MatchPlayer, play_match
from workers.scheduling import schedule_active
from workers.store import Database, queue

from ..services import house_league
from .support import GOOD_BOT, TEST_LIMITS, ArenaUnderTest, Smokes, cli, manifest, tar_archive

FAST = {"move_s": 2.0, "bank_s": 5.0, "first_move_s": 10.0, "matches_in_flight": 2}


def _json(result) -> object:  # type: ignore[no-untyped-def]
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def _play_rated(db: Database, player: MatchPlayer, version_id: int, rounds: int = 4) -> None:
    """Play scheduled matches until the version has a finished rated match."""
    for _ in range(rounds):
        with db.connection() as conn:
            queued = [r["id"] for r in conn.execute(
                "SELECT id FROM matches WHERE kind = 'rated' AND status = 'queued' ORDER BY id")]
        for match_id in queued:
            play_match(player, match_id)
        with db.connection() as conn:
            row = conn.execute("SELECT count(*) AS n FROM participants p JOIN matches m ON m.id = p.match_id"
                               " WHERE p.version_id = %s AND m.kind = 'rated' AND m.status = 'finished'",
                               (version_id,)).fetchone()
        if row and row["n"] > 0:
            return
        schedule_active(db)
    raise AssertionError(f"version {version_id} played no rated match")


def test_submit_smoke_ladder_round_trip_through_the_commands(arena: ArenaUnderTest, db: Database,
                                                            player: MatchPlayer, tmp_path: Path) -> None:
    house_league(db, "spring", "sky-team", (2,), 2, **FAST)
    organiser = _json(cli(tmp_path, "token", "create", "--bootstrap", "--json",
                          env={"DATABASE_URL": db.url}))["token"]  # type: ignore[index]
    alice = _json(cli(tmp_path, "token", "create", "--account", "alice", "--scope", "author", "--arena",
                      arena.address, "--token", organiser, "--json"))["token"]  # type: ignore[index]

    login = cli(tmp_path, "login", "--arena", arena.address, "--token", alice)
    assert login.exit_code == 0, login.output
    config = tmp_path / "config" / "arena.json"
    assert stat.S_IMODE(os.stat(config).st_mode) == 0o600  # the token is readable by its owner only

    bot_dir = tmp_path / "mybot"
    assert cli(tmp_path, "new", "sky-team", str(bot_dir)).exit_code == 0
    assert 'entry = "bot.py"' in (bot_dir / "skyarena.toml").read_text()
    source = (bot_dir / "bot.py").read_text()
    (bot_dir / "bot.py").write_text(source.replace("        self.seat = info.seat",
                                                   "        self.seat = info.seat\n"
                                                   "        import sys; print('hello from mybot', file=sys.stderr)"))
    submitted = _json(cli(tmp_path, "submit", str(bot_dir), "--wait", "--json"))
    version = submitted["version"]  # type: ignore[index]
    assert (version["status"], submitted["existing"]) == ("active", False), version  # type: ignore[index]
    version_id = version["id"]

    # The smoke match is a real finished match against the house random bot, with the author's log.
    matches = _json(cli(tmp_path, "matches", str(version_id), "--json"))
    smoke = [m for m in matches if m["kind"] == "smoke"]  # type: ignore[union-attr]
    assert len(smoke) == 1 and smoke[0]["status"] == "finished"
    assert smoke[0]["match_id"] == version["smoke_match_id"]
    assert {s["bot"] for s in smoke[0]["seats"]} == {"mybot", "sky-team-smoke-opponent"}

    _play_rated(db, player, version_id)
    standings = _json(cli(tmp_path, "standings", "spring", "--json"))
    rows = standings["ladders"][0]["rows"]  # type: ignore[index]
    ours = [r for r in rows if r["version_id"] == version_id]
    assert ours and ours[0]["bot"] == "mybot" and ours[0]["matches"] >= 1
    assert [r["position"] for r in rows] == list(range(1, len(rows) + 1))
    assert [r["score"] for r in rows] == sorted((r["score"] for r in rows), reverse=True)

    rated = [m for m in _json(cli(tmp_path, "matches", str(version_id), "--json"))  # type: ignore[union-attr]
             if m["kind"] == "rated" and m["status"] == "finished"]
    match_id = rated[0]["match_id"]
    log = _json(cli(tmp_path, "logs", match_id, "--json"))
    assert "hello from mybot" in log["log"]  # type: ignore[index]
    assert log["version_id"] == version_id  # type: ignore[index]

    replay = _json(cli(tmp_path, "replay", match_id, "--json"))
    records = replay["records"]  # type: ignore[index]
    assert records[0]["type"] == "header" and "seed" not in records[0]
    assert records[-1]["type"] == "end"
    steps = [r for r in records if r["type"] == "step"]
    assert all(set(r) <= {"type", "n", "public_view", "moves", "time"} for r in steps)
    charged = [c for r in steps for c in r.get("time", [])]  # each decision's clock and charged seconds
    assert charged and all(set(c) <= {"seat", "clock", "charged_s", "wall_s"} and c["charged_s"] >= 0 for c in charged)
    assert {c["clock"] for c in charged} == {"cpu"}  # hosted seats are on CPU clocks
    assert not any(r["type"] == "chance" for r in records)  # hidden draws never leave the store

    status = _json(cli(tmp_path, "status", str(version_id), "--json"))
    assert status["status"] == "active"  # type: ignore[index]
    bots = _json(cli(tmp_path, "bots", "--json"))
    assert [b["name"] for b in bots] == ["mybot"]  # type: ignore[union-attr]

    history = arena.call("GetRatingHistory", pb.GetRatingHistoryRequest(version_id=version_id, season="spring"),
                         alice)
    assert history.players == 2 and len(history.changes) >= 1


def test_same_archive_is_one_version_a_new_one_supersedes_and_retiring_keeps_history(
        arena: ArenaUnderTest, db: Database, tmp_path: Path) -> None:
    token = arena.token("carol")
    bot_dir = tmp_path / "carol-bot"
    cli(tmp_path, "new", "sky-team", str(bot_dir))
    args = ("--arena", arena.address, "--token", token, "--json")
    first = _json(cli(tmp_path, "submit", str(bot_dir), "--name", "carol", "--wait", *args))
    again = _json(cli(tmp_path, "submit", str(bot_dir), "--name", "carol", *args))
    assert again["existing"] is True  # type: ignore[index]
    assert again["version"]["id"] == first["version"]["id"]  # type: ignore[index]

    (bot_dir / "bot.py").write_text((bot_dir / "bot.py").read_text() + "\n# a change\n")
    second = _json(cli(tmp_path, "submit", str(bot_dir), "--name", "carol", "--wait", *args))
    assert second["version"]["number"] == 2 and second["version"]["status"] == "active"  # type: ignore[index]
    old = _json(cli(tmp_path, "status", str(first["version"]["id"]), *args))  # type: ignore[index]
    assert old["status"] == "superseded" and "version 2" in old["status_message"]  # type: ignore[index]

    retired = arena.call("RetireBot", pb.RetireBotRequest(bot="carol"), token)
    assert retired.retired and {v.status for v in retired.versions} == {"superseded", "retired"}
    bots = _json(cli(tmp_path, "bots", *args))
    assert bots[0]["retired"] is True and len(bots[0]["versions"]) == 2  # type: ignore[index]
    with db.connection() as conn:  # the retired bot's versions stay, with their smoke matches
        rows = conn.execute("SELECT count(*) AS n FROM matches WHERE kind = 'smoke' AND status = 'finished'"
                            ).fetchone()
    assert rows is not None and rows["n"] == 2


def test_a_smoke_match_whose_task_was_lost_still_gives_its_version_a_verdict(
        db: Database, player: MatchPlayer) -> None:
    def broker_down(version_id: int) -> None:
        raise ConnectionError("the broker does not answer")

    server = ArenaServer(db, broker_down, TEST_LIMITS)
    port = server.start("127.0.0.1:0")
    channel = grpc.insecure_channel(f"127.0.0.1:{port}")
    try:
        arena = ArenaUnderTest(f"127.0.0.1:{port}", db, Smokes(player), channel)
        archive = tar_archive([("skyarena.toml", manifest(name="patient")), ("bot.py", GOOD_BOT)])
        submitted = arena.submit(archive, arena.token("heidi"))
    finally:
        channel.close()
        server.stop(1.0)
    assert submitted.version.status == "smoke"  # stored and queued although the smoke task could not be sent
    match_id = submitted.version.smoke_match_id
    assert queue.match_status(db, match_id)["status"] == "queued"  # type: ignore[index]
    # What the reaper's resend does: the play_match task plays the queued row, then concludes it.
    assert play_match(player, match_id).status == "finished"
    concluded = conclude_match(db, match_id)
    assert concluded is not None and concluded.status == "active"
    again = conclude_match(db, match_id)  # a second delivery changes nothing
    assert again is not None and (again.status, again.scheduled) == ("active", ())
