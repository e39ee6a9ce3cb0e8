"""Issue 12: no client, however hostile, may slow, stall or break another match.

Each attack is played against a real referee process on loopback while honest matches run
beside it (hostile.beside_honest): they must get no fault and not be slowed beyond noise."""

from __future__ import annotations

import contextlib
import json
import re
import threading
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import grpc
import pytest
from google.protobuf.descriptor import FieldDescriptor
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.service.limits import Limits
from skyarena.bot import bot_seed as plain_bot_seed
from skyarena.v1 import game_pb2
from skyarena.v1 import referee_pb2 as pb
from skyarena.v1 import referee_pb2_grpc as pb_grpc
from skyarena.wire.typed_games import TYPED_GAMES

from .attackers import AttackMatch, typed
from .conftest import AUTH, SERVICE_TOKEN, TOY, RawSeat, ServeProcess
from .hostile import beside_honest

SPECTATOR_TOKEN = "test-spectator-token-0123456789"


@pytest.fixture(scope="module")
def served() -> Iterator[ServeProcess]:
    server = ServeProcess("--shutdown-grace", "1", "--max-watchers", "6", "--reserved-watchers", "2",
                          "--watch-rate", "2", "--watch-burst", "4", "--spectator-token", SPECTATOR_TOKEN,
                          "--log-level", "warning")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def stub(served: ServeProcess) -> Iterator[pb_grpc.RefereeStub]:
    with grpc.insecure_channel(served.address) as channel:
        yield pb_grpc.RefereeStub(channel)


def _fault_of(reply: object) -> pb.Fault:
    assert isinstance(reply, pb.Notice) and reply.HasField("fault"), reply
    return reply.fault


# ----- 1: a 17-byte typed Skybirds answer froze every match --------------------------------

def test_huge_typed_skybirds_answer_is_checked_by_value(served: ServeProcess) -> None:
    attacker = AttackMatch(served.address, "skybirds", lambda turn: typed("skybirds", play={"free": 2 ** 62}))
    try:
        seen: list[pb.Notice] = []

        def attack() -> None:
            seen.append(attacker.attack())

        beside_honest(served.address, attack, attacker.behave, min_attacks=5)
        huge = attacker.attack(typed("skybirds", play={"free": 3 * 10 ** 7, "naturals": [1] * 1000}))
        for notice in [*seen, huge]:
            fault = _fault_of(notice)
            assert fault.kind == "illegal" and "typed play action is not one of the" in fault.reason
            assert len(notice.message) < 1100 and "****" not in notice.message
    finally:
        attacker.close()


# ----- 2: typed actions whose text form raises wedged their match --------------------------

@pytest.mark.parametrize(("game", "field", "kind"), [
    ("oddball-aeronauts", "oddball_aeronauts", {"announce": {"skill": 99}}),
    ("fly-away", "fly_away", {"keep": {"cards": [100]}}),
])
def test_typed_action_whose_text_raises_is_a_strike_and_the_clock_runs(served: ServeProcess, game: str, field: str,
                                                                        kind: dict[str, object]) -> None:
    attacker = AttackMatch(served.address, game, lambda turn: typed(field, **kind))
    try:
        faults: list[pb.Fault] = []
        beside_honest(served.address, lambda: faults.append(_fault_of(attacker.attack())), attacker.behave,
                      min_attacks=3)
        assert {f.kind for f in faults} <= {"illegal", "unparseable"}
        # the match is not wedged: the next decision is asked, with its deadline running
        turn = attacker.next_turn()
        assert turn.deadline_s > 0
        attacker.turn = turn
    finally:
        attacker.close()


def test_a_seat_that_never_answers_after_a_bad_answer_still_gets_its_deadline(served: ServeProcess) -> None:
    attacker = AttackMatch(served.address, "fly-away", lambda turn: typed("fly_away", keep={"cards": [100]}),
                           move_s=0.3)
    try:
        _fault_of(attacker.attack())
        attacker.next_turn()  # asked again ... and never answers: the deadline plays the fallback
        assert attacker.seat is not None
        notice = attacker.seat.next_kind("notice", timeout=20).notice
        assert notice.fault.kind == "timeout"
    finally:
        attacker.close()


# ----- 3: bot text echoed without a cap ------------------------------------------------------

def test_megabyte_answers_are_echoed_capped(served: ServeProcess, stub: pb_grpc.RefereeStub) -> None:
    big = "x" * 900_000
    attacker = AttackMatch(served.address, TOY, lambda turn: pb.BotMessage(answer=pb.Answer(action={"notation": big})))
    try:
        notices: list[pb.Notice] = []
        beside_honest(served.address, lambda: notices.append(attacker.attack()), attacker.behave, min_attacks=3)
        errors = attacker.attack(pb.BotMessage(answer=pb.Answer(error="y" * 900_000)))
        for notice in [*notices, errors]:
            assert _fault_of(notice).kind in ("unparseable", "exception")
            assert len(notice.message) <= 1100, len(notice.message)
        assert "[cut: 900000 characters]" in errors.message
        status = stub.GetMatch(pb.GetMatchRequest(match_id=attacker.match_id), metadata=AUTH, timeout=10)
        assert status.ByteSize() < 64 * 1024
        assert status.seats[0].strikes >= 1
    finally:
        attacker.close()


def test_get_match_pages_the_replay(tmp_path: object) -> None:
    server = ServeProcess("--replay-page-bytes", "4096", "--max-send-bytes", "262144", "--log-level", "warning",
                          "--shutdown-grace", "1")
    try:
        attacker = AttackMatch(server.address, "skybirds", lambda turn: pb.BotMessage(answer=pb.Answer(index=0)))
        match_id = ""
        try:
            while True:  # play the match to its end
                reply = attacker.attack()
                match_id = match_id or attacker.match_id
                if isinstance(reply, pb.RefereeMessage) and reply.WhichOneof("kind") == "end":
                    break
        finally:
            attacker.close()
        with grpc.insecure_channel(server.address) as channel:
            stub = pb_grpc.RefereeStub(channel)
            pages, offset = [], 0
            while True:
                status = stub.GetMatch(pb.GetMatchRequest(match_id=match_id, include_replay=True, replay_offset=offset),
                                       metadata=AUTH, timeout=10)
                pages.append(status.replay_jsonl)
                offset = status.replay_next_offset
                if not offset:
                    break
            with pytest.raises(grpc.RpcError) as bad:
                stub.GetMatch(pb.GetMatchRequest(match_id=match_id, include_replay=True, replay_offset=7),
                              metadata=AUTH, timeout=10)
            assert bad.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert len(pages) > 2 and all(len(p.encode()) <= 4096 for p in pages if p.count("\n") > 1)
        records = [json.loads(line) for line in "".join(pages).splitlines()]
        assert records[0]["type"] == "header" and records[-1]["type"] == "match"
        assert sum(r["type"] == "move" for r in records) == status.decisions
    finally:
        server.stop()


# ----- 4: anonymous Watch from the start replayed the whole match on the event loop --------

def _long_match(address: str) -> str:
    """A finished Skybirds match (a long history) and its id."""
    attacker = AttackMatch(address, "skybirds", lambda turn: pb.BotMessage(answer=pb.Answer(index=0)))
    try:
        while True:
            reply = attacker.attack()
            if isinstance(reply, pb.RefereeMessage) and reply.WhichOneof("kind") == "end":
                return attacker.match_id
    finally:
        attacker.close()


def test_watchers_from_the_start_read_a_kept_log(served: ServeProcess, stub: pb_grpc.RefereeStub) -> None:
    match_id = _long_match(served.address)
    first = list(stub.Watch(pb.WatchRequest(match_id=match_id, from_start=True), metadata=AUTH, timeout=30))
    assert first[0].WhichOneof("kind") == "header" and first[-1].WhichOneof("kind") == "end"
    steps = [e.step for e in first if e.WhichOneof("kind") == "step"]
    assert [s.decisions for s in steps] == list(range(len(steps)))

    def watch_all() -> None:  # a privileged loop: not rate-limited, so the log itself is tested
        with grpc.insecure_channel(served.address) as channel:
            events = list(pb_grpc.RefereeStub(channel).Watch(pb.WatchRequest(match_id=match_id, from_start=True),
                                                             metadata=AUTH, timeout=30))
        assert [e.SerializeToString() for e in events] == [e.SerializeToString() for e in first]

    beside_honest(served.address, watch_all, min_attacks=3)


def test_anonymous_watchers_are_rate_limited_and_token_holders_keep_their_share(
        served: ServeProcess, stub: pb_grpc.RefereeStub) -> None:
    match_id = _long_match(served.address)
    codes = []
    for _ in range(12):  # the burst is 4, two a second after it
        try:
            list(stub.Watch(pb.WatchRequest(match_id=match_id, from_start=True), timeout=30))
            codes.append(grpc.StatusCode.OK)
        except grpc.RpcError as exc:
            codes.append(exc.code())
            assert "too many Watch calls" in (exc.details() or "")
    assert grpc.StatusCode.RESOURCE_EXHAUSTED in codes and codes[0] == grpc.StatusCode.OK
    spectator = (("authorization", f"Bearer {SPECTATOR_TOKEN}"),)
    assert list(stub.Watch(pb.WatchRequest(match_id=match_id, from_start=True), metadata=spectator, timeout=30))

    # live slots: 6 in all, 2 kept for token holders
    running = stub.StartMatch(pb.StartMatchRequest(game=TOY, players=2, seats=[pb.SeatSpec()] * 2,
                                                   join_timeout_s=60), metadata=AUTH, timeout=10)
    time.sleep(2.5)  # let the anonymous bucket refill
    streams = [stub.Watch(pb.WatchRequest(match_id=running.match_id), timeout=60) for _ in range(4)]
    try:
        for stream in streams:
            assert next(stream).WhichOneof("kind") == "header"
        time.sleep(0.6)
        refused = stub.Watch(pb.WatchRequest(match_id=running.match_id), timeout=60)
        with pytest.raises(grpc.RpcError) as full:
            next(refused)
        assert full.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED and "kept for holders" in full.value.details()
        kept = [stub.Watch(pb.WatchRequest(match_id=running.match_id), metadata=m, timeout=60)
                for m in (spectator, AUTH)]
        assert [next(k).WhichOneof("kind") for k in kept] == ["header", "header"]
        for k in kept:
            k.cancel()
    finally:
        for stream in streams:
            stream.cancel()
        stub.CancelMatch(pb.CancelMatchRequest(match_id=running.match_id), metadata=AUTH, timeout=10)


# ----- 5: bot_seed revealed a guessable match seed ---------------------------------------

def test_bot_seed_reveals_neither_the_match_seed_nor_another_seat(served: ServeProcess,
                                                                  stub: pb_grpc.RefereeStub) -> None:
    response = stub.StartMatch(pb.StartMatchRequest(game="sky-team", players=2, seed=7, seats=[pb.SeatSpec()] * 2,
                                                    join_timeout_s=60), metadata=AUTH, timeout=10)
    seats = [RawSeat(served, s.token) for s in response.seats]
    try:
        seeds = [seat.next_kind("welcome").welcome.bot_seed for seat in seats]
        status = stub.GetMatch(pb.GetMatchRequest(match_id=response.match_id), metadata=AUTH, timeout=10)
    finally:
        for seat in seats:
            seat.close()
        stub.CancelMatch(pb.CancelMatchRequest(match_id=response.match_id), metadata=AUTH, timeout=10)
    assert seeds[0] != seeds[1]
    assert [s.bot_seed for s in status.seats] == seeds  # the operator can re-run each bot exactly
    # the attack of the issue: try every small match seed against the seat's bot seed
    guessed = [s for s in range(200_000) if plain_bot_seed(s, 0) == seeds[0]]
    assert guessed == []


# ----- 7: a client cancelling right after its match ends -----------------------------------

def _gauge(served: ServeProcess, name: str) -> float:
    text = urllib.request.urlopen(f"http://{served.metrics}/metrics", timeout=5).read().decode()
    found = re.search(rf"^{name} (\S+)$", text, re.M)
    assert found, name
    return float(found.group(1))


def test_cancelling_right_after_the_end_leaves_no_seat_counted(served: ServeProcess) -> None:
    def cancel_at_end() -> None:
        attacker = AttackMatch(served.address, TOY, lambda turn: pb.BotMessage(answer=pb.Answer(index=0)))
        try:
            while True:
                reply = attacker.attack()
                if isinstance(reply, pb.RefereeMessage) and reply.WhichOneof("kind") == "end":
                    break
        finally:
            attacker.close()  # cancels every stream the moment the end arrived

    beside_honest(served.address, cancel_at_end, min_attacks=2)
    deadline = time.monotonic() + 10
    while _gauge(served, "skyarena_referee_seats_connected") and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _gauge(served, "skyarena_referee_seats_connected") == 0


# ----- 8: malformed frames, half-closed streams --------------------------------------------

def _raw_play(address: str, frames: list[bytes], hold: threading.Event | None = None) -> tuple[grpc.StatusCode, str,
                                                                                                 list[bytes]]:
    with grpc.insecure_channel(address) as channel:
        play = channel.stream_stream("/skyarena.v1.Referee/Play", request_serializer=lambda b: b,
                                     response_deserializer=lambda b: b)

        def requests() -> Iterator[bytes]:
            yield from frames
            if hold is not None:
                hold.wait(30)

        call = play(requests(), timeout=30)
        received = []
        try:
            for message in call:
                received.append(message)
            return grpc.StatusCode.OK, "", received
        except grpc.RpcError as exc:
            return exc.code(), exc.details() or "", received


def test_malformed_frames_get_invalid_argument(served: ServeProcess, stub: pb_grpc.RefereeStub) -> None:
    garbage = b"\x0a\xff\xff\xff\xff\x0f"  # a length far past the frame's end

    def first_frame() -> None:
        code, details, _ = _raw_play(served.address, [garbage])
        assert code == grpc.StatusCode.INVALID_ARGUMENT and "not a valid skyarena.v1.BotMessage" in details

    beside_honest(served.address, first_frame, min_attacks=5)
    response = stub.StartMatch(pb.StartMatchRequest(game=TOY, players=2, seats=[pb.SeatSpec()] * 2,
                                                    join_timeout_s=60), metadata=AUTH, timeout=10)
    join = pb.BotMessage(join=pb.Join(token=response.seats[0].token)).SerializeToString()
    hold = threading.Event()
    code, details, received = _raw_play(served.address, [join, garbage], hold)
    hold.set()
    assert pb.RefereeMessage.FromString(received[0]).WhichOneof("kind") == "welcome"
    assert code == grpc.StatusCode.INVALID_ARGUMENT and "Rejoin seat 0" in details
    stub.CancelMatch(pb.CancelMatchRequest(match_id=response.match_id), metadata=AUTH, timeout=10)


def test_a_seat_that_half_closes_after_its_last_answer_is_not_charged(served: ServeProcess,
                                                                      stub: pb_grpc.RefereeStub) -> None:
    """Seat 1 of a toy match half-closes its stream after each answer's ... last one: it
    learns which is last by playing the same seeded match once before, honestly."""
    def play(half_close_after: int | None) -> tuple[list[int], pb.MatchEnd]:
        response = stub.StartMatch(pb.StartMatchRequest(game=TOY, players=2, seed=5, seats=[pb.SeatSpec()] * 2,
                                                        options_json=json.dumps({"rounds": 4}), join_timeout_s=60),
                                   metadata=AUTH, timeout=10)
        other = RawSeat(served, response.seats[0].token)
        answered = [0]
        threading.Thread(target=_first_until_end, args=(other,), daemon=True).start()
        with grpc.insecure_channel(served.address) as channel:
            outgoing: list[pb.BotMessage] = [pb.BotMessage(join=pb.Join(token=response.seats[1].token))]
            ready = threading.Condition()
            done = [False]

            def requests() -> Iterator[pb.BotMessage]:
                while True:
                    with ready:
                        ready.wait_for(lambda: outgoing or done[0])
                        if outgoing:
                            message = outgoing.pop(0)
                        else:
                            return  # half-close: no more frames, still reading
                    yield message

            end = None
            for message in pb_grpc.RefereeStub(channel).Play(requests(), timeout=30):
                kind = message.WhichOneof("kind")
                if kind == "turn":
                    with ready:
                        outgoing.append(pb.BotMessage(answer=pb.Answer(turn=message.turn.turn, index=0)))
                        answered[0] += 1
                        if answered[0] == half_close_after:
                            done[0] = True
                        ready.notify()
                elif kind == "end":
                    end = message.end
                    with ready:
                        done[0] = True
                        ready.notify()
        other.close()
        assert end is not None
        return answered, end

    answers, honest_end = play(None)
    assert answers[0] >= 2
    _, end = play(answers[0])
    assert end.state == pb.MATCH_STATE_FINISHED and not end.faults
    assert end.decisions == honest_end.decisions


def _first_until_end(seat: RawSeat) -> None:
    while True:
        message = seat.next(60)
        if isinstance(message, tuple) or message.WhichOneof("kind") == "end":
            return
        if message.WhichOneof("kind") == "turn":
            seat.answer(message.turn.turn, index=0)


# ----- 9: restarts and re-used match ids -------------------------------------------------

def test_after_a_restart_old_tokens_and_ids_are_named_plainly() -> None:
    first = ServeProcess("--retain", "1", "--log-level", "warning", "--shutdown-grace", "1")
    with grpc.insecure_channel(first.address) as channel:
        stub = pb_grpc.RefereeStub(channel)
        old = stub.StartMatch(pb.StartMatchRequest(game=TOY, players=2, seats=[pb.SeatSpec()] * 2, match_id="m-1.a1",
                                                   join_timeout_s=60), metadata=AUTH, timeout=10)
    first.stop()
    second = ServeProcess("--retain", "1", "--log-level", "warning", "--shutdown-grace", "1")
    try:
        stale = RawSeat(second, old.seats[0].token)
        code, details = stale.closed()
        stale.close()
        assert code == grpc.StatusCode.UNAUTHENTICATED and "restarted" in details
        with grpc.insecure_channel(second.address) as channel:
            stub = pb_grpc.RefereeStub(channel)
            with pytest.raises(grpc.RpcError) as unknown:
                stub.GetMatch(pb.GetMatchRequest(match_id="m-1.a1"), metadata=AUTH, timeout=10)
            assert unknown.value.code() == grpc.StatusCode.NOT_FOUND and "restarted" in unknown.value.details()

            def start(match_id: str) -> pb.StartMatchResponse:
                return stub.StartMatch(pb.StartMatchRequest(game=TOY, players=2, seats=[pb.SeatSpec()] * 2,
                                                            match_id=match_id, join_timeout_s=60), metadata=AUTH,
                                       timeout=10)

            start("m-2.a1")
            stub.CancelMatch(pb.CancelMatchRequest(match_id="m-2.a1"), metadata=AUTH, timeout=10)
            time.sleep(1.5)  # --retain 1: the match is forgotten ...
            with pytest.raises(grpc.RpcError) as reused:
                start("m-2.a1")  # ... but its id is still refused
            assert reused.value.code() == grpc.StatusCode.ALREADY_EXISTS and "m-2.a1.a2" in reused.value.details()
            assert start("m-2.a2").match_id == "m-2.a2"  # the worker's next attempt
    finally:
        second.stop()


# ----- 6: one validation path for flags and environment -----------------------------------

@pytest.mark.parametrize(("flags", "env", "message"), [
    ({"max_send_bytes": "4"}, {}, "--max-send-bytes must be from 262144"),
    ({}, {"SKYARENA_MAX_SEND_BYTES": "4"}, "SKYARENA_MAX_SEND_BYTES must be from 262144"),
    ({"retain_s": "inf"}, {}, "--retain must be a finite number"),
    ({}, {"SKYARENA_SHUTDOWN_GRACE_S": "inf"}, "SKYARENA_SHUTDOWN_GRACE_S must be a finite number"),
    ({"max_move_s": "nan"}, {}, "--max-move must be a finite number"),
    ({}, {"SKYARENA_MAX_MATCHES": "-1"}, "SKYARENA_MAX_MATCHES must be from 1"),
])
def test_limits_from_flags_and_environment_are_checked_alike(flags: dict[str, str], env: dict[str, str],
                                                             message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        Limits.from_sources(flags, env)


def test_service_token_with_a_trailing_newline_matches(served: ServeProcess) -> None:
    from referee.service.tokens import ServiceToken

    assert ServiceToken(SERVICE_TOKEN + "\n").check(SERVICE_TOKEN)
    with pytest.raises(ValueError, match="printable ASCII"):
        ServiceToken("token with spaces inside it")


# ----- 2: every field of every game's typed action messages, random and extreme ----------

_INT_RANGES = {
    FieldDescriptor.TYPE_INT32: (-(2 ** 31), 2 ** 31 - 1), FieldDescriptor.TYPE_SINT32: (-(2 ** 31), 2 ** 31 - 1),
    FieldDescriptor.TYPE_SFIXED32: (-(2 ** 31), 2 ** 31 - 1), FieldDescriptor.TYPE_UINT32: (0, 2 ** 32 - 1),
    FieldDescriptor.TYPE_FIXED32: (0, 2 ** 32 - 1), FieldDescriptor.TYPE_UINT64: (0, 2 ** 64 - 1),
    FieldDescriptor.TYPE_FIXED64: (0, 2 ** 64 - 1),
}
_EXTREMES = (0, 1, -1, 2, 7, 99, 100, 255, 10 ** 6, 3 * 10 ** 7, 2 ** 31 - 1, 2 ** 62, 2 ** 63 - 1, -(2 ** 63))


def _scalar(field: Any) -> st.SearchStrategy[Any]:
    kind = field.type
    if kind in (FieldDescriptor.TYPE_DOUBLE, FieldDescriptor.TYPE_FLOAT):
        return st.floats(width=32 if kind == FieldDescriptor.TYPE_FLOAT else 64)
    if kind == FieldDescriptor.TYPE_BOOL:
        return st.booleans()
    if kind == FieldDescriptor.TYPE_STRING:
        return st.text(max_size=40) | st.sampled_from(["", "*" * 50_000, "\x00", "é" * 1000])
    if kind == FieldDescriptor.TYPE_BYTES:
        return st.binary(max_size=40)
    if kind == FieldDescriptor.TYPE_ENUM:
        return st.integers(-(2 ** 31), 2 ** 31 - 1)
    low, high = _INT_RANGES.get(kind, (-(2 ** 63), 2 ** 63 - 1))
    return st.integers(low, high) | st.sampled_from([v for v in _EXTREMES if low <= v <= high])


def _fill(desc: Any, depth: int = 0) -> st.SearchStrategy[dict[str, Any]]:
    """Constructor arguments of a message of type ``desc``: every field may be set, with
    random or extreme values, long lists, nested messages (to a depth)."""
    parts: dict[str, st.SearchStrategy[Any]] = {}
    for field in desc.fields:
        if field.message_type is not None:
            if depth >= 2 or field.message_type.GetOptions().map_entry:
                continue
            element: st.SearchStrategy[Any] = _fill(field.message_type, depth + 1)
        else:
            element = _scalar(field)
        if field.is_repeated:
            lists = st.lists(element, max_size=12 if depth == 0 else 3)
            if field.message_type is None and depth == 0:  # a long list of one value (a frame under the cap)
                lists = lists | element.map(lambda v: [v] * 20_000)
            parts[field.name] = lists
        else:
            parts[field.name] = element
    return st.fixed_dictionaries({}, optional=parts)


def _typed_actions(game: str) -> st.SearchStrategy[pb.BotMessage]:
    field = TYPED_GAMES[game]
    action_desc = type(getattr(game_pb2.Action(), field)).DESCRIPTOR
    kinds = list(action_desc.oneofs_by_name["kind"].fields)

    def build(kind: Any, values: dict[str, Any]) -> pb.BotMessage:
        message = pb.BotMessage(answer=pb.Answer())
        typed_action = getattr(message.answer.action, field)
        getattr(typed_action, kind.name).SetInParent()
        with contextlib.suppress(ValueError, TypeError):  # a value the runtime refuses (a float out of range...)
            getattr(typed_action, kind.name).MergeFrom(type(getattr(typed_action, kind.name))(**values))
        return message

    return st.sampled_from(kinds).flatmap(lambda kind: _fill(kind.message_type).map(lambda v: build(kind, v)))


@pytest.mark.parametrize("game", sorted(TYPED_GAMES))
def test_any_typed_action_ends_in_a_move_or_a_strike(served: ServeProcess, game: str) -> None:
    """Random and extreme values in every field of the game's typed action messages: each
    answer is either a legal action or a strike (illegal/unparseable: never a timeout, which
    would mean the referee lost the decision), and the match goes on."""
    attacker = AttackMatch(served.address, game, lambda turn: pb.BotMessage(answer=pb.Answer(index=0)), move_s=20)
    kinds: list[str] = []

    @settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck), database=None,
              derandomize=True)
    @given(_typed_actions(game))
    def check(answer: pb.BotMessage) -> None:
        reply = attacker.attack(answer)
        if isinstance(reply, pb.Notice):
            assert reply.HasField("fault"), reply.message
            assert reply.fault.kind in ("illegal", "unparseable"), reply
            assert len(reply.message) <= 1100
            kinds.append(reply.fault.kind)
        else:
            kinds.append("move")

    try:
        check()
    finally:
        attacker.close()
    assert "illegal" in kinds or "unparseable" in kinds
