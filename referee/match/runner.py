"""One match of any game among any seats, with clocks, strikes, fallback and forfeit.

The runner is a state machine driven from outside: ``pending()`` lists the decisions it
waits for, ``submit``/``fail`` deliver them, and it applies a joint action as soon as every
seat to move has answered. Seats that forfeited are played by the fallback policy without
being asked. Both the in-process local driver and the asyncio gRPC referee drive it, so
fault handling is identical everywhere.

Fallback action (documented in the README): the first legal action in canonical order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from referee.games import GAMES, IllegalAction, MalformedAction, Result, State

from .clock import CPU, WALL, SeatClock, TimeControl
from .faults import REASON_LIMIT, Fault, FaultKind, cap

FallbackPolicy = Callable[[State, int], Any]


def first_legal_action(state: State, seat: int) -> Any:
    """The documented fallback: the first legal action in canonical order."""
    return state.legal_actions(seat)[0]


def legal_summary(legal: list[Any], shown: int = 8) -> str:
    """The first legal actions' notation, for a message about an answer that is none of them."""
    text = ", ".join(cap(str(a), 80) for a in legal[:shown])
    return text + (f", ... ({len(legal)} in all)" if len(legal) > shown else "")


class DecisionRequest(NamedTuple):
    """What a seat is asked: its view, its legal actions and its clock. (A named tuple: one
    is made per decision on the referee's hot path.)"""

    seat: int
    turn: int
    observation: dict[str, Any]
    legal_actions: list[Any]
    time_limit_s: float     # this move's limit before the bank is touched
    bank_s: float           # what is left in the seat's bank

    @property
    def deadline_s(self) -> float:
        return self.time_limit_s + self.bank_s


@dataclass
class MatchRecord:
    """Everything a match produced: the (fault-adjusted) result, faults, replay."""

    game: str
    players: int
    seed: int
    options: dict[str, Any]
    match_id: str
    result: Result
    engine_result: Result
    faults: list[Fault]
    forfeited: list[int]
    unrated: list[int]
    decisions: int
    time_used_s: list[float]
    replay: list[dict[str, Any]] = field(repr=False, default_factory=list)
    clocks: list[str] = field(default_factory=list)    # per seat: "wall" or "cpu"
    charges: list[dict[str, Any]] = field(repr=False, default_factory=list)  # per decision: what was charged

    def to_json(self, with_replay: bool = False) -> dict[str, Any]:
        data = {
            "match_id": self.match_id,
            "game": self.game,
            "players": self.players,
            "seed": self.seed,
            "result": self.result.to_json(),
            "engine_result": self.engine_result.to_json(),
            "faults": [f.to_json() for f in self.faults],
            "forfeited": self.forfeited,
            "unrated": self.unrated,
            "decisions": self.decisions,
            "time_used_s": [round(t, 6) for t in self.time_used_s],
            "clocks": self.clocks,
        }
        if with_replay:
            data["replay"] = self.replay
        return data

    def replay_records(self) -> list[dict[str, Any]]:
        """The engine replay plus a trailing 'match' record with faults, forfeits, each seat's
        clock and the time charged for each decision."""
        extra = {"type": "match", **self.to_json(), "charges": self.charges}
        return [*self.replay, extra]


class MatchRunner:
    def __init__(
        self,
        state: State,
        time_control: TimeControl | None = None,
        strike_limit: int = 3,
        fallback: FallbackPolicy = first_legal_action,
        match_id: str = "",
        cpu_seats: Sequence[int] = (),
    ) -> None:
        if strike_limit < 1:
            raise ValueError("strike_limit must be at least 1")
        self.state = state
        self.time_control = time_control or TimeControl()
        self.strike_limit = strike_limit
        self.fallback = fallback
        self.match_id = match_id
        self.clocks = [SeatClock(self.time_control) for _ in range(state.players)]
        self.clock_kinds = [CPU if seat in cpu_seats else WALL for seat in range(state.players)]
        self.charges: list[dict[str, Any]] = []
        self.strikes = [0] * state.players
        self.forfeited: list[int] = []
        self.faults: list[Fault] = []
        self._answers: dict[int, Any] = {}
        # The seats to move and the legal actions already computed in the current step: the
        # state changes only in _advance, which refreshes both, so each engine call is made
        # once per step however often the driver asks.
        self._movers: tuple[int, ...] = state.to_move()
        self._legal: dict[int, list[Any]] = {}
        self._limit = GAMES[state.game].max_decisions
        self._advance()

    # ----- driving -----------------------------------------------------------------
    @property
    def finished(self) -> bool:
        return not self._movers

    @property
    def turn(self) -> int:
        return self.state.decisions + 1

    def pending(self) -> list[DecisionRequest]:
        """The decisions still awaited for the current step (forfeited seats excluded)."""
        state = self.state
        turn = state.decisions + 1
        requests = []
        for seat in self._movers:
            if seat in self._answers:
                continue
            clock = self.clocks[seat]
            # A copy: what a bot does to its list must not change what its index resolves to.
            requests.append(DecisionRequest(seat, turn, state.observation(seat), list(self.legal_actions(seat)),
                                            clock.limit_s(), clock.bank_s))
        return requests

    def legal_actions(self, seat: int) -> list[Any]:
        """The seat's legal actions in the current step (computed once per step; do not modify)."""
        legal = self._legal.get(seat)
        if legal is None:
            legal = self._legal[seat] = self.state.legal_actions(seat)
        return legal

    def submit(self, seat: int, answer: Any, elapsed_s: float, *, clock_kind: str | None = None,
               wall_s: float | None = None, note: str = "") -> Fault | None:
        """A seat's answer: an action, its notation or its index. Returns the fault, if any.
        ``elapsed_s`` is what the seat is charged: wall or CPU seconds (``clock_kind``, by
        default the seat's; ``wall_s`` and ``note`` go into the charge record)."""
        self._expect(seat)
        clock = self.clocks[seat]
        limit = clock.limit_s()  # before charge() counts this move
        kind = self._book(seat, elapsed_s, clock_kind, wall_s, note)
        if not clock.charge(elapsed_s):
            took = "used" if kind == CPU else "answered after"
            what = " of CPU" if kind == CPU else ""
            return self._fault(seat, FaultKind.TIMEOUT,
                               f"{took} {elapsed_s:.3f} s{what}, past the move limit of {limit:.3f} s "
                               "and the rest of the time bank")
        try:
            action = self._resolve(seat, answer)
        except IllegalAction as exc:
            return self._fault(seat, FaultKind.ILLEGAL, str(exc))
        except (MalformedAction, TypeError, ValueError) as exc:
            return self._fault(seat, FaultKind.UNPARSEABLE, str(exc))
        except Exception as exc:  # whatever a bot's object makes an engine raise is the bot's fault
            return self._fault(seat, FaultKind.UNPARSEABLE,
                               f"the answer could not be checked against the legal actions: {type(exc).__name__}")
        self._answers[seat] = action
        self._advance()
        return None

    def fail(self, seat: int, kind: FaultKind, reason: str, elapsed_s: float = 0.0, *, clock_kind: str | None = None,
             wall_s: float | None = None, note: str = "") -> Fault:
        """The seat produced no usable answer (crash, timeout detected by the driver, disconnect)."""
        self._expect(seat)
        self._book(seat, elapsed_s, clock_kind, wall_s, note)
        self.clocks[seat].charge(elapsed_s)
        if kind is FaultKind.TIMEOUT:
            self.clocks[seat].bank_s = 0.0
        return self._fault(seat, kind, reason)

    def fail_outside_turn(self, seat: int, kind: FaultKind, reason: str) -> Fault:
        """A fault that happened while the seat was not asked (e.g. a crash at match start)."""
        fault = self._strike(seat, kind, reason)
        self._advance()
        return fault

    # ----- internals -----------------------------------------------------------------
    def _book(self, seat: int, charged_s: float, clock_kind: str | None, wall_s: float | None, note: str) -> str:
        """One decision's charge record (the replay's per-move time); returns the clock used."""
        kind = clock_kind or self.clock_kinds[seat]
        entry: dict[str, Any] = {"turn": self.turn, "seat": seat, "clock": kind, "charged_s": round(charged_s, 6)}
        if wall_s is not None and kind == CPU:
            entry["wall_s"] = round(wall_s, 6)
        if note:
            entry["note"] = cap(note, REASON_LIMIT)
        self.charges.append(entry)
        return kind

    def _expect(self, seat: int) -> None:
        movers = self._movers
        if not movers:
            raise RuntimeError("the match is over")
        if seat not in movers or seat in self._answers:
            raise RuntimeError(f"seat {seat} is not awaited now (turn {self.turn})")

    def _resolve(self, seat: int, answer: Any) -> Any:
        """The legal action an answer names. Nothing here builds text, lists or loops whose
        size comes from the answer: messages name the legal side and the answer's type only
        (an action object's str() may be huge, or raise)."""
        state = self.state
        if isinstance(answer, str):
            return state.parse_action(seat, answer)
        if isinstance(answer, bool):
            raise TypeError(f"a bot answered {answer!r}; answer with an action, its notation string or its index")
        if isinstance(answer, int):
            legal = self.legal_actions(seat)
            if not 0 <= answer < len(legal):
                shown = cap(str(answer), 40)
                raise ValueError(f"index {shown} is out of range: there are {len(legal)} legal actions "
                                 f"(0..{len(legal) - 1})")
            return legal[answer]
        legal = self.legal_actions(seat)
        kind = cap(type(answer).__name__, 60)
        if not any(type(answer) is type(action) for action in legal):
            raise TypeError(f"a bot answered a {kind}; answer with one of the legal actions, its notation string "
                            "or its index")
        for action in legal:  # by value, against the legal side: the answer is never turned into text
            if type(action) is type(answer) and action == answer:  # equal tuples of two classes are not one action
                return action
        raise IllegalAction(f"{state.game}: the {kind} answered is not one of the {len(legal)} legal actions of "
                            f"seat {seat} now; legal: {legal_summary(legal)}.")

    def _strike(self, seat: int, kind: FaultKind, reason: str) -> Fault:
        reason = cap(reason, REASON_LIMIT)
        self.strikes[seat] += 1
        forfeit = self.strikes[seat] >= self.strike_limit and seat not in self.forfeited
        if forfeit:
            self.forfeited.append(seat)
        fault = Fault(seat=seat, turn=self.turn, kind=kind, reason=reason,
                      strike=self.strikes[seat], forfeit=forfeit)
        self.faults.append(fault)
        return fault

    def _fault(self, seat: int, kind: FaultKind, reason: str) -> Fault:
        fault = self._strike(seat, kind, reason)
        if seat in self._movers and seat not in self._answers:
            self._answers[seat] = self._fallback(seat)
        self._advance()
        return fault

    def _fallback(self, seat: int) -> Any:
        """The fallback policy's action for ``seat``; a custom policy's answer is checked,
        since the joint action is applied without a second legality test."""
        if self.fallback is first_legal_action:
            return self.legal_actions(seat)[0]
        action = self.fallback(self.state, seat)
        if not self.state.is_legal(seat, action):
            raise RuntimeError(f"the fallback policy chose {action!r}, which is not legal for seat {seat}")
        return action

    def _advance(self) -> None:
        """Fill in forfeited seats and apply joint actions while nothing else is awaited."""
        state = self.state
        while movers := self._movers:  # empty once the game is over
            answers = self._answers
            if self.forfeited:
                for seat in movers:
                    if seat in self.forfeited and seat not in answers:
                        answers[seat] = self._fallback(seat)
            for seat in movers:
                if seat not in answers:
                    return
            joint = {seat: answers[seat] for seat in movers}
            self._answers = {}
            self._legal = {}
            state.apply_legal(joint)  # every answer was resolved against this step's legal actions
            self._movers = state.to_move()
            if state.decisions > self._limit:
                raise RuntimeError(f"{state.game} exceeded its bound of {self._limit} decisions")

    # ----- the outcome ---------------------------------------------------------------
    def record(self) -> MatchRecord:
        if not self.finished:
            raise RuntimeError("record() before the match is over")
        engine_result = self.state.result()
        assert engine_result is not None
        result, unrated = self._adjusted(engine_result)
        return MatchRecord(
            game=self.state.game,
            players=self.state.players,
            seed=self.state.seed,
            options=self.state.options,
            match_id=self.match_id,
            result=result,
            engine_result=engine_result,
            faults=list(self.faults),
            forfeited=list(self.forfeited),
            unrated=unrated,
            decisions=self.state.decisions,
            time_used_s=[c.used_s for c in self.clocks],
            replay=self.state.replay(),
            clocks=list(self.clock_kinds),
            charges=list(self.charges),
        )

    def _adjusted(self, result: Result) -> tuple[Result, list[int]]:
        """Forfeited seats rank last. In co-op the faulty seat takes the loss and its partners
        are marked unrated, since they could not have won or lost on their own play."""
        if not self.forfeited:
            return result, []
        out = set(self.forfeited)
        players = self.state.players
        details = {**result.details, "forfeited": sorted(out), "engine_reason": result.reason}
        if GAMES[self.state.game].cooperative:
            coop_ranks = tuple(1 if s in out else 0 for s in range(players))
            scores = tuple(0.0 if s in out else result.scores[s] for s in range(players))
            unrated = [s for s in range(players) if s not in out]
            return Result(coop_ranks, scores, "forfeit", details), unrated
        staying = [s for s in range(players) if s not in out]
        ranks = [0] * players
        for s in staying:
            ranks[s] = sum(1 for o in staying if result.ranks[o] < result.ranks[s])
        for s in out:
            ranks[s] = len(staying)
        return Result(tuple(ranks), result.scores, "forfeit", details), []
