"""The hosted-bot sandbox: each hosted bot runs as its own confined process for one match
(see README.md). Plain library; the Celery tasks call :func:`play_hosted_seat`."""

from .backend import SandboxUnavailable, select_backend
from .launcher import EntryError, HostedBot, start_hosted_bot
from .limits import SandboxLimits
from .seat import HostedSeatOutcome, play_hosted_seat

__all__ = ["EntryError", "HostedBot", "HostedSeatOutcome", "SandboxLimits", "SandboxUnavailable",
           "play_hosted_seat", "select_backend", "start_hosted_bot"]
