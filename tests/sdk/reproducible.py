"""A bot whose play hangs on ``self.random`` only, and matches of it recorded as participants' replays.

The bot answers in all three ways a bot may (an index, the action object, its notation), so a
re-run checks the referee's and the SDK's resolution of each; ``DIFFER_FROM`` makes an edited
version that answers otherwise from its N-th decision on.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from referee.match.participant import participant_records
from skyarena.bot_folder import open_bot
from skyarena.local import match_infos, play_match

SEEDED_BOT = '''from skyarena import Bot

DIFFER_FROM = {differ_from}  # 0: never; else the bot's own decision number from which it answers otherwise


class Seeded(Bot):
    name = "seeded"

    def on_match_start(self, info):
        self.decisions = 0

    def act(self, observation, legal_actions):
        self.decisions += 1
        i = self.random.randrange(len(legal_actions))
        if DIFFER_FROM and self.decisions >= DIFFER_FROM and len(legal_actions) > 1:
            i = (i + 1) % len(legal_actions)
        how = self.random.random()
        if how < 1 / 3:
            return i
        if how < 2 / 3:
            return legal_actions[i]
        return str(legal_actions[i])
'''


def write_bot(folder: Path, game: str, differ_from: int = 0) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "bot.py").write_text(SEEDED_BOT.format(differ_from=differ_from), encoding="utf-8")
    (folder / "skyarena.toml").write_text(f'game = "{game}"\nentry = "bot.py"\nname = "seeded"\n', encoding="utf-8")
    return folder


def local_participant_replay(folder: Path, game: str, players: int, seed: int, seat: int,
                             match_id: str = "local-1") -> list[dict[str, Any]]:
    """A local match of the bot in every seat, as seat ``seat``'s participant's replay."""
    with open_bot(folder, game) as bot:
        record = play_match(game, [bot.make() for _ in range(players)], seed=seed, match_id=match_id)
    from referee.games import make

    seed_of_seat = match_infos(make(game, players, seed, {}), match_id)[seat].bot_seed
    return participant_records(record.replay_records(), seat, match_id=match_id, bot_seed=seed_of_seat,
                               bot={"version_id": 1, "bot": "seeded", "version": 1})
