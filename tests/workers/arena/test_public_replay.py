"""The public replay the Arena hands out holds what a spectator saw and nothing more: for every
game, each step's view is the engine's public_view at that point, each move is told as the game's
rules make it public (`referee.games.core.public_moves`: public moves as they are, the rest hidden),
and neither the seed, the setup option nor any chance outcome appears."""

from __future__ import annotations

import json
import random

import pytest

from referee.games import GAMES, make
from referee.games.core.public_moves import public_text
from workers.arena.public_replay import public_records
from workers.store.replay_document import records as stored_records
from workers.store.replay_document import replay_document


def _played(game: str, seed: int) -> tuple[dict[str, object], list[object], list[list[dict[str, object]]]]:
    """A random playout as the store keeps it (its records in order: header, moves with a chance
    record after each, end), the public views along the way, and each step's moves as the
    rules tell them."""
    players = GAMES[game].min_players
    state = make(game, players, seed, {})
    rng = random.Random(seed)
    header = {"type": "header", "game": game, "version": GAMES[game].version, "players": players, "seed": seed,
              "options": {}}
    records: list[dict[str, object]] = [header]
    views = [state.public_view()]
    told: list[list[dict[str, object]]] = [[]]
    while not state.is_over() and len(records) < 800:
        joint = {seat: rng.choice(state.legal_actions(seat)) for seat in state.to_move()}
        records.append({"type": "move", "n": len(views), "actions": {str(s): str(a) for s, a in joint.items()}})
        records.append({"type": "chance", "label": "secret", "value": 1})
        state.apply(joint)
        views.append(state.public_view())
        told.append([{"seat": seat, "hidden": True} if (text := public_text(game, action)) is None
                     else {"seat": seat, "action": text} for seat, action in sorted(joint.items())])
    end: dict[str, object] = {"type": "end", "hash": state.state_hash()}
    if state.is_over():
        end["result"] = state.result().to_json()
    return replay_document([*records, end]), views, told


def test_a_replay_stored_grouped_by_type_gives_the_same_public_replay() -> None:
    """Replays stored before format 2 (records grouped by type) are still handed out alike."""
    document, _, _ = _played("skybirds", seed=5)
    records, _ = stored_records(document)
    grouped = {"header": records[0], "moves": [r for r in records if r["type"] == "move"],
               "chance": [r for r in records if r["type"] == "chance"], "end": document["end"], "match": None}
    assert public_records(grouped) == public_records(document)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_public_replay_is_the_spectators_view_step_by_step(game: str) -> None:
    document, views, told = _played(game, seed=11)
    records = public_records(document)
    steps = [r for r in records if r["type"] == "step"]
    assert [s["public_view"] for s in steps] == json.loads(json.dumps(views))
    assert {r["type"] for r in records} <= {"header", "step", "end", "fault"}
    assert [s["moves"] for s in steps] == told
    assert any("action" in move for s in steps for move in s["moves"])  # public moves show as they are
    assert "seed" not in records[0] and "secret" not in json.dumps(records)
