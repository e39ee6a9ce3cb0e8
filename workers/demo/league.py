"""The demo's league, set up through the same doors an organiser and an author use.

Seasons are opened and the house bots submitted over the Arena's gRPC API (``CreateSeason``,
``SubmitVersion``: what ``skyarena season``-over-the-Arena and ``skyarena submit`` call), so a
demo exercises intake, the sandboxed entry-point check and the smoke match like any author's
bot. Only the first organiser token comes straight from the store, as
``skyarena token create --bootstrap`` does. The person running the demo gets an author
account of their own (named after their login) and its token, so the bots they submit are
theirs, not the organiser's. Everything is idempotent, so a second run reuses
the data: the tokens are kept (mode 0600) in the demo's folder while they stay valid, a
season that exists is reused (started if it is still a draft), and a house bot's folder packs
to the same bytes every time, which the Arena recognises as the version it already has.
"""

from __future__ import annotations

import getpass
import json
import os
import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from referee.games import GAMES
from skyarena.arena.client import Arena
from skyarena.arena.pack import pack_folder
from skyarena.arena.submit import upload
from skyarena.games import QUICK_HOUSE_BOTS, house_bots
from skyarena.v1 import arena_pb2 as pb
from workers.house_bots import ACCOUNT, MIXED, house_source
from workers.store import Database, NotFound
from workers.store.accounts import TokenRefused, check_token, issue_token
from workers.store.database import Conn
from workers.store.leagues import league_settings
from workers.store.seasons import Season, get_season

ORGANISER = "organiser"
AUTHOR = "author"             # tokens.json's key for the person running the demo (their account has their name)
FALLBACK_AUTHOR = "author"    # their account when their login name is not an account name
ACCOUNT_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")  # the Arena's CreateToken refuses others
TOKENS_FILE = "tokens.json"
SUBMIT_PARALLEL = 4
SEASON_TIMEOUT_S = 120.0      # CreateSeason plays each boss's smoke match first


@dataclass(frozen=True)
class DemoClock:
    """The demo seasons' time control: generous, because a loaded laptop is not a bot's fault."""

    move_s: float = 2.0
    bank_s: float = 30.0
    first_move_s: float = 30.0   # a hosted bot's first answer waits on its interpreter's start
    matches_in_flight: int = 2   # per ladder: five games share two workers evenly
    trickle_per_minute: float = 2.0  # once a ladder is settled: new matches a minute (0: no slowing)


@dataclass(frozen=True)
class Submitted:
    game: str
    bot: str
    version_id: int
    status: str
    existing: bool


def _read_tokens(path: Path) -> dict[str, str]:
    try:
        data = json.loads(path.read_text())
    except (FileNotFoundError, ValueError):
        return {}
    return {k: str(v) for k, v in data.items()} if isinstance(data, dict) else {}


def _write_tokens(path: Path, tokens: dict[str, str]) -> None:
    temporary = path.with_suffix(".tmp")
    temporary.unlink(missing_ok=True)
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)  # never readable by others
    with os.fdopen(fd, "w") as out:
        json.dump(tokens, out)
    os.replace(temporary, path)


def _valid(db: Database, token: str | None, scope: str) -> bool:
    if not token:
        return False
    try:
        with db.connection() as conn:
            check_token(conn, token, scope)
    except TokenRefused:
        return False
    return True


def organiser_token(db: Database, folder: Path) -> str:
    """The demo's organiser token: the kept one while it is valid, else a bootstrap one."""
    path = folder / TOKENS_FILE
    tokens = _read_tokens(path)
    if not _valid(db, tokens.get(ORGANISER), "organiser"):
        with db.connection() as conn:
            tokens[ORGANISER] = issue_token(conn, ORGANISER, "organiser", "make demo (bootstrap)")
        _write_tokens(path, tokens)
    return tokens[ORGANISER]


def _kept_author_token(db: Database, folder: Path, organiser: Arena, key: str, account: str, label: str) -> str:
    """The author token kept under ``key`` while it is valid, else a new one for ``account``, issued by
    the organiser over the Arena (``CreateToken``) as an organiser would for any author."""
    path = folder / TOKENS_FILE
    tokens = _read_tokens(path)
    if not _valid(db, tokens.get(key), "author"):
        response = organiser.call("CreateToken", pb.CreateTokenRequest(account=account, scope="author", label=label))
        tokens[key] = response.token
        _write_tokens(path, tokens)
    return tokens[key]


def author_token(db: Database, folder: Path, organiser: Arena) -> str:
    """The house account's author token: the house bots are submitted as any author's are."""
    return _kept_author_token(db, folder, organiser, ACCOUNT, ACCOUNT, "make demo: the house bots")


def demo_author_name() -> str:
    """The account of the person running the demo: their login name, where it is a free account name."""
    try:
        name = getpass.getuser()
    except (KeyError, OSError):  # no passwd entry for this uid (a bare container)
        return FALLBACK_AUTHOR
    return name if ACCOUNT_NAME.match(name) and name not in (ORGANISER, ACCOUNT) else FALLBACK_AUTHOR


def your_author_token(db: Database, folder: Path, organiser: Arena) -> str:
    """The token the person running the demo submits with: an author's, never the organiser's, so
    their bots are their own. Kept across runs, like the seasons, so every run is the same account."""
    return _kept_author_token(db, folder, organiser, AUTHOR, demo_author_name(), "make demo: your bots")


def season_name(game: str) -> str:
    return f"demo-{game}"


FREE_FOR_ALL_TABLE = 4  # the demo's multi-player ladder: four seats, four distinct house versions


def demo_player_counts(game: str) -> list[int]:
    """The demo's ladders of ``game``: its smallest table, and a 4-player one for a free-for-all game
    that seats four (Skyjo Action, Skybirds, Fly Away)."""
    spec = GAMES[game]
    counts = [spec.min_players]
    if not spec.cooperative and spec.min_players < FREE_FOR_ALL_TABLE <= spec.max_players:
        counts.append(FREE_FOR_ALL_TABLE)
    return counts


def demo_house_bots(game: str) -> list[str]:
    """The house bots the demo submits for ``game``: the quick ones (``QUICK_HOUSE_BOTS``: the boss thinks
    for most of every move), and the mixed ones too where it has a 4-player ladder, so every seat of a
    4-player match is a different version."""
    quick = sorted(set(house_bots(game)) & set(QUICK_HOUSE_BOTS))
    return quick + sorted(MIXED) if len(demo_player_counts(game)) > 1 and "heuristic" in quick else quick


def demo_leagues(game: str) -> str:
    """The demo seasons' leagues: beat the 35 % heuristic to reach silver, the heuristic for gold, where
    the searching ``boss`` waits in the games that have one (a newcomer's first bot can climb the first
    step; each boss is a house bot the demo runs anyway, or one the season adds)."""
    leagues = "bronze:heuristic-35,silver:heuristic"
    return leagues + ",gold:boss" if "boss" in house_bots(game) else leagues


def open_seasons(db: Database, organiser: Arena, clock: DemoClock) -> dict[str, str]:
    """One active season per game (game -> season name), created or reused, with the demo's leagues."""
    names = {}
    for game in sorted(GAMES):
        name = season_name(game)
        suffix = 1
        while True:
            try:
                with db.connection() as conn:
                    season = get_season(conn, name)
                    state = season.state
                    outdated = state != "closed" and _demo_shape(conn, season) != (
                        tuple(demo_player_counts(game)), demo_leagues(game))
            except NotFound:
                state, outdated = None, False
            if outdated:   # a season of an older demo (fewer ladders, no leagues): it ends, the next one opens
                organiser.call("CloseSeason", pb.SeasonRequest(name=name))
                state = "closed"
            if state != "closed":
                break
            suffix += 1  # somebody closed the demo season: the demo opens the next one
            name = f"{season_name(game)}-{suffix}"
        if state is None:
            organiser.call("CreateSeason", pb.CreateSeasonRequest(
                name=name, game=game, player_counts=demo_player_counts(game), move_s=clock.move_s,
                bank_s=clock.bank_s, first_move_s=clock.first_move_s, matches_in_flight=clock.matches_in_flight,
                matchmaking_json=json.dumps({"settled_per_minute": clock.trickle_per_minute}),
                leagues=demo_leagues(game), start=True), timeout=SEASON_TIMEOUT_S)
        elif state == "draft":
            organiser.call("StartSeason", pb.SeasonRequest(name=name))
        names[game] = name
    return names


def _demo_shape(conn: Conn, season: Season) -> tuple[tuple[int, ...], str]:
    """A season's player counts and leagues, as the demo names them (to tell an older demo's season)."""
    leagues = league_settings(conn, season.id)["leagues"]
    return tuple(season.player_counts), ",".join(f"{lg['name']}:{lg['boss']}" for lg in leagues)


def house_folders(root: Path) -> list[tuple[str, str, Path]]:
    """A bot folder (``bot.py`` + ``skyarena.toml``) per house bot of every game, as an author keeps one."""
    folders = []
    for game in sorted(GAMES):
        for bot in demo_house_bots(game):
            folder = root / f"{game}-{bot}"
            folder.mkdir(parents=True, exist_ok=True)
            source = house_source(game, bot)
            manifest = f'game = "{game}"\nentry = "bot.py"\nname = "{game}-{bot}"\n'.encode()
            for name, data in (("bot.py", source), ("skyarena.toml", manifest)):
                path = folder / name
                if not path.exists() or path.read_bytes() != data:
                    path.write_bytes(data)
            folders.append((game, bot, folder))
    return folders


def submit_house_bots(author: Arena, root: Path, parallel: int = SUBMIT_PARALLEL) -> list[Submitted]:
    """Upload every house bot folder like ``skyarena submit`` (an unchanged folder is its existing version).

    A few at a time: most of an upload's time is the Arena's sandboxed entry-point check, an
    interpreter starting, so overlapping them brings every game's first match forward.
    """

    def submit(entry: tuple[str, str, Path]) -> Submitted:
        game, bot, folder = entry
        response = upload(author, pack_folder(folder), "", "", show_progress=False)
        return Submitted(game, bot, response.version.id, response.version.status, response.existing)

    with ThreadPoolExecutor(parallel, thread_name_prefix="submit") as pool:
        return list(pool.map(submit, house_folders(root)))
