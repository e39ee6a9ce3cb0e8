"""The referee's gRPC service: many matches per process, each driven by the match runner.

``skyarena referee serve --listen HOST:PORT`` runs it; :class:`RefereeServer` embeds it
(tests, benchmarks).
"""

from .limits import Limits
from .server import RefereeServer, serve

__all__ = ["Limits", "RefereeServer", "serve"]
