"""Matches through a real referee on loopback with real bot processes, and the protocol's
error paths with a bare gRPC client."""

from __future__ import annotations

import json
import threading
import time

import grpc
import pytest

from referee.games import GAMES, make
from referee.service import Limits
from skyarena.games import house_bots
from skyarena.v1 import game_pb2
from skyarena.v1 import referee_pb2 as pb
from skyarena.v1 import referee_pb2_grpc as pb_grpc

from .attackers import min_players
from .conftest import AUTH, TOY, RawSeat, Referee, finish, play_locally, replay_moves, spawn_bot

# ----- whole matches with real bot processes ---------------------------------------------

def _registered_games() -> list[str]:
    return sorted(name for name in GAMES if name != TOY)


def test_full_matches_of_every_game_match_local_play(referee: Referee) -> None:
    """Every game, house bots as separate processes: the referee's match is move for move the
    match `skyarena play` plays locally with the same bots and seed."""
    games = _registered_games() + [TOY]
    started = []
    processes = []
    for game in games:
        players = min_players(game)
        bots = ["heuristic" if seat % 2 == 0 and "heuristic" in house_bots(game) else "random"
                for seat in range(players)]
        response = referee.start(game, players, seed=11, move_s=10, bank_s=10, first_move_s=30)
        started.append((game, bots, response.match_id))
        processes += [spawn_bot(bot, seat.token, referee.address, game=game)
                      for bot, seat in zip(bots, response.seats)]
    for game, bots, match_id in started:
        status = referee.wait_end(match_id, timeout=110)
        assert status.state == pb.MATCH_STATE_FINISHED, (game, status.end.reason)
        assert not status.end.faults, (game, status.end.faults)
        local = play_locally(game, [house_bots(game)[b]() for b in bots], 11, status)
        local_moves = [r["actions"] for r in local.replay if r["type"] == "move"]
        assert replay_moves(status) == local_moves, game
        assert list(status.end.result.ranks) == list(local.result.ranks), game
    for code, err in finish(processes):
        assert code == 0, err


def test_slow_bot_gets_fallback_and_strike_and_match_finishes(referee: Referee) -> None:
    response = referee.start(TOY, 2, seed=5, options={"rounds": 4}, move_s=0.5, bank_s=0.0, first_move_s=20,
                             strikes=10)
    procs = [spawn_bot("first_bot.py", response.seats[0].token, referee.address),
             spawn_bot("slow_bot.py", response.seats[1].token, referee.address, SLOW_BOT_SLEEP="0.8")]
    status = referee.wait_end(response.match_id)
    assert status.state == pb.MATCH_STATE_FINISHED
    faults = list(status.end.faults)
    # Turn 2 overran; the next request waited in the pipe while the bot slept, so on a
    # loaded machine it may overrun too. Nothing else may fault.
    assert (faults[0].seat, faults[0].kind, faults[0].turn, faults[0].strike) == (1, "timeout", 2, 1)
    assert all(f.seat == 1 and f.kind == "timeout" and not f.forfeit for f in faults)
    assert "no answer within" in faults[0].reason
    moves = replay_moves(status)
    assert len(moves) == 4 and moves[1]["1"] == "keep"  # the fallback: first legal action
    results = finish(procs)
    assert all(code == 0 for code, _ in results), results
    assert "arrived late" in results[1][1], results[1][1]  # the late answer was refused with a notice
    assert "referee: timeout on turn 2, strike 1" in results[1][1]  # the fault, in words


def test_a_remote_bot_reads_its_clock_from_the_turn_request(referee: Referee) -> None:
    """Bot.clock on a referee is the TurnRequest's: move limit, bank, deadline (a searching
    bot, such as the boss, budgets its thinking with it)."""
    response = referee.start(TOY, 2, seed=5, options={"rounds": 2}, move_s=0.5, bank_s=2.0, first_move_s=3.0)
    procs = [spawn_bot("clock_bot.py", response.seats[0].token, referee.address),
             spawn_bot("first_bot.py", response.seats[1].token, referee.address)]
    assert referee.wait_end(response.match_id).state == pb.MATCH_STATE_FINISHED
    (code, err), _ = finish(procs)
    assert code == 0, err
    lines = [line for line in err.splitlines() if line.startswith("clock ")]
    assert lines[0] == "clock move=3 bank=2 deadline=5 left=True", err
    assert lines[1] == "clock move=0.5 bank=2 deadline=2.5 left=True", err


def test_bot_that_raises_forfeits_and_ranks_last(referee: Referee) -> None:
    response = referee.start(TOY, 2, seed=6, options={"rounds": 6}, strikes=3)
    procs = [spawn_bot("crash_bot.py", response.seats[0].token, referee.address),
             spawn_bot("random", response.seats[1].token, referee.address)]
    status = referee.wait_end(response.match_id)
    assert status.state == pb.MATCH_STATE_FINISHED
    assert [f.kind for f in status.end.faults] == ["exception"] * 3
    assert "ValueError: my bug" in status.end.faults[0].reason
    assert status.end.faults[-1].forfeit and list(status.end.forfeited) == [0]
    assert list(status.end.result.ranks) == [1, 0] and status.end.result.reason == "forfeit"
    assert len(replay_moves(status)) == 6  # the fallback played the forfeited seat to the end
    assert all(code == 0 for code, _ in finish(procs))


def test_bot_process_that_dies_is_disconnected_then_forfeits(referee: Referee) -> None:
    response = referee.start(TOY, 3, seed=7, options={"rounds": 6}, move_s=0.3, bank_s=0.0, first_move_s=20,
                             strikes=2)
    procs = [spawn_bot("exit_bot.py", response.seats[0].token, referee.address),
             spawn_bot("random", response.seats[1].token, referee.address),
             spawn_bot("random", response.seats[2].token, referee.address)]
    status = referee.wait_end(response.match_id)
    assert status.state == pb.MATCH_STATE_FINISHED
    assert [(f.seat, f.kind) for f in status.end.faults] == [(0, "disconnect"), (0, "disconnect")]
    assert status.end.faults[-1].forfeit and list(status.end.forfeited) == [0]
    assert status.end.result.ranks[0] == 2
    codes = [code for code, _ in finish(procs)]
    assert codes == [3, 0, 0]


def test_illegal_and_garbage_answers_are_faults_with_actionable_notices(referee: Referee) -> None:
    response = referee.start(TOY, 2, seed=8, options={"rounds": 5}, strikes=10)
    bot = spawn_bot("illegal_bot.py", response.seats[1].token, referee.address)
    seat = RawSeat(referee, response.seats[0].token)
    try:
        assert seat.next_kind("welcome").welcome.seat == 0
        turn = seat.next_kind("turn").turn
        assert [a.notation for a in turn.legal_actions] == ["keep", "reroll"]
        seat.answer(turn.turn, index=7)                                 # out of range
        notice = seat.next_kind("notice").notice
        assert notice.code == grpc.StatusCode.INVALID_ARGUMENT.value[0] and "out of range" in notice.message
        assert notice.fault.kind == "unparseable" and notice.fault.strike == 1
        turn = seat.next_kind("turn").turn
        seat.answer(turn.turn, action=game_pb2.Action())                       # empty action
        assert seat.next_kind("notice").notice.fault.kind == "unparseable"
        turn = seat.next_kind("turn").turn
        seat.answer(turn.turn, action=game_pb2.Action(notation="jump"))        # not an action of this game
        notice = seat.next_kind("notice").notice
        assert notice.fault.kind in ("illegal", "unparseable") and "'jump'" in notice.message
        assert "legal: keep, reroll" in notice.message
        turn = seat.next_kind("turn").turn
        seat.answer(turn.turn - 1, index=0)                              # a past turn: refused, no strike
        notice = seat.next_kind("notice").notice
        assert notice.code == grpc.StatusCode.FAILED_PRECONDITION.value[0] and "late" in notice.message
        assert not notice.HasField("fault")
        seat.answer(turn.turn, action=game_pb2.Action(notation="reroll"))      # fine
        turn = seat.next_kind("turn").turn
        seat.answer(turn.turn, index=0)
        end = seat.next_kind("end").end
        assert end.state == pb.MATCH_STATE_FINISHED
        mine = [f for f in end.faults if f.seat == 0]
        theirs = [f for f in end.faults if f.seat == 1]
        assert [f.kind for f in mine][:2] == ["unparseable", "unparseable"] and all(f.reason for f in mine)
        assert len(theirs) == 5 and all(f.kind == "illegal" and not f.reason for f in theirs)  # no other's reasons
        assert seat.closed()[0] == grpc.StatusCode.OK
    finally:
        seat.close()
    assert finish([bot])[0][0] == 0


def test_tokens_and_service_token_are_enforced(referee: Referee) -> None:
    # StartMatch without / with a wrong service token.
    request = pb.StartMatchRequest(game=TOY, players=2, seats=[pb.SeatSpec(), pb.SeatSpec()])
    for metadata in [(), (("authorization", "Bearer wrong-token-xxxxxxxxxxxx"),)]:
        with pytest.raises(grpc.RpcError) as err:
            referee.stub.StartMatch(request, metadata=metadata, timeout=5)
        assert err.value.code() == grpc.StatusCode.UNAUTHENTICATED and "service token" in err.value.details()
    # Bad requests say what to fix.
    two = [pb.SeatSpec()] * 2
    for bad, needle in [(pb.StartMatchRequest(game="chess", players=2, seats=two), "unknown game"),
                        (pb.StartMatchRequest(game=TOY, players=3, seats=two), "3 but 2 seats"),
                        (pb.StartMatchRequest(game=TOY, players=2, seats=two, options_json='{"rounds":0}'), "rounds"),
                        (pb.StartMatchRequest(game=TOY, players=2, seats=two, options_json="[1]"), "JSON object")]:
        with pytest.raises(grpc.RpcError) as err:
            referee.stub.StartMatch(bad, metadata=AUTH, timeout=5)
        assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT and needle in err.value.details()
    with pytest.raises(grpc.RpcError) as err:
        referee.stub.GetMatch(pb.GetMatchRequest(match_id="m-unknown"), metadata=AUTH, timeout=5)
    assert err.value.code() == grpc.StatusCode.NOT_FOUND and "m-unknown" in err.value.details()
    # A wrong seat token.
    seat = RawSeat(referee, "not-a-token")
    code, details = seat.closed()
    assert code == grpc.StatusCode.UNAUTHENTICATED and "seat token" in details
    seat.close()
    # A first message that is not Join.
    seat = RawSeat(referee, None, first=pb.BotMessage(answer=pb.Answer(turn=1, index=0)))
    code, details = seat.closed()
    assert code == grpc.StatusCode.INVALID_ARGUMENT and "Join" in details
    seat.close()
    # A token reused while its seat is connected, then after its match ended.
    response = referee.start(TOY, 2, seed=9, options={"rounds": 1})
    first = RawSeat(referee, response.seats[0].token)
    first.next_kind("welcome")
    second = RawSeat(referee, response.seats[0].token)
    code, details = second.closed()
    assert code == grpc.StatusCode.ALREADY_EXISTS and "already connected" in details
    second.close()
    other = RawSeat(referee, response.seats[1].token)
    for raw in (first, other):
        raw.answer(raw.next_kind("turn").turn.turn, index=0)
    assert first.next_kind("end").end.state == pb.MATCH_STATE_FINISHED
    first.close()
    other.close()
    late = RawSeat(referee, response.seats[0].token)
    code, details = late.closed()
    assert code == grpc.StatusCode.FAILED_PRECONDITION and "expired" in details
    late.close()
    # A retried StartMatch with the same id does not start the match twice.
    fixed = pb.StartMatchRequest(game=TOY, players=2, seats=[pb.SeatSpec()] * 2, match_id=f"league-{time.time_ns()}")
    referee.stub.StartMatch(fixed, metadata=AUTH, timeout=5)
    with pytest.raises(grpc.RpcError) as err:
        referee.stub.StartMatch(fixed, metadata=AUTH, timeout=5)
    assert err.value.code() == grpc.StatusCode.ALREADY_EXISTS
    referee.stub.CancelMatch(pb.CancelMatchRequest(match_id=fixed.match_id, reason="test"), metadata=AUTH)


def test_oversized_message_is_refused(referee: Referee) -> None:
    response = referee.start(TOY, 2, seed=10)
    big = pb.BotMessage(join=pb.Join(token=response.seats[0].token, client="x" * (2 << 20)))
    seat = RawSeat(referee, None, first=big)
    code, _ = seat.closed()
    assert code == grpc.StatusCode.RESOURCE_EXHAUSTED
    seat.close()
    referee.stub.CancelMatch(pb.CancelMatchRequest(match_id=response.match_id), metadata=AUTH)


def test_seat_reconnects_and_resumes_within_its_clock(referee: Referee) -> None:
    response = referee.start(TOY, 2, seed=12, options={"rounds": 2}, move_s=5, bank_s=0, first_move_s=5)
    a = RawSeat(referee, response.seats[0].token)
    b = RawSeat(referee, response.seats[1].token)
    try:
        turn_a = a.next_kind("turn").turn
        a.close()                                     # seat 0 drops before answering
        time.sleep(0.3)
        a = RawSeat(referee, response.seats[0].token)
        welcome = a.next_kind("welcome").welcome
        assert welcome.resumed and welcome.seat == 0
        again = a.next_kind("turn").turn
        assert again.turn == turn_a.turn and again.observation == turn_a.observation
        assert 3.0 < again.deadline_s < turn_a.deadline_s   # the clock ran on while away
        a.answer(again.turn, index=1)
        b.answer(b.next_kind("turn").turn.turn, index=0)
        for raw in (a, b):
            raw.answer(raw.next_kind("turn").turn.turn, index=0)
        end = a.next_kind("end").end
        assert end.state == pb.MATCH_STATE_FINISHED and not end.faults
        assert [m["0"] for m in replay_moves(referee.status(response.match_id, replay=True))] == ["reroll", "keep"]
    finally:
        a.close()
        b.close()


def test_every_seat_sees_every_other_seats_move_once_and_in_order(referee: Referee) -> None:
    assert referee.server.service.direct.enabled  # the readers write other seats' messages (the default)
    _every_seat_sees_every_move_in_order(referee)


def test_without_direct_writes_every_move_still_arrives_in_order() -> None:
    """Direct writes are a server's limit (``SKYARENA_DIRECT_WRITES``), not read at import:
    a second referee in this process runs with them off, every message going through its
    stream's writer task, while the module's referee keeps them on."""
    referee = Referee(Limits.from_env({"SKYARENA_DIRECT_WRITES": "0"}, join_timeout_s=60.0))
    try:
        assert not referee.server.service.direct.enabled
        _every_seat_sees_every_move_in_order(referee)
    finally:
        referee.close()


def _every_seat_sees_every_move_in_order(referee: Referee) -> None:
    players = 3
    response = referee.start("fly-away", players, seed=5, move_s=10, bank_s=10, first_move_s=10)
    seats = [RawSeat(referee, s.token) for s in response.seats]
    received: list[list[pb.RefereeMessage]] = [[] for _ in range(players)]
    try:
        def play(index: int) -> None:
            raw = seats[index]
            while True:
                message = raw.next(30)
                if isinstance(message, tuple):  # closed
                    return
                received[index].append(message)
                kind = message.WhichOneof("kind")
                if kind == "turn":
                    raw.answer(message.turn.turn, index=0)
                elif kind == "end":
                    return

        threads = [threading.Thread(target=play, args=(i,)) for i in range(players)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        status = referee.status(response.match_id, replay=True)
        assert status.end.state == pb.MATCH_STATE_FINISHED and not status.end.faults
        joints = replay_moves(status)
        assert len(joints) == status.decisions > players
        for index in range(players):
            seen = [(e.turn, e.move.seat) for m in received[index] for e in m.events if e.WhichOneof("kind") == "move"]
            expected = [(turn, int(seat)) for turn, joint in enumerate(joints, 1) for seat in sorted(joint, key=int)
                        if int(seat) != index]
            assert seen == expected, f"seat {index} saw other seats' moves {seen[:6]}..., expected {expected[:6]}..."
    finally:
        for raw in seats:
            raw.close()


def test_join_timeout_aborts_cleanly(referee: Referee) -> None:
    response = referee.start(TOY, 3, seed=13, join_timeout_s=0.5)
    seat = RawSeat(referee, response.seats[1].token)
    try:
        end = seat.next_kind("end").end
        assert end.state == pb.MATCH_STATE_ABORTED and "seats 0, 2 did not join within 0.5 s" in end.reason
        assert seat.closed()[0] == grpc.StatusCode.OK
    finally:
        seat.close()
    status = referee.status(response.match_id)
    assert status.state == pb.MATCH_STATE_ABORTED


def _watch(referee: Referee, match_id: str, from_start: bool, into: list[pb.WatchEvent]) -> threading.Thread:
    def run() -> None:
        with grpc.insecure_channel(referee.address) as channel:
            for event in pb_grpc.RefereeStub(channel).Watch(pb.WatchRequest(match_id=match_id, from_start=from_start),
                                                            timeout=60):
                into.append(event)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


@pytest.mark.parametrize("game", ["toy", "hidden"])
def test_spectator_sees_only_public_information(referee: Referee, game: str) -> None:
    """A spectator of a live match gets exactly the public views of the positions played
    (re-computed here from the replay) and never a seat's observation or a fault reason."""
    if game == "toy":
        name, players, options = TOY, 2, {"rounds": 8}
    else:
        hidden = [g for g in ("skyjo-action", "oddball-aeronauts", "sky-team", "skybirds", "fly-away") if g in GAMES]
        if not hidden:
            pytest.skip("no game with hidden information is registered yet")
        name, players, options = hidden[0], min_players(hidden[0]), {}
    response = referee.start(name, players, seed=14, options=options, strikes=50)
    live: list[pb.WatchEvent] = []
    watcher = _watch(referee, response.match_id, False, live)
    time.sleep(0.3)  # the spectator joins before the seats
    bots = ["illegal_bot.py"] + ["random"] * (players - 1)   # faults, whose reasons are private
    procs = [spawn_bot(b, s.token, referee.address) for b, s in zip(bots, response.seats)]
    status = referee.wait_end(response.match_id)
    watcher.join(30)
    finish(procs)
    from_start: list[pb.WatchEvent] = []
    _watch(referee, response.match_id, True, from_start).join(30)
    assert status.state == pb.MATCH_STATE_FINISHED
    # Re-play the match and collect what is public at each decision.
    state = make(name, players, status.seed, json.loads(status.options_json))
    public = {0: state.public_view()}
    secrets: set[str] = set()
    for number, joint in enumerate(replay_moves(status), 1):
        for seat in range(players):
            secrets.add(json.dumps(state.observation(seat), sort_keys=True))
        state.apply({int(s): a for s, a in joint.items()})
        public[number] = state.public_view()
    for events in (live, from_start):
        kinds = [e.WhichOneof("kind") for e in events]
        assert kinds[0] == "header" and kinds[-1] == "end"
        steps = [e.step for e in events if e.WhichOneof("kind") == "step"]
        assert steps and steps[-1].decisions == status.decisions
        for step in steps:
            assert json.loads(step.public_view_json) == json.loads(json.dumps(public[step.decisions]))
        faults = [e.fault for e in events if e.WhichOneof("kind") == "fault"]
        assert faults and all(not f.reason for f in faults)
        assert all(not f.reason for f in events[-1].end.faults)
        raw = b"".join(e.SerializeToString() for e in events)
        leaked = [s for s in secrets if s.encode() in raw and s not in {json.dumps(v, sort_keys=True)
                                                                        for v in public.values()}]
        assert not leaked
    assert [e.step.decisions for e in from_start if e.WhichOneof("kind") == "step"] == list(range(status.decisions + 1))
    if name == TOY:
        blob = b"".join(e.SerializeToString() for e in live + from_start)
        assert b"my_die" not in blob and b"dice" not in blob


def test_metrics_count_matches_decisions_and_faults(referee: Referee) -> None:
    text = referee.server.metrics.exposition().decode()
    assert "skyarena_referee_matches_running" in text
    assert "skyarena_referee_decision_latency_seconds_bucket" in text
    response = referee.start(TOY, 2, seed=15, options={"rounds": 2})
    a = RawSeat(referee, response.seats[0].token)
    b = RawSeat(referee, response.seats[1].token)
    for _ in range(2):
        a.answer(a.next_kind("turn").turn.turn, index=0)
        b.answer(b.next_kind("turn").turn.turn, error="boom")
    a.next_kind("end")
    a.close()
    b.close()
    text = referee.server.metrics.exposition().decode()

    def value(name: str) -> float:
        return sum(float(line.split()[-1]) for line in text.splitlines() if line.startswith(name))

    assert value("skyarena_referee_decisions_total") >= 4
    assert value('skyarena_referee_faults_total{kind="exception"}') >= 2
    assert value('skyarena_referee_matches_total{state="finished"}') >= 1
