"""The bot author's first hour (issue 18), each step as the author meets it: through the
``skyarena`` command (a real subprocess, or click's runner in process) or ``help()``."""

from __future__ import annotations

import json
import os
import pydoc
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.games import SkyarenaError, make
from referee.match import TimeControl
from skyarena.cli import main
from skyarena.games import game_module
from skyarena.observation import field_docs, nested_types
from tests.referee.conftest import SERVICE_TOKEN, Referee

ROOT = Path(__file__).resolve().parents[2]
SKYARENA = str(Path(sys.executable).parent / "skyarena")   # the console script pip installs
GAME_NAMES = ["sky-team", "skyjo-action", "skybirds", "oddball-aeronauts", "fly-away"]


def skyarena(*args: str, cwd: Path | None = None, timeout: float = 120,
             **env: str) -> subprocess.CompletedProcess[str]:
    """The ``skyarena`` command as the author runs it, in a fresh process."""
    return subprocess.run([SKYARENA, *args], capture_output=True, text=True,
                          timeout=timeout, cwd=cwd, env={**os.environ, **env})


def write(folder: Path, name: str, body: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(textwrap.dedent(body))
    return path


# ----- learning a game ------------------------------------------------------------------------

@pytest.mark.parametrize("game", GAME_NAMES)
def test_help_shows_every_field_meaning_of_the_observation_and_its_nested_types(game: str) -> None:
    module = game_module(game)
    assert module is not None
    todo, seen = [module.Observation], []
    while todo:
        cls = todo.pop()
        if cls in seen:
            continue
        seen.append(cls)
        shown = pydoc.render_doc(cls, renderer=pydoc.plaintext)
        docs = field_docs(cls)
        for name in cls.__annotations__:
            if name == "raw":
                continue
            assert name in docs, f"{cls.__name__}.{name} has no docstring"
            first_words = " ".join(docs[name].split()[:6])
            assert first_words in " ".join(shown.split()), f"help({cls.__name__}) does not show {name}'s meaning"
        todo.extend(nested_types(cls))
    assert len(seen) > 1  # every game's observation holds nested types


def test_help_shows_the_pending_payload_of_skyjo_decisions() -> None:
    import skyarena.games.skyjo_action as g

    shown = " ".join(pydoc.render_doc(g.Observation, renderer=pydoc.plaintext).split())
    assert "pending : dict[str, Any]" in shown
    for kind in ("turn", "drawn", "star", "lines", "pick", "meteor", "defend"):  # each kind's payload
        assert f"``{kind}``" in shown.split("pending : ")[1].split("areas : ")[0]


def test_docs_prints_a_reference_with_fields_decisions_actions_and_notation() -> None:
    result = CliRunner().invoke(main, ["docs", "sky-team"])
    assert result.exit_code == 0, result.output
    text = result.output
    assert "# Sky Team (`sky-team`)" in text and "co-operative" in text
    assert "my_dice : tuple[int, ...]" in text and "Your unplaced dice, ascending" in text   # a field's meaning
    assert "### `Board`" in text and "Landing gear switch 1" in text                       # a nested type
    assert "`Place(value, coffee, space)`" in text and "### `reroll`" in text               # actions, decisions
    assert "## Action notation" in text and "`brake_timing`" in text                         # notation, options
    unknown = CliRunner().invoke(main, ["docs", "chess"])
    assert unknown.exit_code == 2 and "unknown game 'chess'" in unknown.output


def test_docs_shows_each_decision_kinds_payload() -> None:
    text = CliRunner().invoke(main, ["docs", "skyjo-action"]).output
    assert "### `drawn`" in text and '`pending` e.g. `{"card":' in text


def test_docs_work_from_the_built_wheel_without_the_repository(tmp_path: Path) -> None:
    """A pip user has the reference: build the wheel, unpack it, run `skyarena docs` from it."""
    source = tmp_path / "src"
    source.mkdir()
    for part in ("pyproject.toml", "README.md"):
        (source / part).write_bytes((ROOT / part).read_bytes())
    for package in ("sdk", "referee"):
        subprocess.run(["cp", "-r", str(ROOT / package), str(source / package)], check=True)
    wheels = tmp_path / "wheels"
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                            "-w", str(wheels), str(source)], capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stderr
    (wheel,) = wheels.glob("skyarena-*.whl")
    site = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "zipfile", "-e", str(wheel), str(site)], check=True)
    assert (site / "referee/games/sky_team/README.md").is_file()
    # The unpacked wheel comes first on the path, ahead of the checkout's editable install.
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import skyarena; "
            "assert skyarena.__file__.startswith(sys.argv[1]), skyarena.__file__; "
            "from skyarena.cli import main; main(['docs', 'fly-away'])")
    shown = subprocess.run([sys.executable, "-c", code, str(site)], capture_output=True, text=True,
                           cwd=tmp_path, timeout=120)
    assert shown.returncode == 0, shown.stderr
    assert "## Action notation" in shown.stdout and "### `SeatView`" in shown.stdout
    # No path the pip user lacks is given as theirs: the rulebook is said to be in the source only.
    assert "Rules: docs/rules/" not in shown.stdout and "not in a pip install" in shown.stdout


def test_cooperative_standings_show_the_team_reasons_and_rank_convention() -> None:
    coop = CliRunner().invoke(main, ["play", "sky-team", "heuristic", "heuristic", "--games", "4"])
    assert coop.exit_code == 0, coop.output
    assert "co-operative: the team wins or loses together" in coop.output and "heuristic (team)" in coop.output
    assert "ended by: " in coop.output and "mean rank" not in coop.output
    versus = CliRunner().invoke(main, ["play", "skybirds", "heuristic", "random", "--games", "2"])
    assert versus.exit_code == 0, versus.output
    assert "rank 1 = first" in versus.output and "ended by: " in versus.output


def test_play_json_carries_reasons_and_each_matchs_faults(tmp_path: Path) -> None:
    crash = write(tmp_path, "crash.py", """
        from skyarena import Bot
        class Crash(Bot):
            def act(self, observation, legal_actions):
                print("thinking...")  # a bot's prints go to the console, never into the JSON
                raise KeyError("card")
    """)
    done = skyarena("play", "sky-team", str(crash), "heuristic", "--games", "2", "--json", "--strikes", "1")
    assert done.returncode == 0, done.stderr
    assert "thinking..." in done.stderr
    data = json.loads(done.stdout)
    assert data["cooperative"] is True and data["reasons"] == {"forfeit": 2} and data["team"]["wins"] == 0
    assert [m["seats"] for m in data["matches"]] == [["crash", "heuristic"], ["heuristic", "crash"]]
    assert all(m["faults"][0]["kind"] == "exception" and m["reason"] == "forfeit" for m in data["matches"])
    assert "0 = first" in data["ranks"]


def test_new_games_and_setup_messages(tmp_path: Path) -> None:
    new = CliRunner().invoke(main, ["new", "sky-team", str(tmp_path / "mybot")])
    assert new.exit_code == 0
    suggested = new.output.split("skyarena play ")[1].split()[-1]
    assert f"--games {suggested}" in (tmp_path / "mybot/bot.py").read_text()
    games = CliRunner().invoke(main, ["games"])
    assert games.exit_code == 0
    assert "2-2" not in games.output and "2 co-op" in games.output and "2–5" in games.output
    assert "None" not in games.output and "False" not in games.output and "setup=null" in games.output
    bad = CliRunner().invoke(main, ["play", "sky-team", "random", "random", "-o", "setup={dice: 1}"])
    assert bad.exit_code == 2 and "is not JSON (Expecting property name" in bad.output and "got str" not in bad.output


# ----- clocks locally as on the platform -------------------------------------------------------

def test_a_bot_stuck_in_a_loop_is_cut_off_and_forfeits(tmp_path: Path) -> None:
    loop = write(tmp_path, "loop.py", """
        from skyarena import Bot
        class Loop(Bot):
            def act(self, observation, legal_actions):
                while True:
                    pass
    """)
    done = skyarena("play", "sky-team", str(loop), "heuristic", "--games", "2", "--json", "--move-time", "0.1",
                    "--bank", "0.1", "--first-move", "0.2")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["reasons"] == {"forfeit": 2}
    for match in data["matches"]:
        mine = [f for f in match["faults"] if f["seat"] == match["seats"].index("loop")]
        assert [f["kind"] for f in mine] == ["timeout"] * 3 and mine[-1]["forfeit"]


def test_a_sleeping_bots_match_ends_at_the_strike_limit_not_after_every_sleep(tmp_path: Path) -> None:
    sleepy = write(tmp_path, "sleepy.py", """
        import time
        from skyarena import Bot
        class Sleepy(Bot):
            def act(self, observation, legal_actions):
                time.sleep(600)
                return 0
    """)
    started = time.monotonic()
    done = skyarena("play", "sky-team", str(sleepy), "random", "--json", "--move-time", "0.1", "--bank", "0",
                    "--first-move", "0.1", "--strikes", "2", timeout=60)
    assert done.returncode == 0, done.stderr
    assert time.monotonic() - started < 60  # one sleep alone is 600 s
    match = json.loads(done.stdout)["matches"][0]
    mine = [f for f in match["faults"] if f["seat"] == match["seats"].index("sleepy")]
    assert [f["kind"] for f in mine] == ["timeout", "timeout"] and match["reason"] == "forfeit"


def test_one_set_of_clock_defaults_and_play_has_first_move(tmp_path: Path) -> None:
    defaults = TimeControl()
    for command in ("play", "match", "start"):
        shown = " ".join(CliRunner().invoke(main, [command, "--help"], terminal_width=200).output.split())
        assert f"--move-time FLOAT RANGE Seconds per move. [default: {defaults.move_s}" in shown
        assert f"[default: {defaults.bank_s}" in shown and f"[default: {defaults.first_move_s}" in shown
    slow_start = write(tmp_path, "slow_start.py", """
        import time
        from skyarena import Bot
        class SlowStart(Bot):
            moves = 0
            def act(self, observation, legal_actions):
                self.moves += 1
                if self.moves == 1:  # CPU time: local play charges it, as the platform does (issue 23)
                    start = time.process_time()
                    while time.process_time() - start < 1.5:
                        pass
                return 0
    """)
    # Seat 0 (the Pilot) places first: turn 1 is the bot's first move, 1.5 s of CPU.
    common = ("play", "sky-team", str(slow_start), "random", "--json", "--move-time", "1", "--bank", "0")
    generous = json.loads(skyarena(*common, "--first-move", "30").stdout)
    strict = json.loads(skyarena(*common, "--first-move", "1").stdout)
    assert not [f for f in generous["matches"][0]["faults"] if f["turn"] == 1]
    assert [f["kind"] for f in strict["matches"][0]["faults"] if f["turn"] == 1] == ["timeout"]


# ----- bot errors --------------------------------------------------------------------------------

def test_a_bot_exception_shows_the_bots_own_traceback(tmp_path: Path) -> None:
    bot = write(tmp_path / "mybot", "bot.py", """
        import json
        from skyarena import Bot

        def read(text):
            return json.loads(text)

        class Parser(Bot):
            def act(self, observation, legal_actions):
                return read("{")
    """)
    done = skyarena("play", "sky-team", str(bot), "random", "--strikes", "1")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "act() raised JSONDecodeError" in out and "(bot.py, line 6, in read)" in " ".join(out.split())
    assert f'File "{bot}", line 10, in act' in out and "json/decoder.py" not in out and "seats.py" not in out
    full = skyarena("play", "sky-team", str(bot), "random", "--strikes", "1", "--traceback")
    assert "json/decoder.py" in full.stdout and "seats.py" not in full.stdout
    record = json.loads(skyarena("play", "sky-team", str(bot), "random", "--strikes", "1", "--json").stdout)
    assert f'File "{bot}", line 6, in read' in record["matches"][0]["faults"][0]["reason"]


@pytest.mark.parametrize(("body", "expected"), [
    ("def __init__(self):\n        super().__init__()\n        self.table = {}['x']", "line 7, in __init__"),
    ("def __init__(self, depth):\n        super().__init__()", "needs depth"),
])
def test_a_bot_whose_init_fails_gets_one_line(tmp_path: Path, body: str, expected: str) -> None:
    bot = write(tmp_path, "init.py", f"""
from skyarena import Bot

class Fussy(Bot):
    {body}

    def act(self, observation, legal_actions):
        return 0
""")
    done = skyarena("play", "sky-team", str(bot), "random")
    assert done.returncode == 2
    assert expected in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) <= 3  # one message (rich may wrap it)


def test_a_bot_is_a_folder_its_modules_import_and_its_data_files_open(tmp_path: Path) -> None:
    folder = tmp_path / "mybot"
    write(folder, "helpers.py", "def pick(legal):\n    return len(legal) - 1\n")
    write(folder, "weights.json", '{"first": 0}\n')
    write(folder, "bot.py", """
        import json
        from helpers import pick
        from skyarena import Bot

        class Folder(Bot):
            def on_match_start(self, info):
                with open("weights.json") as f:
                    self.first = json.load(f)["first"]
            def act(self, observation, legal_actions):
                return pick(legal_actions) if self.first == 0 else 0
    """)
    # Another bot with its own helpers.py in the same match: each bot imports its own.
    write(tmp_path / "other", "helpers.py", "def pick(legal):\n    raise RuntimeError('wrong helpers')\n")
    write(tmp_path / "other", "bot.py", """
        from helpers import pick
        from skyarena import Bot
        class Other(Bot):
            def act(self, observation, legal_actions):
                return 0
    """)
    done = skyarena("play", "sky-team", "mybot", "other", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["matches"][0]["faults"] == []


# ----- the remote path ----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def referee() -> Iterator[Referee]:
    ref = Referee()
    try:
        yield ref
    finally:
        ref.close()


def test_start_run_watch_and_fetch_replay(referee: Referee, tmp_path: Path) -> None:
    env = {"SKYARENA_SERVICE_TOKEN": SERVICE_TOKEN, "SKYARENA_REFEREE": referee.address}
    started = CliRunner().invoke(main, ["start", "sky-team", "--players", "2", "--seed", "4", "--name", "me",
                                        "--name", "house", "--json"], env=env)
    assert started.exit_code == 0, started.output
    match = json.loads(started.output)
    assert [s["seat"] for s in match["seats"]] == [0, 1] and all(s["token"] for s in match["seats"])
    watcher = subprocess.Popen([SKYARENA, "watch", match["match_id"], "--from-start",
                                "--json"], env={**os.environ, **env}, stdout=subprocess.PIPE, text=True)
    seats = [subprocess.Popen([SKYARENA, "run", "heuristic", "--game", "sky-team",
                               "--token", seat["token"]], env={**os.environ, "SKYARENA_REFEREE": referee.address},
                              stderr=subprocess.PIPE, text=True) for seat in match["seats"]]
    for seat in seats:
        seat.wait(60)
        assert seat.returncode == 0
    out, _ = watcher.communicate(timeout=60)
    events = [json.loads(line) for line in out.splitlines()]
    assert events[0]["header"]["seat_names"] == ["me", "house"] and "end" in events[-1]
    assert any("step" in e for e in events)
    fetch = ["fetch-replay", match["match_id"], "--replay-dir", str(tmp_path)]
    assert CliRunner().invoke(main, fetch, env=env).exit_code == 0
    (replay,) = tmp_path.glob("*.jsonl")
    assert json.loads(replay.read_text().splitlines()[0])["seats"] == ["me", "house"]
    again = CliRunner().invoke(main, fetch, env=env)
    assert again.exit_code == 2 and "--force" in again.output
    assert CliRunner().invoke(main, [*fetch, "--force"], env=env).exit_code == 0
    verified = CliRunner().invoke(main, ["replay", str(replay), "--verify"])
    assert verified.exit_code == 0 and "verified:" in verified.output


def test_match_writes_its_replay_and_keeps_logs_only_when_asked_or_failed(referee: Referee, tmp_path: Path) -> None:
    env = {"SKYARENA_SERVICE_TOKEN": SERVICE_TOKEN}
    replays, logs = tmp_path / "replays", tmp_path / "logs"
    base = ["match", "sky-team", "heuristic", "random", "--referee", referee.address, "--json"]
    done = skyarena(*base, "--replay-dir", str(replays), "--logs-dir", str(logs), **env)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert Path(summary["replay"]).parent == replays and len(list(logs.glob("*-seat*.log"))) == 2
    assert f"seat logs: {logs}" in done.stderr
    quiet = skyarena(*base, **env)
    assert quiet.returncode == 0 and "seat logs" not in quiet.stderr
    broken = write(tmp_path, "broken.py", """
        import sys
        from skyarena import Bot
        class Broken(Bot):
            def on_match_start(self, info):
                sys.exit(3)
            def act(self, observation, legal_actions):
                return 0
    """)
    failed = skyarena("match", "sky-team", str(broken), "random", "--referee", referee.address, "--json",
                      "--first-move", "0.5", "--move-time", "0.2", "--bank", "0", **env)
    kept = failed.stderr.split("seat logs: ")[1].split()[0]
    assert "exited with status 3" in failed.stderr and Path(kept, f"{json.loads(failed.stdout)['match_id']}"
                                                              "-seat0.log").is_file()
    bad_dir = skyarena(*base, "--replay-dir", "/proc/no-such-place", **env)
    assert bad_dir.returncode == 2 and "cannot create the replay folder" in bad_dir.stderr


def test_a_killed_bots_status_is_explained() -> None:
    from skyarena.commands.match import exit_text as _exit_text

    assert "still running" in _exit_text(-9) and "stuck in act()" in _exit_text(-9)
    assert "SIGTERM" in _exit_text(-15) and _exit_text(2) == "exited with status 2"


def test_stdio_garbage_is_one_line() -> None:
    done = subprocess.run([SKYARENA, "run", "random", "--stdio"], input=b"hello there\n",
                          capture_output=True, timeout=60)
    err = done.stderr.decode()
    assert done.returncode == 2 and "does not carry skyarena.v1 frames" in err and "Traceback" not in err


# ----- replays as a record -----------------------------------------------------------------------

def test_replays_name_seats_never_overwrite_and_verify_the_match_record(tmp_path: Path) -> None:
    args = ["play", "skybirds", "heuristic", "random", "--games", "2", "--seed", "7", "--replay-dir", str(tmp_path)]
    assert CliRunner().invoke(main, args).exit_code == 0
    first = tmp_path / "skybirds-7.jsonl"
    second = tmp_path / "skybirds-8.jsonl"
    assert json.loads(first.read_text().splitlines()[0])["seats"] == ["heuristic", "random"]
    assert json.loads(second.read_text().splitlines()[0])["seats"] == ["random", "heuristic"]
    before = first.read_text()
    again = CliRunner().invoke(main, args)
    assert again.exit_code == 2 and "exists already; pass --force" in again.output and first.read_text() == before
    assert CliRunner().invoke(main, [*args, "--force"]).exit_code == 0
    lines = first.read_text().splitlines()
    match = json.loads(lines[-1])
    assert match["type"] == "match"
    edited = dict(match, result={**match["result"], "ranks": list(reversed(match["result"]["ranks"]))})
    first.write_text("\n".join([*lines[:-1], json.dumps(edited)]) + "\n")
    caught = CliRunner().invoke(main, ["replay", str(first), "--verify"])
    assert caught.exit_code == 2 and "does not follow from the re-played result" in caught.output
    forged = dict(match, forfeited=[0])
    first.write_text("\n".join([*lines[:-1], json.dumps(forged)]) + "\n")
    assert "forfeited" in CliRunner().invoke(main, ["replay", str(first), "--verify"]).output


def test_verify_accepts_faults_and_forfeits_as_recorded(tmp_path: Path) -> None:
    crash = write(tmp_path, "crash.py", """
        from skyarena import Bot
        class Crash(Bot):
            def act(self, observation, legal_actions):
                raise ValueError("bug")
    """)
    done = skyarena("play", "skybirds", str(crash), "random", "--replay-dir", str(tmp_path / "r"))
    assert done.returncode == 0, done.stderr
    (replay,) = (tmp_path / "r").glob("*.jsonl")
    assert json.loads(replay.read_text().splitlines()[-1])["forfeited"] == [0]
    verified = CliRunner().invoke(main, ["replay", str(replay), "--verify"])
    assert verified.exit_code == 0, verified.output



def test_isolated_play_from_a_script_without_a_main_guard(tmp_path: Path) -> None:
    """The worker is a fresh `python -m skyarena.worker`: it never re-runs the caller's script."""
    script = write(tmp_path, "evaluate.py", """
        from skyarena.local import play_series
        print("script ran")
        report = play_series("sky-team", [("", "random"), ("", "heuristic")], 2, isolate=True)
        print([s.games for s in report.standings])
    """)
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("script ran") == 1 and "[2, 2]" in done.stdout


def test_run_reports_a_failing_init_in_one_line_before_connecting(tmp_path: Path) -> None:
    bot = write(tmp_path, "needy.py", """
        from skyarena import Bot
        class Needy(Bot):
            def __init__(self, depth):
                super().__init__()
            def act(self, observation, legal_actions):
                return 0
    """)
    done = skyarena("run", str(bot), "--referee", "127.0.0.1:1", "--token", "t")
    assert done.returncode == 2 and "needs depth" in done.stderr and "Traceback" not in done.stderr


def test_a_hosted_bot_whose_init_raises_is_one_line_before_any_frame(tmp_path: Path) -> None:
    bot = tmp_path / "bot.py"
    bot.write_text("from skyarena import Bot\n\n\nclass Broken(Bot):\n    def __init__(self):\n"
                   "        raise RuntimeError('no model file')\n\n    def act(self, observation, legal):\n"
                   "        return 0\n")
    done = subprocess.run([sys.executable, "-m", "skyarena.remote", str(bot), "--stdio"], input=b"",
                          capture_output=True, timeout=60)
    assert done.returncode == 2
    lines = done.stderr.decode().strip().splitlines()
    assert len(lines) == 1 and "bot.py" in lines[0] and "no model file" in lines[0], lines


def test_a_wrong_player_count_names_the_one_count_a_game_takes() -> None:
    with pytest.raises(SkyarenaError, match=r"sky-team is played by 2 players, not 3\."):
        make("sky-team", players=3)
