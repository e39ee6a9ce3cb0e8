"""How much of the Arena one upload, and one account's uploads, may hold: slots and a stream deadline.

A ``SubmitVersion`` call holds a server thread from its first message to its answer (the bytes,
then the sandboxed entry check). Without bounds, sixteen clients that open a stream and send
nothing held all sixteen threads, and health checks and reads queued behind them. So:

- uploads in progress are capped per account and in all (`UploadSlots`); one past a cap is
  refused at once (RESOURCE_EXHAUSTED), not queued, and the server has threads for the reads
  beyond the uploads' cap (`server_threads`), so health and reads are served while uploads stall;
- a stream has a deadline and a chunk count (`bounded_stream`): a client that stalls, or trickles
  bytes or empty chunks, is cut off with a message instead of holding its slot for ever.

Every limit is a field of `UploadLimits` (the Arena's flags set them), so a test can set them small.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import grpc

from skyarena.v1 import arena_pb2 as pb

from .auth import CallRefused

# Threads for everything but uploads (health, reads, organiser calls), on top of the uploads' cap.
READ_THREADS = 16
# What a refusal for a busy Arena suggests waiting: uploads take seconds, not minutes.
BUSY_RETRY_S = 5


@dataclass(frozen=True)
class UploadLimits:
    """Uploads' bounds and the per-account submission limits (see also `rate_limits`)."""

    max_uploads: int = 8                  # uploads in progress at once, all accounts together
    max_uploads_per_account: int = 4      # ... and of one account
    stream_deadline_s: float = 120.0      # from the call's start to the archive's last byte
    max_chunks: int = 1024                # data messages per upload (skyarena submit sends 64 KiB each)
    submissions_per_hour: int = 120       # SubmitVersion calls per account, refused ones included ...
    submission_burst: int = 30            # ... of which this many may come at once
    versions_per_day: int = 50            # new versions stored per account in any 24 hours

    def __post_init__(self) -> None:
        for name, value in vars(self).items():
            if not value > 0:
                raise ValueError(f"the upload limit {name} must be positive, not {value}")


def server_threads(limits: UploadLimits) -> int:
    """Enough threads that every upload slot may stall and reads are still served."""
    return limits.max_uploads + READ_THREADS


class UploadRefused(CallRefused):
    """A limit refused the call (RESOURCE_EXHAUSTED); ``retry_after_s`` says when trying again may work."""

    def __init__(self, message: str, retry_after_s: float, code: grpc.StatusCode = grpc.StatusCode.RESOURCE_EXHAUSTED
                 ) -> None:
        super().__init__(code, message)
        self.retry_after_s = retry_after_s


def refuse(context: grpc.ServicerContext, refusal: UploadRefused) -> UploadRefused:
    """The refusal, with its retry time also in the trailing metadata (``retry-after``, whole seconds)."""
    context.set_trailing_metadata((("retry-after", str(max(1, round(refusal.retry_after_s)))),))
    return refusal


class UploadSlots:
    """Uploads in progress, per account and in all, counted under one lock."""

    def __init__(self, limits: UploadLimits) -> None:
        self.limits = limits
        self._lock = threading.Lock()
        self._total = 0
        self._by_account: dict[int, int] = {}

    @contextmanager
    def hold(self, account_id: int) -> Iterator[None]:
        with self._lock:
            mine = self._by_account.get(account_id, 0)
            if mine >= self.limits.max_uploads_per_account:
                raise UploadRefused(f"you have {mine} uploads in progress already (the limit is "
                                    f"{self.limits.max_uploads_per_account}): wait for one to finish, then "
                                    f"try again (in about {BUSY_RETRY_S} s)", BUSY_RETRY_S)
            if self._total >= self.limits.max_uploads:
                raise UploadRefused(f"the Arena is receiving {self._total} uploads already: try again in "
                                    f"{BUSY_RETRY_S} s", BUSY_RETRY_S)
            self._total += 1
            self._by_account[account_id] = mine + 1
        try:
            yield
        finally:
            with self._lock:
                self._total -= 1
                left = self._by_account[account_id] - 1
                if left:
                    self._by_account[account_id] = left
                else:
                    del self._by_account[account_id]


def bounded_stream(chunks: Iterable[pb.SubmitChunk], limits: UploadLimits) -> Iterator[pb.SubmitChunk]:
    """The stream's messages, refused once it passes its deadline or its chunk count.

    gRPC's request iterator blocks with no timeout, so a reader thread pulls it and this
    generator waits on the reader with the time left. When the generator stops (deadline,
    a refusal, the end), the call ends and its iterator ends too, which ends the reader.
    """
    inbox: queue.Queue[tuple[pb.SubmitChunk | None, BaseException | None]] = queue.Queue()
    stop = threading.Event()

    def read() -> None:
        try:
            for chunk in chunks:
                if stop.is_set():
                    return
                inbox.put((chunk, None))
            inbox.put((None, None))
        except BaseException as exc:  # the client cancelled: the handler sees it as the stream's end
            inbox.put((None, exc))

    threading.Thread(target=read, name="arena-upload-reader", daemon=True).start()
    deadline = time.monotonic() + limits.stream_deadline_s
    messages = 0
    try:
        while True:
            try:
                chunk, error = inbox.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise UploadRefused(f"the upload took longer than {limits.stream_deadline_s:g} s: send it again "
                                    "from a faster connection (skyarena submit sends it whole)", BUSY_RETRY_S,
                                    grpc.StatusCode.DEADLINE_EXCEEDED) from None
            if error is not None:
                raise error
            if chunk is None:
                return
            messages += 1
            if messages > limits.max_chunks + 1:  # the header, then at most max_chunks data chunks
                raise UploadRefused(f"the upload has more than {limits.max_chunks} chunks: send the archive in "
                                    "chunks of 64 KiB (skyarena submit does)", BUSY_RETRY_S)
            yield chunk
    finally:
        stop.set()
