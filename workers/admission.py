"""How many matches a worker plays at once, from the cores it has.

A hosted bot is charged its own CPU time (CPU clocks), so a busy machine no longer costs
it moves directly; but every thinking bot beyond the cores waits for one, the relays and
the referee's streams wait with them, and a bot that waits for a core more than half of a
decision's wall time is the platform's fault (the match is voided and replayed). So a
worker plays by default one match per core it may run on (a match's bots mostly think one
at a time: turns alternate, and a simultaneous move of house bots is microseconds), and
``skyarena worker`` warns when ``--concurrency`` asks for more than twice that, where the
waiting for a core reaches that half.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

OVERSUBSCRIBED = 2  # matches per core beyond which a thinking bot waits for a core half the time


def cores() -> int:
    """The cores this process may run on (its affinity, not the machine's count)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


def default_concurrency(available: int | None = None) -> int:
    """Matches at once for a worker that was not told: one per core."""
    return available if available is not None else cores()


def requested_concurrency(celery_args: Sequence[str]) -> int | None:
    """The ``--concurrency N`` / ``-c N`` / ``--concurrency=N`` among Celery's flags, if any."""
    args = list(celery_args)
    for i, arg in enumerate(args):
        for flag in ("--concurrency", "-c"):
            if arg == flag and i + 1 < len(args) and args[i + 1].isdigit():
                return int(args[i + 1])
            if arg.startswith(flag + "=") and arg.partition("=")[2].isdigit():
                return int(arg.partition("=")[2])
    return None


def oversubscription_warning(concurrency: int, available: int | None = None) -> str | None:
    """One line saying the settings oversubscribe the cores, or None."""
    have = available if available is not None else cores()
    if concurrency <= OVERSUBSCRIBED * have:
        return None
    return (f"warning: --concurrency {concurrency} plays more than {OVERSUBSCRIBED} matches per core on {have} "
            f"core{'s' if have != 1 else ''}: thinking bots will wait for a core, and matches whose bots wait "
            f"too long are voided as the platform's fault; use --concurrency {default_concurrency(have)} "
            "(one per core), or more cores")
