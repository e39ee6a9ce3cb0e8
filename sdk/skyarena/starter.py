"""The starter bot written by ``skyarena new``."""

from __future__ import annotations

from pathlib import Path

from referee.games import spec

from .games import MODULES

TEMPLATE = '''"""A starter bot for {title} ({game}).

Run it:   skyarena play {game} {filename} random --games 20
Observation fields: python -c "import skyarena.games.{module} as g; help(g.Observation)"
Rules: docs/rules/{game}.md in the Skyarena repository.
"""

from skyarena import Bot


class StarterBot(Bot):
    name = "starter"

    def on_match_start(self, info):
        # info.seat, info.players and info.options are known here.
        self.seat = info.seat

    def act(self, observation, legal_actions):
        # legal_actions are in canonical order; str(action) is its notation.
        # Return an action, its notation string, or its index. Start simple:
        return self.random.choice(legal_actions)
'''


def write_starter(game: str, directory: Path) -> Path:
    game_spec = spec(game)
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "bot.py"
    if path.exists():
        raise FileExistsError(f"{path} exists already; choose another directory or remove it.")
    path.write_text(TEMPLATE.format(title=game_spec.title, game=game, filename=path, module=MODULES[game]))
    return path
