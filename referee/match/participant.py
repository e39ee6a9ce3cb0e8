"""A participant's replay: one seat's full view of a finished match, and its check.

The referee's record of a match (header with seed and full options, every move, every chance
outcome, the end hash and the ``match`` record of faults and charges) re-creates the match
exactly, so what a seat was shown need not be stored beside it: re-playing the moves gives,
at every decision the seat was asked, the observation and legal actions it received. A
participant's replay is that record plus one ``participant`` record (the seat, its bot seed,
the options it was told, its bot) and one ``decision`` record per decision of the seat (the
observation, the legal actions, the answer the referee took, its time and any fault). The
Arena builds it for the seat's owner; ``skyarena replay --verify`` re-plays it and checks every
decision against the re-play; ``skyarena reproduce`` feeds its decisions to the bot again.

A seat is asked on every step it is to move until it forfeits (its forfeiting decision
included); after that the fallback plays it without asking, as the runner does.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee.games import GAMES, State, make
from referee.games.core.errors import ReplayError

from .replay_check import verify_match_replay

FORMAT = 1
# The record types a participant's replay adds to the referee's own.
OWN_TYPES = ("participant", "decision")


class EngineVersionMismatch(ReplayError):
    """A record made by an engine version this install does not have: its re-play would differ."""


@dataclass(frozen=True)
class SeatDecision:
    """One decision of one seat, as the re-played match shows it."""

    turn: int                      # the match's decision number (1-based), as faults count it
    seat: int
    observation: dict[str, Any]
    legal: list[Any]               # the engine's legal action objects, canonical order
    answer: str                    # the action the referee took (the fallback's, after a fault)
    charge: dict[str, Any]         # the runner's charge record (clock, charged_s, wall_s), {} if none
    fault: dict[str, Any] | None   # the fault of that decision (kind, reason, strike, forfeit)
    state: State                   # the engine state at this decision: valid until the next one is drawn


def jsonable(value: Any) -> Any:
    """``value`` as it reads back from JSON (tuples become lists, integer keys strings)."""
    return json.loads(json.dumps(value))


def engine_records(records: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The referee's records of a participant's replay (or of any replay): without its own additions."""
    return [dict(r) for r in records if r.get("type") not in OWN_TYPES]


def match_record(records: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    return dict(next((r for r in reversed(records) if r.get("type") == "match"), {}))


def check_engine_version(header: Mapping[str, Any]) -> None:
    """Refuse a record made by an engine version this install does not have: its re-play would differ."""
    game = str(header.get("game"))
    if game not in GAMES:
        raise EngineVersionMismatch(f"this record is of game {game!r}, which this skyarena does not have: "
                                    "install the Skyarena release the platform runs (pip install -U skyarena)")
    recorded, here = header.get("version"), GAMES[game].version
    if recorded is not None and recorded != here:
        raise EngineVersionMismatch(f"this match was played with the {game} engine version {recorded}; this "
                                    f"skyarena has version {here}, which does not re-play it: install the "
                                    f"skyarena release whose {game} engine is {recorded}")


def start_state(header: Mapping[str, Any]) -> State:
    check_engine_version(header)
    return make(header["game"], header["players"], header["seed"], header.get("options") or {})


def seat_decisions(records: Sequence[Mapping[str, Any]], seat: int) -> Iterator[SeatDecision]:
    """Every decision ``seat`` was asked, in order, by re-playing the referee's ``records``."""
    records = engine_records(records)
    state = start_state(records[0])
    if not 0 <= seat < state.players:
        raise ReplayError(f"seat {seat} is not in this {state.players}-player match (seats 0..{state.players - 1})")
    match = match_record(records)
    faults: dict[int, dict[str, Any]] = {}
    for fault in match.get("faults", []):
        if fault.get("seat") == seat:
            faults.setdefault(int(fault["turn"]), {k: v for k, v in fault.items() if k != "seat"})
    charges = {int(c["turn"]): {k: v for k, v in c.items() if k not in ("turn", "seat")}
               for c in match.get("charges", []) if c.get("seat") == seat}
    forfeited = False
    for record in records:
        if record["type"] != "move":
            continue
        turn = int(record["n"])
        actions = {int(s): text for s, text in record["actions"].items()}
        if seat in state.to_move() and not forfeited:
            fault = faults.get(turn)
            yield SeatDecision(turn, seat, state.observation(seat), state.legal_actions(seat), actions[seat],
                               charges.get(turn, {}), fault, state)
            forfeited = bool(fault and fault.get("forfeit"))
        try:
            state.apply(actions)
        except Exception as exc:
            raise ReplayError(f"move {turn}: {exc}") from None


def decision_record(decision: SeatDecision) -> dict[str, Any]:
    record: dict[str, Any] = {"type": "decision", "turn": decision.turn, "seat": decision.seat,
                              "observation": jsonable(decision.observation),
                              "legal": [str(a) for a in decision.legal], "answer": decision.answer,
                              **decision.charge}
    if decision.fault is not None:
        record["fault"] = decision.fault
    return record


def participant_records(records: Sequence[Mapping[str, Any]], seat: int, *, match_id: str, bot_seed: int | None,
                        bot: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The participant's replay of ``seat``: the referee's records, then its own view of the match.
    ``bot`` says which bot played the seat (version id, name, number, archive digest)."""
    full = engine_records(records)
    public_options = start_state(full[0]).public_options()  # what the referee told the bot (Welcome)
    decisions = [decision_record(d) for d in seat_decisions(full, seat)]
    participant = {"type": "participant", "format": FORMAT, "match_id": match_id, "seat": seat,
                   "bot_seed": bot_seed, "bot": dict(bot), "options": public_options, "decisions": len(decisions)}
    return [*full, participant, *decisions]


def participant(records: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The ``participant`` record, or ReplayError when this is not a participant's replay."""
    found = next((r for r in records if r.get("type") == "participant"), None)
    if found is None:
        raise ReplayError("this replay is not a participant's replay (no 'participant' record): fetch one with "
                          "`skyarena replay MATCH_ID --mine`")
    return dict(found)


def verify_participant_replay(records: Sequence[Mapping[str, Any]]) -> tuple[State, int]:
    """Re-play the match (moves, chance, hash, faults) and check that every decision record is
    what the seat was shown and answered; returns the final state and the seat's decision count."""
    full = engine_records(records)
    check_engine_version(full[0])
    state = verify_match_replay(full)
    about = participant(records)
    seat = int(about["seat"])
    recorded = [r for r in records if r.get("type") == "decision"]
    derived = list(seat_decisions(full, seat))
    if len(recorded) != len(derived) or about.get("decisions") != len(derived):
        raise ReplayError(f"the file holds {len(recorded)} decisions of seat {seat}, the re-played match asks it "
                          f"{len(derived)}: the file was cut or edited")
    for mine, theirs in zip(derived, recorded):
        expected = decision_record(mine)
        for key in ("turn", "seat", "observation", "legal", "answer", "fault"):
            if expected.get(key) != theirs.get(key):
                raise ReplayError(f"the decision of turn {theirs.get('turn')}: its {key} differs from the re-played "
                                  "match's: the file was edited")
    return state, len(derived)


def state_at(records: Sequence[Mapping[str, Any]], turn: int) -> State:
    """The engine state just before decision ``turn`` (1 = the start), by re-playing the record."""
    full = engine_records(records)
    moves = [r for r in full if r["type"] == "move"]
    if not 1 <= turn <= len(moves):
        raise ReplayError(f"turn {turn} is not in this match: it has turns 1..{len(moves)}")
    state = start_state(full[0])
    for record in moves[:turn - 1]:
        state.apply({int(s): text for s, text in record["actions"].items()})
    return state


def moves_after(records: Sequence[Mapping[str, Any]], turn: int) -> list[dict[int, str]]:
    """The recorded joint moves from decision ``turn`` on."""
    return [{int(s): text for s, text in r["actions"].items()}
            for r in engine_records(records) if r["type"] == "move" and int(r["n"]) >= turn]
