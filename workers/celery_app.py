"""The Celery app: its settings for long matches, the beat schedule, and per-process resources.

The broker is ``CELERY_BROKER_URL`` (RabbitMQ or Redis) or the embedded Redis
(`workers/broker.py`), chosen by `configure` when a process starts (not at import, so
importing the tasks never starts a server). There is no result backend: a task's result
is the match row in Postgres, which every reader looks at anyway.

Each worker child builds its own store pool and referee channels in ``worker_process_init``
(after the fork), never inheriting the parent's sockets.
"""

from __future__ import annotations

from typing import Any

from celery import Celery
from celery.signals import worker_process_init, worker_process_shutdown

from skyarena.settings import current
from workers.config import QueueSettings

QUEUE = "skyarena"

app = Celery("skyarena", include=["workers.tasks", "workers.arena.tasks"])
app.conf.update(
    # A message is acknowledged only after its match is written: a worker that dies mid-match
    # leaves the message to be delivered again (the claim makes the redelivery harmless).
    task_acks_late=True,
    # A child killed mid-task (SIGKILL, out of memory) re-queues its message instead of acking it.
    task_reject_on_worker_lost=True,
    # A worker reserves only the match it is about to play; the rest stay for idle workers.
    worker_prefetch_multiplier=1,
    # Each task's outcome lives in Postgres; no result backend, nothing stored per task.
    task_ignore_result=True,
    # Children are recycled after this many matches and above this resident size (KiB), so a
    # slow leak in a game, a library or the gRPC core cannot grow a worker forever.
    worker_max_tasks_per_child=500,
    worker_max_memory_per_child=400_000,
    # A worker or beat started before the broker waits for it instead of exiting.
    broker_connection_retry_on_startup=True,
    # On a broker connection loss the running match is played to the end and written; its ack is
    # lost and the redelivered message finds the match finished (a cancelled match would be wasted).
    worker_cancel_long_running_tasks_on_connection_loss=False,
    # One named queue for the platform's tasks, so a shared broker's other apps do not mix in.
    task_default_queue=QUEUE,
    # Matches are minutes long and enqueued in bursts: JSON keeps messages readable to operators.
    task_serializer="json",
    accept_content=["json"],
)


def apply_settings(settings: QueueSettings) -> None:
    """The parts of the app's configuration that come from the process's QueueSettings."""
    app.conf.update(
        # Redis redelivers an unacked message after this: above the longest match, so a running
        # match is never handed to a second worker while the first still plays it.
        broker_transport_options={"visibility_timeout": settings.visibility_timeout_s},
        # A child stuck past the longest match (plus the time to write it) is killed; its message
        # is re-queued (reject on worker lost) and its match's lease runs out for the reaper.
        task_time_limit=settings.task_time_limit_s,
        beat_schedule={
            "schedule": {"task": "skyarena.schedule", "schedule": settings.schedule_s},
            "reap": {"task": "skyarena.reap", "schedule": settings.reap_s},
        },
        # Only the benchmark sets one, to time a no-op round trip; the platform itself reads Postgres.
        result_backend=settings.result_backend or None,
    )


apply_settings(current(QueueSettings))  # a process started some other way than configure (celery -A)


def configure(broker: str, settings: QueueSettings | None = None) -> Celery:
    """Point the app at ``broker`` with the process's QueueSettings (``current`` when not given);
    RabbitMQ gets a consumer timeout above the longest match."""
    settings = settings or current(QueueSettings)
    apply_settings(settings)
    app.conf.broker_url = broker
    if broker.startswith(("amqp", "pyamqp")):
        from kombu import Queue

        # RabbitMQ closes a consumer that holds an unacked message past its consumer timeout
        # (30 min by default): with late acks a long match would be cut off, so raise it per queue.
        app.conf.task_queues = [Queue(QUEUE, queue_arguments={"x-consumer-timeout": settings.visibility_timeout_s
                                                              * 1000})]
    return app


@worker_process_init.connect
def _open_process_resources(**_: Any) -> None:
    from workers import tasks

    tasks.open_resources()


@worker_process_shutdown.connect
def _close_process_resources(**_: Any) -> None:
    from workers import tasks

    tasks.close_resources()
