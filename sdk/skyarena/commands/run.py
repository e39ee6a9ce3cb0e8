"""``skyarena run``: play one seat of a match on a referee, over gRPC or, for a relay, over
length-delimited frames on stdin/stdout."""

from __future__ import annotations

import json

import click

from ..cli_support import UserError, err_console
from ..loader import BotLoadError
from .bot_files import checked_bot_factory, enter_bot_folder


@click.command("run")
@click.argument("bot")
@click.option("--referee", envvar="SKYARENA_REFEREE", metavar="HOST:PORT",
              help="The referee's address (env SKYARENA_REFEREE).")
@click.option("--token", envvar="SKYARENA_SEAT_TOKEN", help="This seat's token (env SKYARENA_SEAT_TOKEN).")
@click.option("--stdio", is_flag=True, envvar="SKYARENA_STDIO",
              help="Speak length-delimited skyarena.v1 frames on stdin/stdout instead of gRPC (for a relay).")
@click.option("--game", help="Resolve a house bot name for this game before connecting.")
@click.option("--json", "as_json", is_flag=True, help="Print the seat's result as JSON (not with --stdio).")
def command(bot: str, referee: str | None, token: str | None, stdio: bool, game: str | None, as_json: bool) -> None:
    """Play one seat of a match on a referee with BOT (a house bot name or a .py file).

    The same bot file plays locally (`skyarena play`) and here, unchanged."""
    from ..remote import RemoteError, run_bot

    factory = checked_bot_factory(bot, game)
    if not stdio and not referee:
        raise UserError("give the referee's address with --referee HOST:PORT (or set SKYARENA_REFEREE)")
    if not stdio and not token:
        raise UserError("give the seat token with --token (or set SKYARENA_SEAT_TOKEN); StartMatch returns one "
                        "per seat")
    from ..remote.frames import FrameError

    enter_bot_folder(bot)
    try:
        outcome = run_bot(factory, referee, token or "", stdio=stdio)
    except FrameError as exc:
        raise UserError(f"--stdio: stdin does not carry skyarena.v1 frames ({exc}); --stdio is for a relay that "
                        "writes length-delimited BotMessage/RefereeMessage frames. To play a referee directly, use "
                        "--referee HOST:PORT --token T.") from None
    except RemoteError as exc:
        raise UserError(f"the referee refused or ended the stream: {exc}") from None
    except BotLoadError as exc:
        raise UserError(str(exc)) from None
    if stdio:
        return  # stdout carries frames only
    if as_json:
        click.echo(json.dumps(outcome.to_json()))
        return
    res = outcome.result
    own = [f for f in outcome.faults if f["seat"] == outcome.seat]
    err_console.print(f"match {outcome.match_id}: seat {outcome.seat} ranked {res['ranks'][outcome.seat] + 1} "
                      "(1 = first) "
                      f"({res['reason']}); ranks {res['ranks']}, scores {res['scores']}; "
                      f"{len(own)} fault(s) of this seat")
