"""The referees a worker may use: configured addresses, one channel each, which to try next.

Addresses come from ``SKYARENA_REFEREES`` (``HOST:PORT[,HOST:PORT...]``). A worker spreads
its matches over them and, when one is unreachable or dies mid-match, marks it down for a
while and retries the match on another. Channels are ``grpc.aio`` channels bound to the
worker's own event loop (`workers/play.py`), created on first use in the process that uses
them: a channel inherited through ``fork`` shares sockets and threads with the parent and
must never be used, so the Celery app builds this object in ``worker_process_init``.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import grpc
from grpc import aio
from grpc_health.v1 import health_pb2, health_pb2_grpc

from skyarena.remote.frames import DEFAULT_MAX_FRAME
from skyarena.settings import current
from workers.config import WorkerSettings
from workers.errors import WorkerError

REFEREES_ENV = WorkerSettings.env_name("referees")
SERVICE_TOKEN_ENV = WorkerSettings.env_name("service_token")
PUBLIC_REFEREES_ENV = WorkerSettings.env_name("public_referees")
DOWN_FOR_S = 10.0  # how long a referee that failed is tried only after the healthy ones

CHANNEL_OPTIONS = [
    # Replays of long matches are large; GetMatch must not be cut off by the 4 MiB default.
    ("grpc.max_receive_message_length", 64 << 20),
    # What we send is small (StartMatch, relayed answers): the SDK's frame cap is plenty.
    ("grpc.max_send_message_length", DEFAULT_MAX_FRAME),
    # A referee that vanished without closing its sockets is noticed within seconds, not minutes.
    ("grpc.keepalive_time_ms", 10_000),
    ("grpc.keepalive_timeout_ms", 5_000),
    ("grpc.keepalive_permit_without_calls", 1),
    # Reconnect quickly once a restarted referee is back, instead of backing off for up to two minutes.
    ("grpc.max_reconnect_backoff_ms", 2_000),
]


class RefereeConfigError(WorkerError):
    """The referee configuration is missing or malformed: the message says what to set."""


class RefereeUnavailable(WorkerError):
    """No configured referee answered: the message names them and what to check."""


def parse_referees(value: str | None = None) -> tuple[str, ...]:
    """The referee addresses of ``value`` (default ``SKYARENA_REFEREES``), checked for HOST:PORT."""
    text = value if value is not None else current(WorkerSettings).referees
    addresses = tuple(part.strip() for part in text.split(",") if part.strip())
    if not addresses:
        raise RefereeConfigError(f"no referee is configured: set {REFEREES_ENV}=HOST:PORT[,HOST:PORT...] "
                                 "(start one with `skyarena referee serve`)")
    for address in addresses:
        _checked_address(address, REFEREES_ENV)
    return addresses


def _checked_address(address: str, what: str) -> str:
    host, sep, port = address.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise RefereeConfigError(f"{what} entry {address!r} is not HOST:PORT (e.g. 127.0.0.1:50051)")
    return address


def parse_public_referees(value: str | None = None) -> dict[str, str]:
    """``SKYARENA_PUBLIC_REFEREES``: the address an online bot is told to join, per referee address
    (a referee behind a proxy or a public name); a referee not named is told as it is."""
    text = value if value is not None else current(WorkerSettings).public_referees
    pairs = {}
    for part in (p.strip() for p in text.split(",") if p.strip()):
        inner, sep, public = part.partition("=")
        if not sep:
            raise RefereeConfigError(f"{PUBLIC_REFEREES_ENV} entry {part!r} is not REFEREE=PUBLIC (e.g. "
                                     "10.0.0.5:50051=referee.example.org:50051)")
        pairs[_checked_address(inner.strip(), PUBLIC_REFEREES_ENV)] = _checked_address(public.strip(),
                                                                                      PUBLIC_REFEREES_ENV)
    return pairs


def service_token(value: str | None = None) -> str:
    """The referees' service token (default ``SKYARENA_SERVICE_TOKEN``)."""
    token = value or current(WorkerSettings).service_token
    if not token:
        raise RefereeConfigError(f"no service token: set {SERVICE_TOKEN_ENV} to the token the referees were "
                                 "started with")
    return token


def check_reachable(addresses: Sequence[str], timeout_s: float = 3.0) -> list[str]:
    """The addresses whose health service says SERVING; raises when none does."""
    serving, problems = [], []
    for address in addresses:
        with grpc.insecure_channel(address) as channel:
            try:
                reply = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=timeout_s)
            except grpc.RpcError as exc:
                problems.append(f"{address}: {exc.code().name}")
                continue
        if reply.status == health_pb2.HealthCheckResponse.SERVING:
            serving.append(address)
        else:
            problems.append(f"{address}: not serving")
    if not serving:
        raise RefereeUnavailable(f"no referee answers ({'; '.join(problems)}); start one with `skyarena referee "
                                 f"serve` or fix {REFEREES_ENV}")
    return serving


class Referees:
    """One worker process's referees. Use from the worker's event loop only."""

    def __init__(self, addresses: Sequence[str], token: str) -> None:
        self.addresses = tuple(addresses)
        self.token = token
        self._channels: dict[str, aio.Channel] = {}
        self._down_until: dict[str, float] = {}

    def order(self, key: int) -> list[str]:
        """The referees to try for one attempt: rotated by ``key`` to spread matches, healthy ones first."""
        start = key % len(self.addresses)
        rotated = [*self.addresses[start:], *self.addresses[:start]]
        now = time.monotonic()
        return sorted(rotated, key=lambda a: self._down_until.get(a, 0.0) > now)

    def mark_down(self, address: str) -> None:
        self._down_until[address] = time.monotonic() + DOWN_FOR_S

    def channel(self, address: str) -> aio.Channel:
        """The channel to ``address``, created in this process on first use."""
        channel = self._channels.get(address)
        if channel is None:
            channel = self._channels[address] = aio.insecure_channel(address, options=CHANNEL_OPTIONS)
        return channel

    async def close(self) -> None:
        for channel in self._channels.values():
            await channel.close()
        self._channels.clear()
