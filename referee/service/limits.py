"""The referee's limits: what one process accepts, and for how long.

Every limit has a default, an environment variable and a command-line flag, so a
deployment can tune them without code. Limits are the referee's defence against a buggy
or hostile client: oversized messages, unbounded waits, unbounded memory. The few on/off
switches of how a server works (``direct_writes``) are set the same way, per server.

Flags and environment go through one path (:meth:`Limits.from_sources`): each value is
parsed from its text and checked against the limit's range here, whichever way it came, and
a bad one is a one-line ``ValueError`` naming the flag or variable. ``parse_listen`` does the
same for listen addresses.
"""

from __future__ import annotations

import dataclasses
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

ENV_PREFIX = "SKYARENA_"
DAY_S = 86_400.0


def _limit(default: float, low: float, high: float, flag: str, why: str) -> Any:
    """A limit field: its default, the range it must lie in, its command-line flag, its unit."""
    return field(default=default, metadata={"low": low, "high": high, "flag": flag, "why": why})


def _switch(default: bool, flag: str, why: str) -> Any:
    """An on/off field: its default, its command-line flag, what it turns on. Its text is
    1 or 0 (or true/false, on/off, yes/no)."""
    return field(default=default, metadata={"low": False, "high": True, "flag": flag, "why": why})


SWITCH_TEXTS = {"1": True, "true": True, "on": True, "yes": True, "0": False, "false": False, "off": False,
                "no": False}


@dataclass(frozen=True)
class Limits:
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
    max_move_s: float = _limit(600.0, 0.001, DAY_S, "--max-move", "seconds")
    max_bank_s: float = _limit(3600.0, 0.0, 7 * DAY_S, "--max-bank", "seconds")
    # Ceiling on a match's strike limit (a fault per decision is what a broken bot costs).
    max_strikes: int = _limit(1_000_000, 1, 1 << 31, "--max-strikes", "strikes")
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
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            kind = _kind(f)
            if kind is bool:
                if not isinstance(value, bool):
                    raise ValueError(f"limit {f.name} must be True or False, got {value!r}")
                continue
            if isinstance(value, bool) or not isinstance(value, (int, float)) or \
                    (kind is int and not isinstance(value, int)):
                raise ValueError(f"limit {f.name} must be {_what(kind)}, got {value!r}")
            _check_range(f, value, f"limit {f.name}")
        if self.join_timeout_s > self.max_join_timeout_s:
            raise ValueError(f"the join timeout ({self.join_timeout_s:g} s) cannot exceed the maximum join timeout "
                             f"({self.max_join_timeout_s:g} s)")
        if self.reserved_watchers >= self.max_watchers:
            raise ValueError(f"reserved_watchers ({self.reserved_watchers}) must be below max_watchers "
                             f"({self.max_watchers}), or anonymous spectators get no slot")
        if self.replay_page_bytes > self.max_send_bytes // 2:
            raise ValueError(f"replay_page_bytes ({self.replay_page_bytes}) must be at most half of max_send_bytes "
                             f"({self.max_send_bytes}): a page travels inside a status")

    @staticmethod
    def env_name(name: str) -> str:
        return ENV_PREFIX + name.upper()

    @classmethod
    def parse(cls, name: str, text: str, source: str) -> int | float:
        """One limit's value from its text (flag or variable), checked; ``source`` names
        where it came from in the error."""
        f = cls._field(name)
        kind = _kind(f)
        if kind is bool:
            switch = SWITCH_TEXTS.get(text.strip().lower())
            if switch is None:
                raise ValueError(f"{source}={text!r} is not {_what(kind)}")
            return switch
        try:
            value: int | float = kind(text.strip())
        except ValueError:
            raise ValueError(f"{source}={text!r} is not {_what(kind)}") from None
        _check_range(f, value, source)
        return value

    @classmethod
    def from_sources(cls, flags: Mapping[str, str | None] | None = None,
                     environ: Mapping[str, str] | None = None) -> Limits:
        """Defaults, then ``SKYARENA_<NAME>`` variables, then flags (texts, None when not
        given), each through :meth:`parse`."""
        environ = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        for f in dataclasses.fields(cls):
            text = environ.get(cls.env_name(f.name))
            if text is not None and text.strip():
                values[f.name] = cls.parse(f.name, text, cls.env_name(f.name))
            flag_text = (flags or {}).get(f.name)
            if flag_text is not None:
                values[f.name] = cls.parse(f.name, flag_text, f.metadata["flag"])
        return cls(**values)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: Any) -> Limits:
        """Defaults, then ``SKYARENA_<NAME>`` variables, then explicit (non-None) overrides
        (values or texts; texts are parsed like flags)."""
        flags = {k: str(v) for k, v in overrides.items() if v is not None}
        return cls.from_sources(flags, environ)

    @classmethod
    def _field(cls, name: str) -> dataclasses.Field[Any]:
        for f in dataclasses.fields(cls):
            if f.name == name:
                return f
        raise KeyError(name)

    @classmethod
    def flags(cls) -> list[tuple[str, str, str]]:
        """(field name, flag, help) of every limit, for the command line."""
        out = []
        for f in dataclasses.fields(cls):
            meta = f.metadata
            if _kind(f) is bool:
                text = f"{meta['why'].capitalize()}: 1 or 0"
            else:
                text = f"{meta['why'].capitalize()}, {_number(meta['low'])} to {_number(meta['high'])}"
            out.append((f.name, meta["flag"], f"{text} (default {_number(f.default)}; env {cls.env_name(f.name)})."))
        return out

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def _kind(f: dataclasses.Field[Any]) -> type:
    """The type of a field's values (bool is checked first: it is also an int)."""
    default = f.default
    return bool if isinstance(default, bool) else int if isinstance(default, int) else float


def _what(kind: type) -> str:
    return {bool: "1 or 0 (or on/off, true/false, yes/no)", int: "a whole number"}.get(kind, "a number")


def _number(value: Any) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    return f"{value:g}" if isinstance(value, float) else str(value)


def _check_range(f: dataclasses.Field[Any], value: float, source: str) -> None:
    low, high = f.metadata["low"], f.metadata["high"]
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"{source} must be a finite number, got {value!r}")
    if not low <= value <= high:
        raise ValueError(f"{source} must be from {_number(low)} to {_number(high)} {f.metadata['why']}, got "
                         f"{_number(value)}")


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
