"""Forking a recorded match at a turn and playing on locally (``skyarena reproduce --fork-at``).

The engine state at turn T is re-created by re-playing the referee's full record up to T
(`referee.match.participant.state_at`) and proven exact: re-playing the recorded moves on from
it reaches the record's final state hash. The new bot then takes the author's seat (with the
seat's recorded bot seed) and house bots or the author's own folders the others; every bot
starts fresh at T (``on_match_start``, then ``act`` from T on) and the local match runner plays
on with the referee's clocks and faults. The first game keeps the recorded chance stream (the
same dice and deck as the recorded match, as far as the new play asks the same draws); each
further game redraws everything the author's seat could not see and re-keys the dice
(``State.with_fresh_chance``), so ``--games N`` measures the new version from that position.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from referee.games import SkyarenaError, State, spec
from referee.games.core.errors import ReplayError
from referee.match.participant import engine_records, match_record, moves_after, participant, state_at

from .bot import Bot
from .local import match_infos, play_from

BotMaker = Callable[[], Bot]


@dataclass(frozen=True)
class ForkGame:
    rank: int              # the author's seat, 0 = first
    score: float
    reason: str
    won: bool


@dataclass
class ForkReport:
    turn: int
    seat: int
    state_hash: str        # the engine state at the fork
    final_hash: str        # the record's final hash, reached again by the recorded moves from the fork
    recorded: ForkGame
    games: list[ForkGame] = field(default_factory=list)

    def summary(self) -> str:
        n = len(self.games)
        wins = sum(g.won for g in self.games)
        mean = sum(g.rank for g in self.games) / n + 1 if n else 0.0
        return (f"from turn {self.turn}: {n} game{'s' if n != 1 else ''}, the new bot won {wins} "
                f"({wins / n:.0%}), mean place {mean:.2f}; the recorded match ended with seat {self.seat} "
                f"in place {self.recorded.rank + 1} (score {self.recorded.score:g}, {self.recorded.reason})")

    def to_json(self) -> dict[str, Any]:
        return {"turn": self.turn, "seat": self.seat, "state_hash": self.state_hash, "final_hash": self.final_hash,
                "recorded": vars(self.recorded), "games": [vars(g) for g in self.games], "summary": self.summary()}


def _won(game: str, rank: int, score: float) -> bool:
    return rank == 0 and (score > 0 if spec(game).cooperative else True)


def fork_state(records: Sequence[Mapping[str, Any]], turn: int) -> tuple[State, str]:
    """The engine state before decision ``turn``, and the record's final hash that proves it."""
    state = state_at(records, turn)
    end: dict[str, Any] = next((r for r in reversed(engine_records(records)) if r.get("type") == "end"), {})
    check = state.clone()
    try:
        for joint in moves_after(records, turn):
            check.apply(joint)
    except SkyarenaError as exc:
        raise ReplayError(f"the recorded moves after turn {turn} do not re-play ({exc}): the record was edited") \
            from None
    if check.state_hash() != end.get("hash"):
        raise ReplayError(f"the state re-created at turn {turn} does not lead to the recorded end (hash "
                          f"{check.state_hash()}, recorded {end.get('hash')}): the record was edited")
    return state, check.state_hash()


def fork(records: Sequence[Mapping[str, Any]], turn: int, new_bot: BotMaker, opponents: Mapping[int, BotMaker],
         games: int = 1, seed: int = 0) -> ForkReport:
    """Play the participant's replay ``records`` on from ``turn`` ``games`` times with ``new_bot`` in its seat."""
    about = participant(records)
    seat = int(about["seat"])
    base, final_hash = fork_state(records, turn)
    result = match_record(records).get("result") or {}
    ranks, scores = result.get("ranks") or [0] * base.players, result.get("scores") or [0.0] * base.players
    report = ForkReport(turn, seat, base.state_hash(), final_hash,
                        ForkGame(ranks[seat], scores[seat], result.get("reason", ""),
                                 _won(base.game, ranks[seat], scores[seat])))
    match_id = f"{about.get('match_id', 'match')}-fork{turn}"
    for g in range(games):
        state = base.clone() if g == 0 else base.with_fresh_chance(seat, seed + g)
        infos = match_infos(state, match_id)
        if about.get("bot_seed") is not None:
            infos[seat] = replace(infos[seat], bot_seed=int(about["bot_seed"]))
        bots = [new_bot() if s == seat else opponents[s]() for s in range(state.players)]
        record = play_from(state, bots, match_id=f"{match_id}-{g + 1}", infos=infos)
        rank, score = record.result.ranks[seat], record.result.scores[seat]
        report.games.append(ForkGame(rank, score, record.result.reason, _won(base.game, rank, score)))
    return report
