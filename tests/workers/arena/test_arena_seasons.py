"""One verdict on a season's settings: the organiser's command, the Arena and ``SeasonSpec`` agree,
and the Arena's statuses come from one table, class by class (a bad request is never "cannot serve now")."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import grpc
import pytest

from referee.games import OptionError, PlayerCountError, ReplayError, UnknownGame
from skyarena.v1 import arena_pb2 as pb
from workers.arena.errors import BadRequest, CallRefused
from workers.arena.intake import UploadTooLarge
from workers.arena.server import ArenaServer
from workers.arena.statuses import status_of
from workers.broker import BrokerUnavailable
from workers.leagues import parse_leagues
from workers.seasons import SeasonError, SeasonSpec
from workers.store import Conflict, Database, DatabaseUnavailable, NotFound, SchemaMismatch
from workers.store.accounts import ScopeRefused, TokenRefused
from workers.store.replay_document import ReplayDocumentError

from .support import TEST_LIMITS, ArenaUnderTest, cli

# (what is wrong, the Arena's request fields, the command's flags, SeasonSpec's arguments, the verdict)
BAD_SEASONS: list[tuple[str, dict[str, Any], list[str], dict[str, Any], str]] = [
    ("a game option the game does not have", {"game": "sky-team", "options_json": json.dumps({"wings": 3})},
     ["--game", "sky-team", "-o", "wings=3"], {"game": "sky-team", "options": {"wings": 3}},
     "sky-team: unknown option 'wings'"),
    ("a bad value of a real option", {"game": "skyjo-action", "options_json": json.dumps({"max_rounds": -4})},
     ["--game", "skyjo-action", "-o", "max_rounds=-4"], {"game": "skyjo-action", "options": {"max_rounds": -4}},
     "max_rounds"),
    ("a player count the game is not played by", {"game": "sky-team", "player_counts": [3]},
     ["--game", "sky-team", "--players", "3"], {"game": "sky-team", "player_counts": (3,)},
     "sky-team is played by 2 players, not 3"),
    ("an unknown game", {"game": "chess", "player_counts": [2]}, ["--game", "chess"], {"game": "chess"},
     "unknown game 'chess'"),
    ("a move clock above the referee's limit", {"game": "sky-team", "move_s": 700},
     ["--game", "sky-team", "--move-time", "700"], {"game": "sky-team", "move_s": 700.0},
     "time control move_s 700 s is above the referee's limit of 600 s"),
    ("a bank above the referee's limit", {"game": "sky-team", "bank_s": 99999},
     ["--game", "sky-team", "--bank", "99999"], {"game": "sky-team", "bank_s": 99999.0},
     "time control bank_s 99999 s is above the referee's limit of 3600 s"),
    ("a wall backstop below twice the CPU deadline", {"game": "sky-team", "wall_backstop": 1.5},
     ["--game", "sky-team", "--wall-backstop", "1.5"], {"game": "sky-team", "wall_backstop": 1.5},
     "wall backstop 1.5 is out of range"),
    ("a league boss that is no house bot", {"game": "skybirds", "leagues": "bronze:random,silver:wizard"},
     ["--game", "skybirds", "--leagues", "bronze:random,silver:wizard"],
     {"game": "skybirds", "leagues": parse_leagues("bronze:random,silver:wizard")},
     "league silver: skybirds has no house bot 'wizard'"),
    ("two leagues of one name", {"game": "skybirds", "leagues": "bronze:random,bronze:heuristic"},
     ["--game", "skybirds", "--leagues", "bronze:random,bronze:heuristic"],
     {"game": "skybirds", "leagues": parse_leagues("bronze:random,bronze:heuristic")},
     "league 'bronze' is named twice"),
    ("a promotion threshold out of range",
     {"game": "skybirds", "leagues": "bronze:random,silver:heuristic", "promotion_matches": 1001},
     ["--game", "skybirds", "--leagues", "bronze:random,silver:heuristic", "--promotion-matches", "1001"],
     {"game": "skybirds", "leagues": parse_leagues("bronze:random,silver:heuristic"), "promotion_matches": 1001},
     "promotion matches 1001 is out of range"),
]


@pytest.mark.parametrize("request_fields, flags, spec_fields, verdict", [case[1:] for case in BAD_SEASONS],
                         ids=[case[0] for case in BAD_SEASONS])
def test_the_command_the_arena_and_season_spec_refuse_a_bad_season_alike(
        arena: ArenaUnderTest, database_url: str, tmp_path: Path, request_fields: dict[str, Any], flags: list[str],
        spec_fields: dict[str, Any], verdict: str) -> None:
    with pytest.raises(SeasonError) as refused:
        SeasonSpec(**{"name": "s1", "player_counts": (2,), **spec_fields})
    message = str(refused.value)
    assert verdict in message

    organiser = arena.token("boss", "organiser")
    with pytest.raises(grpc.RpcError) as answered:
        arena.call("CreateSeason", pb.CreateSeasonRequest(name="s1", **request_fields), organiser)
    assert answered.value.code() == grpc.StatusCode.INVALID_ARGUMENT, answered.value.details()
    assert answered.value.details() == message

    result = cli(tmp_path, "season", "create", "s1", *flags, "--database-url", database_url, "--token", organiser)
    assert result.exit_code == 2 and message in result.output, result.output

    with arena.db.connection() as conn:
        assert conn.execute("SELECT count(*) AS n FROM seasons").fetchone() == {"n": 0}


def test_options_json_that_is_not_json_is_a_bad_request(arena: ArenaUnderTest) -> None:
    organiser = arena.token("boss", "organiser")
    with pytest.raises(grpc.RpcError) as answered:
        arena.call("CreateSeason", pb.CreateSeasonRequest(name="s1", game="sky-team", options_json="{max_rounds"),
                   organiser)
    assert answered.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert (answered.value.details() or "").startswith("options_json is not JSON")


@pytest.mark.parametrize("error, code", [
    (UploadTooLarge("too big"), grpc.StatusCode.RESOURCE_EXHAUSTED),
    (BadRequest("bad field"), grpc.StatusCode.INVALID_ARGUMENT),
    (SeasonError("bad season"), grpc.StatusCode.INVALID_ARGUMENT),
    (OptionError("bad option"), grpc.StatusCode.INVALID_ARGUMENT),
    (PlayerCountError("bad count"), grpc.StatusCode.INVALID_ARGUMENT),
    (UnknownGame("no such game"), grpc.StatusCode.INVALID_ARGUMENT),
    (ScopeRefused("wrong scope"), grpc.StatusCode.PERMISSION_DENIED),
    (TokenRefused("unknown token"), grpc.StatusCode.UNAUTHENTICATED),
    (CallRefused(grpc.StatusCode.PERMISSION_DENIED, "not yours"), grpc.StatusCode.PERMISSION_DENIED),
    (NotFound("no such match"), grpc.StatusCode.NOT_FOUND),
    (Conflict("season closed"), grpc.StatusCode.FAILED_PRECONDITION),
    (ReplayDocumentError("truncated"), grpc.StatusCode.DATA_LOSS),
    (DatabaseUnavailable("cannot connect"), grpc.StatusCode.UNAVAILABLE),
    (SchemaMismatch("old schema"), grpc.StatusCode.UNAVAILABLE),
    (BrokerUnavailable("no broker"), grpc.StatusCode.UNAVAILABLE),
])
def test_each_layers_errors_map_to_their_own_status(error: Exception, code: grpc.StatusCode) -> None:
    found = status_of(error)
    assert found is not None and found[0] == code
    assert str(error) in found[1]


def test_an_engine_error_no_row_names_is_a_bug_not_an_outage() -> None:
    assert status_of(ReplayError("the replay's state hash differs")) is None  # INTERNAL, logged
    assert status_of(KeyError("seats")) is None


def test_a_store_outage_is_unavailable_and_says_so() -> None:
    """A real Arena whose database does not answer: the operator's problem, not the caller's request."""
    server = ArenaServer(Database("postgresql://postgres@127.0.0.1:1/gone"), lambda version_id: None, TEST_LIMITS)
    port = server.start("127.0.0.1:0")
    try:
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel, pytest.raises(grpc.RpcError) as answered:
            ArenaUnderTest(f"127.0.0.1:{port}", server.service.db, None, channel).call(  # type: ignore[arg-type]
                "CreateSeason", pb.CreateSeasonRequest(name="s1", game="sky-team"), "some-organiser-token")
    finally:
        server.stop(1.0)
    assert answered.value.code() == grpc.StatusCode.UNAVAILABLE
    assert (answered.value.details() or "").startswith("the Arena cannot serve this now")
