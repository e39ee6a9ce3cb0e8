"""Fault records: what went wrong with a seat, on which decision, and why."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from enum import StrEnum
from typing import Any

# Bot-supplied text is echoed (into fault reasons, notices, logs, match records) at most this
# long: a megabyte of notation must not become a megabyte in every record that names it.
ECHO_LIMIT = 200
# A whole fault reason (what the referee says plus any echo) is kept at most this long.
REASON_LIMIT = 1000
# How the reason of a match aborted for the platform's stall begins (CPU clocks: see
# referee/service/cpu_clock.py); a worker voids such an attempt and replays the same seed.
PLATFORM_FAULT = "platform fault"


def cap(text: str, limit: int = ECHO_LIMIT) -> str:
    """``text`` if it is short enough, else its start marked as cut (with its full length)."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... [cut: {len(text)} characters]"


class FaultKind(StrEnum):
    TIMEOUT = "timeout"          # no answer within the move limit plus bank
    EXCEPTION = "exception"      # the bot raised (or its process died)
    ILLEGAL = "illegal"          # a well-formed action that is not legal now
    UNPARSEABLE = "unparseable"  # an answer that is not an action, its notation or a valid index
    DISCONNECT = "disconnect"    # a remote seat's stream closed


@dataclass(frozen=True)
class Fault:
    seat: int
    turn: int          # the match's decision number (1-based) at which it happened
    kind: FaultKind
    reason: str        # a sentence a bot author can act on
    strike: int        # this seat's strike count after this fault
    forfeit: bool      # this strike made the seat forfeit

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["kind"] = self.kind.value
        return data
