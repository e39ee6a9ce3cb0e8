"""Who may challenge whom, and the seats of the challenge matches (the Arena's ``Challenge`` call).

An author challenges with their own version against active versions of its game (anyone's) and
the house bots; an organiser with any version against any. A version that failed its smoke
match, was retired or is still being checked never plays one: its refusal says what to do.
The matches are queued by the store (`workers.store.challenges`, which also counts the quota and
the cap in flight) and sent to the workers like any other match.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

import grpc

from referee.games import GAMES
from workers.house_bots import house_archive
from workers.store import submissions, versions
from workers.store.accounts import Account
from workers.store.database import Conn

from .auth import is_organiser, require_owner
from .errors import BadRequest, CallRefused

HOUSE_BOTS = ("random", "heuristic")
NEVER_PLAYS = {"failed": "it failed its smoke match: fix it and submit a new version",
               "retired": "its bot is retired", "received": "it is still being checked",
               "smoke": "its smoke match has not finished: wait for it (skyarena status VERSION)"}
MAX_GAMES = 100


def playable(row: dict[str, Any], account: Account, *, own: bool) -> None:
    """Refuse a version that may not play this challenge (status, or another author's non-active one)."""
    status = row["status"]
    if status in NEVER_PLAYS:
        raise CallRefused(grpc.StatusCode.FAILED_PRECONDITION,
                          f"version {row['id']} ({row['bot']} v{row['number']}) is {status} and plays no challenge: "
                          f"{NEVER_PLAYS[status]}")
    if not own and status != "active" and not is_organiser(account):
        raise CallRefused(grpc.StatusCode.FAILED_PRECONDITION,
                          f"version {row['id']} ({row['bot']} v{row['number']}) is {status}: challenge an active "
                          "version (skyarena standings SEASON lists them) or a house bot (random, heuristic)")


def opponent(conn: Conn, account: Account, game: str, name: str) -> int:
    """The version id an opponent names: a version of ``game``, or a house bot's paused house version."""
    if name in HOUSE_BOTS:
        manifest = {"game": game, "entry": "bot.py", "name": name}
        bot_name = f"{game}-smoke-opponent" if name == "random" else f"{game}-house-{name}"
        return submissions.house_opponent(conn, game, bot_name, house_archive(game, name), manifest)
    if not name.isdigit():
        raise BadRequest(f"opponent {name[:60]!r} is neither a version id nor a house bot ({', '.join(HOUSE_BOTS)})")
    row = versions.version(conn, int(name))
    if row["game"] != game:
        raise BadRequest(f"version {row['id']} is a {row['game']} bot and yours plays {game}: challenge a {game} "
                         "version or a house bot")
    playable(row, account, own=False)
    return int(row["id"])


def seat_lists(conn: Conn, account: Account, version_id: int, opponents: Sequence[str],
               games: int) -> tuple[str, list[list[int]], list[int]]:
    """The game, each match's seats (rotated game to game) and seeds for a checked challenge."""
    mine = versions.version(conn, version_id)
    require_owner(account, mine["account_id"], f"version {version_id}")
    playable(mine, account, own=True)
    game = mine["game"]
    spec = GAMES[game]
    seats = [int(mine["id"]), *(opponent(conn, account, game, name) for name in opponents)]
    if not spec.min_players <= len(seats) <= spec.max_players:
        raise BadRequest(f"{game} is played by {spec.min_players} to {spec.max_players}; this challenge seats "
                         f"{len(seats)} (your version and {len(opponents)} opponents): name "
                         f"{spec.min_players - 1} to {spec.max_players - 1} opponents with --vs")
    if not 1 <= games <= MAX_GAMES:
        raise BadRequest(f"games must be 1 to {MAX_GAMES}, not {games}")
    rotations = [seats[i % len(seats):] + seats[:i % len(seats)] for i in range(games)]
    return game, rotations, [secrets.randbelow(2**31) for _ in range(games)]
