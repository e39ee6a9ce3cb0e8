"""Figures the pages show beside the store's counts.

The Wilson score interval is four lines of arithmetic; it is written here rather than
pulling scipy or statsmodels into the server install for one formula. It is the usual
choice for a win rate over few games: unlike the normal approximation it stays inside
[0, 1] and is not absurdly narrow at 0 or 10 wins out of 10.
"""

from __future__ import annotations

import math

Z_95 = 1.959963984540054  # the standard normal's 97.5th percentile: a two-sided 95 % interval


def wilson_interval(successes: int, trials: int, z: float = Z_95) -> tuple[float, float]:
    """The 95 % Wilson score interval of ``successes / trials`` (``(0, 1)`` with no trials)."""
    if not 0 <= successes <= trials:
        raise ValueError(f"successes must be between 0 and trials ({trials}), not {successes}")
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)
