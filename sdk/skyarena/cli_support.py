"""What every ``skyarena`` command shares: the user-error type, the consoles, ``-o`` options,
the clock options and replay files.

Its own module so that commands living beside the code they run (``workers/commands``,
``referee/service/command.py``, ``skyarena.commands``, ``skyarena.arena``) import these
without importing the entry module ``skyarena.cli``, which imports them all.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
from rich.console import Console

from referee.games import GameSpec
from referee.games.core import replay as replay_io

from .local import DEFAULT_STRIKES, DEFAULT_TIME
from .settings import Settings

console = Console()
err_console = Console(stderr=True)


class UserError(click.ClickException):
    """An error the user can fix; printed without a traceback, exit status 2."""

    exit_code = 2


def parse_options(pairs: tuple[str, ...], game_spec: GameSpec | None = None) -> dict[str, Any]:
    """``-o NAME=VALUE`` pairs: a value is JSON when it parses as JSON, else a plain string.
    An option that takes a structured value (``setup``) must be JSON: its parse error is the
    message, rather than the game's later complaint about a string."""
    options: dict[str, Any] = {}
    structured = {o.name for o in game_spec.all_options() if o.kind is object} if game_spec else set()
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise UserError(f"option {pair!r} must look like NAME=VALUE (e.g. -o max_rounds=20)")
        try:
            options[key] = json.loads(value)
        except json.JSONDecodeError as exc:
            if key in structured:
                raise UserError(f"option {key}: {value!r} is not JSON ({exc.msg} at column {exc.colno}); quote the "
                                f"whole value for the shell, e.g. -o '{key}={{...}}' (the format is in `skyarena docs "
                                f"{game_spec.name if game_spec else 'GAME'}`)") from None
            options[key] = value
    return options


def option_value(value: Any) -> str:
    """A value as it is written after ``-o NAME=`` (``true``, ``null``, ``20``, ``standard``)."""
    return value if isinstance(value, str) else json.dumps(value)


def player_range(game_spec: GameSpec) -> str:
    """``2`` or ``2–8``: a range only when there is one."""
    low, high = game_spec.min_players, game_spec.max_players
    return str(low) if low == high else f"{low}–{high}"


def clock_options(command: Any) -> Any:
    """``--move-time``, ``--bank``, ``--first-move`` and ``--strikes``, with the referee's
    defaults (``referee.match.TimeControl``): ``play`` and ``match`` time a bot alike."""
    for option in reversed([
        click.option("--move-time", type=click.FloatRange(min=0.001), default=DEFAULT_TIME.move_s,
                     show_default=True, help="Seconds per move."),
        click.option("--bank", type=click.FloatRange(min=0), default=DEFAULT_TIME.bank_s, show_default=True,
                     help="Time bank in seconds: overage shared by all moves of a seat."),
        click.option("--first-move", type=click.FloatRange(min=0.001), default=DEFAULT_TIME.first_move_s,
                     show_default=True, help="Seconds for each seat's first move."),
        click.option("--strikes", type=click.IntRange(min=1), default=DEFAULT_STRIKES, show_default=True,
                     help="Faults before a forfeit."),
    ]):
        command = option(command)
    return command


def replay_path(directory: Path, game: str, seed: int | str) -> Path:
    """A replay's file: a local match is named by its seed, a referee's by its match id."""
    return directory / f"{game}-{seed}.jsonl"


def prepare_replay_dir(directory: Path, paths: list[Path], force: bool) -> None:
    """Create the folder and refuse, before anything is played, to overwrite a replay."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(f"cannot create the replay folder {directory}: {exc.strerror or exc}; choose another "
                        "--replay-dir") from None
    existing = [p for p in paths if p.exists()]
    if existing and not force:
        more = f" (and {len(existing) - 1} more)" if len(existing) > 1 else ""
        raise UserError(f"{existing[0]}{more} exists already; pass --force to overwrite, or choose another "
                        "--replay-dir")


def write_replay(path: Path, records: list[dict[str, Any]], seat_names: list[str]) -> None:
    try:
        replay_io.write(path, replay_io.with_seats(records, seat_names))
    except OSError as exc:
        raise UserError(f"cannot write the replay {path}: {exc.strerror or exc}") from None


def settings_options(settings: type[Settings]) -> Any:
    """A decorator adding one text option per flagged field of a settings class. The values
    reach the command as text (None when not given), for ``settings.from_sources`` to parse
    and check exactly as it checks the field's variable, with the same one-line errors."""

    def add(command: Any) -> Any:
        for name, flag, help_text in reversed(settings.flags()):
            command = click.option(flag, name, metavar="N", default=None, help=help_text)(command)
        return command

    return add
