"""How long ``skyarena reproduce`` takes on a long match, beside playing that match locally.

A seeded bot (it answers from ``self.random`` only) plays a long local match in every seat; the
record becomes each seat's participant's replay, and the bot is re-run on every seat's decisions
(the SDK's seat session, each observation through the wire and back, every answer resolved
and compared). The baseline, measured in the same run, is the same match played in process
(`skyarena.local.play_unclocked`): the ratio says what re-running costs beyond playing, and
the seconds per 1,000 decisions say how long an author waits (the match's own wall time on the
platform, with its clocks and sandbox, is far longer).

    python bench/reproduce.py                    # table
    python bench/reproduce.py --json-out f.json
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from referee.games import make  # noqa: E402
from referee.match.participant import participant_records  # noqa: E402
from skyarena.bot_folder import open_bot  # noqa: E402
from skyarena.local import match_infos, play_match, play_unclocked  # noqa: E402
from skyarena.reproduce import reproduce  # noqa: E402
from tests.sdk.reproducible import write_bot  # noqa: E402

CASES = (("skyjo-action", 8), ("fly-away", 5), ("skybirds", 4))


def measure(game: str, players: int, seed: int, folder: Path) -> dict[str, object]:
    with open_bot(write_bot(folder / game, game), game) as bot:
        started = time.perf_counter()
        play_unclocked(game, [bot.make() for _ in range(players)], seed)
        play_s = time.perf_counter() - started
        record = play_match(game, [bot.make() for _ in range(players)], seed=seed, match_id="bench")
        infos = match_infos(make(game, players, seed, {}), "bench")
        reproduce_s = 0.0
        for seat in range(players):
            records = participant_records(record.replay_records(), seat, match_id="bench",
                                          bot_seed=infos[seat].bot_seed, bot={})
            started = time.perf_counter()
            report = reproduce(records, bot.make)
            reproduce_s += time.perf_counter() - started
            assert report.difference is None, report.summary()
    decisions = record.decisions
    return {"game": game, "players": players, "decisions": decisions, "reproduce_s": round(reproduce_s, 3),
            "per_1000_decisions_s": round(reproduce_s * 1000 / decisions, 3), "play_in_process_s": round(play_s, 3),
            "ratio_to_play": round(reproduce_s / play_s, 2) if play_s else None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json-out", type=Path)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        rows = [measure(game, players, args.seed, Path(scratch)) for game, players in CASES]
    print(f"{'game':<14} {'players':>7} {'decisions':>9} {'reproduce s':>11} {'s / 1000':>8} {'play s':>7} "
          f"{'ratio':>6}")
    for r in rows:
        print(f"{r['game']:<14} {r['players']:>7} {r['decisions']:>9} {r['reproduce_s']:>11} "
              f"{r['per_1000_decisions_s']:>8} {r['play_in_process_s']:>7} {r['ratio_to_play']:>6}")
    if args.json_out:
        args.json_out.write_text(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
