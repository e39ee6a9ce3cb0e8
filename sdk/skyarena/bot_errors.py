"""What a bot author is told when their bot raises: the bot's own frames, not the SDK's.

A bot's exception surfaces inside the SDK's driver, so Python's traceback starts with
frames the author never wrote. The author needs the file, line and stack of *their* code;
the whole stack (what the bot called into, down to the engine or the standard library) is
there on request (``skyarena play --traceback``).

A hosted bot runs from a copy of the author's folder in the sandbox (``/bot``): the
sandbox sets ``SKYARENA_BOT_PATHS=relative``, and its files are then named relative to
the bot's folder (``helpers.py``, not ``/bot/helpers.py``), as the author has them.
"""

from __future__ import annotations

import copy
import os
import traceback
from pathlib import Path
from types import TracebackType


def _frames_after_driver(tb: TracebackType | None) -> traceback.StackSummary:
    """The stack from the bot's entry point down: the driver's own frame (the one holding
    the ``try``) is the first of the traceback and is left out."""
    return traceback.extract_tb(tb.tb_next if tb is not None else None)


PATHS_ENV = "SKYARENA_BOT_PATHS"


def _inside(filename: str, folder: Path) -> bool:
    try:
        Path(filename).resolve().relative_to(folder)
    except (ValueError, OSError):
        return False
    return True


def shown_path(filename: str, folder: Path | None) -> str:
    """``filename`` as the author knows it: relative to the bot's folder for a hosted bot."""
    if folder is None or os.environ.get(PATHS_ENV) != "relative":
        return filename
    try:
        return Path(filename).resolve().relative_to(folder.resolve()).as_posix()
    except (ValueError, OSError):
        return filename


def _named(frames: traceback.StackSummary, folder: Path | None) -> traceback.StackSummary:
    renamed = []
    for frame in frames:
        frame = copy.copy(frame)
        frame.filename = shown_path(frame.filename, folder)
        renamed.append(frame)
    return traceback.StackSummary.from_list(renamed)


def describe(exc: BaseException, where: str, bot_folder: Path | None, full: bool = False) -> str:
    """A fault reason: ``"act() raised KeyError: 'card' (bot.py, line 12, in act)"`` and,
    below it, the traceback of the bot's own files (every frame with ``full``).

    ``where`` names the hook that raised (``act()``, ``on_match_start``); ``bot_folder`` is
    the folder of the bot's file, whose frames count as the bot's."""
    headline = f"{where} raised {type(exc).__name__}: {exc}"
    frames = _frames_after_driver(exc.__traceback__)
    own = frames if full or bot_folder is None else traceback.StackSummary.from_list(
        [f for f in frames if _inside(f.filename, bot_folder)])
    if not own:
        return headline
    own = _named(own, bot_folder)
    last = own[-1]
    headline += f" ({Path(last.filename).name}, line {last.lineno}, in {last.name})"
    body = "".join(own.format()).rstrip("\n")
    return f"{headline}\n{body}"


def first_line(reason: str) -> str:
    """The headline of a reason, for one-line listings."""
    return reason.split("\n", 1)[0]
