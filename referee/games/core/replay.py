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
    """Re-play and compare the final hash and result; raises ReplayError on any mismatch."""
    state = replay_state(records)
    end = next((r for r in reversed(records) if r["type"] == "end"), None)
    if end is None:
        raise ReplayError("the replay has no 'end' record; it was cut short.")
    if end["hash"] != state.state_hash():
        raise ReplayError("the final state hash differs from the recorded one: the replay does not reproduce.")
    result = state.result()
    if ("result" in end) != (result is not None) or (result is not None and result.to_json() != end["result"]):
        raise ReplayError("the re-played result differs from the recorded one.")
    match = next((r for r in records if r["type"] == "match"), None)
    if match is not None:
        _verify_match(match, state)
    return state


def _verify_match(match: dict[str, Any], state: State) -> None:
    """The final ``match`` record (the result after faults) must follow from the re-played
    engine result and the recorded faults: forfeits are the faults marked so, strikes
    count up per seat, and the adjusted ranks and scores are what the match runner makes of them."""
    from referee.match import MatchRunner  # the runner owns the rule for forfeits' results

    engine = state.result()
    assert engine is not None  # verify() checked the game is over
    if match.get("engine_result") != engine.to_json():
        raise ReplayError("the match record's engine result differs from the re-played one.")
    if match.get("decisions") != state.decisions:
        raise ReplayError(f"the match record says {match.get('decisions')} decisions, the re-play made "
                          f"{state.decisions}.")
    faults = match.get("faults", [])
    strikes = [0] * state.players
    forfeits = []
    for fault in faults:
        seat = fault.get("seat")
        if not isinstance(seat, int) or not 0 <= seat < state.players:
            raise ReplayError(f"a fault names seat {seat!r}; the match has seats 0..{state.players - 1}.")
        strike = fault.get("strike")
        # Each fault during the game counts a strike; one after it (on_match_end) restates the count.
        if strike not in (strikes[seat] + 1, strikes[seat]) or (strike == strikes[seat] and fault.get("forfeit")):
            raise ReplayError(f"seat {seat}'s faults do not count its strikes 1, 2, 3...: one says {strike!r} "
                              f"after {strikes[seat]}; the record was edited.")
        strikes[seat] = strike
        if fault.get("forfeit"):
            forfeits.append(seat)
    if match.get("forfeited", []) != forfeits:
        raise ReplayError(f"the match record has seats {match.get('forfeited')} forfeited, but its faults "
                          f"forfeit seats {forfeits}.")
    runner = MatchRunner(state)   # on the finished game: it only turns the result into the match's
    runner.forfeited = forfeits
    expected = runner.record()
    if match.get("result") != expected.result.to_json() or match.get("unrated", []) != expected.unrated:
        raise ReplayError("the match record's result (ranks, scores, reason) does not follow from the re-played "
                          "result and the recorded faults: the record was edited.")
