"""The starter bot written by ``skyarena new``."""

from __future__ import annotations

import tomllib
from pathlib import Path

from referee.games import spec

from .games import game_module, module_name

STARTER_GAMES = 20   # the match count the starter's docstring and `skyarena new` suggest

TEMPLATE = '''"""A starter bot for {title} ({game}).

Run it:   skyarena play {game} {filename} random --games {games}
The game for a bot: skyarena docs {game}  (observation fields, decisions, actions, notation)
Observation fields in Python: {fields}
This folder is the bot: modules beside this file import (`from helpers import pick`) and
relative data files open from here (the bot runs in this folder).
"""

from skyarena import Bot


class StarterBot(Bot):
    name = "{name}"  # the name in local tables; the ladders show skyarena.toml's, the same one

    def on_match_start(self, info):
        # info.seat, info.players and info.options are known here.
        self.seat = info.seat

    def act(self, observation, legal_actions):
        # legal_actions are in canonical order; str(action) is its notation.
        # Return an action, its notation string, or its index. Start simple:
        return self.random.choice(legal_actions)
'''


MANIFEST_NAME = "skyarena.toml"
MANIFEST = '''# Read by `skyarena submit`: which game the bot plays, its file, and its name on the ladders.
game = "{game}"
entry = "bot.py"
name = "{name}"
'''


def _fields_hint(game: str) -> str:
    """Where a bot author reads the observation's fields."""
    if game_module(game) is None:
        # No SDK module: the bot gets a GenericObservation, read like the engine's dict.
        return "this game has no typed SDK observation; print(observation.raw) to see them"
    return f'python -c "import skyarena.games.{module_name(game)} as g; help(g.Observation)"'


def write_starter(game: str, directory: Path) -> Path:
    game_spec = spec(game)
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "bot.py"
    if path.exists():
        raise FileExistsError(f"{path} exists already; choose another directory or remove it.")
    manifest = directory / MANIFEST_NAME
    name = _manifest_name(manifest) or "".join(c if c.isalnum() or c in "_.-" else "-"
                                               for c in directory.resolve().name).strip("-_.") or "starter"
    path.write_text(TEMPLATE.format(title=game_spec.title, game=game, filename=path, fields=_fields_hint(game),
                                    games=STARTER_GAMES, name=name))
    if not manifest.exists():  # what `skyarena submit DIR` reads: the game, the entry point, the bot's name
        manifest.write_text(MANIFEST.format(game=game, name=name))
    return path


def _manifest_name(manifest: Path) -> str:
    """The name an existing skyarena.toml gives the bot (one name locally and on the ladders)."""
    try:
        name = tomllib.loads(manifest.read_text()).get("name", "")
    except (OSError, tomllib.TOMLDecodeError):
        return ""
    return name if isinstance(name, str) else ""
