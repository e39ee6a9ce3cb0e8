"""Finding bots: a house bot name, or a Python file (or a folder with ``bot.py``) that
defines a ``Bot`` subclass.

A bot is a folder as much as a file: its folder goes first on ``sys.path`` so it can import
helper modules beside it (``from helpers import pick``), and the local and remote runners
start it in that folder so relative data files resolve against it.
"""

from __future__ import annotations

import importlib.util
import inspect
import sys
from collections.abc import Callable
from pathlib import Path

from .bot import Bot
from .bot_errors import describe, first_line, shown_path
from .games import house_bots

FIX_AND_RUN = "Fix it and run again."  # the close of a load error: the Arena's intake swaps it for its own


class BotLoadError(Exception):
    """A bot that cannot be loaded; the message says what to fix."""


BotFactory = Callable[[], Bot]


def load_bot(spec: str, game: str) -> tuple[str, type[Bot]]:
    """Resolve ``spec`` (house bot name, ``path.py`` or ``path.py:ClassName``) to a Bot class.

    Returns a display name and the class.
    """
    house = house_bots(game)
    if spec in house:
        return spec, house[spec]
    path_text, class_name = spec, ""
    if spec.count(":") == 1 and not Path(spec).exists():
        path_text, _, class_name = spec.partition(":")
    path = Path(path_text)
    if path.is_dir():
        path = path / "bot.py"
        if not path.is_file():
            raise BotLoadError(f"{path_text} is a folder without a bot.py; a bot folder holds its bot in bot.py "
                               f"(`skyarena new {game} DIR` writes one), or name the file itself.")
    elif path.suffix != ".py" and not path.exists():
        raise BotLoadError(
            f"{spec!r} is neither a house bot of {game} ({', '.join(sorted(house))}), a Python file nor a bot "
            "folder; give a house bot name, or the path to a .py file (or a folder with a bot.py) that defines a "
            "subclass of skyarena.Bot."
        )
    if not path.is_file():
        raise BotLoadError(f"no bot file at {path}; check the path (`skyarena new {game} DIR` writes a starter bot).")
    module_name = f"skyarena_user_bot_{abs(hash(path.resolve()))}"
    module_spec = importlib.util.spec_from_file_location(module_name, path)
    if module_spec is None or module_spec.loader is None:
        raise BotLoadError(f"cannot import {path}: not a Python source file.")
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[module_name] = module
    folder = str(path.resolve().parent)
    if folder not in sys.path:
        sys.path.insert(0, folder)  # helper modules beside the bot file import as top-level modules
    try:
        module_spec.loader.exec_module(module)
    except SyntaxError as exc:
        raise BotLoadError(f"{shown_path(str(path), path.resolve().parent)}, line {exc.lineno}: syntax error: "
                           f"{exc.msg}. {FIX_AND_RUN}") from None
    except Exception as exc:
        home = path.resolve().parent
        raise BotLoadError(f"{shown_path(str(path), home)}: {first_line(describe(exc, 'importing it', home))}. "
                           f"{FIX_AND_RUN}") from None
    classes = [
        obj for _, obj in inspect.getmembers(module, inspect.isclass)
        if issubclass(obj, Bot) and obj is not Bot and obj.__module__ == module_name
    ]
    if class_name:
        chosen = [c for c in classes if c.__name__ == class_name]
        if not chosen:
            raise BotLoadError(f"{path} has no Bot subclass named {class_name!r}; it has: "
                               + (", ".join(c.__name__ for c in classes) or "none"))
        cls = chosen[0]
    elif not classes:
        raise BotLoadError(
            f"{path} defines no subclass of skyarena.Bot. Add `from skyarena import Bot` and "
            "`class MyBot(Bot):` with an `act(self, observation, legal_actions)` method."
        )
    elif len(classes) > 1:
        names = ", ".join(c.__name__ for c in classes)
        raise BotLoadError(f"{path} defines several Bot subclasses ({names}); pick one with {path}:ClassName.")
    else:
        cls = classes[0]
    if cls.act is Bot.act:
        raise BotLoadError(f"{cls.__name__} in {path} does not implement act(observation, legal_actions).")
    return (cls.name or path.stem), cls


def bot_folder(cls: type[Bot]) -> Path | None:
    """The folder of the file defining ``cls``: the bot's own code and data live there
    (None for a class without a file, e.g. one typed into an interactive session)."""
    try:
        return Path(inspect.getfile(cls)).resolve().parent
    except (TypeError, OSError):
        return None


def create_bot(cls: type[Bot]) -> Bot:
    """``cls()``, with a one-line BotLoadError naming the line of the bot's file when its
    ``__init__`` needs arguments or raises (instead of the SDK's traceback)."""
    try:
        required = [p.name for p in inspect.signature(cls).parameters.values()
                    if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
    except (TypeError, ValueError):  # no introspectable signature: let the call tell
        required = []
    if required:
        raise BotLoadError(f"{cls.__name__}.__init__ in {_where(cls)} needs {', '.join(required)}; a bot "
                           "is created without arguments: give them default values (or set them in "
                           "on_match_start).")
    try:
        return cls()
    except Exception as exc:
        reason = first_line(describe(exc, f"{cls.__name__}()", bot_folder(cls)))
        raise BotLoadError(f"{_where(cls)}: {reason}. {FIX_AND_RUN}") from None


def _where(cls: type[Bot]) -> str:
    try:
        return shown_path(inspect.getfile(cls), bot_folder(cls))
    except TypeError:
        return cls.__qualname__
