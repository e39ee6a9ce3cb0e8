"""The referee's gRPC service: many matches per process, each driven by the match runner.

``skyarena referee serve --listen HOST:PORT`` runs it; :class:`RefereeServer` embeds it
(tests, benchmarks). The server's names load on first use, so ``referee.service.limits``
(the command line's flags) imports without the server extra.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .limits import Limits

if TYPE_CHECKING:
    from .server import RefereeServer, serve

__all__ = ["Limits", "RefereeServer", "serve"]


def __getattr__(name: str) -> Any:
    if name in ("RefereeServer", "serve"):
        from . import server

        return getattr(server, name)
    raise AttributeError(name)
