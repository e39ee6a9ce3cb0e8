"""A remote bot's settings: where and as which seat it plays (``skyarena run``, ``Bot.run()``).

Read once as the seat starts, through the shared settings machinery (`skyarena/settings.py`),
so a bad variable is refused in one line naming it. ``SKYARENA_STDIO`` is the one switch for
the stdio transport, the variable of ``skyarena run --stdio``; the older
``SKYARENA_TRANSPORT=stdio`` is still honoured with a deprecation line (`stdio_requested`).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from ..settings import Settings, setting

OLD_STDIO_ENV = "SKYARENA_TRANSPORT"

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class RemoteBotSettings(Settings):
    READ_BY: ClassVar[str] = "`skyarena run`, `Bot.run()`"

    referee: str = setting("", help="the referee's `HOST:PORT` (`skyarena run --referee`)")
    seat_token: str = setting("", help="the seat's token (`skyarena run --token`)")
    stdio: bool = setting(False, help="speak frames on stdin/stdout instead of gRPC, for a relay (`--stdio`; "
                          "formerly `SKYARENA_TRANSPORT=stdio`)")
    rejoin_window_s: float = setting(15.0, 0.0, 86_400.0, unit="seconds", help="how long a seat whose stream broke "
                                     "tries to rejoin the referee (longer when its pending decision is further off)")

    def stdio_requested(self, environ: Mapping[str, str]) -> bool:
        """``stdio``, or the deprecated ``SKYARENA_TRANSPORT=stdio``."""
        if self.stdio:
            return True
        if environ.get(OLD_STDIO_ENV, "").strip() == "stdio":
            log.warning("%s=stdio is deprecated: set %s=1 instead", OLD_STDIO_ENV, self.env_name("stdio"))
            return True
        return False
