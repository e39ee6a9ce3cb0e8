"""The referee's limits: what one process accepts, and for how long.

Every limit has a default, an environment variable and a command-line flag, so a
deployment can tune them without code. Limits are the referee's defence against a buggy
or hostile client: oversized messages, unbounded waits, unbounded memory. The few on/off
switches of how a server works (``direct_writes``) are set the same way, per server.

Flags and environment go through one path (:meth:`Limits.from_sources`, the shared
settings machinery of `skyarena/settings.py`): each value is parsed from its text and
checked against the limit's range there, whichever way it came, and a bad one is a
one-line ``ValueError`` naming the flag or variable. ``parse_listen`` does the same for
listen addresses.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from referee.match.clock import (
    DEFAULT_MAX_BANK_S,
    DEFAULT_MAX_MOVE_S,
    DEFAULT_MAX_STRIKES,
    DEFAULT_MAX_WALL_BACKSTOP,
    DEFAULT_WALL_BACKSTOP,
    MIN_WALL_BACKSTOP,
)
from skyarena.settings import DAY_S, Settings, setting


def _limit(default: float, low: float, high: float, flag: str, unit: str) -> Any:
    """A limit field: its default, the range it must lie in, its command-line flag."""
    return setting(default, low, high, flag=flag, unit=unit)


def _switch(default: bool, flag: str, why: str) -> Any:
    """An on/off field: its default, its command-line flag, what it turns on. Its text is
    1 or 0 (or true/false, on/off, yes/no)."""
    return setting(default, flag=flag, help=why)


@dataclass(frozen=True)
class Limits(Settings):
    WHAT: ClassVar[str] = "limit"
    READ_BY: ClassVar[str] = "referee"

    # Largest message the referee accepts (bot answers, StartMatch); gRPC refuses bigger ones.
    max_receive_bytes: int = _limit(1 << 20, 64 << 10, (1 << 31) - 1, "--max-receive-bytes", "bytes")
    # Largest message the referee sends (observations); a bigger one is a bug, not a bot's fault.
    max_send_bytes: int = _limit(4 << 20, 256 << 10, (1 << 31) - 1, "--max-send-bytes", "bytes")
    # Matches waiting or running at once; StartMatch beyond this fails RESOURCE_EXHAUSTED.
    max_matches: int = _limit(1000, 1, 1_000_000, "--max-matches", "matches")
    # Default and ceiling of the join timeout: every seat must have joined within it.
    join_timeout_s: float = _limit(30.0, 0.1, DAY_S, "--join-timeout", "seconds")
    max_join_timeout_s: float = _limit(600.0, 0.1, DAY_S, "--max-join-timeout", "seconds")
    # Ceilings on a match's time control, so a disconnected seat cannot stall a match forever.
    max_move_s: float = _limit(DEFAULT_MAX_MOVE_S, 0.001, DAY_S, "--max-move", "seconds")
    max_bank_s: float = _limit(DEFAULT_MAX_BANK_S, 0.0, 7 * DAY_S, "--max-bank", "seconds")
    # Seats on a CPU clock: a decision's wall deadline is this many times its CPU deadline,
    # when StartMatch leaves TimeControl.wall_backstop at 0; and the most a match may ask.
    wall_backstop: float = _limit(DEFAULT_WALL_BACKSTOP, MIN_WALL_BACKSTOP, 1000.0, "--wall-backstop", "times")
    max_wall_backstop: float = _limit(DEFAULT_MAX_WALL_BACKSTOP, MIN_WALL_BACKSTOP, 1000.0, "--max-wall-backstop",
                                      "times")
    # Ceiling on a match's strike limit (a fault per decision is what a broken bot costs).
    max_strikes: int = _limit(DEFAULT_MAX_STRIKES, 1, 1 << 31, "--max-strikes", "strikes")
    # Spectator streams per match, and how far a spectator may fall behind before it is dropped.
    max_watchers: int = _limit(32, 1, 100_000, "--max-watchers", "spectators")
    watcher_queue: int = _limit(1000, 10, 1_000_000, "--watcher-queue", "messages")
    # Of max_watchers, the slots only holders of the service or spectator token may take.
    reserved_watchers: int = _limit(8, 0, 100_000, "--reserved-watchers", "spectators")
    # Watch calls per second (and in a burst) one anonymous peer address may make.
    watch_rate: float = _limit(5.0, 0.01, 10_000.0, "--watch-rate", "calls per second")
    watch_burst: int = _limit(20, 1, 100_000, "--watch-burst", "calls")
    # How long a finished match (its status, result and replay) stays queryable.
    retain_s: float = _limit(900.0, 1.0, 30 * DAY_S, "--retain", "seconds")
    # How long a forgotten match's id is still refused by StartMatch (attempts need new ids).
    match_id_retain_s: float = _limit(DAY_S, 0.0, 365 * DAY_S, "--match-id-retain", "seconds")
    # Largest page of replay GetMatch returns (the rest is paged: MatchStatus.replay_next_offset).
    replay_page_bytes: int = _limit(1 << 20, 4 << 10, (1 << 31) - 1, "--replay-page-bytes", "bytes")
    # On shutdown: how long running matches may go on before they are aborted.
    shutdown_grace_s: float = _limit(30.0, 0.0, DAY_S, "--shutdown-grace", "seconds")
    # Messages a bot's answer causes for other seats are written by the reader of that answer
    # (one task switch less per message); off, only each stream's writer task writes (a knob
    # for comparing the two).
    direct_writes: bool = _switch(True, "--direct-writes", "write other seats' messages from the reader of the "
                                                           "answer that caused them")

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.join_timeout_s > self.max_join_timeout_s:
            raise ValueError(f"the join timeout ({self.join_timeout_s:g} s) cannot exceed the maximum join timeout "
                             f"({self.max_join_timeout_s:g} s)")
        if self.wall_backstop > self.max_wall_backstop:
            raise ValueError(f"the wall backstop ({self.wall_backstop:g}) cannot exceed the maximum wall backstop "
                             f"({self.max_wall_backstop:g})")
        if self.reserved_watchers >= self.max_watchers:
            raise ValueError(f"reserved_watchers ({self.reserved_watchers}) must be below max_watchers "
                             f"({self.max_watchers}), or anonymous spectators get no slot")
        if self.replay_page_bytes > self.max_send_bytes // 2:
            raise ValueError(f"replay_page_bytes ({self.replay_page_bytes}) must be at most half of max_send_bytes "
                             f"({self.max_send_bytes}): a page travels inside a status")


def parse_listen(text: str, what: str = "--listen") -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:PORT`` for IPv6) as (host, port), port 0 to 65535 (0 picks a free
    one); a ValueError says what is wrong. gRPC itself would bind 34463 for ``:99999`` and
    443 for no port at all."""
    text = text.strip()
    example = f"{what} needs HOST:PORT, e.g. 127.0.0.1:50051 (port 0 picks a free port)"
    if text.startswith("["):
        host, bracket, rest = text[1:].partition("]")
        if not bracket or not rest.startswith(":"):
            raise ValueError(f"{example}; got {text!r}")
        port_text = rest[1:]
    else:
        host, colon, port_text = text.rpartition(":")
        if not colon:
            raise ValueError(f"{example}; got {text!r}, which has no port")
        if ":" in host:
            raise ValueError(f"{example}; write an IPv6 host in brackets ([::1]:50051), got {text!r}")
    if not host:
        raise ValueError(f"{example}; got {text!r}, which has no host (0.0.0.0 listens on every address)")
    if not port_text.isdigit() or not 0 <= int(port_text) <= 65535:
        raise ValueError(f"{example}; the port must be a number from 0 to 65535, got {port_text!r}")
    return host, int(port_text)
