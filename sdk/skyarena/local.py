"""Local matches without any server: the match runner driven in process, each bot in its
seat (``seats.py``): a worker process cut off at its deadline, or a Bot object called here.

The clocks, strikes, fallback and forfeits are the referee's own (``referee.match``), and so
are the default time control and strike limit: a bot that is in time here is in time there.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.games import State, make, spec
from referee.games.core.views import private_copy  # bots here share the engine's process
from referee.match import Fault, MatchRecord, MatchRunner, TimeControl

from .bot import Bot, MatchInfo, bot_seed
from .games import observation_class
from .loader import create_bot, load_bot
from .seats import InProcessSeat, Seat, WorkerSeat, collect
from .worker import BotSource

DEFAULT_TIME = TimeControl()   # the referee's defaults: one set of clocks everywhere
DEFAULT_STRIKES = 3            # the referee's default strike limit (StartMatchRequest.strike_limit)


def match_infos(state: State, match_id: str = "") -> list[MatchInfo]:
    """What each seat's bot is told at the start: never the seed or the ``setup`` deal."""
    options = state.public_options()
    return [MatchInfo(state.game, seat, state.players, options, bot_seed(state.seed, seat), match_id)
            for seat in range(state.players)]


def play_match(
    game: str,
    bots: Sequence[Bot | Seat],
    seed: int = 0,
    options: dict[str, Any] | None = None,
    time_control: TimeControl | None = None,
    strike_limit: int = DEFAULT_STRIKES,
    match_id: str = "",
) -> MatchRecord:
    """Play one match; seat i is ``bots[i]`` (a Bot object is called in this process)."""
    return play_from(make(game, len(bots), seed, options), bots, time_control, strike_limit, match_id)


def play_from(
    state: State,
    bots: Sequence[Bot | Seat],
    time_control: TimeControl | None = None,
    strike_limit: int = DEFAULT_STRIKES,
    match_id: str = "",
    infos: Sequence[MatchInfo] | None = None,
) -> MatchRecord:
    """Play ``state`` to its end, a fresh match or a position part-way (a fork of a recorded match);
    ``infos`` are what each seat's bot is told at its start (default: ``match_infos``)."""
    game = state.game
    seats = [bot if isinstance(bot, Seat) else InProcessSeat(bot, game) for bot in bots]
    control = time_control or DEFAULT_TIME
    runner = MatchRunner(state, control, strike_limit, match_id=match_id,
                         cpu_seats=[i for i, seat in enumerate(seats) if seat.cpu_clock])
    infos = list(infos) if infos is not None else match_infos(state, match_id)
    hook_limit = control.first_move_s or control.move_s
    for seat, player in enumerate(seats):
        player.new_match()
        fault = player.start(infos[seat], hook_limit)
        if fault is not None:  # a crashing bot is a fault, never a crashed match
            runner.fail_outside_turn(seat, *fault)
    while not runner.finished:
        for reply in collect(seats, runner.pending(), control.wall_backstop):
            if reply.fault is None:
                runner.submit(reply.seat, reply.answer, reply.elapsed_s, clock_kind=reply.clock, wall_s=reply.wall_s)
            else:
                runner.fail(reply.seat, reply.fault[0], reply.fault[1], reply.elapsed_s, clock_kind=reply.clock,
                            wall_s=reply.wall_s)
    record = runner.record()
    for seat, player in enumerate(seats):
        fault = player.end(infos[seat], record.result.to_json(), hook_limit)
        if fault is not None:
            # The result stands; the fault is recorded so the author sees it.
            record.faults.append(Fault(seat, record.decisions, *fault, strike=runner.strikes[seat], forfeit=False))
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


RANK_CONVENTION = "rank 1 = first; ties share a rank"   # how people are shown ranks (JSON keeps 0 = first)


@dataclass
class BotStanding:
    name: str
    games: int = 0
    wins: int = 0
    rank_sum: float = 0.0    # of 0-based ranks (0 = first), as the engines give them
    score_sum: float = 0.0
    faults: int = 0

    @property
    def mean_rank(self) -> float | None:
        """Mean 1-based rank (1 = first)."""
        return 1 + self.rank_sum / self.games if self.games else None

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "wins": self.wins,
            "mean_rank": round(self.mean_rank, 4) if self.mean_rank is not None else None,
            "mean_score": round(self.score_sum / self.games, 4) if self.games else None,
            "faults": self.faults,
        }


@dataclass(frozen=True)
class MatchSummary:
    """One match of a series as the standings show it: who sat where and how it ended."""

    seed: int
    seats: list[str]          # the bot name in each seat
    ranks: list[int]          # 0 = first
    scores: list[float]
    reason: str
    won: bool | None          # co-operative games: whether the team won; else None
    faults: list[dict[str, Any]]
    forfeited: list[int]

    @classmethod
    def of(cls, game: str, record: MatchRecord, seats: list[str]) -> MatchSummary:
        won = is_win(game, record, 0) if spec(game).cooperative else None
        return cls(record.seed, seats, list(record.result.ranks), list(record.result.scores), record.result.reason,
                   won, [f.to_json() for f in record.faults], list(record.forfeited))

    def to_json(self) -> dict[str, Any]:
        data = {"seed": self.seed, "seats": self.seats, "ranks": self.ranks, "scores": self.scores,
                "reason": self.reason, "faults": self.faults, "forfeited": self.forfeited}
        if self.won is not None:
            data["won"] = self.won
        return data


@dataclass
class SeriesReport:
    game: str
    players: int
    games: int
    seed: int
    standings: list[BotStanding]
    records: list[MatchRecord] = field(repr=False, default_factory=list)
    matches: list[MatchSummary] = field(repr=False, default_factory=list)
    cooperative: bool = False

    def reasons(self) -> Counter[str]:
        """How many matches ended for each reason."""
        return Counter(m.reason for m in self.matches)

    def team_wins(self) -> int:
        """Co-operative games: matches the team won."""
        return sum(1 for m in self.matches if m.won)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "game": self.game, "players": self.players, "games": self.games, "seed": self.seed,
            "cooperative": self.cooperative,
            "ranks": "0 = first in this JSON (tables show 1 = first); mean_rank is 1-based",
            "bots": [s.to_json() for s in self.standings],
            "reasons": dict(sorted(self.reasons().items())),
            "matches": [m.to_json() for m in self.matches],
        }
        if self.cooperative:
            wins = self.team_wins()
            data["team"] = {"bots": [s.name for s in self.standings], "wins": wins,
                            "win_rate": round(wins / self.games, 4) if self.games else None}
        return data


def team_won(rank: int, score: float) -> bool:
    """A co-operative game's seats all rank first, landed or crashed: only the score tells a win."""
    return rank == 0 and score > 0


def is_win(game: str, record: MatchRecord, seat: int) -> bool:
    """Rank 0 wins; in a co-operative game the team wins only if the game was won."""
    if spec(game).cooperative:
        return team_won(record.result.ranks[seat], record.result.scores[seat])
    return record.result.ranks[seat] == 0


def play_series(
    game: str,
    bots: Sequence[tuple[str, BotSource | Callable[[], Bot]]],
    games: int,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    time_control: TimeControl | None = None,
    strike_limit: int = DEFAULT_STRIKES,
    on_match: Callable[[int, MatchRecord, MatchSummary], None] | None = None,
    keep_records: bool = False,
    isolate: bool = False,
    full_tracebacks: bool = False,
) -> SeriesReport:
    """``games`` matches; seats rotate so each bot plays each seat equally; match i uses seed+i.

    ``bots`` are (name, source); an empty name means the bot's own (``Bot.name`` or its
    file's name). With ``isolate`` each bot runs in its own worker process,
    cut off at its deadlines (a source is then a bot spec such as ``"mybot/bot.py"`` or an
    importable Bot class); else each is a function returning a Bot, called in this process.
    Bot names are made unique (``random``, ``random#2``) so standings stay apart.
    """
    players = len(bots)
    seats = _seats(game, bots, isolate, full_tracebacks)
    names = _unique([name or seat.name for (name, _), seat in zip(bots, seats)])
    standings = [BotStanding(name) for name in names]
    report = SeriesReport(game, players, games, seed, standings, cooperative=spec(game).cooperative)
    try:
        for i in range(games):
            order = [(s + i) % players for s in range(players)]  # seat s is played by bot order[s]
            record = play_match(game, [seats[b] for b in order], seed + i, options, time_control, strike_limit,
                                match_id=f"local-{seed + i}")
            for seat, b in enumerate(order):
                st = standings[b]
                st.games += 1
                st.wins += is_win(game, record, seat)
                st.rank_sum += record.result.ranks[seat]
                st.score_sum += record.result.scores[seat]
                st.faults += sum(1 for f in record.faults if f.seat == seat)
            summary = MatchSummary.of(game, record, [names[b] for b in order])
            report.matches.append(summary)
            if on_match is not None:
                on_match(i, record, summary)
            if keep_records:
                report.records.append(record)
    finally:
        for player in seats:
            player.close()
    return report


def _seats(game: str, bots: Sequence[tuple[str, Any]], isolate: bool, full_tracebacks: bool) -> list[Seat]:
    seats: list[Seat] = []
    try:
        for _, source in bots:
            seats.append(WorkerSeat(source, game, full_tracebacks) if isolate
                         else InProcessSeat(_factory(source, game), game, full_tracebacks))
    except BaseException:
        for made in seats:
            made.close()
        raise
    return seats


def _factory(source: BotSource | Callable[[], Bot], game: str) -> Callable[[], Bot]:
    """A function making the bot in this process; a Bot class or spec is made with
    ``create_bot``, whose errors are one line naming the bot's file."""
    if isinstance(source, str):
        source = load_bot(source, game)[1]
    if isinstance(source, type) and issubclass(source, Bot):
        cls: type[Bot] = source
        return lambda: create_bot(cls)
    assert callable(source)
    return source  # type: ignore[return-value]


def _unique(names: Iterable[str]) -> list[str]:
    seen: dict[str, int] = {}
    out = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        out.append(name if seen[name] == 1 else f"{name}#{seen[name]}")
    return out
