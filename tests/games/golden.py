"""Golden playthroughs: one file per game and player count, diffed in CI.

Each file is JSON lines: a header, then for every decision the seats to move, their legal
actions (as canonical strings), every seat's observation and the public view for the
first steps, then the joint action chosen by a seeded random policy; finally the result
and the replay's end record. Regenerate after an intended rules change with
``make golden`` (``python -m tests.games.golden --write``) and review the diff.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any

from referee.games import GAMES, make
from referee.games.core.playout import random_joint_action
from referee.games.core.replay import dumps

GOLDEN_DIR = Path(__file__).resolve().parent.parent / "golden"
GOLDEN_SEED = 20261130
DETAILED_STEPS = 30


def golden_path(game: str, players: int) -> Path:
    return GOLDEN_DIR / f"{game}-{players}p.jsonl"


def playthrough(game: str, players: int) -> str:
    state = make(game, players, seed=GOLDEN_SEED)
    policy = random.Random(GOLDEN_SEED)
    lines: list[dict[str, Any]] = [{"game": game, "players": players, "seed": GOLDEN_SEED,
                                     "options": state.options}]
    step = 0
    while not state.is_over():
        movers = state.to_move()
        record: dict[str, Any] = {"step": step, "to_move": list(movers)}
        if step < DETAILED_STEPS:
            record["legal"] = {str(s): [str(a) for a in state.legal_actions(s)] for s in movers}
            record["observations"] = {str(s): state.observation(s) for s in range(players)}
            record["public"] = state.public_view()
        joint = random_joint_action(state, policy)
        record["play"] = {str(s): str(a) for s, a in joint.items()}
        lines.append(record)
        state.apply(joint)
        step += 1
    result = state.result()
    lines.append({"result": result.to_json() if result else None, "hash": state.state_hash(),
                  "final_public": state.public_view()})
    return dumps(lines)


def all_cases() -> list[tuple[str, int]]:
    return [(name, n) for name, spec in sorted(GAMES.items()) for n in spec.player_counts()]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help="rewrite the golden files")
    parser.add_argument("--game", help="only this game")
    args = parser.parse_args(argv)
    GOLDEN_DIR.mkdir(exist_ok=True)
    stale = 0
    for game, players in all_cases():
        if args.game and game != args.game:
            continue
        path = golden_path(game, players)
        text = playthrough(game, players)
        if path.exists() and path.read_text() == text:
            continue
        stale += 1
        if args.write:
            path.write_text(text)
            print(f"wrote {path}")
        else:
            print(f"stale: {path}")
    return 0 if args.write or not stale else 1


if __name__ == "__main__":
    sys.exit(main())
