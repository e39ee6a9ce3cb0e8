"""Replays as JSON lines: write, read, and verify by re-playing.

A replay is self-contained: its header re-creates the game (seed and full options), the
moves re-apply in order, and every chance outcome and the final state hash are compared
with what the original game recorded, so a replay proves its result.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from .errors import ReplayError
from .registry import make
from .state import State


def with_seats(records: list[dict[str, Any]], seats: list[str]) -> list[dict[str, Any]]:
    """The records with the header naming the bot in each seat (``"seats": [name, ...]``)."""
    header = {**records[0], "seats": list(seats)}
    return [header, *records[1:]]


def dumps(records: Iterable[dict[str, Any]]) -> str:
    return "".join(json.dumps(r, sort_keys=True, separators=(",", ":")) + "\n" for r in records)


def write(path: str | Path, records: Iterable[dict[str, Any]]) -> None:
    """Write a replay whole or not at all: into a temporary file beside it, then renamed."""
    target = Path(path)
    partial = target.with_name(f".{target.name}.partial")
    partial.write_text(dumps(records), encoding="utf-8")
    os.replace(partial, target)


def loads(text: str, source: str = "replay") -> list[dict[str, Any]]:
    records = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ReplayError(
                f"{source}, line {number}: not JSON ({exc.msg}); is this a Skyarena replay (.jsonl)?"
            ) from None
        if not isinstance(record, dict) or "type" not in record:
            raise ReplayError(f"{source}, line {number}: each line must be a JSON object with a 'type'.")
        records.append(record)
    if not records or records[0]["type"] != "header":
        raise ReplayError(f"{source}: the first line must be the header record (type 'header').")
    return records


def read(path: str | Path) -> list[dict[str, Any]]:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ReplayError(f"no replay at {p}; `skyarena play ... --replay-dir DIR` writes them.") from None
    return loads(text, str(p))


def replay_state(records: list[dict[str, Any]]) -> State:
    """Re-play the moves of a replay and return the final state, checking chance outcomes."""
    header = records[0]
    state = make(header["game"], header["players"], header["seed"], header.get("options") or {})
    recorded_chance = [r for r in records if r["type"] == "chance"]
    for record in records:
        if record["type"] != "move":
            continue
        actions = {int(seat): text for seat, text in record["actions"].items()}
        try:
            state.apply(actions)
        except Exception as exc:
            raise ReplayError(f"move {record.get('n')}: {exc}") from None
    produced = [e for e in state.history() if e[0] == "c"]
    if len(produced) != len(recorded_chance):
        raise ReplayError(
            f"the re-play drew {len(produced)} chance outcomes, the replay recorded {len(recorded_chance)}; "
            "the replay was made by another engine version or was edited."
        )
    for i, (mine, theirs) in enumerate(zip(produced, recorded_chance)):
        if mine[1] != theirs["label"] or json.loads(json.dumps(mine[2])) != theirs["value"]:
            raise ReplayError(f"chance outcome {i + 1} ({theirs['label']}) differs from the recorded one.")
    return state


def verify(records: list[dict[str, Any]]) -> State:
    """Re-play and compare the final hash and result; raises ReplayError on any mismatch.

    This proves the game; a match's record of faults and forfeits is the runner's to check
    (`referee.match.verify_match_replay`, which calls this first)."""
    state = replay_state(records)
    end = next((r for r in reversed(records) if r["type"] == "end"), None)
    if end is None:
        raise ReplayError("the replay has no 'end' record; it was cut short.")
    if end["hash"] != state.state_hash():
        raise ReplayError("the final state hash differs from the recorded one: the replay does not reproduce.")
    result = state.result()
    if ("result" in end) != (result is not None) or (result is not None and result.to_json() != end["result"]):
        raise ReplayError("the re-played result differs from the recorded one.")
    return state
