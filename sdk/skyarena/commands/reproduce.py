"""``skyarena reproduce MATCH_ID|FILE [BOT_DIR]``: re-run your bot on its seat of a platform match,
bit-exactly, and compare every decision; stop at a turn (under pdb with ``--debug``); or fork the
match at a turn with a new version (``--fork-at``) and play on locally.

MATCH_ID fetches your seat's participant's replay from the Arena (nothing is written; ``skyarena
replay MATCH_ID --mine`` saves it); FILE is one saved before. BOT_DIR is the version's folder or
its archive (default: the current folder). The logic is ``skyarena.reproduce`` and ``skyarena.fork``.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import click

from referee.games import SkyarenaError
from referee.games.core import replay as replay_io
from referee.match.participant import check_engine_version, engine_records, participant

from ..bot import Bot
from ..bot_folder import LocalBot, open_bot
from ..cli_support import UserError
from ..games import house_bots
from ..loader import BotLoadError, create_bot

HOUSE_OPPONENTS = ("heuristic", "random")


def load_records(source: str, seat: int | None) -> list[dict[str, Any]]:
    """The participant's replay: a saved file, or fetched from the Arena for a match id."""
    path = Path(source)
    if path.exists() or path.suffix == ".jsonl":
        records = replay_io.read(path)
        about = participant(records)
        if seat is not None and seat != about["seat"]:
            raise UserError(f"{path} is seat {about['seat']}'s participant's replay, not seat {seat}'s: fetch that "
                            f"one with skyarena replay {about.get('match_id')} --mine --seat {seat}")
        return records
    from ..arena import participant as arena_participant

    return arena_participant.fetch(source, seat)


def turns_of(records: Sequence[Mapping[str, Any]]) -> int:
    return sum(1 for r in engine_records(records) if r["type"] == "move")


def check_turn(records: Sequence[Mapping[str, Any]], turn: int, flag: str, own: bool) -> None:
    """A turn past the end, or (``own``) one from which the seat makes no decision, is refused in one line."""
    about = participant(records)
    last = turns_of(records)
    if turn > last:
        raise UserError(f"{flag} {turn} is past the end: match {about.get('match_id')} has turns 1..{last}")
    if own:
        mine = [int(r["turn"]) for r in records if r.get("type") == "decision"]
        if not mine or turn > mine[-1]:
            raise UserError(f"seat {about['seat']} makes no decision from turn {turn} on (its last is turn "
                            f"{mine[-1] if mine else 'none'}): give {flag} a turn up to it")


def _house(cls: type[Bot]) -> Callable[[], Bot]:
    return lambda: create_bot(cls)


def opponent_makers(specs: tuple[str, ...], game: str, players: int, seat: int,
                    stack: contextlib.ExitStack) -> dict[int, Callable[[], Bot]]:
    """``heuristic`` / ``random`` for every other seat, or ``SEAT=DIR`` (a bot folder, archive or house bot)."""
    default = "heuristic"
    chosen: dict[int, Callable[[], Bot]] = {}
    house = house_bots(game)
    for spec in specs:
        if "=" not in spec:
            if spec not in house:
                raise UserError(f"--opponents {spec}: give heuristic, random or SEAT=DIR")
            default = spec
            continue
        seat_text, _, where = spec.partition("=")
        if not seat_text.isdigit() or not 0 <= int(seat_text) < players or int(seat_text) == seat:
            raise UserError(f"--opponents {spec}: SEAT must be another seat of the match (0..{players - 1}, not "
                            f"{seat}, the new bot's)")
        chosen[int(seat_text)] = _house(house[where]) if where in house else \
            stack.enter_context(open_bot(Path(where), game, f" for seat {seat_text}")).make
    return {s: chosen.get(s, _house(house[default])) for s in range(players) if s != seat}


def _show(title: str, stop: Any) -> None:
    click.echo(f"{title} turn {stop.turn}: on the platform {stop.platform}; here {stop.here}")
    click.echo("observation:")
    click.echo(json.dumps(stop.observation, indent=2, sort_keys=True))
    shown = stop.legal[:40]
    click.echo(f"legal actions ({len(stop.legal)}): " + ", ".join(f"[{i}] {a}" for i, a in enumerate(shown))
               + (", ..." if len(stop.legal) > len(shown) else ""))


@contextlib.contextmanager
def _bot_folder(bot: LocalBot) -> Iterator[None]:
    """Run in the bot's folder, as a hosted bot does (relative data files resolve there)."""
    with contextlib.chdir(bot.folder):
        yield


@click.command("reproduce")
@click.argument("source", metavar="MATCH_ID|FILE")
@click.argument("bot_dir", required=False, default=".", type=click.Path(path_type=Path))
@click.option("--seat", type=click.IntRange(min=0), help="Your seat in the match (default: your bot's seat).")
@click.option("--at", "at", type=click.IntRange(min=1), metavar="TURN",
              help="Stop at your seat's decision of TURN: print its observation and legal actions.")
@click.option("--debug", is_flag=True, help="With --at: open pdb inside your bot's act() at that decision.")
@click.option("--fork-at", type=click.IntRange(min=1), metavar="TURN",
              help="Re-create the engine state at TURN and play on with BOT_DIR in your seat.")
@click.option("--opponents", multiple=True, metavar="heuristic|random|SEAT=DIR",
              help="With --fork-at: the other seats (default heuristic; SEAT=DIR a folder of yours; repeatable).")
@click.option("--games", type=click.IntRange(min=1), default=1, show_default=True,
              help="With --fork-at: play the fork this many times (after the first, with fresh chance).")
@click.option("--seed", type=int, default=0, show_default=True, help="With --fork-at --games: the fresh chance's seed.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def command(source: str, bot_dir: Path, seat: int | None, at: int | None, debug: bool, fork_at: int | None,
            opponents: tuple[str, ...], games: int, seed: int, as_json: bool) -> None:
    """Re-run your bot on its seat of a match with its recorded bot seed and observations, and compare
    every decision with what it answered on the platform (or fork the match at a turn)."""
    if debug and at is None:
        raise UserError("--debug needs --at TURN: the decision at which to open pdb")
    if fork_at is not None and at is not None:
        raise UserError("--at and --fork-at do not go together: reproduce up to a turn, or fork at one")
    try:
        records = load_records(source, seat)
        header = engine_records(records)[0]
        check_engine_version(header)
        about = participant(records)
        game, players = header["game"], int(header["players"])
        if at is not None or fork_at is not None:
            check_turn(records, at or fork_at or 0, "--at" if at is not None else "--fork-at", own=at is not None)
        with contextlib.ExitStack() as stack:
            bot = stack.enter_context(open_bot(bot_dir, game, f" that played seat {about['seat']}"))
            if fork_at is not None:
                makers = opponent_makers(opponents, game, players, int(about["seat"]), stack)
                _fork(records, fork_at, bot, makers, games, seed, as_json)
                return
            _reproduce(records, bot, at, debug, as_json)
    except (SkyarenaError, BotLoadError) as exc:
        raise UserError(str(exc)) from None


def _reproduce(records: list[dict[str, Any]], bot: LocalBot, at: int | None, debug: bool, as_json: bool) -> None:
    from ..reproduce import reproduce

    about = participant(records)
    if bot.archive_sha256 and about["bot"].get("archive_sha256") not in (None, bot.archive_sha256):
        click.echo(f"note: this archive is not the one version {about['bot'].get('version')} was submitted as "
                   "(its SHA-256 differs)", err=True)
    with _bot_folder(bot):
        report = reproduce(records, bot.make, at=at, debug=debug)
    if as_json:
        click.echo(json.dumps(report.to_json(), default=str))
    else:
        click.echo(f"match {about.get('match_id')}, seat {report.seat} ({about['bot'].get('bot')} "
                   f"v{about['bot'].get('version')}): re-ran {bot.name} with bot seed {about['bot_seed']} "
                   f"in {report.seconds:.2f} s")
        click.echo(report.summary())
        if report.difference is not None:
            _show("differs at", report.difference)
        elif report.stopped is not None and not debug:
            _show("stopped at", report.stopped)
    if report.difference is not None:
        raise SystemExit(1)


def _fork(records: list[dict[str, Any]], turn: int, bot: LocalBot, makers: dict[int, Callable[[], Bot]],
          games: int, seed: int, as_json: bool) -> None:
    from ..fork import fork

    with _bot_folder(bot):
        report = fork(records, turn, bot.make, makers, games, seed)
    if as_json:
        click.echo(json.dumps(report.to_json()))
        return
    click.echo(f"fork at turn {turn}: engine state {report.state_hash} re-created (the recorded moves from it "
               f"reach the recorded final hash {report.final_hash})")
    for i, g in enumerate(report.games, 1):
        click.echo(f"game {i}: seat {report.seat} place {g.rank + 1}, score {g.score:g}, {g.reason}")
    click.echo(report.summary())

