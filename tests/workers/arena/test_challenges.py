"""Challenges on a real Arena: unrated matches of an author's version, played by the real player
(referee process, sandboxed bots) through the same queue rows as rated ones, never touching a
ladder; the daily quota and the cap in flight hold, and every refusal is one line that says
what to do (and when, for the quota)."""

from __future__ import annotations

import json
from pathlib import Path

import grpc
import pytest
from click.testing import CliRunner

from skyarena.cli import main
from skyarena.v1 import arena_pb2 as pb
from workers.store import Database
from workers.store.challenges import ChallengeLimits, ChallengeRefused, queue_challenges
from workers.store.versions import add_active_version

from ...sdk.reproducible import write_bot
from ..services import house_league, tar_of
from .support import TEST_CHALLENGES, ArenaUnderTest, cli

OTHER_BOT = {"bot.py": b"from skyarena import Bot\n\nclass B(Bot):\n    def act(self, o, legal):\n        return 0\n"}


def _other_version(db: Database, account: str, game: str, status: str = "active") -> int:
    with db.connection() as conn:
        version = add_active_version(conn, account, f"{game}-{status}", game, tar_of(OTHER_BOT),
                                     {"game": game, "entry": "bot.py", "name": f"{game}-{status}"})
        conn.execute("UPDATE bot_versions SET status = %s WHERE id = %s", (status, version))
    return version


def test_an_authors_challenges_play_unrated_within_the_quota(arena: ArenaUnderTest, db: Database,
                                                              tmp_path: Path) -> None:
    env = {"SKYARENA_ARENA": arena.address, "SKYARENA_TOKEN": arena.token("ada")}
    folder = write_bot(tmp_path / "seeded", "sky-team")
    submitted = cli(tmp_path, "submit", str(folder), "--wait", "--json", env=env)
    version = json.loads(submitted.stdout)["version"]
    assert version["status"] == "active", version
    rival = _other_version(db, "bea", "sky-team")

    queued = cli(tmp_path, "challenge", str(version["id"]), "--vs", "heuristic", "--games", "2", "--json", env=env)
    assert queued.exit_code == 0, queued.output
    first = json.loads(queued.stdout)["match_ids"]
    again = cli(tmp_path, "challenge", str(version["id"]), "--vs", str(rival), env=env)
    assert again.exit_code == 0 and "queued 1 challenge:" in again.output, again.output
    arena.smokes.wait()
    with db.connection() as conn:
        rows = conn.execute("SELECT id, kind, status, ladder_id, requested_by FROM matches WHERE kind = 'challenge'"
                            " ORDER BY created_at").fetchall()
        rated = conn.execute("SELECT count(*) AS n FROM rating_history").fetchone()
        ratings = conn.execute("SELECT count(*) AS n FROM ratings").fetchone()
    assert [r["status"] for r in rows] == ["finished"] * 3 and {r["ladder_id"] for r in rows} == {None}
    assert rated is not None and ratings is not None and (rated["n"], ratings["n"]) == (0, 0)  # no ladder moved
    listed = cli(tmp_path, "matches", str(version["id"]), "--json", env=env)
    assert {m["match_id"]: m["kind"] for m in json.loads(listed.stdout)
            if m["match_id"] in first} == dict.fromkeys(first, "challenge")
    mine = cli(tmp_path, "reproduce", first[1], str(folder), env=env)  # seats rotated: the version in seat 1
    assert mine.exit_code == 0 and "decisions identical" in mine.output, mine.output

    spent = cli(tmp_path, "challenge", str(version["id"]), "--vs", "random", "--games", "2", env=env)
    assert spent.exit_code == 2 and len(spent.output.strip().splitlines()) == 1, spent.output
    assert f"asked for {TEST_CHALLENGES.per_day} challenges in the last 24 hours" in spent.output
    assert "try again in " in spent.output and " UTC)" in spent.output
    with pytest.raises(grpc.RpcError) as refused:
        arena.call("Challenge", pb.ChallengeRequest(version_id=version["id"], opponents=["random"], games=2),
                   env["SKYARENA_TOKEN"])
    assert refused.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert int(dict(refused.value.trailing_metadata())["retry-after"]) > 3600


def test_challenges_never_move_a_ladder_nor_name_what_may_not_play(arena: ArenaUnderTest, db: Database,
                                                                    database_url: str) -> None:
    season, (a, b) = house_league(db, "s1", "sky-team", (2,), 2)
    organiser = arena.token("olga", "organiser")
    [played] = arena.call("Challenge", pb.ChallengeRequest(version_id=a, opponents=[str(b)]), organiser).match_ids
    arena.smokes.wait()
    with db.connection() as conn:
        row = conn.execute("SELECT status FROM matches WHERE id = %s", (played,)).fetchone()
    assert row is not None and row["status"] == "finished"
    check = CliRunner().invoke(main, ["ratings", "recompute", season.name, "--check", "--json",
                                      "--database-url", database_url])
    report = json.loads(check.stdout)
    assert check.exit_code == 0 and report["differences"] == 0, check.output
    assert report["ladders"][0]["matches"] == 0  # the challenge between two of its versions is not the ladder's

    author = arena.token("ada")

    def refusal(version: int, *opponents: str, token: str = author) -> tuple[grpc.StatusCode, str]:
        with pytest.raises(grpc.RpcError) as refused:
            arena.call("Challenge", pb.ChallengeRequest(version_id=version, opponents=list(opponents)), token)
        assert "\n" not in refused.value.details()
        return refused.value.code(), refused.value.details()

    mine = _other_version(db, "ada", "sky-team")
    code, text = refusal(a, "random")
    assert code == grpc.StatusCode.PERMISSION_DENIED and "belongs to another account" in text
    assert "is a fly-away bot and yours plays sky-team" in refusal(mine, str(_other_version(db, "bea", "fly-away")))[1]
    retired = _other_version(db, "bea", "sky-team", "retired")
    assert "is retired and plays no challenge" in refusal(mine, str(retired))[1]
    assert "failed its smoke match" in refusal(_other_version(db, "ada", "sky-team", "failed"), "random")[1]
    assert "is paused: challenge an active version" in refusal(mine, str(_other_version(db, "bea", "sky-team",
                                                                                         "paused")))[1]
    assert "played by 2 to 2" in refusal(mine, "random", "heuristic")[1]
    assert "neither a version id nor a house bot" in refusal(mine, "nobody")[1]


def test_the_cap_in_flight_counts_queued_challenges(db: Database) -> None:
    _, (a, b) = house_league(db, "s1", "sky-team", (2,), 2)
    limits = ChallengeLimits(per_day=10, in_flight=2)
    with db.connection() as conn:
        account = conn.execute("SELECT id FROM accounts ORDER BY id LIMIT 1").fetchone()["id"]
        assert len(queue_challenges(conn, account, "sky-team", [[a, b], [b, a]], [1, 2], limits)) == 2
        with pytest.raises(ChallengeRefused, match="has 2 challenges queued or running and may have 2 at once"):
            queue_challenges(conn, account, "sky-team", [[a, b]], [3], limits)
