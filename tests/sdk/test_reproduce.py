"""``skyarena reproduce`` and participants' replays, on recorded local matches of every game.

The platform's own matches are reproduced in ``tests/workers/test_reproduce_on_platform.py``;
here the record comes from the local runner (the same match runner and records as the
referee's), so every game and player count is cheap to cover, and the command line is run as
an author runs it (a subprocess for pdb, which reads a real stdin)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from referee.games import GAMES, ReplayError
from referee.games.core import replay as replay_io
from referee.match.participant import verify_participant_replay
from skyarena.arena.pack import pack_folder
from skyarena.bot_folder import open_bot
from skyarena.cli import main
from skyarena.fork import fork, fork_state
from skyarena.games import house_bots
from skyarena.reproduce import reproduce

from .reproducible import local_participant_replay, write_bot

COUNTS = sorted({(game, n) for game, s in GAMES.items() for n in (s.min_players, s.max_players)})


def _cli(*args: str) -> Any:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def _saved(tmp_path: Path, records: list[dict[str, Any]], name: str = "mine.jsonl") -> Path:
    path = tmp_path / name
    replay_io.write(path, records)
    return path


@pytest.mark.parametrize(("game", "players"), COUNTS)
def test_every_decision_of_every_game_and_player_count_reproduces(tmp_path: Path, game: str, players: int) -> None:
    folder = write_bot(tmp_path / "bot", game)
    for seat in sorted({0, players - 1}):
        records = local_participant_replay(folder, game, players, seed=7 + seat, seat=seat)
        _, count = verify_participant_replay(records)
        with open_bot(folder, game) as bot:
            report = reproduce(records, bot.make)
        assert count > 0 and report.total == count
        assert report.summary() == f"all {count} decisions identical", report.to_json()


def _seat_moving_at(records_of: Any, turn: int, players: int) -> tuple[int, list[dict[str, Any]], int]:
    """A seat that decides turn ``turn`` among several legal actions (in the first seed whose match has
    one: a random Sky Team crew may crash before); its records and that decision's number."""
    for seed in range(3, 30):
        for seat in range(players):
            records = records_of(seed, seat)
            mine = [r for r in records if r["type"] == "decision"]
            for number, decision in enumerate(mine, 1):
                if decision["turn"] == turn and len(decision["legal"]) > 1:
                    return seat, records, number
    raise AssertionError(f"no seat decides turn {turn} with a choice")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_bot_edited_to_differ_from_turn_10_is_reported_at_turn_10(tmp_path: Path, game: str) -> None:
    folder = write_bot(tmp_path / "bot", game)
    players = GAMES[game].min_players
    seat, records, number = _seat_moving_at(
        lambda seed, s: local_participant_replay(folder, game, players, seed=seed, seat=s), 10, players)
    edited = write_bot(tmp_path / "edited", game, differ_from=number)
    with open_bot(edited, game) as bot:
        report = reproduce(records, bot.make)
    assert report.difference is not None and report.difference.turn == 10, report.to_json()
    assert report.compared == number - 1
    recorded = next(r for r in records if r["type"] == "decision" and r["turn"] == 10)
    assert report.difference.platform == repr(recorded["answer"]) != report.difference.here
    assert json.loads(json.dumps(report.difference.observation)) == recorded["observation"]


def test_the_command_line_verifies_reproduces_stops_and_refuses_in_one_line(tmp_path: Path) -> None:
    folder = write_bot(tmp_path / "bot", "skybirds")
    records = local_participant_replay(folder, "skybirds", 2, seed=5, seat=1)
    path = _saved(tmp_path, records)
    count = sum(1 for r in records if r["type"] == "decision")
    verified = _cli("replay", str(path), "--verify")
    assert verified.exit_code == 0 and f"the seat's {count} decisions" in verified.output, verified.output
    again = _cli("reproduce", str(path), str(folder))
    assert again.exit_code == 0 and f"all {count} decisions identical" in again.output, again.output
    archive = tmp_path / "v1.tar.gz"
    archive.write_bytes(pack_folder(folder))
    packed = _cli("reproduce", str(path), str(archive))  # the version's archive, as submitted
    assert packed.exit_code == 0 and f"all {count} decisions identical" in packed.output, packed.output
    turn = next(r["turn"] for r in records if r["type"] == "decision" and r["turn"] >= 12)
    stopped = _cli("reproduce", str(path), str(folder), "--at", "12")
    assert stopped.exit_code == 0 and f"stopped at turn {turn}" in stopped.output, stopped.output
    assert "observation:" in stopped.output and "legal actions (" in stopped.output
    moves = sum(1 for r in records if r["type"] == "move")

    def refused(*args: str) -> str:
        result = _cli("reproduce", *args)
        assert result.exit_code == 2 and len(result.output.strip().splitlines()) == 1, result.output
        return result.output

    assert f"has turns 1..{moves}" in refused(str(path), str(folder), "--at", str(moves + 1))
    assert f"has turns 1..{moves}" in refused(str(path), str(folder), "--fork-at", str(moves + 5))
    other = write_bot(tmp_path / "other", "sky-team")
    assert "is a sky-team bot" in refused(str(path), str(other))
    assert "seat 1's participant's replay, not seat 0's" in refused(str(path), str(folder), "--seat", "0")
    old = [dict(r, version="0.0.1") if r["type"] == "header" else r for r in records]
    assert "engine version 0.0.1" in refused(str(_saved(tmp_path, old, "old.jsonl")), str(folder))
    unseeded = [dict(r, bot_seed=None) if r["type"] == "participant" else r for r in records]
    assert "bot seed was not kept" in refused(str(_saved(tmp_path, unseeded, "unseeded.jsonl")), str(folder))
    edited = [dict(r, observation={"cheat": 1}) if r["type"] == "decision" else r for r in records]
    bad = _cli("replay", str(_saved(tmp_path, edited, "edited.jsonl")), "--verify")
    assert bad.exit_code == 2 and "observation differs" in bad.output and len(bad.output.strip().splitlines()) > 0


def test_debug_opens_pdb_inside_act_at_that_decision(tmp_path: Path) -> None:
    folder = write_bot(tmp_path / "bot", "sky-team")
    records = local_participant_replay(folder, "sky-team", 2, seed=2, seat=0)
    path = _saved(tmp_path, records)
    mine = [r for r in records if r["type"] == "decision"]
    before, turn = next((i, r) for i, r in enumerate(mine) if r["turn"] >= 5)
    run = subprocess.run([sys.executable, "-m", "skyarena.cli", "reproduce", str(path), str(folder), "--at", "5",
                          "--debug"], input="p len(legal_actions), self.decisions\nc\n", capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert "bot.py(13)act()\n-> self.decisions += 1\n(Pdb)" in run.stdout, run.stdout  # act's first line
    assert f"(Pdb) ({len(turn['legal'])}, {before})" in run.stdout  # this decision's arguments, before it counted it
    assert f"stopped at turn {turn['turn']}" in run.stdout


def test_a_fork_recreates_the_recorded_state_and_plays_on(tmp_path: Path) -> None:
    folder = write_bot(tmp_path / "bot", "skyjo-action")
    records = local_participant_replay(folder, "skyjo-action", 3, seed=9, seat=1)
    end = next(r for r in records if r["type"] == "end")
    state, final = fork_state(records, 20)
    assert final == end["hash"] and state.decisions == 19  # the recorded moves from the fork reach the recorded end
    heuristic = house_bots("skyjo-action")["heuristic"]
    with open_bot(folder, "skyjo-action") as bot:
        report = fork(records, 20, bot.make, {0: heuristic, 2: heuristic}, games=3, seed=4)
    assert report.final_hash == end["hash"] and len(report.games) == 3
    assert "the recorded match ended with seat 1" in report.summary()
    cli = _cli("reproduce", str(_saved(tmp_path, records)), str(folder), "--fork-at", "20", "--games", "2",
               "--opponents", "random", "--opponents", f"2={folder}")
    assert cli.exit_code == 0 and f"reach the recorded final hash {end['hash']}" in cli.output, cli.output
    tampered = [r for r in records if not (r["type"] == "move" and r["n"] == 31)]
    with pytest.raises(ReplayError):
        fork_state(tampered, 20)
