"""When a waiting challenge goes to the workers: challenges give way to the seasons' rated matches.

A challenge is stored the moment it is asked for (its quota counted then) but released to the
workers only when the platform has room for it. Workers take messages first come, first served,
so a challenge sent at once would take a worker slot from the next rated match whenever the
seasons keep the workers busy; a burst of them cut a season's rated throughput by a quarter.

The rule, applied each time room may have opened (a match ended, the beat, a new challenge):

* while no rated or smoke match waits for a worker, the workers have slots to spare:
  challenges go until ``idle_slots`` of them are out (released and not yet finished);
* while some wait, challenges get at most ``share`` of the matches started over the last
  ``window_s`` (rated ones by their creation, challenges by their release), and never more
  than ``idle_slots`` out, so the seasons keep at least 1 − ``share`` of the workers' time.

Released oldest first, one account's at a time in turn, so one account's burst does not hold
back another's single challenge. The counts come from the store
(`workers.store.challenges.release_waiting`), which applies this under a lock.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class ReleasePolicy:
    share: float = 0.05       # of the matches started while rated matches wait for a worker
    idle_slots: int = 4       # challenges out at once, platform-wide
    window_s: float = 600.0   # the span the share is counted over


@dataclass(frozen=True)
class PlatformLoad:
    """What the store counts for one decision."""

    others_waiting: int        # rated and smoke matches queued for a worker
    challenges_out: int        # challenges released and not finished
    others_started: int        # rated and smoke matches created in the window
    challenges_started: int    # challenges released in the window


def room_for_challenges(load: PlatformLoad, policy: ReleasePolicy) -> int:
    """How many more challenges may be released now (0 or more)."""
    room = policy.idle_slots - load.challenges_out
    if load.others_waiting > 0:
        # c / (c + r) <= share  <=>  c <= r * share / (1 - share), counting the ones released now.
        allowed = math.floor(load.others_started * policy.share / (1.0 - policy.share) + 1e-9)
        room = min(room, allowed - load.challenges_started)
    return max(0, room)
