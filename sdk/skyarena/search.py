"""The boss: a determinised Monte Carlo search over the forward model, with the house
heuristic as its playout policy.

Why this search. Each iteration draws a fresh full state from the seat's observation
(``Bot.sample_state``: determinisation per iteration, so no single guess of the hidden
cards is trusted), tries one of the seat's legal actions there, and plays the rest of
the game (or a fixed number of decisions, then an estimate) with every seat played by the
game's ``heuristic`` bot. The root chooses which action to try next by UCB1. Random
playouts were tried first and made a boss weaker than the heuristic itself: a random
playout says how an action fares among players who do not play the game. Heuristic
playouts say how it fares among the house bots, and the heuristic's own choice is the
default, which the search overrules only when another action has clearly done better:
so the boss is the heuristic with a look-ahead, never a worse guesser than it.

Full ISMCTS (a tree over information sets) would spend the few hundred playouts a second
of these pure-Python engines on nodes deep in the tree that are each visited a handful of
times; at one second per move a flat search at the root is where they count.

Time. The search reads the decision's clock (``Bot.clock``) and stops at a share of what
is left of the move limit, less a margin for the answer's way back, never touching the
bank; with no clock (unclocked play) it uses ``default_move_s``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import Any, ClassVar

from referee.games import State, spec
from referee.games.core.errors import ObservationError

from .bot import Bot, MatchInfo, bot_seed
from .games import to_observation

SHARE = 0.6             # of the time left in the move limit that the search may use
MARGIN_S = 0.03         # kept back for building and sending the answer...
MARGIN_SHARE = 0.2      # ...or this share of the time left, when that is less (short test clocks)
LOW_BANK_MOVES = 5      # a bank under this many move limits counts as running low
HARD_SHARE = 0.25       # a playout may run past the budget by this share of it, then is dropped
EXPLORE = 0.7           # UCB1 exploration constant (values are in [0, 1])
OVERRULE = 0.02         # how much better than the heuristic's choice another must do, on average...
EVIDENCE = 1.5          # ...plus this many standard errors of the difference of the two means
MIN_VISITS = 3          # playouts of an action before its mean is compared
VARIANCE_FLOOR = 0.05   # of a playout's value in [0, 1]


def rank_value(state: State, seat: int) -> float:
    """A finished game's worth to ``seat`` in [0, 1]: the share of the other seats it
    finished ahead of (a tie counts half); for a co-operative game, its score."""
    result = state.result()
    assert result is not None
    if spec(state.game).cooperative:
        return float(result.scores[seat])
    return share_ahead([-r for r in result.ranks], seat)


def share_ahead(scores: Sequence[float], seat: int) -> float:
    """The share of the other seats whose score ``seat`` beats (higher is better; a tie
    counts half), in [0, 1]: how a finished game, or an estimate of one, is worth to it."""
    mine = scores[seat]
    ahead = sum(1.0 if score < mine else 0.5 if score == mine else 0.0
                for other, score in enumerate(scores) if other != seat)
    return ahead / (len(scores) - 1)


class Playout:
    """Plays a state forward with one house-heuristic bot per seat."""

    def __init__(self, game: str, info: MatchInfo, heuristic: type[Bot]) -> None:
        self.game = game
        self.bots: list[Bot] = []
        for seat in range(info.players):
            bot = heuristic()
            bot.start(MatchInfo(game, seat, info.players, info.options, bot_seed(info.bot_seed, seat, "playout")))
            self.bots.append(bot)

    def choose(self, state: State, seat: int, legal: Sequence[Any] | None = None) -> Any:
        """The heuristic's action for ``seat`` in ``state`` (an action of ``legal``)."""
        actions = list(state.legal_actions(seat)) if legal is None else list(legal)
        answer = self.bots[seat].act(to_observation(self.game, state.observation(seat)), actions)
        return resolve(answer, actions)

    def run(self, state: State, steps: int, stop: float = math.inf) -> bool:
        """Play up to ``steps`` decisions (or to the end) unless ``time.monotonic()`` passes
        ``stop``; returns whether it got there in time."""
        played = 0
        while played < steps and not state.is_over():
            if time.monotonic() > stop:
                return False
            state.apply_legal({seat: self.choose(state, seat) for seat in state.to_move()})
            played += 1
        return True


def resolve(answer: Any, legal: Sequence[Any]) -> Any:
    """A bot's answer (an action, its notation or its index) as the legal action it names."""
    if type(answer) is int:
        return legal[answer]
    if isinstance(answer, str):
        for action in legal:
            if str(action) == answer:
                return action
        raise ValueError(f"the heuristic answered {answer!r}, which is not a legal action here")
    return answer


class BossBot(Bot):
    """Searches each decision within its clock (see the module's docstring). A game's boss
    is this class with its ``heuristic`` and, for long games, ``horizon`` and ``estimate``."""

    name = "boss"
    heuristic: ClassVar[type[Bot]]
    horizon: ClassVar[int] = 10_000     # playout decisions before the estimate takes over
    default_move_s: ClassVar[float] = 0.2
    max_candidates: ClassVar[int] = 8

    def on_match_start(self, info: MatchInfo) -> None:
        self.playout = Playout(info.game, info, self.heuristic)
        self.rollouts = 0          # playouts in all, and decisions searched: for the benchmark
        self.searched = 0

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        assert self.info is not None
        seat = self.info.seat
        legal = list(legal_actions)
        default = legal.index(resolve(self.playout.bots[seat].act(observation, legal), legal))
        if len(legal) == 1:
            return 0
        budget = self.budget()
        stop = time.monotonic() + budget
        hard_stop = stop + HARD_SHARE * budget  # a playout still running then is dropped
        try:
            first = self.sample_state(observation)
        except ObservationError:
            return default          # a position the game's forward model does not rebuild
        candidates = self.candidates(len(legal), default)
        visits = dict.fromkeys(candidates, 0)
        totals = dict.fromkeys(candidates, 0.0)
        squares = dict.fromkeys(candidates, 0.0)
        texts = [str(a) for a in legal]
        done = 0
        while time.monotonic() < stop:
            choice = self.pick(candidates, visits, totals, done)
            sample, first = (first, None) if first is not None else (self.sample_state(observation), None)
            value = self.playout_value(sample, seat, texts[choice], hard_stop)
            if value is None:
                break
            visits[choice] += 1
            totals[choice] += value
            squares[choice] += value * value
            done += 1
        self.rollouts += done
        self.searched += 1
        return self.decide(default, visits, totals, squares)

    def budget(self) -> float:
        clock = self.clock
        if clock is None:
            return self.default_move_s
        left = clock.move_left()
        # A bank running low means the machine has been slower than the budgets assumed
        # (a loaded worker, a wall clock): think less until it stops draining.
        share = SHARE if clock.bank_s >= LOW_BANK_MOVES * clock.move_s else SHARE / 2
        return max(0.0, share * left - min(MARGIN_S, MARGIN_SHARE * left))

    def candidates(self, count: int, default: int) -> list[int]:
        """The heuristic's choice first, then up to ``max_candidates - 1`` others."""
        others = [i for i in range(count) if i != default]
        if len(others) >= self.max_candidates:
            others = self.random.sample(others, self.max_candidates - 1)
        return [default, *others]

    def pick(self, candidates: list[int], visits: dict[int, int], totals: dict[int, float], done: int) -> int:
        for index in candidates:
            if not visits[index]:
                return index
        log_n = math.log(done)
        return max(candidates, key=lambda i: totals[i] / visits[i] + EXPLORE * math.sqrt(log_n / visits[i]))

    def playout_value(self, state: State, seat: int, text: str, stop: float = math.inf) -> float | None:
        """The worth to ``seat`` of playing ``text`` in ``state`` and playing on; None if
        the playout ran past ``stop``."""
        joint = {}
        for mover in state.to_move():
            if mover == seat:
                joint[mover] = next(a for a in state.legal_actions(seat) if str(a) == text)
            else:
                joint[mover] = self.playout.choose(state, mover)
        state.apply_legal(joint)
        if not self.playout.run(state, self.horizon, stop):
            return None
        if state.is_over():
            return rank_value(state, seat)
        return self.estimate(state, seat)

    def estimate(self, state: State, seat: int) -> float:
        """An unfinished playout's worth to ``seat``, in [0, 1]: a game whose playouts stop
        at ``horizon`` says how to judge the position there."""
        raise NotImplementedError(f"{type(self).__name__} stops playouts at a horizon but has no estimate()")

    def decide(self, default: int, visits: dict[int, int], totals: dict[int, float],
               squares: dict[int, float]) -> int:
        """The heuristic's choice unless another action did better by more than the noise
        of so few playouts: its mean beats the heuristic's by ``OVERRULE`` plus ``EVIDENCE``
        standard errors of the difference. With a handful of playouts a move the boss is
        the heuristic; the more it can play out, the more it overrules it."""
        n0 = visits[default]
        if n0 < MIN_VISITS:
            return default
        mean0, var0 = _moments(totals[default], squares[default], n0)
        best, best_gain = default, 0.0
        for index, n in visits.items():
            if index == default or n < MIN_VISITS:
                continue
            mean, var = _moments(totals[index], squares[index], n)
            gain = mean - mean0 - OVERRULE - EVIDENCE * math.sqrt(var / n + var0 / n0)
            if gain > best_gain:
                best, best_gain = index, gain
        return best


def _moments(total: float, squares: float, n: int) -> tuple[float, float]:
    """Mean and variance of n values from their sum and sum of squares (a floor on the
    variance: two equal playouts do not make a certainty)."""
    mean = total / n
    return mean, max(squares / n - mean * mean, VARIANCE_FLOOR) * n / max(1, n - 1)
