"""The commands that play on a referee, one module each: ``skyarena run`` (one seat),
``start``, ``watch``, ``fetch-replay`` and ``match``. ``skyarena.cli`` adds them to its group.

They load with the group (their help summaries are their docstrings), so each imports grpc
and the referee client only inside the command it runs: ``skyarena play`` stays light.
"""

from .fetch_replay import command as fetch_replay
from .match import command as match
from .run import command as run
from .start import command as start
from .watch import command as watch

REMOTE_COMMANDS = (run, start, watch, fetch_replay, match)

__all__ = ["REMOTE_COMMANDS"]
