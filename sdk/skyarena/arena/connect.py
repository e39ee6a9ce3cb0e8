"""``skyarena connect NAME``: keep an online version online and play the matches it is invited to.

NAME is a bot folder with a ``skyarena.toml`` (its name and game, and its entry point as the
code to play), or the bot's name on the Arena with the code given by ``--bot`` (a ``.py``
file, a folder or a house bot name). The token may be a ``play`` token (``skyarena token
create --scope play``), which can do nothing but this. See ``online.py`` for what the
connection does.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import click

from ..cli_support import UserError, err_console
from ..commands.bot_files import checked_bot_factory
from .client import arena, echo_json
from .online import ConnectRefused, OnlinePlayer


def manifest_of(target: str) -> dict[str, str]:
    """A bot folder's skyarena.toml (empty when ``target`` is not a folder that has one)."""
    path = Path(target) / "skyarena.toml"
    if not path.is_file():
        return {}
    try:
        data = tomllib.loads(path.read_text())
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise UserError(f"cannot read {path}: {exc}; fix it (skyarena new GAME DIR writes one)") from None
    return {k: str(v) for k, v in data.items() if k in ("game", "entry", "name")}


@click.command("connect")
@click.argument("target", metavar="NAME")
@click.option("--bot", "code", metavar="CODE", help="The code that plays: a .py file, a bot folder or a house bot "
              "(default: NAME's folder).")
@click.option("--version", "version_id", type=int, default=0, help="Connect this version id (default: the bot's "
              "newest online version).")
@click.option("--max-games", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Matches played at once.")
@click.option("--games", type=click.IntRange(min=1), help="Stop after this many matches (default: stay online).")
@click.option("--arena", "address", metavar="HOST:PORT", help="The Arena (default: SKYARENA_ARENA, then the login).")
@click.option("--token", metavar="TOKEN", help="A play or author token (default: SKYARENA_TOKEN, then the login).")
@click.option("--json", "as_json", is_flag=True, help="Print the matches played as JSON at the end.")
def command(target: str, code: str | None, version_id: int, max_games: int, games: int | None, address: str | None,
            token: str | None, as_json: bool) -> None:
    """Keep the online bot NAME online and play its matches from this machine (Ctrl-C to go offline)."""
    manifest = manifest_of(target)
    name = manifest.get("name") or target
    if code is None:
        if not manifest:
            raise UserError(f"{target} is not a bot folder with a skyarena.toml: pass the code that plays with "
                            "--bot FILE.py (or a folder, or a house bot name)")
        code = str(Path(target) / manifest.get("entry", "bot.py"))
    factory = checked_bot_factory(code, manifest.get("game"))
    player = OnlinePlayer(arena(address, token), factory, name, version_id, max_games, games,
                          say=lambda text: err_console.print(text, markup=False, highlight=False))
    try:
        played = player.run()
    except ConnectRefused as exc:
        raise UserError(f"the Arena refused the connection: {exc}") from None
    except KeyboardInterrupt:
        player.stop()
        raise SystemExit(130) from None
    if as_json:
        echo_json([{"match_id": p.match_id, "seat": p.seat, "outcome": p.outcome} for p in played])
