"""Counter-based chance for the engines.

The referee's dice and shuffles come from SplitMix64 applied to (seed, counter): the
n-th draw of a match depends only on the seed and n, never on the global ``random``
module, so a match can be re-played exactly and a clone continues the same stream.
Its whole state is two integers, which keeps ``clone()`` cheap.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def seed_key(seed: int) -> int:
    """Spread any integer seed (negative or huge too) over 64 bits."""
    return _mix((seed * _GOLDEN + 0x2545F4914F6CDD1D) & _MASK)


class CounterRng:
    """SplitMix64 keyed by the match seed; ``counter`` counts draws so far."""

    __slots__ = ("key", "counter")

    def __init__(self, seed: int, counter: int = 0) -> None:
        self.key = seed_key(seed)
        self.counter = counter

    def copy(self) -> CounterRng:
        twin = CounterRng.__new__(CounterRng)
        twin.key = self.key
        twin.counter = self.counter
        return twin

    def next64(self) -> int:
        self.counter += 1
        return _mix((self.key + self.counter * _GOLDEN) & _MASK)

    def below(self, n: int) -> int:
        """Uniform integer in [0, n), without modulo bias."""
        if n <= 0:
            raise ValueError(f"below() needs a positive bound, got {n}")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def die(self, sides: int = 6) -> int:
        return self.below(sides) + 1

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """A new list with the items in a uniformly random order (Fisher–Yates)."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out
