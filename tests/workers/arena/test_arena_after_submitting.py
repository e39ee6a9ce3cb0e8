"""After submitting, as the author meets it: ``skyarena status``, ``logs``, ``matches``, ``replay``,
``bots`` and ``token create`` against a real Arena (gRPC on loopback, the smoke match played by a
referee process with the bot in the sandbox), read as text, the way a person reads them."""

from __future__ import annotations

import json
import re
from pathlib import Path

from workers.scheduling import schedule_active
from workers.store import Database

from ..services import house_league
from .support import ArenaUnderTest, cli


def _submitted(arena: ArenaUnderTest, tmp_path: Path, folder: str = "quietbot") -> tuple[tuple[str, ...], dict]:
    """A starter bot (it prints nothing) submitted and smoked; the login options and its version."""
    args = ("--arena", arena.address, "--token", arena.token("erin"))
    bot_dir = tmp_path / folder
    assert cli(tmp_path, "new", "sky-team", str(bot_dir)).exit_code == 0
    result = cli(tmp_path, "submit", str(bot_dir), "--wait", "--json", *args)
    assert result.exit_code == 0, result.output
    version = json.loads(result.stdout)["version"]
    assert version["status"] == "active", version
    return args, version


def test_a_silent_bots_finished_smoke_match_has_an_empty_log_and_status_points_at_it(
        arena: ArenaUnderTest, tmp_path: Path) -> None:
    args, version = _submitted(arena, tmp_path)
    smoke = version["smoke_match_id"]
    status = cli(tmp_path, "status", str(version["id"]), *args)
    assert status.exit_code == 0 and f"skyarena logs {smoke}" in status.output
    logs = cli(tmp_path, "logs", smoke, *args)
    assert logs.exit_code == 0, logs.output
    assert logs.stdout == "" and "wrote nothing to stderr" in logs.stderr
    as_json = json.loads(cli(tmp_path, "logs", smoke, "--json", *args).stdout)
    assert (as_json["log"], as_json["version_id"]) == ("", version["id"])


def test_matches_and_replay_show_places_from_one_and_public_moves_as_they_are(
        arena: ArenaUnderTest, tmp_path: Path) -> None:
    args, version = _submitted(arena, tmp_path)
    smoke = version["smoke_match_id"]
    table = cli(tmp_path, "matches", str(version["id"]), *args)
    assert table.exit_code == 0 and "(1st)" in table.output and "(0)" not in table.output  # co-op: both first
    env = {"SKYARENA_ARENA": args[1], "SKYARENA_TOKEN": args[3]}  # replay FILE|MATCH_ID reads the login
    replay = cli(tmp_path, "replay", smoke, env=env)
    assert replay.exit_code == 0, replay.output
    assert re.search(r"seat [01]: [1-6]>\w+", replay.output), replay.output  # placed dice are public
    assert "ranks (1 = first) [1, 1]" in replay.output and "ranks [0, 0]" not in replay.output
    assert not re.search(r"roll [1-6]", replay.output)  # which hidden dice are rerolled is never told
    as_json = json.loads(cli(tmp_path, "replay", smoke, "--json", env=env).stdout)
    assert as_json["records"][-1]["result"]["ranks"] == [0, 0] and as_json["ranks"].startswith("0 = first")
    matches = json.loads(cli(tmp_path, "matches", str(version["id"]), "--json", *args).stdout)
    assert matches[0]["seats"][0]["rank"] == 0 and matches[0]["ranks"].startswith("0 = first")


def test_matches_pages_down_to_the_first_match(arena: ArenaUnderTest, db: Database, tmp_path: Path) -> None:
    house_league(db, "paged", "sky-team", (2,), 3, move_s=2.0, bank_s=5.0, first_move_s=10.0, matches_in_flight=4)
    args, version = _submitted(arena, tmp_path)
    schedule_active(db)  # queued rated matches: more than one page of one
    every = json.loads(cli(tmp_path, "matches", str(version["id"]), "--json", "--limit", "1000", *args).stdout)
    assert len(every) >= 3
    first = cli(tmp_path, "matches", str(version["id"]), "--limit", "1", *args)
    assert first.exit_code == 0
    cursor = re.search(r"--before (\S+)", first.output)
    assert cursor is not None and cursor.group(1) == every[0]["match_id"]
    pages: list[str] = []
    before = ""
    while True:
        page = cli(tmp_path, "matches", str(version["id"]), "--limit", "2", "--json", *args,
                   *(("--before", before) if before else ()))
        pages += [m["match_id"] for m in json.loads(page.stdout)]
        more = re.search(r"--before (\S+)", page.stderr)
        if more is None:
            break
        before = more.group(1)
    assert pages == [m["match_id"] for m in every]  # every match once, in order, the smoke match last
    followed = json.loads(cli(tmp_path, "matches", str(version["id"]), "--limit", "1", "--all", "--json", *args).stdout)
    assert [m["match_id"] for m in followed] == pages
    assert followed[-1]["match_id"] == version["smoke_match_id"]


def test_bots_table_keeps_names_whole_and_token_create_speaks_english(arena: ArenaUnderTest, tmp_path: Path) -> None:
    args, version = _submitted(arena, tmp_path, folder="a-rather-long-bot-name-for-the-table")
    table = cli(tmp_path, "bots", *args, env={"COLUMNS": "80"})
    assert table.exit_code == 0
    assert "a-rather-long-bot-name-for-the-table v1" in table.output
    assert all(len(line) <= 80 for line in table.output.splitlines())
    organiser = arena.token("olga", scope="organiser")
    issued = cli(tmp_path, "token", "create", "--account", "frank", "--arena", arena.address, "--token", organiser)
    assert issued.exit_code == 0 and "(an author token for frank" in issued.stderr
    submitted = cli(tmp_path, "submit", str(tmp_path / "a-rather-long-bot-name-for-the-table"), *args)
    assert submitted.exit_code == 0 and submitted.output.splitlines()[0].startswith("version ")  # no blank line



def test_a_bot_that_raises_on_the_platform_gets_what_play_shows_locally(arena: ArenaUnderTest,
                                                                         tmp_path: Path) -> None:
    """The exception with the bot's own file, line and frames, in the status and in the log, named
    as in the author's folder; the hint is a command to run; a syntax error is a sentence."""
    args = ("--arena", arena.address, "--token", arena.token("gina"))
    bot_dir = tmp_path / "crashy"
    assert cli(tmp_path, "new", "sky-team", str(bot_dir)).exit_code == 0
    (bot_dir / "helpers.py").write_text("def pick(legal):\n    return {}['card']\n")
    source = (bot_dir / "bot.py").read_text().replace("from skyarena import Bot",
                                                      "from skyarena import Bot\nfrom helpers import pick")
    (bot_dir / "bot.py").write_text(source.replace("        return self.random.choice(legal_actions)",
                                                   "        return pick(legal_actions)"))
    local = cli(tmp_path, "play", "sky-team", str(bot_dir / "bot.py"), "random", "--games", "1")
    headline = "act() raised KeyError: 'card' (helpers.py, line 2, in pick)"
    assert headline in local.output

    submitted = cli(tmp_path, "submit", str(bot_dir), "--wait", "--json", *args)
    version = json.loads(submitted.stdout)["version"]
    assert version["status"] == "failed"
    status = cli(tmp_path, "status", str(version["id"]), *args).output
    assert headline in status
    assert "skyarena play sky-team bot.py random` in your bot's folder" in status and "DIR/ENTRY" not in status
    log = cli(tmp_path, "logs", version["smoke_match_id"], *args).output
    assert headline in log and "ABORTED" not in log and "/bot/" not in log
    assert 'File "bot.py", line' in log and "return pick(legal_actions)" in log  # the frames of their code
    assert 'File "helpers.py", line 2, in pick' in log
    assert "referee: exception on turn 1, strike 1" in log

    broken = tmp_path / "syntaxy"
    assert cli(tmp_path, "new", "sky-team", str(broken)).exit_code == 0
    (broken / "bot.py").write_text((broken / "bot.py").read_text().replace("def act(self", "def act(self,,"))
    refused = cli(tmp_path, "submit", str(broken), *args)
    assert refused.exit_code != 0
    sentence = r"your bot does not load \(bot\.py, line \d+: syntax error: invalid syntax\); fix it"
    assert re.search(sentence, refused.output), refused.output
    assert "invalid argument" not in refused.output and "/bot/" not in refused.output
