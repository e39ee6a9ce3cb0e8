"""Local matches without any server: the match runner driven in process.

Bots run in this process, so a slow bot cannot be interrupted; its answer is timed and,
past its clock, discarded and replaced by the fallback action with a strike, exactly as
the referee would do.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.games import State, make, spec
from referee.games.core.views import private_copy  # bots here share the engine's process
from referee.match import Fault, FaultKind, MatchRecord, MatchRunner, TimeControl

from .bot import Bot, MatchInfo, bot_seed
from .games import observation_class

DEFAULT_LOCAL_TIME = TimeControl(move_s=5.0, bank_s=30.0, first_move_s=10.0)


def match_infos(state: State, match_id: str = "") -> list[MatchInfo]:
    """What each seat's bot is told at the start: never the seed or the ``setup`` deal."""
    options = state.public_options()
    return [MatchInfo(state.game, seat, state.players, options, bot_seed(state.seed, seat), match_id)
            for seat in range(state.players)]


def play_match(
    game: str,
    bots: Sequence[Bot],
    seed: int = 0,
    options: dict[str, Any] | None = None,
    time_control: TimeControl | None = None,
    strike_limit: int = 3,
    match_id: str = "",
) -> MatchRecord:
    """Play one match; seat i is ``bots[i]``."""
    state = make(game, len(bots), seed, options)
    runner = MatchRunner(state, time_control or DEFAULT_LOCAL_TIME, strike_limit, match_id=match_id)
    infos = match_infos(state, match_id)
    for seat, bot in enumerate(bots):
        try:
            bot.start(infos[seat])
        except Exception as exc:  # a crashing bot is a fault, never a crashed match
            runner.fail_outside_turn(seat, FaultKind.EXCEPTION,
                                     f"on_match_start raised {type(exc).__name__}: {exc}")
    observation_type = observation_class(game)
    while not runner.finished:
        for request in runner.pending():
            bot = bots[request.seat]
            observation = observation_type.from_json(private_copy(request.observation))
            started = time.perf_counter()
            try:
                answer = bot.act(observation, request.legal_actions)
            except Exception as exc:
                runner.fail(request.seat, FaultKind.EXCEPTION, f"act() raised {type(exc).__name__}: {exc}",
                            time.perf_counter() - started)
            else:
                runner.submit(request.seat, answer, time.perf_counter() - started)
    record = runner.record()
    for seat, bot in enumerate(bots):
        try:
            bot.on_match_end(infos[seat], record.result.to_json())
        except Exception as exc:
            # The result stands; the fault is recorded so the author sees it.
            record.faults.append(Fault(seat, record.decisions, FaultKind.EXCEPTION,
                                       f"on_match_end raised {type(exc).__name__}: {exc}",
                                       strike=runner.strikes[seat], forfeit=False))
    return record


def play_unclocked(game: str, bots: Sequence[Bot], seed: int = 0, options: dict[str, Any] | None = None) -> State:
    """Play bots straight on the engine, without clocks or fault handling, and return the
    final state: the fastest way to evaluate bots over thousands of games. A bot that
    answers badly raises here instead of getting a strike."""
    state = make(game, len(bots), seed, options)
    for bot, info in zip(bots, match_infos(state)):
        bot.start(info)
    observation_type = observation_class(game)
    while not state.is_over():
        joint = {}
        for seat in state.to_move():
            legal = state.legal_actions(seat)
            answer = bots[seat].act(observation_type.from_json(private_copy(state.observation(seat))), list(legal))
            joint[seat] = legal[answer] if isinstance(answer, int) and not isinstance(answer, bool) else answer
        state.apply(joint)
    return state


@dataclass
class BotStanding:
    name: str
    games: int = 0
    wins: int = 0
    rank_sum: float = 0.0
    score_sum: float = 0.0
    faults: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "wins": self.wins,
            "mean_rank": round(self.rank_sum / self.games, 4) if self.games else None,
            "mean_score": round(self.score_sum / self.games, 4) if self.games else None,
            "faults": self.faults,
        }


@dataclass
class SeriesReport:
    game: str
    players: int
    games: int
    seed: int
    standings: list[BotStanding]
    records: list[MatchRecord] = field(repr=False, default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "players": self.players, "games": self.games, "seed": self.seed,
                "bots": [s.to_json() for s in self.standings]}


def is_win(game: str, record: MatchRecord, seat: int) -> bool:
    """Rank 0 wins; in a co-operative game the team wins only if the game was won."""
    if spec(game).cooperative:
        return record.result.ranks[seat] == 0 and record.result.scores[seat] > 0
    return record.result.ranks[seat] == 0


def play_series(
    game: str,
    bot_factories: Sequence[tuple[str, Callable[[], Bot]]],
    games: int,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    time_control: TimeControl | None = None,
    strike_limit: int = 3,
    on_match: Callable[[int, MatchRecord, list[int]], None] | None = None,
    keep_records: bool = False,
) -> SeriesReport:
    """``games`` matches; seats rotate so each bot plays each seat equally; match i uses seed+i.

    Bot names are made unique (``random``, ``random#2``) so standings stay apart.
    """
    names = _unique([name for name, _ in bot_factories])
    standings = [BotStanding(name) for name in names]
    players = len(bot_factories)
    records = []
    for i in range(games):
        order = [(s + i) % players for s in range(players)]  # seat s is played by bot order[s]
        bots = [bot_factories[b][1]() for b in order]
        record = play_match(game, bots, seed + i, options, time_control, strike_limit, match_id=f"local-{seed + i}")
        for seat, b in enumerate(order):
            st = standings[b]
            st.games += 1
            st.wins += is_win(game, record, seat)
            st.rank_sum += record.result.ranks[seat]
            st.score_sum += record.result.scores[seat]
            st.faults += sum(1 for f in record.faults if f.seat == seat)
        if on_match is not None:
            on_match(i, record, order)
        if keep_records:
            records.append(record)
    return SeriesReport(game, players, games, seed, standings, records)


def _unique(names: Iterable[str]) -> list[str]:
    seen: dict[str, int] = {}
    out = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        out.append(name if seen[name] == 1 else f"{name}#{seen[name]}")
    return out
