"""The boss: a determinised Monte Carlo search over the forward model, with the house
heuristic as its playout policy and paired playouts among a few candidate actions.

Why this search. Each iteration draws a fresh full state from the seat's observation
(``Bot.sample_state``: determinisation per iteration, so no single guess of the hidden
cards is trusted) and plays every candidate action still in the running from a copy of
that same state, the rest of the game (or a fixed number of decisions, then an estimate)
played by the game's ``heuristic`` bot in every seat. The candidates are compared on the
same draws (common random numbers): in these card and dice games most of a playout's
outcome is the luck of the draw, and a paired difference cancels it, so a few dozen
playouts separate two actions that a few hundred unpaired ones would not. Candidates
that are clearly worse than the heuristic's choice are dropped as the evidence comes in
(successive halving), so the time goes to the close calls.

Random playouts were tried first and made a boss weaker than the heuristic itself: a
random playout says how an action fares among players who do not play the game.
Heuristic playouts say how it fares among the house bots, and the heuristic's own choice
is the default, which the search overrules only when another action has clearly done
better on the same draws: so the boss is the heuristic with a look-ahead, never a worse
guesser than it. A playout is worth its place among the seats (a tie counts half) plus a
little for its score margin (``score_scale``), so that two actions that both win (or both
lose) are still told apart by how much.

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

SHARE = 0.7             # of the time left in the move limit that the search may use
MARGIN_S = 0.03         # kept back for building and sending the answer...
MARGIN_SHARE = 0.2      # ...or this share of the time left, when that is less (short test clocks)
LOW_BANK_MOVES = 5      # a bank under this many move limits counts as running low
HARD_SHARE = 0.15       # a playout may run past the budget by this share of it, then is dropped
OVERRULE = 0.01         # how much better than the heuristic's choice another must do, on average...
EVIDENCE = 1.5          # ...plus this many standard errors of the paired difference
DROP = 1.0              # a candidate this many standard errors worse than the default is dropped
MIN_PAIRS = 4           # paired playouts of a candidate before it is compared
TARGET_PAIRS = 8        # pairs per candidate the budget should allow: fewer candidates when it cannot
VARIANCE_FLOOR = 0.01   # of a paired difference of values in [0, 1]
SHAPE = 0.3             # the score margin's share of a playout's value


def rank_value(state: State, seat: int, scale: float | None = None) -> float:
    """A finished game's worth to ``seat`` in [0, 1]: the share of the other seats it
    finished ahead of (a tie counts half), and with a ``scale`` a share ``SHAPE`` of it its
    score margin over the others (``worth``); for a co-operative game, its score."""
    result = state.result()
    assert result is not None
    if spec(state.game).cooperative:
        return float(result.scores[seat])
    if scale is None:
        return share_ahead([-r for r in result.ranks], seat)
    best = min(range(len(result.ranks)), key=lambda s: result.ranks[s])
    worst = max(range(len(result.ranks)), key=lambda s: result.ranks[s])
    sign = -1.0 if result.scores[best] < result.scores[worst] else 1.0   # lower is better in some games
    return worth([sign * score for score in result.scores], seat, scale)


def worth(scores: Sequence[float], seat: int, scale: float) -> float:
    """A game's (or an estimate's) worth to ``seat`` from every seat's score (higher is
    better), in [0, 1]: its place among them (``share_ahead``) and, a share ``SHAPE`` of it,
    its margin over the others' mean squashed by ``scale`` points, so that two wins (or two
    losses) are told apart by how much."""
    others = [s for i, s in enumerate(scores) if i != seat]
    margin = scores[seat] - sum(others) / len(others)
    return (1 - SHAPE) * share_ahead(scores, seat) + SHAPE * (0.5 + 0.5 * math.tanh(margin / scale))


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
        if len(actions) == 1:
            return actions[0]
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


class Pairs:
    """The paired differences of one candidate's playouts less the default's, on the same
    draws: their count, sum and sum of squares."""

    __slots__ = ("n", "total", "squares")

    def __init__(self) -> None:
        self.n = 0
        self.total = 0.0
        self.squares = 0.0

    def add(self, difference: float) -> None:
        self.n += 1
        self.total += difference
        self.squares += difference * difference

    def mean(self) -> float:
        return self.total / self.n

    def error(self) -> float:
        """The standard error of the mean difference (a floor on the variance: a few equal
        playouts do not make a certainty)."""
        mean = self.mean()
        variance = max(self.squares / self.n - mean * mean, VARIANCE_FLOOR) * self.n / max(1, self.n - 1)
        return math.sqrt(variance / self.n)


class BossBot(Bot):
    """Searches each decision within its clock (see the module's docstring). A game's boss
    is this class with its ``heuristic`` and, for long games, ``horizon`` and ``estimate``;
    ``ranked`` may order the candidates by the heuristic's own scores."""

    name = "boss"
    heuristic: ClassVar[type[Bot]]
    horizon: ClassVar[int] = 10_000     # playout decisions before the estimate takes over
    default_move_s: ClassVar[float] = 0.2
    max_candidates: ClassVar[int] = 5
    score_scale: ClassVar[float | None] = None   # points that make a clear margin (None: places only)

    def on_match_start(self, info: MatchInfo) -> None:
        self.playout = Playout(info.game, info, self.heuristic)
        self.rollouts = 0          # playouts in all, and decisions searched: for the benchmark
        self.searched = 0

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        assert self.info is not None
        seat = self.info.seat
        legal = list(legal_actions)
        if len(legal) == 1:
            return 0
        default = legal.index(resolve(self.playout.bots[seat].act(observation, legal), legal))
        budget = self.budget()
        stop = time.monotonic() + budget
        hard_stop = stop + HARD_SHARE * budget  # a playout still running then is dropped
        try:
            sample: State | None = self.sample_state(observation)
        except ObservationError:
            return default          # a position the game's forward model does not rebuild
        challengers = [i for i in self.ranked(observation, legal, default) if i != default][:self.max_candidates - 1]
        pairs = {index: Pairs() for index in challengers}
        texts = [str(a) for a in legal]
        done = 0
        while challengers and time.monotonic() < stop:
            state = sample if sample is not None else self.sample_state(observation)
            started = time.monotonic()
            base = self.playout_value(state.clone(), seat, texts[default], hard_stop)
            if base is None:
                break
            if sample is not None:
                # Few playouts to spend: spend them on the heuristic's next-best few, each
                # compared often enough to be judged, rather than on many judged on none.
                affordable = (stop - started) / max(time.monotonic() - started, 1e-4)
                challengers = challengers[:max(1, int(affordable / TARGET_PAIRS) - 1)]
            sample = None
            done += 1
            for index in challengers:
                value = self.playout_value(state.clone(), seat, texts[index], hard_stop)
                if value is None:
                    break
                done += 1
                pairs[index].add(value - base)
            challengers = [i for i in challengers if not self.hopeless(pairs[i])]
        self.rollouts += done
        self.searched += 1
        return self.decide(default, pairs)

    def budget(self) -> float:
        clock = self.clock
        if clock is None:
            return self.default_move_s
        left = clock.move_left()
        # A bank running low means the machine has been slower than the budgets assumed
        # (a loaded worker, a wall clock): think less until it stops draining.
        share = SHARE if clock.bank_s >= LOW_BANK_MOVES * clock.move_s else SHARE / 2
        return max(0.0, share * left - min(MARGIN_S, MARGIN_SHARE * left))

    def ranked(self, observation: Any, legal: Sequence[Any], default: int) -> list[int]:
        """The candidate actions best first (the default need not be among them): a game
        whose heuristic scores its actions orders them by that score; here, a random order."""
        others = list(range(len(legal)))
        self.random.shuffle(others)
        return others

    @staticmethod
    def hopeless(pairs: Pairs) -> bool:
        """A candidate that has done clearly worse than the default on the same draws."""
        return pairs.n >= MIN_PAIRS and pairs.mean() + DROP * pairs.error() < 0

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
            return rank_value(state, seat, self.score_scale)
        return self.estimate(state, seat)

    def estimate(self, state: State, seat: int) -> float:
        """An unfinished playout's worth to ``seat``, in [0, 1]: a game whose playouts stop
        at ``horizon`` says how to judge the position there."""
        raise NotImplementedError(f"{type(self).__name__} stops playouts at a horizon but has no estimate()")

    @staticmethod
    def decide(default: int, pairs: dict[int, Pairs]) -> int:
        """The heuristic's choice unless another action did better on the same draws by more
        than the noise of so few playouts: its mean paired gain exceeds ``OVERRULE`` plus
        ``EVIDENCE`` standard errors. With a handful of playouts a move the boss is the
        heuristic; the more it can play out, the more it overrules it."""
        best, best_gain = default, 0.0
        for index, diff in pairs.items():
            if diff.n < MIN_PAIRS:
                continue
            # Few pairs make a poor estimate of their own noise (and the best of several
            # noisy challengers looks better than it is): ask for more standard errors then.
            gain = diff.mean() - OVERRULE - EVIDENCE * (1 + 2 / (diff.n - 1)) * diff.error()
            if gain > best_gain:
                best, best_gain = index, gain
        return best
