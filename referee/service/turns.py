"""Turn requests as bytes: built once per decision, spliced into the frames that carry them.

A turn request is serialized once, when its decision is asked, and kept (a seat that
rejoins gets the same request again). The frame that carries it is spliced from bytes: the
seat's pending events as a ``RefereeMessage``, then the request as that message's ``turn``
field; its typed legal actions are the per-game kept bytes of each action
(:func:`skyarena.wire.action_bytes`); a resent request gets its new ``deadline_s`` appended
(the last value of a field wins). Building a few hundred action messages from dicts on every
decision cost more than everything else together; splicing costs a few byte copies.
"""

from __future__ import annotations

import struct
from typing import Any

from google.protobuf.message import DecodeError

from referee.match import DecisionRequest
from skyarena.v1 import referee_pb2 as pb
from skyarena.wire import ConversionError, GameWire, action_bytes, observation_kwargs, repeated_field_bytes

# The message classes called with plain dicts (the runtime accepts them; the stubs do not).
_REFEREE_MESSAGE: Any = pb.RefereeMessage
_TURN_REQUEST: Any = pb.TurnRequest

LEGAL_ACTIONS_FIELD = pb.TurnRequest.DESCRIPTOR.fields_by_name["legal_actions"].number
TURN_FIELD = pb.RefereeMessage.DESCRIPTOR.fields_by_name["turn"].number
# TurnRequest.deadline_s (a double) appended to a kept request: the last value of a field wins.
DEADLINE_TAG = bytes([pb.TurnRequest.DESCRIPTOR.fields_by_name["deadline_s"].number << 3 | 1])

# What building a typed request raises when the engine's data no longer fits its messages.
CONVERSION_ERRORS = (ConversionError, ValueError, TypeError, KeyError, AttributeError, DecodeError)


def turn_request(game: str, wire: GameWire | None, request: DecisionRequest,
                 wall_deadline_s: float | None = None) -> bytes:
    """The serialized TurnRequest of a decision: typed where ``wire`` is the game's
    GameWire, JSON and notations where it is None. A typed build that fails raises one of
    CONVERSION_ERRORS (the caller then falls back to JSON for the rest of the match).
    ``wall_deadline_s``: the backstop of a seat on a CPU clock."""
    deadline_s = request.time_limit_s + request.bank_s
    turn: dict[str, Any] = {"turn": request.turn, "move_limit_s": request.time_limit_s,
                            "bank_s": request.bank_s, "deadline_s": deadline_s,
                            "observation": observation_kwargs(game, request.observation, wire)}
    if wall_deadline_s is not None:
        turn["wall_deadline_s"] = wall_deadline_s
    if wire is None:
        turn["legal_actions"] = [{"notation": str(a)} for a in request.legal_actions]
        return _TURN_REQUEST(**turn).SerializeToString()
    legal = repeated_field_bytes(LEGAL_ACTIONS_FIELD, [action_bytes(game, a, wire) for a in request.legal_actions])
    return _TURN_REQUEST(**turn).SerializeToString() + legal


def with_deadline(turn: bytes, left_s: float) -> bytes:
    """A kept TurnRequest with its ``deadline_s`` replaced by ``left_s`` (for a resend)."""
    return turn + DEADLINE_TAG + struct.pack("<d", left_s)


def events_message(events: list[dict[str, Any]] | None, **kind: Any) -> pb.RefereeMessage:
    """A RefereeMessage of ``events`` (constructor arguments) plus ``kind``, built in one call
    into the protobuf runtime."""
    message: pb.RefereeMessage = _REFEREE_MESSAGE(events=events, **kind) if events else _REFEREE_MESSAGE(**kind)
    return message


def turn_frame(events: list[dict[str, Any]] | None, turn: bytes) -> bytes:
    """The serialized RefereeMessage of ``events`` carrying the serialized TurnRequest
    ``turn``: the events, then the turn spliced in as bytes (no parse, no second serialization)."""
    head = _REFEREE_MESSAGE(events=events).SerializeToString() if events else b""
    return head + repeated_field_bytes(TURN_FIELD, (turn,))
