"""The platform processes' settings, each read once as the process starts (`skyarena/settings.py`).

| class | read by | what |
| --- | --- | --- |
| `PlatformSettings` | every platform process | the store, the broker, the local data folder |
| `QueueSettings` | worker, beat, arena | the longest match, beat's periods, challenges' share of the workers |
| `WorkerSettings` | worker | the referees, and how matches are played and reaped |
| `ArenaSettings` (`workers/arena/config.py`) | arena | the caps on a submitted archive |

The longest match is one field (`QueueSettings.match_timeout_s`): the broker's visibility and
consumer timeouts, the task's hard limit and the worker's own give-up time are all derived
from it, so they agree by construction. Producers (the Arena) and consumers (workers) read
it alike, as RabbitMQ refuses a queue redeclared with another consumer timeout.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from skyarena.settings import DAY_S, Settings, setting
from workers.challenge_release import ReleasePolicy


@dataclass(frozen=True)
class PlatformSettings(Settings):
    READ_BY: ClassVar[str] = "every platform process"

    database_url: str = setting("", env="DATABASE_URL", help="the store, `postgresql://user:password@host:5432/db`; "
                                "unset: the embedded Postgres in `$SKYARENA_DATA_DIR/postgres`")
    broker_url: str = setting("", env="CELERY_BROKER_URL", help="`amqp://...` (RabbitMQ) or `redis://...`; unset: "
                              "the embedded Redis in `$SKYARENA_DATA_DIR/broker`")
    data_dir: str = setting("", help="where local data lives (embedded servers, beat's schedule, the demo); "
                            "unset: the user data folder (`~/.local/share/skyarena`)")

    @property
    def data_path(self) -> Path | None:
        return Path(self.data_dir).expanduser() if self.data_dir else None


@dataclass(frozen=True)
class QueueSettings(Settings):
    READ_BY: ClassVar[str] = "worker, beat, arena"

    match_timeout_s: float = setting(3600.0, 1.0, 7 * DAY_S, unit="seconds", help="the longest match a season may "
                                     "have; twice it is the Redis visibility and RabbitMQ consumer timeout")
    schedule_s: float = setting(5.0, 0.1, DAY_S, unit="seconds", help="how often beat tops up the ladders")
    reap_s: float = setting(10.0, 0.1, DAY_S, unit="seconds", help="how often beat reaps lost matches")
    result_backend: str = setting("", help="a Celery result backend (only the benchmark needs one)")
    challenge_share: float = setting(ReleasePolicy.share, 0.0, 0.5, unit="of matches started",
                                     help="while rated matches wait for a worker, challenges get at most this share "
                                     "of the matches started (0: only when the workers have slots to spare)")
    challenge_slots: int = setting(ReleasePolicy.idle_slots, 0, 10_000, unit="matches",
                                   help="challenges out on the workers at once, platform-wide (0: none are played)")

    def release_policy(self) -> ReleasePolicy:
        """When waiting challenges go to the workers (`workers.challenge_release`)."""
        return ReleasePolicy(self.challenge_share, self.challenge_slots)

    @property
    def visibility_timeout_s(self) -> int:
        """How long the broker waits for an unacked message: above the longest match, so a running
        match is never handed to a second worker while the first still plays it."""
        return int(self.match_timeout_s * 2)

    @property
    def task_time_limit_s(self) -> int:
        """A child stuck past the longest match (plus the time to write it) is killed."""
        return int(self.match_timeout_s + 300)


@dataclass(frozen=True)
class WorkerSettings(Settings):
    READ_BY: ClassVar[str] = "worker"

    referees: str = setting("", help="comma-separated `HOST:PORT` referees (required)")
    service_token: str = setting("", help="the referees' service token, presented to StartMatch (required)")
    lease_s: float = setting(60.0, 1.0, DAY_S, unit="seconds", help="a vanished worker's match is re-queued this "
                             "long after its last heartbeat")
    max_attempts: int = setting(3, 1, 100, unit="attempts", help="started attempts before a match is void")
    hosted_join_timeout_s: float = setting(30.0, 0.1, DAY_S, unit="seconds", old_env=("SKYARENA_JOIN_TIMEOUT_S",),
                                           help="every hosted bot must have joined its match within this "
                                                "(sandbox start-up included)")
    public_referees: str = setting("", help="`HOST:PORT=PUBLIC_HOST:PORT,...`: the address online bots are told "
                                   "to join for a referee of `SKYARENA_REFEREES` (unset: the same address)")
    invitation_timeout_s: float = setting(10.0, 0.1, DAY_S, unit="seconds", help="an online version must accept "
                                          "its invitation within this, or the match is void as its no-show")
    online_join_timeout_s: float = setting(15.0, 0.1, DAY_S, unit="seconds", help="after accepting, an online "
                                           "version must join the referee within this, or it is a no-show")
    queue_patience_s: float = setting(120.0, 1.0, DAY_S, unit="seconds", help="a queued match nobody claimed for "
                                      "this long has probably lost its message: reap sends it again")
