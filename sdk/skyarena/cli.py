"""The ``skyarena`` command line (click for parsing, rich for tables and progress bars:
both maintained, widely used, and already light dependencies of the SDK)."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from referee.games import GAMES, GameSpec, SkyarenaError, spec
from referee.games.core import replay as replay_io
from referee.match import TimeControl, verify_match_replay

from .bot_errors import first_line
from .games import house_bots
from .loader import BotLoadError
from .local import DEFAULT_STRIKES, DEFAULT_TIME, RANK_CONVENTION, MatchSummary, SeriesReport, play_series
from .starter import STARTER_GAMES, write_starter

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


# The platform's commands live beside the code they drive (workers/, dashboard/, the Arena
# client) and most need the server extra, so they are imported only when named: a bot
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
    "login": ("skyarena.arena.login", "Store your Arena address and API token."),
    "token": ("skyarena.arena.token", "Create API tokens (organisers; --bootstrap for the first one)."),
    "submit": ("skyarena.arena.submit", "Upload a bot folder to the Arena as a new version."),
    "bots": ("skyarena.arena.bots", "List your bots on the Arena and their versions' status."),
    "status": ("skyarena.arena.status", "Show one version's status on the Arena."),
    "standings": ("skyarena.arena.standings", "Show a season's ladders on the Arena."),
    "matches": ("skyarena.arena.matches", "List a version's matches on the Arena."),
    "logs": ("skyarena.arena.logs", "Print your bot's log from a match on the Arena."),
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
    _print_report(report)


def _print_report(report: SeriesReport) -> None:
    title = f"{report.game}: {report.games} match{'es' if report.games != 1 else ''}, seed {report.seed}"
    if report.cooperative:
        _print_team(report, title)
    else:
        table = Table(title=title, caption=f"mean rank: {RANK_CONVENTION}")
        for col in ("bot", "wins", "win %", "mean rank", "mean score", "faults"):
            table.add_column(col, justify="left" if col == "bot" else "right")
        for st in sorted(report.standings, key=lambda s: (-s.wins, s.rank_sum)):
            table.add_row(st.name, str(st.wins), f"{100 * st.wins / max(st.games, 1):.1f}",
                          f"{st.mean_rank or 0:.2f}", f"{st.score_sum / max(st.games, 1):.2f}", str(st.faults))
        console.print(table)
    _print_reasons(report)
    if len(report.matches) == 1:
        match = report.matches[0]
        ranks = [r + 1 for r in match.ranks]
        console.print(f"result: {match.reason}; ranks (1 = first) {ranks}; scores {match.scores}")
    faults = [(m.seed, m.seats, f) for m in report.matches for f in m.faults]
    if faults:
        console.print(f"[bold red]{len(faults)} fault(s)[/bold red]")
        for match_seed, seats, fault in faults[:20]:
            console.print(f"  match seed {match_seed}, turn {fault['turn']}, seat {fault['seat']} "
                          f"({seats[fault['seat']]}): {fault['kind']} — {first_line(fault['reason'])}"
                          + (" (forfeit)" if fault["forfeit"] else ""), highlight=False, soft_wrap=True)
            if "\n" in fault["reason"]:  # the bot's traceback, unwrapped so paths stay whole
                console.print(fault["reason"].split("\n", 1)[1], markup=False, highlight=False, soft_wrap=True)
        if len(faults) > 20:
            console.print(f"  ... and {len(faults) - 20} more (--json lists them all)")


def _print_team(report: SeriesReport, title: str) -> None:
    """Co-operative games: the seats win or lose together, so the team is the row."""
    table = Table(title=f"{title} — co-operative: the team wins or loses together")
    for col in ("team", "matches", "wins", "win %", "mean score", "faults"):
        table.add_column(col, justify="left" if col == "team" else "right")
    wins = report.team_wins()
    score = sum(st.score_sum for st in report.standings) / max(1, sum(st.games for st in report.standings))
    faults = ", ".join(f"{st.name} {st.faults}" for st in report.standings)
    bases = {st.name.split("#")[0] for st in report.standings}
    team = f"{bases.pop()} (team)" if len(bases) == 1 else " + ".join(st.name for st in report.standings)
    table.add_row(team, str(report.games), str(wins),
                  f"{100 * wins / max(report.games, 1):.1f}", f"{score:.2f}", faults)
    console.print(table)


def _print_reasons(report: SeriesReport) -> None:
    """Why matches ended: in a co-operative game this is the landing rate and each way to lose."""
    counts = report.reasons()
    parts = [f"{reason} {n} ({100 * n / max(report.games, 1):.1f} %)" for reason, n in counts.most_common()]
    console.print("ended by: " + ", ".join(parts), highlight=False)


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
def replay(file: Path, verify: bool, as_json: bool) -> None:
    """Show a replay (.jsonl) turn by turn, or a platform match's public replay (FILE: a match id)."""
    if not file.exists() and file.suffix != ".jsonl":  # a match id: fetch its public replay from the Arena
        if verify:
            raise UserError("--verify needs a replay file: a platform match's public replay holds no hidden moves")
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
            state = verify_match_replay(records)
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
    click.echo(f"wrote {path}\ntry it:  skyarena play {game} {path} random --games {STARTER_GAMES}")


def local_round_robin(n_games: int, seed: int) -> None:
    """A local round-robin among the house bots of every registered game, with standings
    (``skyarena demo --local``; the platform demo itself is a platform command)."""
    if not GAMES:
        raise UserError("no game is registered; is the installation complete?")
    for name in sorted(GAMES):
        game_spec = GAMES[name]
        house = house_bots(name)
        roster = sorted(house)
        players = game_spec.min_players
        if game_spec.cooperative:
            # Partners play as one team against the game: each house bot fills every seat.
            for bot in roster:
                _print_report(play_series(name, [(bot, house[bot])] * players, n_games, seed))
            continue
        factories = [(roster[i % len(roster)], house[roster[i % len(roster)]]) for i in range(players)]
        report = play_series(name, factories, n_games, seed, None, None, 3, keep_records=True)
        _print_report(report)


# Registers `run`, `match` and `referee serve` on the group (before main() can run).
from . import cli_remote  # noqa: E402,F401,I001

if __name__ == "__main__":
    sys.exit(main())
