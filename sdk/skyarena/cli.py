"""The ``skyarena`` command line (click for parsing, rich for tables and progress bars:
both maintained, widely used, and already light dependencies of the SDK).

This module is the entry point and the local commands (games, play, docs, replay, new). The
commands that play on a referee are ``skyarena.commands``; the platform's live beside the code
they run and load by name (``PLATFORM_COMMANDS``); what they all share is ``cli_support``.
"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from typing import Any

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from referee.games import GAMES, SkyarenaError, spec
from referee.games.core import replay as replay_io
from referee.match import TimeControl, verify_match_replay
from referee.match import participant as participant_replay

from .cli_support import (
    UserError,
    clock_options,
    console,
    err_console,
    option_value,
    parse_options,
    player_range,
    prepare_replay_dir,
    replay_path,
    write_replay,
)
from .commands import REMOTE_COMMANDS
from .loader import BotLoadError
from .local import MatchSummary, play_series
from .results_text import result_line
from .series_table import print_report
from .starter import STARTER_GAMES, write_starter

# The platform's commands live beside the code they drive (workers/, referee/, dashboard/,
# the Arena client) and most need the server extra, so they are imported only when named: a bot
# author's `pip install .` keeps a light, fast `skyarena`. Name -> (module, one-line help);
# the module defines `command`, a click command or group.
PLATFORM_COMMANDS: dict[str, tuple[str, str]] = {
    "dashboard": ("dashboard.command", "Start the Streamlit dashboard: ladders, bots, replays, seasons (server)."),
    "db": ("workers.commands.db", "Apply or check the store's schema migrations (server)."),
    "ratings": ("workers.commands.ratings", "Recompute or check a season's ratings from its stored results (server)."),
    "season": ("workers.commands.season", "Create, start, close, list and show seasons (organisers, server)."),
    "worker": ("workers.commands.worker", "Run a Celery worker that plays the seasons' matches (server)."),
    "beat": ("workers.commands.beat", "Run Celery beat: schedule matches and reap lost ones (server)."),
    "arena": ("workers.commands.arena", "Serve the Arena: submissions, ladders, matches and logs over gRPC (server)."),
    "referee": ("referee.service.command", "Run the referee service."),
    "login": ("skyarena.arena.login", "Store your Arena address and API token."),
    "token": ("workers.commands.token", "Create or revoke API tokens (organisers; --bootstrap for the first one)."),
    "submit": ("skyarena.arena.submit", "Upload a bot folder to the Arena as a new version (--online: register one)."),
    "connect": ("skyarena.arena.connect", "Keep an online bot online and play its matches from this machine."),
    "bots": ("skyarena.arena.bots", "List your bots on the Arena and their versions' status."),
    "status": ("skyarena.arena.status", "Show one version's status on the Arena."),
    "standings": ("skyarena.arena.standings", "Show a season's ladders on the Arena."),
    "matches": ("skyarena.arena.matches", "List a version's matches on the Arena."),
    "logs": ("skyarena.arena.logs", "Print your bot's log from a match on the Arena."),
    "challenge": ("skyarena.arena.challenge", "Queue unrated challenge matches of your version on the Arena."),
    "reproduce": ("skyarena.commands.reproduce",
                  "Re-run your bot on its seat of a platform match and compare every decision, or fork it."),
    "demo": ("workers.commands.demo", "The whole platform locally: a season per game, house bots, dashboard."),
}


class PlatformGroup(click.Group):
    """The command group, with the platform's commands loaded on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(PLATFORM_COMMANDS))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        command = super().get_command(ctx, cmd_name)
        if command is not None or cmd_name not in PLATFORM_COMMANDS:
            return command
        module_name, summary = PLATFORM_COMMANDS[cmd_name]
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            missing = exc.name or "a dependency"
            if module_name == missing or module_name.startswith(missing + "."):
                raise  # our own module is missing: a packaging bug, not a missing extra
            return _missing_extra_command(cmd_name, summary, missing)
        loaded: click.Command = module.command
        return loaded

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # Listing help must not import every platform module: use the table's summaries.
        rows = []
        for name in self.list_commands(ctx):
            if name in PLATFORM_COMMANDS and super().get_command(ctx, name) is None:
                rows.append((name, PLATFORM_COMMANDS[name][1]))
                continue
            command = super().get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command.get_short_help_str(formatter.width - 6 - len(name))))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


def _missing_extra_command(name: str, summary: str, missing: str) -> click.Command:
    """A stand-in that says which install brings the command, instead of a traceback."""

    @click.command(name, help=summary, context_settings={"ignore_unknown_options": True})
    @click.argument("args", nargs=-1, type=click.UNPROCESSED)
    def unavailable(args: tuple[str, ...]) -> None:
        raise UserError(f"`skyarena {name}` needs the platform's server parts ({missing} is not installed): "
                        "run pip install 'skyarena[server]' (from a checkout: pip install '.[server]')")

    return unavailable


@click.group(cls=PlatformGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="skyarena")
def main() -> None:
    """Skyarena: write bots for five tabletop games, play them locally, run them on the platform."""


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
def games(as_json: bool) -> None:
    """List the games, their player counts and options."""
    specs = [GAMES[name] for name in sorted(GAMES)]
    if as_json:
        click.echo(json.dumps([s.to_json() for s in specs], indent=2))
        return
    table = Table(title="Skyarena games")
    table.add_column("game")
    table.add_column("players")
    table.add_column("options: -o NAME=VALUE (default)")
    for s in specs:
        opts = "\n".join(f"{o.name}={option_value(o.default)} (default): {_allowed(o)}" for o in s.all_options())
        players = player_range(s) + (" co-op" if s.cooperative else "")
        table.add_row(f"{s.name}\n[dim]{s.title}[/dim]", players, opts)
    console.print(table)
    console.print("Every option's meaning and the notation: skyarena docs GAME")


def _allowed(option: Any) -> str:
    """What ``-o`` accepts, in the form it is typed."""
    if option.choices is not None:
        return "one of " + ", ".join(option_value(c) for c in option.choices)
    return str(option.allowed())


@main.command()
@click.argument("game")
@click.argument("bots", nargs=-1, required=True)
@click.option("--games", "n_games", type=click.IntRange(min=1), default=1, show_default=True, help="Matches to play.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the first match (match i uses seed+i).")
@click.option("-o", "--option", "option_pairs", multiple=True, metavar="NAME=VALUE", help="A game option (repeatable).")
@click.option("--json", "as_json", is_flag=True,
              help="Print one JSON object: standings, end reasons, and each match's result and faults.")
@click.option("--replay-dir", type=click.Path(file_okay=False, path_type=Path), help="Write each match's replay here.")
@click.option("--force", is_flag=True, help="Overwrite replays that exist in --replay-dir.")
@clock_options
@click.option("--traceback", "full_tracebacks", is_flag=True,
              help="Show a bot's whole stack when it raises (default: the frames of the bot's own files).")
def play(game: str, bots: tuple[str, ...], n_games: int, seed: int, option_pairs: tuple[str, ...], as_json: bool,
         replay_dir: Path | None, force: bool, move_time: float, bank: float, first_move: float, strikes: int,
         full_tracebacks: bool) -> None:
    """Play GAME locally among BOTS (house bot names, .py files or bot folders); seats rotate.

    Each bot runs in its own process, in its folder, on the referee's clocks: an answer that
    misses its deadline is cut off, the fallback (first legal action) is played and a strike
    recorded, exactly as on the platform."""
    try:
        game_spec = spec(game)
        options = parse_options(option_pairs, game_spec)
        game_spec.validate(len(bots), options)
    except SkyarenaError as exc:
        raise UserError(str(exc)) from None
    replays = [replay_path(replay_dir, game, seed + i) for i in range(n_games)] if replay_dir is not None else []
    if replay_dir is not None:
        prepare_replay_dir(replay_dir, replays, force)
    control = TimeControl(move_s=move_time, bank_s=bank, first_move_s=first_move)

    progress = Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                        TimeRemainingColumn(), console=err_console, transient=True,
                        disable=n_games < 2 or not err_console.is_terminal)

    with progress:
        task = progress.add_task(f"{game}", total=n_games)

        def on_match(i: int, record: Any, summary: MatchSummary) -> None:
            if replays:
                write_replay(replays[i], record.replay_records(), summary.seats)
            progress.advance(task)

        try:
            report = play_series(game, [("", b) for b in bots], n_games, seed, options, control, strikes,
                                 on_match=on_match, isolate=True, full_tracebacks=full_tracebacks)
        except BotLoadError as exc:
            raise UserError(str(exc)) from None
    if as_json:
        click.echo(json.dumps(report.to_json()))
        return
    print_report(report)


@main.command()
@click.argument("game")
def docs(game: str) -> None:
    """The reference of GAME for a bot: observation fields, decisions, legal actions, notation, options."""
    from .reference import reference  # plays a few sample games: only when asked

    try:
        text = reference(game)
    except SkyarenaError as exc:
        raise UserError(str(exc)) from None
    click.echo(text, nl=False)


@main.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--verify", is_flag=True, help="Re-play every move and check chance outcomes and the final hash.")
@click.option("--json", "as_json", is_flag=True, help="With a MATCH_ID: print the public replay as JSON.")
@click.option("--mine", is_flag=True,
              help="With a MATCH_ID: download your seat's participant's replay (full record, bot seed, decisions).")
@click.option("--seat", type=click.IntRange(min=0), help="With --mine: the seat (default: your bot's seat).")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path),
              help="With --mine: the file to write (default: MATCH_ID-seatN.jsonl here).")
@click.option("--force", is_flag=True, help="With --mine: replace the file if it exists.")
def replay(file: Path, verify: bool, as_json: bool, mine: bool, seat: int | None, out: Path | None,
           force: bool) -> None:
    """Show a replay (.jsonl) turn by turn, or a platform match's public replay (FILE: a match id)."""
    if mine:
        from .arena import participant

        path, records = participant.download(str(file), seat, out, force, None, None)
        about = participant_replay.participant(records)
        click.echo(f"wrote {path}: seat {about['seat']}, {about['decisions']} decisions, bot seed "
                   f"{about['bot_seed']}; check it with skyarena replay {path} --verify, re-run your bot with "
                   f"skyarena reproduce {path} BOT_DIR")
        return
    if not file.exists() and file.suffix != ".jsonl":  # a match id: fetch its public replay from the Arena
        if verify:
            raise UserError("--verify needs a replay file: a platform match's public replay holds no hidden moves; "
                            "skyarena replay MATCH_ID --mine downloads your seat's full one")
        from .arena import replay as arena_replay

        arena_replay.show(arena_replay.fetch(str(file)), as_json)
        return
    try:
        records = replay_io.read(file)
    except SkyarenaError as exc:
        raise UserError(str(exc)) from None
    header = records[0]
    click.echo(f"{header['game']} v{header.get('version')} — {header['players']} players, seed {header['seed']}")
    for record in records[1:]:
        kind = record["type"]
        if kind == "chance":
            click.echo(f"          chance {record['label']}: {json.dumps(record['value'])}")
        elif kind == "move":
            moves = "; ".join(f"seat {seat}: {action}" for seat, action in sorted(record["actions"].items()))
            click.echo(f"turn {record['n']:>4}  {moves}")
        elif kind == "end" and "result" in record:
            res = record["result"]
            click.echo(result_line(res))
            if res.get("details"):
                click.echo(f"     {json.dumps(res['details'])}")
        elif kind == "match":
            for fault in record.get("faults", []):
                click.echo(f"fault: turn {fault['turn']}, seat {fault['seat']}: {fault['kind']} — {fault['reason']}")
            if record.get("forfeited"):
                click.echo(f"forfeited: seats {record['forfeited']}")
        elif kind == "participant":
            click.echo(f"participant's replay of seat {record['seat']} ({record['bot'].get('bot')} "
                       f"v{record['bot'].get('version')}), bot seed {record['bot_seed']}, "
                       f"{record['decisions']} decisions")
    if verify:
        own = any(r["type"] == "participant" for r in records)
        try:
            if own:
                state, seat_decisions = participant_replay.verify_participant_replay(records)
            else:
                state, seat_decisions = verify_match_replay(records), 0
        except SkyarenaError as exc:
            raise UserError(f"verification failed: {exc}") from None
        click.echo(f"verified: {state.decisions} decisions re-played, final hash {state.state_hash()} matches"
                   + (f"; the seat's {seat_decisions} decisions (observations, answers, faults) match the re-play"
                      if own else ""))


@main.command()
@click.argument("game")
@click.argument("directory", type=click.Path(path_type=Path))
def new(game: str, directory: Path) -> None:
    """Write a starter bot for GAME into DIRECTORY."""
    try:
        spec(game)
        path = write_starter(game, directory)
    except (SkyarenaError, FileExistsError) as exc:
        raise UserError(str(exc)) from None
    click.echo(f"wrote {path}\ntry it:  skyarena play {game} {path} random --games {STARTER_GAMES}")


# The commands that play on a referee (run, start, watch, fetch-replay, match): light enough
# to load with the group, and their summaries are their own docstrings'.
for _command in REMOTE_COMMANDS:
    main.add_command(_command)

if __name__ == "__main__":
    sys.exit(main())
