"""The house bots as hosted versions: real archives the workers unpack and run like any other.

Each archive holds one ``bot.py`` that subclasses the SDK's house bot, so a league of house
bots exercises exactly the path an author's submission takes (blob, unpack, stdio runner).

Besides the SDK's own (``random``, ``heuristic``), each game with a heuristic has *mixed*
house bots (``MIXED``): the heuristic's move with a fixed probability, a random legal move
otherwise (from the bot's own seeded randomness). They give a multi-player ladder four
versions of known, distinct strength: heuristic > heuristic-70 > heuristic-35 > random.
"""

from __future__ import annotations

import io
import tarfile

from skyarena.games import house_bots
from workers.store.database import Conn
from workers.store.versions import add_active_version, newest_live_version

ACCOUNT = "house"
MIXED = {"heuristic-70": 0.70, "heuristic-35": 0.35}  # mixed house bot -> the share of heuristic moves


def all_house_bots(game: str) -> list[str]:
    """The SDK's house bots of ``game`` and, where it has a heuristic, the mixed ones."""
    names = sorted(house_bots(game))
    return names + sorted(MIXED) if "heuristic" in names else names


def house_source(game: str, bot: str) -> bytes:
    """The ``bot.py`` of the house bot ``bot`` of ``game``: a subclass of the SDK's (a mixed one also
    overrides ``act``), nothing more."""
    if bot not in all_house_bots(game):
        raise ValueError(f"{game} has no house bot {bot!r}: choose one of {', '.join(all_house_bots(game))}")
    base = "heuristic" if bot in MIXED else bot
    source = (f'"""The house {bot} bot of {game}, as a hosted version."""\n\n'
              "from skyarena.games import house_bots\n\n\n"
              f"class House(house_bots({game!r})[{base!r}]):\n"
              f"    name = {bot!r}\n")
    if bot in MIXED:
        source += (f"    heuristic_share = {MIXED[bot]!r}\n\n"
                   "    def act(self, observation, legal_actions):\n"
                   "        if self.random.random() < self.heuristic_share:\n"
                   "            return super().act(observation, legal_actions)\n"
                   "        return self.random.randrange(len(legal_actions))\n")
    return source.encode()


def house_archive(game: str, bot: str) -> bytes:
    """A tar with a ``bot.py`` playing the house bot ``bot`` of ``game``."""
    source = house_source(game, bot)
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        info = tarfile.TarInfo("bot.py")
        info.size = len(source)
        info.mtime = 0  # the same bytes every time: one blob, one content hash
        archive.addfile(info, io.BytesIO(source))
    return buffer.getvalue()


def register_house_versions(conn: Conn, game: str, bot: str, count: int) -> list[int]:
    """``count`` active versions of the house bot (separate bots ``BOT-1``..., one shared archive)."""
    archive = house_archive(game, bot)
    manifest = {"game": game, "entry": "bot.py", "name": bot}
    return [add_active_version(conn, ACCOUNT, f"{game}-{bot}-{i}", game, archive, manifest)
            for i in range(1, count + 1)]


def house_bot_name(game: str, bot: str) -> str:
    """The house account's bot that plays ``bot`` in ``game`` (the demo submits its folders under it too)."""
    return f"{game}-{bot}"


def house_version(conn: Conn, game: str, bot: str) -> int:
    """An active version of the house bot ``bot``: the newest there is, else a new one (a league's boss)."""
    name = house_bot_name(game, bot)
    existing = newest_live_version(conn, ACCOUNT, name)
    if existing is not None:
        return existing
    return add_active_version(conn, ACCOUNT, name, game, house_archive(game, bot),
                              {"game": game, "entry": "bot.py", "name": name})
