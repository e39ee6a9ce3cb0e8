"""A season with leagues through the Arena: CreateSeason places the bosses, GetStandings and
``skyarena standings`` name each version's league (the bosses marked), and a malformed spec is refused."""

from __future__ import annotations

import json
from pathlib import Path

import grpc
import pytest

from skyarena.v1 import arena_pb2 as pb
from tests.workers.league import outcome, schedule
from workers.store import Database
from workers.store.leagues import season_leagues
from workers.store.results import apply_outcome
from workers.store.seasons import get_season
from workers.store.versions import add_active_version

from .support import ArenaUnderTest, cli

GAME = "skybirds"


def test_the_arenas_standings_and_the_command_show_each_versions_league(arena: ArenaUnderTest, db: Database,
                                                                          tmp_path: Path) -> None:
    organiser = arena.token("organiser", "organiser")
    info = arena.call("CreateSeason", pb.CreateSeasonRequest(
        name="leagued", game=GAME, leagues="bronze:random,silver:heuristic", promotion_matches=2, start=True),
        organiser)
    summary = json.loads(info.summary_json)
    assert [lg["name"] for lg in summary["leagues"]] == ["bronze", "silver"] and summary["promotion_matches"] == 2
    with db.connection() as conn:
        season = get_season(conn, "leagued")
        bronze_boss, _ = (lg.boss_version_id for lg in season_leagues(conn, season.id))
        climber = add_active_version(conn, "alice", "climber", GAME, b"climber", {"game": GAME, "entry": "bot.py"})
        stay = add_active_version(conn, "alice", "stay", GAME, b"stay", {"game": GAME, "entry": "bot.py"})
    for seats, ranks in [([climber, bronze_boss], [0, 1]), ([climber, bronze_boss], [0, 1]),
                         ([stay, bronze_boss], [1, 0])]:
        (match_id,) = schedule(db, season.ladders[2], [seats])
        apply_outcome(db, outcome(match_id, seats, ranks))

    author = arena.token("alice")
    standings = arena.call("GetStandings", pb.GetStandingsRequest(season="leagued"), author)
    rows = {row.version_id: (row.league, row.boss) for row in standings.ladders[0].rows}
    assert rows == {climber: ("silver", False), bronze_boss: ("bronze", True), stay: ("bronze", False)}

    assert cli(tmp_path, "login", "--arena", arena.address, "--token", author).exit_code == 0
    shown = cli(tmp_path, "standings", "leagued", env={"COLUMNS": "200"})
    assert shown.exit_code == 0, shown.output
    assert "league" in shown.output and "bronze (boss)" in shown.output and "silver" in shown.output
    as_json = json.loads(cli(tmp_path, "standings", "leagued", "--json").output)
    assert {(r["bot"], r.get("league"), r.get("boss", False)) for r in as_json["ladders"][0]["rows"]} == \
        {("climber", "silver", False), ("stay", "bronze", False), (f"{GAME}-random", "bronze", True)}


def test_a_malformed_league_spec_is_a_bad_request(arena: ArenaUnderTest) -> None:
    with pytest.raises(grpc.RpcError) as answered:
        arena.call("CreateSeason", pb.CreateSeasonRequest(name="s1", game=GAME, leagues="bronze;silver"),
                   arena.token("organiser", "organiser"))
    assert answered.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "is not NAME:BOSS" in (answered.value.details() or "")
    with arena.db.connection() as conn:
        assert conn.execute("SELECT count(*) AS n FROM seasons").fetchone() == {"n": 0}
