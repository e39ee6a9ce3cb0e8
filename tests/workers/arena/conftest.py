"""A real Arena per test: the gRPC server on loopback over the test's own database, a referee
process for the module, and smoke matches played by a real MatchPlayer (see support.py)."""

from __future__ import annotations

from collections.abc import Iterator

import grpc
import pytest

from workers.arena.server import ArenaServer
from workers.play import MatchPlayer, PlaySettings
from workers.referees import Referees
from workers.store import Database

from ..services import SERVICE_TOKEN, RefereeProcess
from .support import TEST_CHALLENGES, TEST_LIMITS, ArenaUnderTest, Smokes


@pytest.fixture(scope="module")
def referee(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RefereeProcess]:
    ref = RefereeProcess(tmp_path_factory.mktemp("arena-referee"))
    yield ref
    ref.stop()


@pytest.fixture
def player(db: Database, referee: RefereeProcess) -> Iterator[MatchPlayer]:
    p = MatchPlayer(db, Referees([referee.address], SERVICE_TOKEN), PlaySettings(owner="arena-test"))
    yield p
    p.close()


@pytest.fixture
def arena(db: Database, player: MatchPlayer) -> Iterator[ArenaUnderTest]:
    smokes = Smokes(player)
    server = ArenaServer(db, smokes.dispatch, TEST_LIMITS, enqueue=smokes.play, challenge_limits=TEST_CHALLENGES)
    port = server.start("127.0.0.1:0")
    channel = grpc.insecure_channel(f"127.0.0.1:{port}")
    try:
        yield ArenaUnderTest(f"127.0.0.1:{port}", db, smokes, channel)
    finally:
        smokes.wait()
        channel.close()
        server.stop(1.0)
