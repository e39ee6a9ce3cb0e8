"""The process a local bot runs in (``python -m skyarena.worker FD``), and the hooks wrapper
both kinds of local seat call a bot through.

The parent (``seats.WorkerSeat``) starts it with one end of a socket pair and sends, in
order: what to load, then ``start``/``act``/``end`` requests, each answered in turn. A
plain subprocess rather than multiprocessing's spawn: spawn re-runs the parent's main
module in the child (a user's script without a ``__main__`` guard would run again), and
this process imports only what a bot needs.
"""

from __future__ import annotations

import os
import sys
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from referee.match import FaultKind

from .bot import Bot, Clock, MatchInfo
from .bot_errors import describe
from .games import observation_class
from .loader import BotLoadError, bot_folder, create_bot, load_bot

# A bot given as a spec (house bot name, file.py[:Class] or a folder) or as a Bot class
# importable by its module name (the worker imports it again).
BotSource = str | type[Bot]
# What went wrong in a hook: the fault's kind and its reason for the author.
FaultReport = tuple[FaultKind, str]


class Hooks:
    """A bot's hooks called with a fault reason instead of an exception: how both kinds of
    seat call a bot, so a bot fails the same way in either."""

    def __init__(self, bot: Bot, full_tracebacks: bool) -> None:
        self.bot = bot
        self.folder = bot_folder(type(bot))
        self.full = full_tracebacks

    def start(self, info: MatchInfo) -> FaultReport | None:
        try:
            self.bot.start(info)
        except Exception as exc:  # a crashing bot is a fault, never a crashed match
            return FaultKind.EXCEPTION, describe(exc, "on_match_start", self.folder, self.full)
        return None

    def act(self, observation: Any, legal_actions: list[Any],
            clock: Clock | None = None) -> tuple[Any, FaultReport | None]:
        self.bot.clock = clock
        try:
            return self.bot.act(observation, legal_actions), None
        except Exception as exc:
            return None, (FaultKind.EXCEPTION, describe(exc, "act()", self.folder, self.full))

    def end(self, info: MatchInfo, result: dict[str, Any]) -> FaultReport | None:
        try:
            self.bot.on_match_end(info, result)
        except Exception as exc:
            return FaultKind.EXCEPTION, describe(exc, "on_match_end", self.folder, self.full)
        return None


def _load(source: BotSource, game: str) -> tuple[str, type[Bot]]:
    if isinstance(source, str):
        return load_bot(source, game)
    return source.display_name(), source


def serve(conn: Connection) -> None:
    """Load the bot named by the first message, then answer the parent's messages until
    told to stop (or the parent goes away)."""
    sys.stdout = sys.stderr  # a bot's prints reach the console, never the parent's --json output
    try:
        parent_path, source, game, full = conn.recv()
    except EOFError:
        return
    sys.path[:0] = [entry for entry in parent_path if entry not in sys.path]  # what the parent could import
    try:
        name, cls = _load(source, game)
        folder = bot_folder(cls)
        if folder is not None and isinstance(source, str) and Path(source.partition(":")[0]).exists():
            os.chdir(folder)  # a bot's relative data files resolve against its folder
        hooks = Hooks(create_bot(cls), full)
    except BotLoadError as exc:
        conn.send(("error", str(exc)))
        return
    conn.send(("ready", name))
    observation_type = observation_class(game)
    while True:
        try:
            message = conn.recv()
        except EOFError:
            return  # the parent went away
        kind = message[0]
        if kind == "act":
            _, turn, observation, legal, (move_s, bank_s, deadline_s) = message
            clock = Clock(move_s, bank_s, deadline_s)
            answer, fault = hooks.act(observation_type.from_json(observation), legal, clock)
            try:
                conn.send(("answer", turn, answer, fault))
            except Exception as exc:  # an answer that cannot be sent cannot be an action
                conn.send(("answer", turn, None, (FaultKind.UNPARSEABLE, f"the answer {answer!r} is not an "
                                                  f"action, its notation or its index ({exc})")))
        elif kind == "start":
            _, info, fresh = message
            try:
                if not fresh:
                    hooks = Hooks(create_bot(cls), full)
            except BotLoadError as exc:
                conn.send(("started", (FaultKind.EXCEPTION, str(exc))))
            else:
                conn.send(("started", hooks.start(info)))
        elif kind == "end":
            _, info, result = message
            conn.send(("ended", hooks.end(info, result)))
        else:
            return


if __name__ == "__main__":
    serve(Connection(int(sys.argv[1])))
