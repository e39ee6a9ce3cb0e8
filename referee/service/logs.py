"""The referee's structured logs (``skyarena.referee``), in the format every server shares (`serving.logs`)."""

from __future__ import annotations

from serving.logs import EventLog
from serving.logs import configure as configure_logger

LOGGER_NAME = "skyarena.referee"


def configure(level: str = "info", fmt: str = "json") -> None:
    """Install the referee's log handler once (``skyarena referee serve`` calls this)."""
    configure_logger(LOGGER_NAME, level, fmt)


log = EventLog(LOGGER_NAME)
