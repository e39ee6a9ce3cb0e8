"""Verifying a match's replay: the engine's re-play, then the runner's ``match`` record.

The engine proves the moves and chance outcomes (`referee.games.core.replay.verify`); the
match record (faults, strikes, forfeits and the result after them) is the runner's, so its
check lives beside the runner that owns the rule, not in the engines that know no faults.
"""

from __future__ import annotations

from typing import Any

from referee.games import State
from referee.games.core import replay as replay_io
from referee.games.core.errors import ReplayError

from .runner import MatchRunner


def verify_match_replay(records: list[dict[str, Any]]) -> State:
    """Re-play the game and check its match record, if it has one; raises ReplayError on any mismatch."""
    state = replay_io.verify(records)
    match = next((r for r in records if r["type"] == "match"), None)
    if match is not None:
        _check_match_record(match, state)
    return state


def _check_match_record(match: dict[str, Any], state: State) -> None:
    """The final ``match`` record (the result after faults) must follow from the re-played
    engine result and the recorded faults: forfeits are the faults marked so, strikes
    count up per seat, and the adjusted ranks and scores are what the match runner makes of them."""
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
