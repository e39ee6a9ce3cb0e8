"""A stored match as a spectator would have seen it: public views and public moves only.

The store keeps the referee's full replay (every hand, deck and chance outcome), which the
Arena never hands out. Instead it re-plays the moves on a fresh engine (the engines are
deterministic from the header) and writes, step by step, what the referee's ``Watch``
stream shows: ``public_view()`` after each step and each move through the referee's own
visibility rule (`referee.games.core.visibility`: what each game's rules make public), a
hidden move only saying that its seat moved (`referee.match.public_steps`). The seed
and the ``setup`` option (which would reveal the deal) are left out, as are the chance
records; faults keep their kind but not their reason (a reason can name a hidden card),
exactly as spectators get them. Each step carries the time its deciders were charged
(``time``: seat, clock, seconds), as a chess broadcast shows the clocks.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.games import make
from referee.games.core import replay as replay_io
from referee.games.core import visibility
from referee.match.public_steps import public_charges, public_fault, told_moves
from workers.store import replay_document as stored_replay


def public_records(document: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The public replay (JSON-line records) of a stored replay document (`workers.store.replay_document`)."""
    header = stored_replay.header(document)
    state = make(header["game"], header["players"], header["seed"], header.get("options") or {})
    visible = visibility.policy(state)
    records: list[dict[str, Any]] = [{"type": "header", "game": header["game"], "version": header.get("version"),
                                      "players": header["players"], "options": state.public_options()},
                                     {"type": "step", "n": 0, "public_view": state.public_view(), "moves": []}]
    match = stored_replay.match_record(document)
    faults: dict[int, list[dict[str, Any]]] = {}
    for fault in match.get("faults", []):
        faults.setdefault(int(fault["turn"]), []).append(public_fault(fault))
    charges: dict[int, list[dict[str, Any]]] = {}
    for charge in match.get("charges", []):
        charges.setdefault(int(charge["turn"]), []).append(charge)
    for n, record in enumerate(stored_replay.moves(document), start=1):
        records.extend(faults.get(n, []))
        actions = {int(seat): state.parse_action(int(seat), text) for seat, text in record["actions"].items()}
        state.apply(actions)
        records.append({"type": "step", "n": n, "public_view": state.public_view(),
                        "moves": told_moves(visible, actions), "time": public_charges(charges.get(n, []))})
    end = stored_replay.end(document)
    if "result" in end:
        records.append({"type": "end", "result": end["result"], "forfeited": match.get("forfeited", [])})
    return records


def public_jsonl(document: Mapping[str, Any]) -> str:
    return replay_io.dumps(public_records(document))
