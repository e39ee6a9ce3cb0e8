"""What a finished match hands to the store: the contract between the worker that ran it
and the exactly-once apply path (`results.py`, issue 13).

The worker builds it from the referee's match record (GetMatch with the replay) and the
sandbox's logs; the store writes all of it, and every rating change, in one transaction
keyed by ``match_id``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class SeatOutcome:
    """One seat's part of a finished match."""

    seat: int
    version_id: int
    rank: int                 # 0 is best; tied seats share a rank (the engine's Result.ranks)
    score: float | None
    faults: tuple[dict[str, Any], ...] = ()  # the referee's fault records: turn, kind, reason
    strikes: int = 0
    forfeited: bool = False
    unrated: bool = False     # excused by the match record (a co-op partner of a faulty seat)
    log: bytes = b""          # the hosted bot's stderr, already capped by the sandbox
    log_truncated: bool = False
    bot_seed: int | None = None  # the seed the referee gave the seat's bot (Welcome.bot_seed): its owner's only
    answer_median_s: float | None = None  # its median answer time, as the referee measured it (network included)


@dataclass(frozen=True)
class MatchOutcome:
    """A finished match, ready to be applied exactly once."""

    match_id: str
    seats: tuple[SeatOutcome, ...]
    end_reason: str
    replay: dict[str, Any]    # the referee's replay document (header, moves, chance outcomes)
    state_hash: str           # the referee's final state hash, kept beside the replay
    referee: str | None = None
    confinement: str | None = None  # how the hosted bots were confined (the sandbox's own words)
    details: dict[str, Any] = field(default_factory=dict)
