"""Per-account submission limits: how often an account may call ``SubmitVersion``, and how many
new versions it may store in a day. Only submissions are limited: a bot's play never is.

Two limits, because they stop two different floods. The call rate (a token bucket in the Arena's
memory, refused calls included) stops an account that sends thousands of refused uploads a
second, each costing a read of its archive. The daily quota of stored versions (counted in the
store, in the transaction that stores one, so it holds across Arena restarts and several
Arenas) stops an account that fills the store and the smoke queue with valid versions. A
refusal is RESOURCE_EXHAUSTED and says when to try again (also as ``retry-after`` trailing
metadata).
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta

import grpc

from workers.store import Database
from workers.store.database import Conn
from workers.store.quotas import QUOTA_WINDOW_S, over_quota_frees_in_s

from .upload_limits import UploadLimits, UploadRefused, UploadSlots, refuse


def when(seconds: float) -> str:
    """``in 42 s (after 19:50:12 UTC)``: a wait a person can act on."""
    wait = max(1, math.ceil(seconds))
    at = datetime.now(UTC) + timedelta(seconds=wait)
    return f"in {wait} s (after {at:%Y-%m-%d %H:%M:%S} UTC)"


class SubmissionRate:
    """A token bucket per account: ``submission_burst`` calls at once, refilled at ``submissions_per_hour``."""

    def __init__(self, limits: UploadLimits) -> None:
        self.limits = limits
        self._per_s = limits.submissions_per_hour / 3600.0
        self._lock = threading.Lock()
        self._buckets: dict[int, tuple[float, float]] = {}  # account id -> (tokens, when counted)

    def take(self, account_id: int) -> None:
        """Spend one call of the account's allowance, or refuse with the time the next one is due."""
        now = time.monotonic()
        burst = float(self.limits.submission_burst)
        with self._lock:
            tokens, then = self._buckets.get(account_id, (burst, now))
            tokens = min(burst, tokens + (now - then) * self._per_s)
            if tokens < 1.0:
                self._buckets[account_id] = (tokens, now)
                wait = (1.0 - tokens) / self._per_s
                raise UploadRefused(f"too many submissions: this account may send {self.limits.submission_burst} "
                                    f"at once and {self.limits.submissions_per_hour} an hour; try again "
                                    f"{when(wait)}", wait)
            self._buckets[account_id] = (tokens - 1.0, now)


def check_version_quota(conn: Conn, account_id: int, limits: UploadLimits) -> None:
    """In the transaction that stores a new version: refuse it (rolling it back) when it is one more
    than ``versions_per_day`` in the last 24 hours. Checked there, not earlier, because the same
    archive again is its existing version and stores (and costs) nothing."""
    frees_in = over_quota_frees_in_s(conn, account_id, limits.versions_per_day)
    if frees_in is not None:
        raise UploadRefused(f"this account stored {limits.versions_per_day} new versions in the last "
                            f"{QUOTA_WINDOW_S // 3600} hours, the limit: try again {when(frees_in)}", frees_in)


class SubmissionGate:
    """What a ``SubmitVersion`` call passes: the call rate and an upload slot (held until the answer)
    before its bytes are read, the daily quota (`quota_check`) when a new version is stored."""

    def __init__(self, db: Database, limits: UploadLimits) -> None:
        self.db = db
        self.limits = limits
        self.rate = SubmissionRate(limits)
        self.slots = UploadSlots(limits)

    @contextmanager
    def admit(self, account_id: int, context: grpc.ServicerContext) -> Iterator[None]:
        try:
            self.rate.take(account_id)
            with self.slots.hold(account_id):
                yield
        except UploadRefused as exc:
            raise refuse(context, exc) from None

    def quota_check(self, account_id: int) -> Callable[[Conn], None]:
        """The daily quota of ``account_id``, for the intake to run in its storing transaction."""
        return lambda conn: check_version_quota(conn, account_id, self.limits)
