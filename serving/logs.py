"""Structured logs: one JSON object per line on stderr (or text for a person at a terminal).

Every record carries an ``event`` word and its fields (``match_id``, ``seat``...), so a
log pipeline can filter a match's whole story without parsing sentences. Tokens are
never logged. Each service logs under its own logger name (``skyarena.referee``,
``skyarena.arena``) in the same format.
"""

from __future__ import annotations

import json
import logging
import sys
import time
from typing import Any


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        data: dict[str, Any] = {
            "ts": round(record.created, 3),
            "level": record.levelname.lower(),
            "event": record.getMessage(),
        }
        fields = getattr(record, "fields", None)
        if fields:
            data.update(fields)
        if record.exc_info:
            data["error"] = self.formatException(record.exc_info)
        return json.dumps(data, default=str, separators=(",", ":"))


class TextFormatter(logging.Formatter):
    """For a person at a terminal: time, event, then key=value pairs."""

    def format(self, record: logging.LogRecord) -> str:
        stamp = time.strftime("%H:%M:%S", time.localtime(record.created))
        fields = getattr(record, "fields", None) or {}
        pairs = " ".join(f"{k}={v}" for k, v in fields.items())
        text = f"{stamp} {record.levelname.lower():7} {record.getMessage()} {pairs}".rstrip()
        if record.exc_info:
            text += "\n" + self.formatException(record.exc_info)
        return text


def configure(name: str, level: str = "info", fmt: str = "json") -> None:
    """Install the handler of the service logging under ``name`` once (its command calls this;
    libraries and tests need not)."""
    logger = logging.getLogger(name)
    logger.handlers.clear()
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter() if fmt == "json" else TextFormatter())
    logger.addHandler(handler)
    logger.setLevel(level.upper())
    logger.propagate = False


class EventLog:
    """``log.info("match_started", match_id=..., seat=...)``: an event word and fields."""

    def __init__(self, name: str) -> None:
        self._logger = logging.getLogger(name)

    def _emit(self, level: int, event: str, fields: dict[str, Any], exc_info: bool = False) -> None:
        if self._logger.isEnabledFor(level):
            self._logger.log(level, event, extra={"fields": fields}, exc_info=exc_info)

    def debug(self, event: str, **fields: Any) -> None:
        self._emit(logging.DEBUG, event, fields)

    def info(self, event: str, **fields: Any) -> None:
        self._emit(logging.INFO, event, fields)

    def warning(self, event: str, **fields: Any) -> None:
        self._emit(logging.WARNING, event, fields)

    def error(self, event: str, exc_info: bool = False, **fields: Any) -> None:
        self._emit(logging.ERROR, event, fields, exc_info=exc_info)
