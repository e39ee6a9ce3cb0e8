"""Small parts of the referee and the SDK transport, without a server."""

from __future__ import annotations

import asyncio
import io
from typing import Any

import pytest

from referee.service import RefereeServer
from referee.service.limits import Limits
from referee.service.outbox import Outbox
from referee.service.tokens import SeatTokens, ServiceToken
from serving.tokens import bearer
from skyarena.remote.frames import FrameError, encode_frame, read_frame, write_frame
from skyarena.remote.runner import encode_answer
from skyarena.v1 import common_pb2
from skyarena.v1 import referee_pb2 as pb
from skyarena.wire import action_to_proto, wire_for
from skyarena.wire.shapes import json_from_message, json_kwargs


def test_limits_from_environment_and_flags() -> None:
    limits = Limits.from_env({"SKYARENA_MAX_MATCHES": "7", "SKYARENA_JOIN_TIMEOUT_S": "2.5"}, retain_s=9.0,
                             max_receive_bytes=None)
    assert (limits.max_matches, limits.join_timeout_s, limits.retain_s) == (7, 2.5, 9.0)
    assert limits.max_receive_bytes == Limits().max_receive_bytes
    with pytest.raises(ValueError, match="SKYARENA_MAX_MATCHES='many' is not a whole number"):
        Limits.from_env({"SKYARENA_MAX_MATCHES": "many"})
    with pytest.raises(ValueError, match="limit max_matches must be from 1 to"):
        Limits(max_matches=0)


def test_direct_writes_are_a_limit_of_each_server() -> None:
    """``SKYARENA_DIRECT_WRITES`` is read by Limits, per server: with it on, a message for an
    idle stream is gathered for the reader of the answer that caused it to write; off, it goes
    to the stream's own writer task. Two servers of one process can differ."""
    assert Limits().direct_writes and Limits.from_env({"SKYARENA_DIRECT_WRITES": "1"}).direct_writes
    assert not Limits.from_env({"SKYARENA_DIRECT_WRITES": "0"}).direct_writes
    assert not Limits.from_env({}, direct_writes=False).direct_writes
    with pytest.raises(ValueError, match="SKYARENA_DIRECT_WRITES='maybe' is not 1 or 0"):
        Limits.from_env({"SKYARENA_DIRECT_WRITES": "maybe"})

    async def route(environ: dict[str, str]) -> tuple[int, int]:
        """Where a message put while a reader collects goes: (queued for the writer task, gathered)."""
        server = RefereeServer("s" * 20, Limits.from_env(environ))
        writes = server.service.direct
        outbox = Outbox(10, None, writes)
        writes.collect()
        outbox.put(pb.RefereeMessage())
        writes.pending = None
        return outbox.queue.qsize(), len(outbox.direct)

    assert asyncio.run(route({})) == (0, 1)
    assert asyncio.run(route({"SKYARENA_DIRECT_WRITES": "0"})) == (1, 0)


def test_tokens() -> None:
    tokens = SeatTokens()
    a = tokens.issue("m1", 0)
    b = tokens.issue("m1", 1)
    c = tokens.issue("m2", 0)
    assert len({a, b, c}) == 3 and len(a) >= 40
    assert tokens.lookup(b) is not None and tokens.lookup(b).seat == 1  # type: ignore[union-attr]
    assert tokens.lookup("guess") is None
    tokens.revoke_match("m1")
    assert tokens.lookup(a) is None and tokens.lookup(c) is not None
    service = ServiceToken("s" * 20)
    assert service.check("s" * 20) and not service.check("s" * 19) and not service.check(None)
    with pytest.raises(ValueError, match="at least 16"):
        ServiceToken("short")
    assert bearer([("authorization", "Bearer abc")]) == "abc"
    assert bearer([("authorization", b"bearer  xyz ")]) == " xyz "  # exactly as sent: the check refuses the spaces
    assert bearer([("authorization", "Basic abc")]) is None and bearer(None) is None


def test_frames_round_trip_and_refuse_garbage() -> None:
    messages = [pb.BotMessage(join=pb.Join(token="t")), pb.BotMessage(answer=pb.Answer(turn=300, index=2))]
    stream = io.BytesIO()
    for message in messages:
        write_frame(stream, message)
    stream.seek(0)
    assert [read_frame(stream, pb.BotMessage) for _ in range(3)] == [*messages, None]
    with pytest.raises(FrameError, match="exceeds the cap"):
        read_frame(io.BytesIO(b"\xff\xff\xff\x7f"), pb.BotMessage, max_bytes=1000)
    with pytest.raises(FrameError, match="middle of a frame"):
        read_frame(io.BytesIO(encode_frame(messages[1])[:-1]), pb.BotMessage)
    with pytest.raises(FrameError, match="exceeds the frame cap"):
        encode_frame(pb.BotMessage(join=pb.Join(client="x" * 100)), max_bytes=50)


class Token:
    def __init__(self, value: str) -> None:
        self.value = value

    def __str__(self) -> str:
        return self.value


@pytest.mark.parametrize(("choice", "expected"), [
    (1, {"index": 1}), ("keep", {"notation": "keep"}), (True, {"notation": "True"}), (-1, {"notation": "-1"}),
])
def test_answers_are_encoded_as_index_or_notation(choice: Any, expected: dict[str, Any]) -> None:
    answer = pb.Answer(turn=1)
    encode_answer("toy-high-die", choice, ["keep", "reroll"], answer)
    if "index" in expected:
        assert answer.WhichOneof("choice") == "index" and answer.index == expected["index"]
    else:
        assert answer.action.notation == expected["notation"]


def test_an_answer_that_is_a_legal_object_goes_as_its_index() -> None:
    legal = [Token("a"), Token("b")]
    answer = pb.Answer(turn=1)
    encode_answer("toy-high-die", legal[1], legal, answer)  # type: ignore[arg-type]
    assert answer.WhichOneof("choice") == "index" and answer.index == 1


def test_json_wrapper_is_exact() -> None:
    for value in [None, True, 3, -2.5, "x", [1, [2, None]], {"a": {"b": [True, 1.0]}}]:
        message = common_pb2.Json(**json_kwargs(value))
        back = json_from_message(common_pb2.Json.FromString(message.SerializeToString()))
        assert back == value and type(back) is type(value)


def test_typed_answers_built_by_the_sdk_resolve_to_their_legal_action() -> None:
    """The referee compares a typed answer's bytes with the legal actions' (answers.py): the
    SDK's encoding of every legal action of a few real positions must find that very action."""
    import random

    from referee.games import make
    from referee.service.answers import typed_index
    from skyarena.wire.typed_games import TYPED_GAMES

    from .attackers import min_players

    rng = random.Random(3)
    for game in sorted(TYPED_GAMES):
        wire = wire_for(game)
        assert wire is not None
        state = make(game, min_players(game), 5)
        for _ in range(30):
            if not state.to_move():
                break
            for seat in state.to_move():
                legal = state.legal_actions(seat)
                for index in rng.sample(range(len(legal)), min(5, len(legal))):
                    message = action_to_proto(game, legal[index])
                    assert typed_index(game, wire, message, legal) == legal.index(legal[index]), (game, legal[index])
            state.apply({seat: rng.choice(state.legal_actions(seat)) for seat in state.to_move()})
