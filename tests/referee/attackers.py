"""Hostile clients written against the proto (not the SDK), for the attack tests."""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Callable
from typing import Any

import grpc

from referee.games import GAMES
from skyarena.v1 import referee_pb2 as pb
from skyarena.v1 import referee_pb2_grpc as pb_grpc
from tests.toy_game import SPEC as TOY_SPEC

from .conftest import AUTH, RawSeat

# Strikes before a forfeit in an attacker's match: high, so one match absorbs many attacks.
ATTACK_STRIKES = 1_000_000


def min_players(game: str) -> int:
    spec = TOY_SPEC if game == TOY_SPEC.name else GAMES[game]
    for n in spec.player_counts():
        try:
            spec.validate(n, {})
            return n
        except Exception:
            continue
    raise AssertionError(game)


class AttackMatch:
    """A match the attacker plays itself: seat 0 answers with ``hostile(turn)``, the other
    seats answer index 0 at once (each in its own thread). ``attack()`` waits for seat 0's
    next turn request, sends the hostile answer and returns what came back for it: the
    Notice (a fault or a refusal), or the next message when the answer was accepted. A
    match that ends is replaced by a new one."""

    def __init__(self, address: str, game: str, hostile: Callable[[pb.TurnRequest], pb.BotMessage],
                 move_s: float = 10.0, seed: int = 1) -> None:
        self.address = address
        self.game = game
        self.hostile = hostile
        self.move_s = move_s
        self.seed = seed
        self.channel = grpc.insecure_channel(address)
        self.stub = pb_grpc.RefereeStub(self.channel)
        self.seat: RawSeat | None = None
        self.others: list[RawSeat] = []
        self.match_id = ""
        self.turn: pb.TurnRequest | None = None

    def _new_match(self) -> None:
        self.close_match()
        players = min_players(self.game)
        response = self.stub.StartMatch(pb.StartMatchRequest(
            game=self.game, players=players, seed=self.seed, options_json=json.dumps({}),
            strike_limit=ATTACK_STRIKES, seats=[pb.SeatSpec(name="attacker")] * players,
            time_control=pb.TimeControl(move_s=self.move_s, bank_s=0, first_move_s=self.move_s)),
            metadata=AUTH, timeout=10)
        self.seed += 1
        self.match_id = response.match_id
        self.seat = RawSeat(self, response.seats[0].token)
        self.others = [RawSeat(self, s.token) for s in response.seats[1:]]
        for other in self.others:
            threading.Thread(target=_answer_first, args=(other,), daemon=True).start()
        self.turn = None

    def next_turn(self) -> pb.TurnRequest:
        """Seat 0's next turn request (a new match if this one ended)."""
        while True:
            if self.seat is None:
                self._new_match()
            assert self.seat is not None
            if self.turn is not None:
                turn, self.turn = self.turn, None
                return turn
            message = self.seat.next(60)
            if isinstance(message, tuple) or message.WhichOneof("kind") == "end":
                self.seat = None
                continue
            if message.WhichOneof("kind") == "turn":
                return message.turn

    def attack(self, message: pb.BotMessage | None = None) -> Any:
        """One hostile answer; returns the Notice it got, or the message that followed."""
        turn = self.next_turn()
        assert self.seat is not None
        answer = message if message is not None else self.hostile(turn)
        answer.answer.turn = turn.turn
        self.seat.send(answer)
        while True:
            reply = self.seat.next(2 * self.move_s + 10)
            if isinstance(reply, tuple):
                raise AssertionError(f"the attacker's stream closed: {reply}")
            kind = reply.WhichOneof("kind")
            if kind == "notice":
                return reply.notice
            if kind == "turn":
                self.turn = reply.turn
                return reply
            if kind == "end":
                self.seat = None
                return reply

    def behave(self) -> Any:
        """The same client answering honestly (index 0): the control of an attack."""
        return self.attack(pb.BotMessage(answer=pb.Answer(index=0)))

    def close_match(self) -> None:
        """Close the attacker's streams (a cancellation each) and cancel its match."""
        for raw in [*([self.seat] if self.seat else []), *self.others]:
            raw.close()
        if self.match_id:
            with contextlib.suppress(grpc.RpcError):  # it had ended and was forgotten
                self.stub.CancelMatch(pb.CancelMatchRequest(match_id=self.match_id, reason="attack over"),
                                      metadata=AUTH, timeout=10)
        self.seat = None
        self.others = []

    def close(self) -> None:
        self.close_match()
        self.channel.close()


def _answer_first(seat: RawSeat) -> None:
    while True:
        try:
            message = seat.next(120)
        except Exception:
            return
        if isinstance(message, tuple):
            return
        kind = message.WhichOneof("kind")
        if kind == "turn":
            seat.answer(message.turn.turn, index=0)
        elif kind == "end":
            return


def typed(game_field: str, **kind: Any) -> pb.BotMessage:
    """An Answer carrying only a typed action of ``game_field`` (no notation)."""
    message = pb.BotMessage(answer=pb.Answer())
    getattr(message.answer.action, game_field).MergeFrom(
        type(getattr(message.answer.action, game_field))(**kind))
    return message
