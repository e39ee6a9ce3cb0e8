"""A bot named on the command line: a house bot name, a ``.py`` file (``FILE:Class``) or a
bot folder; how ``skyarena run`` and ``skyarena match`` check it and where its process runs."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ..cli_support import UserError
from ..loader import BotLoadError, create_bot, load_bot


def checked_bot_factory(bot_spec: str, game: str | None) -> Any:
    """The remote runner's bot factory, after one trial creation of a bot file's class: an
    ``__init__`` that raises or needs arguments is a one-line error before connecting."""
    from ..remote.runner import bot_factory

    try:
        if Path(bot_spec.partition(":")[0]).exists() or Path(bot_spec).exists():
            create_bot(load_bot(bot_spec, game or "")[1])
        return bot_factory(bot_spec, game)
    except BotLoadError as exc:
        raise UserError(str(exc)) from None


def enter_bot_folder(bot: str) -> None:
    """Run a bot file in its folder, as local play does, so its relative data files resolve
    the same way everywhere (its modules import from there by the loader's doing)."""
    path = Path(bot.partition(":")[0] if not Path(bot).exists() else bot)
    if path.exists():
        os.chdir(path.resolve() if path.is_dir() else path.resolve().parent)


def bot_path(bot: str) -> str:
    """A bot file or folder as an absolute path (its process runs in the bot's folder); a
    house bot name as is."""
    file_part, sep, cls = bot.partition(":") if not Path(bot).exists() else (bot, "", "")
    if not Path(file_part).exists():
        return bot
    return str(Path(file_part).resolve()) + sep + cls


def bot_cwd(bot: str) -> str | None:
    """The folder a bot's process runs in (None: a house bot, run where we are)."""
    path = Path(bot.partition(":")[0])
    if not path.is_absolute() or not path.exists():
        return None
    return str(path if path.is_dir() else path.parent)
