"""A participant's replay from a real Arena: the seat's owner downloads it, verifies it and re-runs
the bot on it bit-exactly; anyone else, and any match that did not finish with its replay kept,
is refused in one line. The match is the bot's smoke match, played by a referee process with the
bot in the sandbox, exactly as a rated match is."""

from __future__ import annotations

import json
from pathlib import Path

import grpc
import pytest

from referee.games.core import replay as replay_io
from skyarena.v1 import arena_pb2 as pb
from workers.store import Database

from ...sdk.reproducible import write_bot
from .support import ArenaUnderTest, cli


def test_the_owner_gets_the_full_record_verifies_it_and_reproduces_every_decision(
        arena: ArenaUnderTest, db: Database, tmp_path: Path) -> None:
    token = arena.token("ada")
    env = {"SKYARENA_ARENA": arena.address, "SKYARENA_TOKEN": token}
    folder = write_bot(tmp_path / "seeded", "sky-team")
    submitted = cli(tmp_path, "submit", str(folder), "--wait", "--json", env=env)
    assert submitted.exit_code == 0, submitted.output
    version = json.loads(submitted.stdout)["version"]
    assert version["status"] == "active", version
    match_id = version["smoke_match_id"]

    out = tmp_path / "mine.jsonl"
    wrote = cli(tmp_path, "replay", match_id, "--mine", "--out", str(out), env=env)
    assert wrote.exit_code == 0 and f"wrote {out}" in wrote.output, wrote.output
    records = replay_io.read(out)
    about = next(r for r in records if r["type"] == "participant")
    assert about["seat"] == 0 and isinstance(about["bot_seed"], int) and about["bot"]["version_id"] == version["id"]
    assert records[0]["seed"] is not None and "options" in records[0]  # the full header: seed and setup
    assert out.read_text().count('"bot_seed"') == 1  # the house bot's seed stays private
    decisions = [r for r in records if r["type"] == "decision"]
    assert decisions and all("observation" in d and "charged_s" in d for d in decisions)

    verified = cli(tmp_path, "replay", str(out), "--verify", env=env)
    assert verified.exit_code == 0 and f"the seat's {len(decisions)} decisions" in verified.output, verified.output
    for source in (str(out), match_id):  # the saved file, or fetched again by match id
        again = cli(tmp_path, "reproduce", source, str(folder), env=env)
        assert again.exit_code == 0, again.output
        assert f"all {len(decisions)} decisions identical" in again.output, again.output

    stranger = arena.token("bob")
    with pytest.raises(grpc.RpcError) as refused:
        arena.call("GetParticipantReplay", pb.ParticipantReplayRequest(match_id=match_id, seat=0), stranger)
    assert refused.value.code() == grpc.StatusCode.PERMISSION_DENIED
    assert "another account's bot" in refused.value.details()
    theirs = cli(tmp_path, "replay", match_id, "--mine", "--out", str(tmp_path / "theirs.jsonl"),
                 env={**env, "SKYARENA_TOKEN": stranger})
    assert theirs.exit_code == 2 and "none of your bots played match" in theirs.output
    assert len(theirs.output.strip().splitlines()) == 1 and not (tmp_path / "theirs.jsonl").exists()
    organiser = arena.token("olga", "organiser")
    with pytest.raises(grpc.RpcError) as not_even:
        arena.call("GetParticipantReplay", pb.ParticipantReplayRequest(match_id=match_id, seat=0), organiser)
    assert not_even.value.code() == grpc.StatusCode.PERMISSION_DENIED

    def refusal(sql: str) -> str:
        with db.connection() as conn:
            conn.execute(sql, {"m": match_id})
        result = cli(tmp_path, "replay", match_id, "--mine", "--out", str(tmp_path / "never.jsonl"), env=env)
        assert result.exit_code == 2 and len(result.output.strip().splitlines()) == 1, result.output
        assert not (tmp_path / "never.jsonl").exists()
        return result.output

    assert "is running: a participant's replay exists once it has finished" in refusal(
        "UPDATE matches SET status = 'running' WHERE id = %(m)s")
    assert "is void (the test voided it)" in refusal(
        "UPDATE matches SET status = 'void', void_reason = 'the test voided it' WHERE id = %(m)s")
    assert "no longer stored (purged)" in refusal(
        "WITH gone AS (DELETE FROM replays WHERE match_id = %(m)s) "
        "UPDATE matches SET status = 'finished', void_reason = NULL WHERE id = %(m)s")
