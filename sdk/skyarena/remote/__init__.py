"""Playing a seat on a remote referee: over gRPC, or length-delimited frames on stdin/stdout.

``run_bot(bot, referee=ADDR, token=T)`` plays one seat over gRPC; ``run_bot(bot,
stdio=True)`` speaks the same ``skyarena.v1`` messages on stdin/stdout for a sandboxed
worker to relay. Both hand the bot the same typed observations as local play.

This package is the bot's client only (runner, relay, frames, gRPC transport); the
conversion of engine data to and from the wire, which the referee shares, is
:mod:`skyarena.wire`.
"""

from .runner import MatchAborted, RemoteError, run_bot

__all__ = ["MatchAborted", "RemoteError", "run_bot"]
