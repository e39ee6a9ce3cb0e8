"""Playing a seat on a remote referee: over gRPC, or length-delimited frames on stdin/stdout.

``run_bot(bot, referee=ADDR, token=T)`` plays one seat over gRPC; ``run_bot(bot,
stdio=True)`` speaks the same ``skyarena.v1`` messages on stdin/stdout for a sandboxed
worker to relay. Both hand the bot the same typed observations as local play.
"""

from .runner import MatchAborted, RemoteError, run_bot

__all__ = ["MatchAborted", "RemoteError", "run_bot"]
