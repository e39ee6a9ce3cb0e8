"""play_match as a plain function: real Postgres, real referee processes, real hosted bot processes."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from referee.games.core import replay as replay_io
from referee.match import verify_match_replay
from workers.play import MatchPlayer, PlaySettings, play_match
from workers.referees import Referees
from workers.scheduling import schedule_active
from workers.store import Database, queue, replay_document
from workers.store.results import decompress_replay
from workers.store.versions import add_active_version

from .services import SERVICE_TOKEN, RefereeProcess, house_league, tar_of

FAST = {"move_s": 2.0, "bank_s": 5.0, "first_move_s": 10.0}
PAGE_BYTES = 4096  # the referee's smallest replay page: every replay here comes back in several pages


@pytest.fixture(scope="module")
def referee(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RefereeProcess]:
    ref = RefereeProcess(tmp_path_factory.mktemp("referee"), env={"SKYARENA_REPLAY_PAGE_BYTES": str(PAGE_BYTES)})
    yield ref
    ref.stop()


def stored_records(document: dict[str, Any]) -> list[dict[str, Any]]:
    """The stored replay's records, which the worker keeps in the referee's order (format 2)."""
    records, in_order = replay_document.records(document)
    assert in_order and document["format"] == replay_document.FORMAT
    return records


def make_player(db: Database, addresses: list[str], **settings: float) -> MatchPlayer:
    return MatchPlayer(db, Referees(addresses, SERVICE_TOKEN), PlaySettings(owner="test-worker", **settings))


@pytest.fixture
def player(db: Database, referee: RefereeProcess) -> Iterator[MatchPlayer]:
    p = make_player(db, [referee.address])
    yield p
    p.close()


def scheduled(db: Database, game: str = "sky-team", players: tuple[int, ...] = (2,), versions: int = 3,
              in_flight: int = 1, **spec: object) -> list[str]:
    house_league(db, "s1", game, players, versions, matches_in_flight=in_flight, **{**FAST, **spec})
    return [m for s in schedule_active(db) for m in s.match_ids]


def test_a_scheduled_match_is_played_by_hosted_bots_rated_and_its_replay_kept(db: Database,
                                                                            player: MatchPlayer) -> None:
    [match_id] = scheduled(db)
    result = play_match(player, match_id)
    assert (result.status, result.detail) == ("finished", "applied")
    row = queue.match_status(db, match_id)
    assert row is not None and row["status"] == "finished" and row["attempts"] == 1
    assert row["referee_match_id"] == f"{match_id}.a1"
    with db.connection() as conn:
        participants = conn.execute("SELECT seat, rank FROM participants WHERE match_id = %s ORDER BY seat",
                                    (match_id,)).fetchall()
        ratings = conn.execute("SELECT count(*) AS n FROM rating_history WHERE match_id = %s", (match_id,)).fetchone()
        stored = conn.execute("SELECT data, state_hash FROM replays WHERE match_id = %s", (match_id,)).fetchone()
        confinement = conn.execute("SELECT confinement FROM matches WHERE id = %s", (match_id,)).fetchone()
    assert [p["rank"] is not None for p in participants] == [True, True]
    assert ratings is not None and ratings["n"] == 2
    assert stored is not None
    state = verify_match_replay(stored_records(decompress_replay(stored["data"])))  # the stored replay proves it
    assert state.state_hash() == stored["state_hash"]
    assert confinement is not None and "rlimits" in confinement["confinement"]  # how the bots were confined is kept


def test_a_replay_the_referee_sends_in_pages_is_stored_whole(db: Database, player: MatchPlayer) -> None:
    [match_id] = scheduled(db, game="skybirds")
    assert play_match(player, match_id).status == "finished"
    with db.connection() as conn:
        stored = conn.execute("SELECT data, state_hash FROM replays WHERE match_id = %s", (match_id,)).fetchone()
    assert stored is not None
    records = stored_records(decompress_replay(stored["data"]))
    assert len(replay_io.dumps(records)) > 3 * PAGE_BYTES  # several pages, every one of them kept
    assert verify_match_replay(records).state_hash() == stored["state_hash"]


def test_playing_a_match_again_changes_nothing(db: Database, player: MatchPlayer) -> None:
    [match_id] = scheduled(db)
    assert play_match(player, match_id).status == "finished"
    again = play_match(player, match_id)
    assert (again.status, again.detail) == ("skipped", "already finished")
    row = queue.match_status(db, match_id)
    assert row is not None and row["attempts"] == 1


def test_a_version_whose_archive_is_missing_voids_its_match_with_the_reason(db: Database,
                                                                           player: MatchPlayer) -> None:
    [match_id] = scheduled(db)
    with db.connection() as conn:
        conn.execute("ALTER TABLE bot_versions DROP CONSTRAINT bot_versions_archive_sha256_fkey")
        conn.execute("DELETE FROM blobs")
    result = play_match(player, match_id)
    assert result.status == "void" and "archive" in result.detail and "missing" in result.detail
    row = queue.match_status(db, match_id)
    assert row is not None and row["status"] == "void" and row["void_reason"] == result.detail


def test_an_unreachable_referee_delays_the_match_without_spending_an_attempt(db: Database,
                                                                             referee: RefereeProcess) -> None:
    [match_id] = scheduled(db)
    player = make_player(db, ["127.0.0.1:9"])  # the discard port: nothing listens there
    try:
        result = play_match(player, match_id)
    finally:
        player.close()
    assert result.status == "waiting" and result.retry_after_s
    row = queue.match_status(db, match_id)
    assert row is not None and (row["status"], row["attempts"]) == ("queued", 0)


def test_the_match_moves_on_to_a_live_referee_when_the_first_is_unreachable(db: Database,
                                                                            referee: RefereeProcess) -> None:
    [match_id] = scheduled(db)
    player = make_player(db, ["127.0.0.1:9", referee.address])
    try:
        results = [play_match(player, match_id)]
    finally:
        player.close()
    assert results[0].status == "finished"
    row = queue.match_status(db, match_id)
    assert row is not None and (row["attempts"], row["referee"]) == (1, referee.address)


SLOW_BOT = b"""import time

from skyarena.games import house_bots


class Slow(house_bots("sky-team")["random"]):
    def act(self, observation, legal_actions):
        time.sleep(0.3)
        return super().act(observation, legal_actions)
"""


def slow_versions(db: Database, count: int) -> list[int]:
    archive = tar_of({"bot.py": SLOW_BOT})
    with db.connection() as conn:
        return [add_active_version(conn, "tests", f"slow-{i}", "sky-team", archive, {"entry": "bot.py"})
                for i in range(count)]


def kill_referee_once_playing(db: Database, match_id: str, referees: dict[str, RefereeProcess]) -> list[str]:
    """In the background: SIGKILL whichever referee the match starts on, a second into the match."""
    killed: list[str] = []

    def watch() -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            row = queue.match_status(db, match_id)
            if row is not None and row["referee"]:
                time.sleep(1.0)  # both bots have joined and a few slow moves are played
                referees[row["referee"]].kill()
                killed.append(row["referee"])
                return
            time.sleep(0.05)

    threading.Thread(target=watch, daemon=True).start()
    return killed


def test_a_referee_that_dies_mid_match_costs_one_attempt_and_the_match_finishes_elsewhere(
        db: Database, tmp_path: Path) -> None:
    referees = {r.address: r for r in (RefereeProcess(tmp_path, "a"), RefereeProcess(tmp_path, "b"))}
    house_league(db, "s1", "sky-team", (2,), 0, matches_in_flight=1, **FAST)
    slow_versions(db, 2)
    [match_id] = [m for s in schedule_active(db) for m in s.match_ids]
    player = make_player(db, list(referees))
    try:
        killed = kill_referee_once_playing(db, match_id, referees)
        result = play_match(player, match_id)
    finally:
        player.close()
        for ref in referees.values():
            ref.stop()
    assert result.status == "finished" and len(killed) == 1
    row = queue.match_status(db, match_id)
    assert row is not None and row["attempts"] == 2 and row["referee"] != killed[0]
    assert row["referee_match_id"] == f"{match_id}.a2"


def test_an_expired_lease_is_requeued_with_the_same_seed_and_void_after_the_retry_limit(db: Database) -> None:
    [match_id] = scheduled(db)
    with db.connection() as conn:
        seed = conn.execute("SELECT seed FROM matches WHERE id = %s", (match_id,)).fetchone()
    for attempt in (1, 2):
        claimed = queue.claim(db, match_id, "vanishing-worker", 0.01, max_attempts=2)
        assert isinstance(claimed, queue.ClaimedMatch) and claimed.attempt == attempt
        assert seed is not None and claimed.seed == seed["seed"]
        time.sleep(0.05)
        reaped = queue.reap_expired(db, max_attempts=2)
        assert (reaped.requeued, reaped.voided) == (((match_id,), ()) if attempt == 1 else ((), (match_id,)))
    row = queue.match_status(db, match_id)
    assert row is not None and row["status"] == "void" and "vanished" in row["void_reason"]


def test_an_entry_point_missing_from_the_archive_voids_the_match_before_a_referee_waits(
        db: Database, player: MatchPlayer) -> None:
    house_league(db, "s1", "sky-team", (2,), 0, matches_in_flight=1, **FAST)
    with db.connection() as conn:
        for i in range(2):
            add_active_version(conn, "tests", f"wrong-{i}", "sky-team", tar_of({"main.py": b"pass\n"}),
                               {"entry": "bot.py"})
    [match_id] = [m for s in schedule_active(db) for m in s.match_ids]
    result = play_match(player, match_id)
    assert result.status == "void" and "names the entry point 'bot.py', which its archive does not contain" \
        in result.detail
    row = queue.match_status(db, match_id)
    assert row is not None and row["status"] == "void" and row["referee"] is None


def test_a_queued_match_whose_message_was_lost_is_sent_again_once_per_patience(db: Database) -> None:
    from workers.tasks import reap

    [match_id] = scheduled(db)  # scheduled, and (as if the broker lost its message) never enqueued
    assert reap(db, max_attempts=3, patience_s=3600).resent == ()   # not waiting long enough yet
    assert reap(db, max_attempts=3, patience_s=0).resent == (match_id,)
    assert reap(db, max_attempts=3, patience_s=60).resent == ()     # its waiting clock restarted
    row = queue.match_status(db, match_id)
    assert row is not None and (row["status"], row["attempts"]) == ("queued", 0)


def test_a_decision_the_platform_stalled_voids_the_attempt_and_replays_the_same_seed(db: Database,
                                                                                    referee: RefereeProcess) -> None:
    """Seat 0's worker stalls (its relay joins with the service token, then is silent): the
    wall backstop passes with no CPU measure, the referee aborts the match as the platform's
    fault, nothing is rated, and the match is replayed with its seed until it is void, with
    the reason saying so. Seat 1 is a real hosted bot."""
    from grpc import aio

    from skyarena.v1 import referee_pb2 as pb
    from skyarena.v1 import referee_pb2_grpc as pb_grpc
    from workers.sandbox import HostedSeatOutcome, play_hosted_seat

    seen: list[str] = []

    async def host(folder: Path, entry: str, address: str, token: str, limits: Any, *, channel: aio.Channel,
                   service_token: str | None = None) -> HostedSeatOutcome:
        if len(seen) % 2 == 0:  # the seats are started in seat order: seat 0 of each attempt
            seen.append("stalled")
            assert service_token == SERVICE_TOKEN  # the season's CPU clock: the worker measures its bots
            call = pb_grpc.RefereeStub(channel).Play(metadata=(("authorization", f"Bearer {service_token}"),))
            await call.write(pb.BotMessage(join=pb.Join(token=token, client="a stalled worker")))
            while await call.read() is not aio.EOF:
                pass
            return HostedSeatOutcome(0, False, "exited", "OK", b"", False, "none")
        seen.append("hosted")
        return await play_hosted_seat(folder, entry, address, token, limits, channel=channel,
                                      service_token=service_token)

    [match_id] = scheduled(db, move_s=0.3, bank_s=0.0, first_move_s=0.3, wall_backstop=2.0)
    with db.connection() as conn:
        seed = conn.execute("SELECT seed FROM matches WHERE id = %s", (match_id,)).fetchone()
    player = MatchPlayer(db, Referees([referee.address], SERVICE_TOKEN),
                         PlaySettings(owner="test-worker", max_attempts=2), host=host)
    try:
        result = play_match(player, match_id)
        assert not player.referees._down_until  # the referee is not to blame
    finally:
        player.close()
    assert result.status == "void" and "platform fault" in result.detail
    row = queue.match_status(db, match_id)
    assert row is not None and row["status"] == "void" and row["attempts"] == 2
    assert "platform fault" in row["void_reason"] and "replayed with the same seed" in row["void_reason"]
    assert seen == ["stalled", "hosted", "stalled", "hosted"]  # played twice, from the same row (same seed)
    assert seed is not None
    with db.connection() as conn:
        rated = conn.execute("SELECT count(*) AS n FROM rating_history WHERE match_id = %s", (match_id,)).fetchone()
    assert rated is not None and rated["n"] == 0
