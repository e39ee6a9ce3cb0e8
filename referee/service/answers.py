"""A seat's Answer frame, resolved against the legal actions it was handed, trusting nothing.

The referee never turns a bot's typed action into an engine object to find out whether it
is legal: an engine action built from a bot's numbers may render a text of any size
(Skybirds' ``play {free: 2**62}``) or raise (Oddball's ``skill: 99``), and both would run
on the event loop every match shares. Instead a typed answer is compared *by value* with
the typed messages of the legal actions: its deterministic serialization against theirs,
which costs the size of the frame (already capped by the server) and nothing else. The
fault reason is made from the legal side (the kind the bot named, the legal notations),
never from the bot's object.

Every answer ends as an index into the legal actions, a notation for the engine's parser
(bounded by the legal notations' length), or an :class:`AnswerFault`.
"""

from __future__ import annotations

from typing import Any

from referee.match import FaultKind
from referee.match.faults import REASON_LIMIT, cap
from referee.match.runner import legal_summary
from skyarena.v1 import referee_pb2 as pb
from skyarena.wire import GameWire, typed_action_bytes

# A notation longer than this many times the longest legal one (plus the slack) cannot name
# a legal action; it is refused before any engine parser sees it.
NOTATION_SLACK = 64
# A bot's own account of what it raised (the SDK's: hook, exception, and the frames of the
# bot's files, as ``skyarena play`` shows them) is its author's fault reason, kept up to this
# many characters: within the runner's reason cap with room for the cut mark, so a long one
# says its own length (the full traceback is in the bot's own log).
ERROR_ECHO_LIMIT = REASON_LIMIT - 50


class AnswerFault(Exception):
    """An answer that names no legal action: the fault's kind and its reason."""

    def __init__(self, kind: FaultKind, reason: str) -> None:
        super().__init__(reason)
        self.kind = kind
        self.reason = reason


def resolve(game: str, wire: GameWire | None, answer: pb.Answer, legal: list[Any]) -> int | str:
    """The index of the legal action ``answer`` names, or a notation for the runner to parse.
    Raises AnswerFault; an ``error`` answer is an ``exception`` fault."""
    choice = answer.WhichOneof("choice")
    if choice == "index":
        if answer.index < len(legal):
            return answer.index
        raise AnswerFault(FaultKind.UNPARSEABLE, f"index {answer.index} is out of range: there are {len(legal)} legal "
                                                 f"actions (0..{len(legal) - 1})")
    if choice == "error":
        raise AnswerFault(FaultKind.EXCEPTION, cap(answer.error.strip() or "the bot reported an error",
                                                   ERROR_ECHO_LIMIT))
    if choice != "action":
        raise AnswerFault(FaultKind.UNPARSEABLE, "the answer carries no choice: set index, action or error")
    action = answer.action
    typed = action.WhichOneof("game")
    if typed is not None and wire is not None:
        return typed_index(game, wire, action, legal)
    notation = action.notation
    if not notation.strip():
        raise AnswerFault(FaultKind.UNPARSEABLE, "the answer's action has neither a notation nor a typed message "
                                                 f"for {game}")
    longest = max((len(str(a)) for a in legal), default=0)
    if len(notation) > 2 * longest + NOTATION_SLACK:
        raise AnswerFault(FaultKind.UNPARSEABLE,
                          f"a notation of {len(notation)} characters names no legal action (the longest is {longest}); "
                          f"legal: {legal_summary(legal)}")
    return notation


def typed_index(game: str, wire: GameWire, action: Any, legal: list[Any]) -> int:
    """The index of the legal action whose typed message equals the answer's, by value."""
    which = action.WhichOneof("game")
    if which != wire.field:
        raise AnswerFault(FaultKind.UNPARSEABLE, f"the typed action is a {which} message but this match plays {game} "
                                                 f"(set Action.{wire.field})")
    typed = getattr(action, which)
    kind = typed.WhichOneof("kind")
    if kind is None:
        raise AnswerFault(FaultKind.UNPARSEABLE, f"the typed {game} action names no action kind")
    key = typed.SerializeToString(deterministic=True)
    for index, candidate in enumerate(legal):
        if typed_action_bytes(game, candidate, wire) == key:
            return index
    raise AnswerFault(FaultKind.ILLEGAL, f"{game}: the typed {kind} action is not one of the {len(legal)} legal "
                                         f"actions now; legal: {legal_summary(legal)}")
