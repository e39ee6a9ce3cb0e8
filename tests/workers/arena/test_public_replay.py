"""The public replay the Arena hands out holds what a spectator saw and nothing more: for every
game, each step's view is the engine's public_view at that point, moves are hidden (no game marks
its moves public yet), and neither the seed, the setup option nor any chance outcome appears."""

from __future__ import annotations

import json
import random

import pytest

from referee.games import GAMES, make
from workers.arena.public_replay import public_records


def _played(game: str, seed: int) -> tuple[dict[str, object], list[object]]:
    """A random playout as the store keeps it (header, moves, end), and the public views along the way."""
    players = GAMES[game].min_players
    state = make(game, players, seed, {})
    rng = random.Random(seed)
    views, moves = [state.public_view()], []
    while not state.is_over() and len(moves) < 400:
        joint = {seat: rng.choice(state.legal_actions(seat)) for seat in state.to_move()}
        moves.append({"type": "move", "n": len(moves) + 1, "actions": {str(s): str(a) for s, a in joint.items()}})
        state.apply(joint)
        views.append(state.public_view())
    end = {"type": "end", "hash": state.state_hash()}
    if state.is_over():
        end["result"] = state.result().to_json()
    header = {"type": "header", "game": game, "version": GAMES[game].version, "players": players, "seed": seed,
              "options": {}}
    return {"header": header, "moves": moves, "chance": [{"type": "chance", "label": "secret", "value": 1}],
            "end": end}, views


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_public_replay_is_the_spectators_view_step_by_step(game: str) -> None:
    document, views = _played(game, seed=11)
    records = public_records(document)
    steps = [r for r in records if r["type"] == "step"]
    assert [s["public_view"] for s in steps] == json.loads(json.dumps(views))
    assert {r["type"] for r in records} <= {"header", "step", "end", "fault"}
    assert all(move == {"seat": move["seat"], "hidden": True} for s in steps for move in s["moves"])
    assert "seed" not in records[0] and "secret" not in json.dumps(records)
