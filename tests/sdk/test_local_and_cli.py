"""Local play, bot loading and the command line, end to end (real subprocesses for the CLI)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from referee.match import TimeControl
from skyarena import Bot
from skyarena.cli import main
from skyarena.loader import BotLoadError, load_bot
from skyarena.local import play_match, play_series


class KeepBot(Bot):
    def act(self, observation: Any, legal_actions: Any) -> Any:
        return "keep"


class SlowBot(Bot):
    def act(self, observation: Any, legal_actions: Any) -> Any:
        time.sleep(0.03)
        return "reroll"


class CrashBot(Bot):
    def act(self, observation: Any, legal_actions: Any) -> Any:
        raise ValueError("my bug")


def test_play_match_records_faults_and_forfeit(toy_game: str) -> None:
    record = play_match(toy_game, [KeepBot(), CrashBot()], seed=3, options={"rounds": 5}, strike_limit=2)
    assert record.forfeited == [1]
    assert [f.kind.value for f in record.faults] == ["exception", "exception"]
    assert "ValueError: my bug" in record.faults[0].reason
    assert record.result.ranks[1] == 1 and record.result.ranks[0] == 0


def test_slow_bot_gets_fallback_and_strike(toy_game: str) -> None:
    control = TimeControl(move_s=0.005, bank_s=0.0, first_move_s=0.005)
    record = play_match(toy_game, [KeepBot(), SlowBot()], seed=3, time_control=control, strike_limit=99)
    assert {f.kind.value for f in record.faults} == {"timeout"}
    assert all(f.seat == 1 for f in record.faults)
    moves = [r for r in record.replay if r["type"] == "move"]
    assert all(m["actions"]["1"] == "keep" for m in moves)  # the fallback replaced every late answer


def test_series_rotates_seats_and_counts(toy_game: str) -> None:
    report = play_series(toy_game, [("keep", KeepBot), ("crash", CrashBot)], games=4, seed=10, strike_limit=1,
                         keep_records=True)
    keep, crash = report.standings
    assert keep.games == crash.games == 4
    assert keep.wins == 4 and crash.wins == 0 and crash.faults == 4
    seats_of_crash = [r.forfeited[0] for r in report.records]
    assert seats_of_crash == [1, 0, 1, 0]


def _write(tmp_path: Path, name: str, body: str) -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(body))
    return path


def test_loader_errors_say_what_to_do(tmp_path: Path, toy_game: str) -> None:
    with pytest.raises(BotLoadError, match="neither a house bot"):
        load_bot("nobody", toy_game)
    with pytest.raises(BotLoadError, match="no bot file at"):
        load_bot(str(tmp_path / "missing.py"), toy_game)
    broken = _write(tmp_path, "broken.py", "def act(:\n")
    with pytest.raises(BotLoadError, match="line 1: syntax error"):
        load_bot(str(broken), toy_game)
    plain = _write(tmp_path, "plain.py", "x = 1\n")
    with pytest.raises(BotLoadError, match="defines no subclass of skyarena.Bot"):
        load_bot(str(plain), toy_game)
    two = _write(tmp_path, "two.py", """
        from skyarena import Bot
        class A(Bot):
            def act(self, o, l): return 0
        class B(Bot):
            def act(self, o, l): return 1
    """)
    with pytest.raises(BotLoadError, match="several Bot subclasses"):
        load_bot(str(two), toy_game)
    assert load_bot(f"{two}:B", toy_game)[1].__name__ == "B"
    name, cls = load_bot("random", toy_game)
    assert name == "random"


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "skyarena.cli", *args], capture_output=True, text=True, timeout=300)


def test_cli_rejects_bad_input_with_clear_messages(tmp_path: Path) -> None:
    unknown = run_cli("play", "chess", "random", "random")
    assert unknown.returncode == 2 and "unknown game 'chess'" in unknown.stderr and "sky-team" in unknown.stderr
    count = run_cli("play", "sky-team", "random")
    assert count.returncode == 2 and "played by 2 players, not 1" in count.stderr
    option = run_cli("play", "sky-team", "random", "random", "-o", "nonsense=1")
    assert option.returncode == 2 and "unknown option 'nonsense'" in option.stderr
    nobot = run_cli("play", "sky-team", str(_write(tmp_path, "x.py", "y = 2\n")), "random")
    assert nobot.returncode == 2 and "defines no subclass of skyarena.Bot" in nobot.stderr
    syntax = run_cli("play", "sky-team", str(_write(tmp_path, "s.py", "class (:\n")), "random")
    assert syntax.returncode == 2 and "syntax error" in syntax.stderr


def test_cli_play_json_new_and_replay(tmp_path: Path) -> None:
    new = run_cli("new", "sky-team", str(tmp_path / "mybot"))
    assert new.returncode == 0, new.stderr
    bot = tmp_path / "mybot" / "bot.py"
    assert bot.exists()
    replays = tmp_path / "replays"
    played = run_cli("play", "sky-team", str(bot), "heuristic", "--games", "3", "--seed", "5", "--json",
                     "--replay-dir", str(replays))
    assert played.returncode == 0, played.stderr
    data = json.loads(played.stdout)
    assert data["game"] == "sky-team" and data["players"] == 2 and data["games"] == 3 and data["seed"] == 5
    assert [b["name"] for b in data["bots"]] == ["mybot", "heuristic"]  # the manifest's name, as on the ladders
    assert set(data["bots"][0]) == {"name", "wins", "mean_rank", "mean_score", "faults"}
    files = sorted(replays.glob("*.jsonl"))
    assert len(files) == 3
    shown = run_cli("replay", str(files[0]), "--verify")
    assert shown.returncode == 0, shown.stderr
    assert "turn    1" in shown.stdout and "verified:" in shown.stdout
    files[0].write_text(files[0].read_text().replace('"n":1,', '"n":1,"x":0,', 1)[:-40])
    bad = run_cli("replay", str(files[0]), "--verify")
    assert bad.returncode == 2


def test_cli_games_lists_every_game_as_json() -> None:
    result = CliRunner().invoke(main, ["games", "--json"])
    assert result.exit_code == 0
    games = {g["name"]: g for g in json.loads(result.output)}
    assert "sky-team" in games and games["sky-team"]["players"] == [2]
    assert any(o["name"] == "setup" for o in games["sky-team"]["options"])


def test_demo_prints_standings_for_every_game() -> None:
    result = CliRunner().invoke(main, ["demo", "--local", "--games", "2"])
    assert result.exit_code == 0, result.output
    for game in ("sky-team", "skyjo-action", "skybirds", "oddball-aeronauts", "fly-away"):
        assert f"{game}: 2 matches" in result.output
    assert "heuristic (team)" in result.output and "random (team)" in result.output


class _Scribbler(Bot):
    """Plays like RandomBot with its seed, then writes over everything it was handed."""

    def __init__(self, scribble: bool) -> None:
        self.scribble = scribble

    def act(self, observation: Any, legal_actions: Any) -> Any:
        choice = self.random.randrange(len(legal_actions))
        if self.scribble:
            _scribble(observation.raw)
            for value in vars(observation).values():
                _scribble(value)
            legal_actions.clear()
        return choice


def _scribble(value: Any) -> None:
    if isinstance(value, dict):
        for item in list(value.values()):
            _scribble(item)
        value["scribbled"] = True
    elif isinstance(value, list):
        for item in value:
            _scribble(item)
        value.append("scribbled")


@pytest.mark.parametrize("game", ["sky-team", "skyjo-action", "skybirds", "oddball-aeronauts", "fly-away"])
def test_a_bot_writing_into_what_it_is_handed_cannot_change_the_game(game: str) -> None:
    """Local play hands bots the engine's views in-process: a bot that mutates them must
    play exactly the game it would have played without doing so."""
    from referee.games import GAMES
    from skyarena.local import play_unclocked

    players = GAMES[game].min_players
    clean = play_match(game, [_Scribbler(False) for _ in range(players)], seed=3)
    messy = play_match(game, [_Scribbler(True) for _ in range(players)], seed=3)
    assert messy.replay == clean.replay and not messy.faults
    assert play_unclocked(game, [_Scribbler(True) for _ in range(players)], seed=4).state_hash() == \
        play_unclocked(game, [_Scribbler(False) for _ in range(players)], seed=4).state_hash()
