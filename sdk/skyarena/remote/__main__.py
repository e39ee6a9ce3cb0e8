"""``python -m skyarena.remote BOT [--referee ADDR] [--token T] [--stdio] [--game G]``.

The lean twin of ``skyarena run``: it imports no command-line or table libraries, so a
bot process starts fast (``skyarena match`` and the workers start bots this way). Token
and address may come from SKYARENA_SEAT_TOKEN and SKYARENA_REFEREE instead of the command
line, where other users of the machine could read them.
"""

from __future__ import annotations

import argparse
import json
import sys

from ..loader import BotLoadError
from .runner import RemoteError, bot_factory, run_bot


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m skyarena.remote", description=__doc__.splitlines()[0])
    parser.add_argument("bot", help="a house bot name, file.py or file.py:ClassName")
    parser.add_argument("--referee", help="HOST:PORT (default: SKYARENA_REFEREE)")
    parser.add_argument("--token", help="the seat token (default: SKYARENA_SEAT_TOKEN)")
    parser.add_argument("--stdio", action="store_true", help="length-delimited frames on stdin/stdout")
    parser.add_argument("--game", help="resolve a house bot name for this game before connecting")
    parser.add_argument("--json", action="store_true", help="print the seat's result as JSON (not with --stdio)")
    args = parser.parse_args(argv)
    try:
        factory = bot_factory(args.bot, args.game)
        outcome = run_bot(factory, args.referee, args.token, stdio=args.stdio)
    except (BotLoadError, RemoteError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.json and not args.stdio:
        print(json.dumps(outcome.to_json()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
