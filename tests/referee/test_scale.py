"""Two hundred concurrent matches in one referee, played by real bot processes."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from skyarena.bot import RandomBot
from skyarena.v1 import referee_pb2 as pb

from .conftest import ROOT, TOY, Referee, bot_env, play_locally, replay_moves

MATCHES = 200


def _sample_peak_running(referee: Referee, procs: list[subprocess.Popen[bytes]]) -> int:
    """The most matches seen in the RUNNING phase at once while the bot processes play."""
    from referee.service.driver import Phase

    def running() -> int:
        return sum(1 for m in referee.server.registry.matches.values() if m.phase is Phase.RUNNING)

    peak = 0
    deadline = time.monotonic() + 100
    while any(p.poll() is None for p in procs) and time.monotonic() < deadline:
        peak = max(peak, referee.on_loop(running))
        time.sleep(0.02)
    return peak


def test_two_hundred_concurrent_matches_finish_correctly(referee: Referee, tmp_path: Path) -> None:
    started = [referee.start(TOY, 2, seed=1000 + i, options={"rounds": 12}, move_s=20, bank_s=20, first_move_s=60)
               for i in range(MATCHES)]
    procs = []
    for seat in (0, 1):
        tokens = tmp_path / f"tokens{seat}.txt"
        tokens.write_text("\n".join(s.seats[seat].token for s in started))
        procs.append(subprocess.Popen(
            [sys.executable, "-m", "tests.referee.many_seats", referee.address, "random", "0.25"], cwd=ROOT,
            env=bot_env("", referee.address), stdin=tokens.open("rb"), stdout=subprocess.PIPE, stderr=subprocess.PIPE))
    peak = _sample_peak_running(referee, procs)
    assert peak >= MATCHES * 3 // 4, f"only {peak} matches were running at once"
    outputs = []
    for proc in procs:
        out, err = proc.communicate(timeout=100)
        assert proc.returncode == 0, err.decode()
        outputs.append([json.loads(line) for line in out.decode().splitlines()])
    assert all(len(o) == MATCHES and all("error" not in r for r in o) for o in outputs)
    assert referee.server.metrics.registry.get_sample_value("skyarena_referee_matches_running") == 0
    for i, response in enumerate(started):
        status = referee.status(response.match_id, replay=True)
        assert status.state == pb.MATCH_STATE_FINISHED and not status.end.faults
        local = play_locally(TOY, [RandomBot(), RandomBot()], 1000 + i, status, options={"rounds": 12})
        assert replay_moves(status) == [r["actions"] for r in local.replay if r["type"] == "move"]
        assert list(status.end.result.ranks) == list(local.result.ranks)
