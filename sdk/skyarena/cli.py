"""The ``skyarena`` command line (click for parsing, rich for tables and progress bars:
both maintained, widely used, and already light dependencies of the SDK)."""

from __future__ import annotations

import importlib
import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from referee.games import GAMES, SkyarenaError, spec
from referee.games.core import replay as replay_io
from referee.match import TimeControl

from .games import house_bots
from .loader import BotLoadError, load_bot
from .local import DEFAULT_LOCAL_TIME, SeriesReport, play_series
from .starter import write_starter

console = Console()
err_console = Console(stderr=True)


class UserError(click.ClickException):
    """An error the user can fix; printed without a traceback, exit status 2."""

    exit_code = 2


def parse_options(pairs: tuple[str, ...]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise UserError(f"option {pair!r} must look like NAME=VALUE (e.g. -o max_rounds=20)")
        try:
            options[key] = json.loads(value)
        except json.JSONDecodeError:
            options[key] = value
    return options


# The platform's commands live beside the code they drive (workers/, dashboard/, the Arena
# client) and most need the server extra, so they are imported only when named: a bot
# author's `pip install .` keeps a light, fast `skyarena`. Name -> (module, one-line help);
# the module defines `command`, a click command or group.
PLATFORM_COMMANDS: dict[str, tuple[str, str]] = {
    "dashboard": ("dashboard.command", "Start the Streamlit dashboard: ladders, bots, replays, seasons (server)."),
    "db": ("workers.commands.db", "Apply or check the store's schema migrations (server)."),
    "ratings": ("workers.commands.ratings", "Recompute or check a season's ratings from its results (server)."),
    "season": ("workers.commands.season", "Create, start and close league seasons; show standings (server)."),
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
    table.add_column("options (default)")
    for s in specs:
        opts = "\n".join(f"{o.name} ({o.default!r}): {o.allowed()}" for o in s.all_options())
        players = f"{s.min_players}-{s.max_players}" + (" co-op" if s.cooperative else "")
        table.add_row(f"{s.name}\n[dim]{s.title}[/dim]", players, opts)
    console.print(table)


@main.command()
@click.argument("game")
@click.argument("bots", nargs=-1, required=True)
@click.option("--games", "n_games", type=click.IntRange(min=1), default=1, show_default=True, help="Matches to play.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the first match (match i uses seed+i).")
@click.option("-o", "--option", "option_pairs", multiple=True, metavar="NAME=VALUE", help="A game option (repeatable).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object with the standings.")
@click.option("--replay-dir", type=click.Path(file_okay=False, path_type=Path), help="Write each match's replay here.")
@click.option("--move-time", type=click.FloatRange(min=0.001), default=DEFAULT_LOCAL_TIME.move_s, show_default=True,
              help="Seconds per move.")
@click.option("--bank", type=click.FloatRange(min=0), default=DEFAULT_LOCAL_TIME.bank_s, show_default=True,
              help="Time bank in seconds.")
@click.option("--strikes", type=click.IntRange(min=1), default=3, show_default=True, help="Faults before a forfeit.")
def play(game: str, bots: tuple[str, ...], n_games: int, seed: int, option_pairs: tuple[str, ...], as_json: bool,
         replay_dir: Path | None, move_time: float, bank: float, strikes: int) -> None:
    """Play GAME locally among BOTS (house bot names or paths to .py files); seats rotate."""
    try:
        game_spec = spec(game)
        options = parse_options(option_pairs)
        game_spec.validate(len(bots), options)
        factories = []
        for bot in bots:
            name, cls = load_bot(bot, game)
            factories.append((name, cls))
    except (SkyarenaError, BotLoadError) as exc:
        raise UserError(str(exc)) from None
    if replay_dir is not None:
        replay_dir.mkdir(parents=True, exist_ok=True)
    control = TimeControl(move_s=move_time, bank_s=bank, first_move_s=2 * move_time)

    progress = Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                        TimeRemainingColumn(), console=err_console, transient=True,
                        disable=n_games < 2 or not err_console.is_terminal)

    with progress:
        task = progress.add_task(f"{game}", total=n_games)

        def on_match(i: int, record: Any, order: list[int]) -> None:
            if replay_dir is not None:
                replay_io.write(replay_dir / f"{game}-{record.seed}.jsonl", record.replay_records())
            progress.advance(task)

        report = play_series(game, factories, n_games, seed, options, control, strikes, on_match=on_match,
                             keep_records=not as_json)
    if as_json:
        click.echo(json.dumps(report.to_json()))
        return
    _print_report(report)


def _print_report(report: SeriesReport) -> None:
    title = f"{report.game}: {report.games} match{'es' if report.games != 1 else ''}, seed {report.seed}"
    table = Table(title=title)
    for col in ("bot", "wins", "win %", "mean rank", "mean score", "faults"):
        table.add_column(col, justify="left" if col == "bot" else "right")
    for st in sorted(report.standings, key=lambda s: (-s.wins, s.rank_sum)):
        data = st.to_json()
        table.add_row(st.name, str(st.wins), f"{100 * st.wins / max(st.games, 1):.1f}",
                      f"{data['mean_rank']:.2f}", f"{data['mean_score']:.2f}", str(st.faults))
    console.print(table)
    if report.records and report.games == 1:
        result = report.records[0].result
        console.print(f"result: {result.reason}; ranks {list(result.ranks)}; scores {list(result.scores)}")
    faults = [(r.seed, f) for r in report.records for f in r.faults]
    if faults:
        console.print(f"[bold red]{len(faults)} fault(s)[/bold red]")
        for match_seed, fault in faults[:20]:
            console.print(f"  match seed {match_seed}, turn {fault.turn}, seat {fault.seat}: "
                          f"{fault.kind.value} — {fault.reason}" + (" (forfeit)" if fault.forfeit else ""))
        if len(faults) > 20:
            console.print(f"  ... and {len(faults) - 20} more")


@main.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--verify", is_flag=True, help="Re-play every move and check chance outcomes and the final hash.")
def replay(file: Path, verify: bool) -> None:
    """Show a replay (.jsonl) turn by turn."""
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
            click.echo(f"end: {res['reason']}; ranks {res['ranks']}; scores {res['scores']}")
            if res.get("details"):
                click.echo(f"     {json.dumps(res['details'])}")
        elif kind == "match":
            for fault in record.get("faults", []):
                click.echo(f"fault: turn {fault['turn']}, seat {fault['seat']}: {fault['kind']} — {fault['reason']}")
            if record.get("forfeited"):
                click.echo(f"forfeited: seats {record['forfeited']}")
    if verify:
        try:
            state = replay_io.verify(records)
        except SkyarenaError as exc:
            raise UserError(f"verification failed: {exc}") from None
        click.echo(f"verified: {state.decisions} decisions re-played, final hash {state.state_hash()} matches")


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
    click.echo(f"wrote {path}\ntry it:  skyarena play {game} {path} random --games 10")


@main.command()
@click.option("--games", "n_games", type=click.IntRange(min=1), default=20, show_default=True,
              help="Matches per game.")
@click.option("--seed", type=int, default=1, show_default=True)
def demo(n_games: int, seed: int) -> None:
    """A local round-robin among the house bots of every registered game, with standings."""
    if not GAMES:
        raise UserError("no game is registered; is the installation complete?")
    for name in sorted(GAMES):
        game_spec = GAMES[name]
        house = house_bots(name)
        roster = sorted(house)
        players = game_spec.min_players
        if game_spec.cooperative:
            # Partners play as one team against the game: each house bot fills every seat.
            teams = [play_series(name, [(bot, house[bot])] * players, n_games, seed) for bot in roster]
            # Co-op seats share every result, so a team's first seat stands for the team.
            standings = [replace(team.standings[0], name=f"{bot} (team)",
                                 faults=sum(st.faults for st in team.standings))
                         for bot, team in zip(roster, teams)]
            _print_report(SeriesReport(name, players, n_games, seed, standings))
            continue
        factories = [(roster[i % len(roster)], house[roster[i % len(roster)]]) for i in range(players)]
        report = play_series(name, factories, n_games, seed, None, None, 3, keep_records=True)
        _print_report(report)


# Registers `run`, `match` and `referee serve` on the group (before main() can run).
from . import cli_remote  # noqa: E402,F401,I001

if __name__ == "__main__":
    sys.exit(main())
