"""Clocks: a per-move limit, a time bank for overage, and a longer first move.

A move that takes longer than its limit draws the excess from the seat's bank; a move
that exhausts the bank is a timeout. The first decision of each seat gets
``first_move_s`` instead of ``move_s`` (bots load models, warm caches).

A seat is on a wall clock (the time from a turn's sending to its answer's arrival: remote
bots) or on a CPU clock (the CPU time its worker measured: hosted bots, and local seats of
``skyarena play``), where wall time only bounds a decision at ``wall_backstop`` times its
deadline, so a bot that sleeps or blocks still loses its move.
"""

from __future__ import annotations

from dataclasses import dataclass

# The ceilings a referee puts on the clocks and strikes a match may ask for, unless its
# operator sets others (`referee.service.limits.Limits`). A season is checked against these
# defaults when it is created, so its matches fit every referee left at its defaults.
DEFAULT_MAX_MOVE_S = 600.0
DEFAULT_MAX_BANK_S = 3600.0
DEFAULT_MAX_STRIKES = 1_000_000
# How many times its CPU deadline a decision on a CPU clock may take in wall time.
DEFAULT_WALL_BACKSTOP = 4.0
MIN_WALL_BACKSTOP = 2.0  # below this a busy machine's load alone would cost bots their moves
DEFAULT_MAX_WALL_BACKSTOP = 100.0

WALL = "wall"
CPU = "cpu"
# A decision on a CPU clock that reaches its wall backstop having waited for a core this share
# of the wall time or more was starved by the machine, not slow by itself: the referee voids
# the match (the platform's fault), and a local seat is given its time.
STARVED_SHARE = 0.5


@dataclass(frozen=True)
class TimeControl:
    move_s: float = 1.0
    bank_s: float = 10.0
    first_move_s: float = 5.0
    wall_backstop: float = DEFAULT_WALL_BACKSTOP  # CPU clocks only: wall deadline = this × CPU deadline

    def __post_init__(self) -> None:
        for name in ("move_s", "bank_s", "first_move_s"):
            if getattr(self, name) < 0:
                raise ValueError(f"time control {name} must be >= 0, got {getattr(self, name)}")
        if self.wall_backstop < MIN_WALL_BACKSTOP:
            raise ValueError(f"time control wall_backstop must be at least {MIN_WALL_BACKSTOP:g}, "
                             f"got {self.wall_backstop}")

    def to_json(self) -> dict[str, float]:
        return {"move_s": self.move_s, "bank_s": self.bank_s, "first_move_s": self.first_move_s,
                "wall_backstop": self.wall_backstop}


class SeatClock:
    """One seat's clock. ``charge`` books a finished decision and says if it was in time."""

    __slots__ = ("control", "bank_s", "moves", "used_s")

    def __init__(self, control: TimeControl) -> None:
        self.control = control
        self.bank_s = control.bank_s
        self.moves = 0
        self.used_s = 0.0

    def limit_s(self) -> float:
        """The limit for the next decision, before the bank."""
        return self.control.first_move_s if self.moves == 0 else self.control.move_s

    def deadline_s(self) -> float:
        """Longest the next decision may take: its limit plus what is left in the bank."""
        return self.limit_s() + self.bank_s

    def charge(self, elapsed_s: float) -> bool:
        """Book ``elapsed_s`` for one decision; False (and an empty bank) if it overran."""
        limit = self.limit_s()
        self.moves += 1
        self.used_s += elapsed_s
        overage = elapsed_s - limit
        if overage <= 0:
            return True
        if overage <= self.bank_s:
            self.bank_s -= overage
            return True
        self.bank_s = 0.0
        return False
