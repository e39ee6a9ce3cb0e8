"""The referee's limits: what one process accepts, and for how long.

Every limit has a default, an environment variable and a command-line flag, so a
deployment can tune them without code. Limits are the referee's defence against a buggy
or hostile client: oversized messages, unbounded waits, unbounded memory.
"""

from __future__ import annotations

import dataclasses
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

ENV_PREFIX = "SKYARENA_"


@dataclass(frozen=True)
class Limits:
    # Largest message the referee accepts (bot answers, StartMatch); gRPC refuses bigger ones.
    max_receive_bytes: int = 1 << 20
    # Largest message the referee sends (observations); a bigger one is a bug, not a bot's fault.
    max_send_bytes: int = 4 << 20
    # Matches waiting or running at once; StartMatch beyond this fails RESOURCE_EXHAUSTED.
    max_matches: int = 1000
    # Default and ceiling of the join timeout: every seat must have joined within it.
    join_timeout_s: float = 30.0
    max_join_timeout_s: float = 600.0
    # Ceilings on a match's time control, so a disconnected seat cannot stall a match forever.
    max_move_s: float = 600.0
    max_bank_s: float = 3600.0
    # Spectator streams per match, and how far a spectator may fall behind before it is dropped.
    max_watchers: int = 32
    watcher_queue: int = 1000
    # How long a finished match (its status, result and replay) stays queryable.
    retain_s: float = 900.0
    # On shutdown: how long running matches may go on before they are aborted.
    shutdown_grace_s: float = 30.0

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if not isinstance(value, (int, float)) or isinstance(value, bool) or math.isnan(value) or value <= 0:
                raise ValueError(f"limit {f.name} must be a positive number, got {value!r}")
        if self.join_timeout_s > self.max_join_timeout_s:
            raise ValueError("limit join_timeout_s cannot exceed max_join_timeout_s")

    @staticmethod
    def env_name(name: str) -> str:
        return ENV_PREFIX + name.upper()

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: Any) -> Limits:
        """Defaults, then ``SKYARENA_<NAME>`` variables, then explicit (non-None) overrides."""
        environ = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        for f in dataclasses.fields(cls):
            text = environ.get(cls.env_name(f.name))
            kind = int if isinstance(f.default, int) else float
            if text is not None and text.strip():
                try:
                    values[f.name] = kind(text)
                except ValueError:
                    what = "an integer" if kind is int else "a number"
                    raise ValueError(f"{cls.env_name(f.name)}={text!r} is not {what}") from None
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)
