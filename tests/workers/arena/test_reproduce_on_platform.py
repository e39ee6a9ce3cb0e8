"""Reproduction is exact on the platform's own matches (issue 24, "Measured"): for each of the five
games a bot that uses ``self.random`` plays 20 rated matches through ``play_match`` (a referee
process, the bot hosted in the sandbox, the result stored: the Arena tests' ``player``), and
re-running it on every seat's participant's replay, as the Arena hands it to the seat's owner,
finds every decision identical. A copy edited to answer otherwise from the decision of turn 10
is reported at turn 10, and a fork of a Skyjo Action match at turn 10 reaches the recorded state."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from referee.games import GAMES
from referee.games.core import replay as replay_io
from referee.match.participant import verify_participant_replay
from skyarena.arena.pack import pack_folder
from skyarena.bot_folder import open_bot
from skyarena.fork import fork
from skyarena.reproduce import reproduce
from workers.arena.participant_replay import stored_seat_jsonl
from workers.play import MatchPlayer, play_match
from workers.store import Database, matches
from workers.store.versions import add_active_version

from ...sdk.reproducible import write_bot
from ..league import league, schedule

MATCHES = 20
FAST = {"move_s": 2.0, "bank_s": 10.0, "first_move_s": 10.0}


def _participant_records(db: Database, match_id: str, seat: int) -> list[dict[str, object]]:
    """Seat ``seat``'s participant's replay as `GetParticipantReplay` builds it from the store."""
    with db.connection() as conn:
        text = stored_seat_jsonl(conn, match_id, matches.match_participants(conn, match_id)[seat])
    assert text is not None
    return replay_io.loads(text)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_twenty_platform_matches_of_each_game_reproduce_decision_for_decision(
        db: Database, player: MatchPlayer, tmp_path: Path, game: str) -> None:
    players = GAMES[game].min_players
    folder = write_bot(tmp_path / "seeded", game)
    season, _ = league(db, f"repro-{game}", game, (players,), versions=0, **FAST)
    manifest = {"game": game, "entry": "bot.py", "name": "seeded"}
    with db.connection() as conn:
        versions = [add_active_version(conn, "ada", f"seeded-{i}", game, pack_folder(folder), manifest)
                    for i in range(players)]
    rotations = [versions[i:] + versions[:i] for i in range(players)]
    match_ids = schedule(db, season.ladders[players], list(itertools.islice(itertools.cycle(rotations), MATCHES)))
    for match_id in match_ids:
        result = play_match(player, match_id)
        assert (result.status, result.detail) == ("finished", "applied"), result
    checked = 0
    for match_id in match_ids:
        for seat in range(players):
            records = _participant_records(db, match_id, seat)
            _, count = verify_participant_replay(records)
            with open_bot(folder, game) as bot:
                report = reproduce(records, bot.make)
            assert report.summary() == f"all {count} decisions identical", (match_id, seat, report.to_json())
            checked += count
    assert checked > MATCHES * players

    for match_id, seat in itertools.product(match_ids, range(players)):  # a seat that decides turn 10 with a choice
        records = _participant_records(db, match_id, seat)
        mine = [r for r in records if r["type"] == "decision"]
        number = next((i for i, d in enumerate(mine, 1) if d["turn"] == 10 and len(d["legal"]) > 1), None)
        if number is not None:
            break
    assert number is not None
    edited = write_bot(tmp_path / "edited", game, differ_from=number)
    with open_bot(edited, game) as bot:
        report = reproduce(records, bot.make)
    assert report.difference is not None and report.difference.turn == 10 and report.compared == number - 1
    if game == "skyjo-action":  # a fork of a platform-recorded match re-creates the recorded state and plays on
        end = next(r for r in records if r["type"] == "end")
        with open_bot(folder, game) as bot:
            forked = fork(records, 10, bot.make, {s: bot.make for s in range(players) if s != seat}, games=2)
        assert forked.final_hash == end["hash"] and len(forked.games) == 2
