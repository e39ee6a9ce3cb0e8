"""Sky Team for bot authors: the typed observation and the house bots.

Seat 0 is the Pilot (blue dice), seat 1 the Co-Pilot (orange dice). Both seats win or
lose together. Actions are written ``<die>[+k|-k]><space>`` (``4>axis``, ``1+1>radio``),
``reroll`` and ``roll none`` / ``roll 1,3``; see referee/games/sky_team/README.md.

The house bots import the engine's board data and notation from
``referee.games.sky_team`` (installed with the SDK) rather than restating them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from referee.games.sky_team import actions as st_actions
from referee.games.sky_team import data as st_data
from referee.games.sky_team.actions import Action, Place, Reroll, SpendReroll

from ..bot import Bot, RandomBot
from ..observation import Observation as BaseObservation
from ..search import BossBot as SearchBoss

# The engine counts rounds and approach spaces from 0; observations show them 1-based.
AIRPORT = st_data.AIRPORT + 1           # approach space of the airport (1-based): 7
FINAL_ROUND = st_data.FINAL_ROUND + 1   # the landing round (1-based): 7
GEAR_VALUES = st_data.GEAR_VALUES
FLAP_VALUES = st_data.FLAP_VALUES
BRAKE_VALUES = tuple(value for (value,) in st_data.BRAKE_VALUES)   # one value per brake: 2, 4, 6


@dataclass(frozen=True)
class Board:
    """The dice on the control panel this round (None: the space is free).

    Values are as placed (after coffee). The Axis and Engines hold one die of each colour;
    the Pilot has one Radio, the Co-Pilot two; gear and brakes are the Pilot's, flaps the
    Co-Pilot's; the three Concentration spaces take a die of either colour.
    """

    axis_pilot: int | None = None
    """The Pilot's (blue) die on the Axis: it tilts the plane toward the Pilot."""
    axis_copilot: int | None = None
    """The Co-Pilot's (orange) die on the Axis: it tilts the plane toward the Co-Pilot."""
    engines_pilot: int | None = None
    """The Pilot's die on the Engines; the two engine dice add up to this round's speed."""
    engines_copilot: int | None = None
    """The Co-Pilot's die on the Engines."""
    radio_pilot: int | None = None
    """The Pilot's Radio: clears an airplane that many spaces ahead (1 = the current space)."""
    radio_copilot_1: int | None = None
    """The Co-Pilot's first Radio."""
    radio_copilot_2: int | None = None
    """The Co-Pilot's second Radio."""
    gear1: int | None = None
    """Landing gear switch 1 (Pilot; takes a 1 or 2)."""
    gear2: int | None = None
    """Landing gear switch 2 (Pilot; takes a 3 or 4)."""
    gear3: int | None = None
    """Landing gear switch 3 (Pilot; takes a 5 or 6)."""
    flap1: int | None = None
    """Flaps switch 1 (Co-Pilot; takes a 1 or 2; the flaps go in order)."""
    flap2: int | None = None
    """Flaps switch 2 (Co-Pilot; takes a 2 or 3)."""
    flap3: int | None = None
    """Flaps switch 3 (Co-Pilot; takes a 4 or 5)."""
    flap4: int | None = None
    """Flaps switch 4 (Co-Pilot; takes a 5 or 6)."""
    brake1: int | None = None
    """Brake 1 (Pilot; takes a 2; sets the red marker to 2)."""
    brake2: int | None = None
    """Brake 2 (Pilot; takes a 4, after brake 1; red marker 4)."""
    brake3: int | None = None
    """Brake 3 (Pilot; takes a 6, after brake 2; red marker 6)."""
    conc1: int | None = None
    """Concentration space 1 (either colour, any value): gains a coffee token."""
    conc2: int | None = None
    """Concentration space 2."""
    conc3: int | None = None
    """Concentration space 3."""


@dataclass(frozen=True)
class Observation(BaseObservation):
    """What one seat of Sky Team may know: its own dice, the partner's count of unplaced
    dice, and the whole (public) control panel. Rounds and approach spaces are 1-based.
    """

    seat: int = 0
    """0 = Pilot (blue dice), 1 = Co-Pilot (orange dice)."""
    role: str = "pilot"
    """'pilot' or 'copilot'."""
    round: int = 1
    """1..7; round 7 is the landing round."""
    altitude: int = 6000
    """Feet shown in the Current Altitude window (0 in the landing round)."""
    final_round: bool = False
    """True in the landing round: the engines do not move the plane, the speed meets the brakes."""
    phase: str = "place"
    """'place' (one seat places a die or spends a Reroll token), 'reroll' (both seats choose
    which unplaced dice to reroll) or 'over'."""
    to_move: tuple[int, ...] = ()
    """Seats that must answer now."""
    first_placer: int = 0
    """Seat that placed first this round (the altitude track's arrow)."""
    turn: int = 0
    """Seat whose placement it is (it also spent the Reroll token in the 'reroll' phase)."""
    my_dice: tuple[int, ...] = ()
    """Your unplaced dice, ascending. The partner's dice are hidden."""
    other_dice_count: int = 4
    """How many dice your partner has not placed yet."""
    dice_count: tuple[int, ...] = (4, 4)
    """Unplaced dice per seat."""
    board: Board = field(default_factory=Board)
    """The dice on the control panel this round."""
    axis: int = 0
    """Tilt of the plane: positive toward the Co-Pilot; ±3 is a spin."""
    position: int = 1
    """Approach space under the Current Position window (1..7; 7 is the airport)."""
    airport: int = AIRPORT
    """Approach space of the airport."""
    approach_tokens: tuple[int, ...] = ()
    """Airplane tokens on approach spaces 1..7 (index 0 is space 1)."""
    blue_marker: int = 4
    """Speed at or below this: the plane stays put (lower number of the blue marker)."""
    orange_marker: int = 8
    """Speed above blue and at or below this: advance 1; above: advance 2."""
    brake_marker: int = 0
    """Red marker: value of the last brake deployed (0 = none). Landing needs speed ≤ it."""
    gear: tuple[bool, ...] = (False, False, False)
    """Landing gear switches that are green (gear1..gear3)."""
    flaps: int = 0
    """Flaps deployed (they go in order, so flap1..flapN are green)."""
    brakes: int = 0
    """Brakes deployed (in order 2, 4, 6)."""
    coffee: int = 0
    """Coffee tokens held by the crew (0..3); each changes a placed die by ±1."""
    rerolls: int = 0
    """Reroll tokens held by the crew."""
    reroll_rounds: tuple[int, ...] = ()
    """Rounds whose altitude space still carries a Reroll token."""
    speed: int | None = None
    """This round's speed once both engine dice are down."""
    landing_brake_marker: int | None = None
    """Landing round: the brake marker the speed was compared with (when the engines resolved)."""
    result: dict[str, Any] | None = None
    """Once over: {'reason': 'landed' | 'spin' | 'collision' | 'overshoot' | 'crash' |
    'failed-landing' | 'missing-mandatory', 'landed': bool, 'details': {...}}."""

    @property
    def partner(self) -> int:
        return 1 - self.seat

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Observation:
        """Direct construction (bots call this every decision; the generic builder is slow)."""
        kwargs: dict[str, Any] = {}
        for name in _FIELDS:
            if name in data:
                value = data[name]
                kwargs[name] = tuple(value) if isinstance(value, list) else value
        if "board" in data:
            kwargs["board"] = Board(**data["board"])
        result = cls(**kwargs)
        object.__setattr__(result, "raw", dict(data))
        return result


_FIELDS = tuple(f.name for f in fields(Observation) if f.name not in ("raw", "board"))


# ----- the house heuristic ------------------------------------------------------------
DEAD = -10_000.0
# The heuristic's weights (tuned by self-play over seeded games; see the README).
WEIGHTS: dict[str, float] = {
    "coffee": 9.0,          # cost of spending one coffee token
    "share_coffee": 1.0,    # 1: assume the partner can still use the coffee I might spend (optimistic)
    "tilt": 10.0, "tilt2": 30.0,                 # per unit of tilt; extra at ±2
    "behind": 80.0, "behind2": 150.0, "ahead": 6.0,   # approach schedule (1 space per round)
    "arrive_token": 6.0,    # per airplane on the space the plane arrives at
    "radio": 100.0, "radio_urgent": 50.0, "radio_airport": 25.0,
    "brake": 25.0, "brake_need": 45.0, "conc": 12.0,
    "gear": 40.0, "gear_need": 60.0, "flap": 70.0, "flap_need": 60.0,
    "short_switch": 3000.0,  # landing round: per switch the dice left can no longer deploy
}
W = WEIGHTS


def _action(value: Any) -> Action:
    """An engine action as is; its notation (a remote legal list) parsed by the engine."""
    return value if isinstance(value, (Place, SpendReroll, Reroll)) else st_actions.parse(str(value))


def _best_of(values: Sequence[float], n: int) -> float:
    """Expected maximum of f(X) over n independent uniform dice, f given for faces 1..6."""
    ordered = sorted(values, reverse=True)
    total = 0.0
    for j, v in enumerate(ordered):
        total += v * (((6 - j) / 6) ** n - ((5 - j) / 6) ** n)
    return total


class _Outlook:
    """How good this round's Axis and Engines can still turn out, for one reading of the
    board (the heuristic builds one per distinct effect of a candidate placement)."""

    def __init__(self, obs: Observation, tokens: tuple[int, ...], blue: int, orange: int, brake: int,
                 coffee: int, shared: dict[tuple[Any, ...], float]) -> None:
        self.obs = obs
        self.seat = obs.seat
        b = obs.board
        self.axis_slots = (b.axis_pilot, b.axis_copilot)
        self.engine_slots = (b.engines_pilot, b.engines_copilot)
        self.tokens = tokens
        self.blue, self.orange, self.brake, self.coffee = blue, orange, brake, coffee
        self.pos = obs.position - 1
        self.final = obs.final_round
        other = obs.partner
        unfilled = (self.axis_slots[other] is None) + (self.engine_slots[other] is None)
        # The partner keeps one die per other unfilled mandatory space.
        self.partner_choice = max(1, obs.other_dice_count - max(0, unfilled - 1))
        self._adjusted: dict[tuple[str, int], float] = {}
        # Exact values depend on few parameters: shared by every outlook of one decision.
        self._shared = shared
        self._axis_key: tuple[Any, ...] = ()
        self._engine_key = (blue, orange, brake, tokens[self.pos:self.pos + 3])

    def axis_after(self, mine: int, theirs: int) -> float:
        pilot, copilot = (mine, theirs) if self.seat == 0 else (theirs, mine)
        tilt = self.obs.axis + copilot - pilot
        if abs(tilt) >= st_data.SPIN_TILT:
            return DEAD
        if self.final:
            return -5000.0 if tilt else 0.0
        return -W["tilt"] * abs(tilt) - (W["tilt2"] if abs(tilt) == 2 else 0.0)

    def speed_value(self, speed: int) -> float:
        obs = self.obs
        if self.final:
            return 0.0 if (speed <= self.brake and self.brake >= 2) else -5000.0
        steps = 0 if speed <= self.blue else (1 if speed <= self.orange else 2)
        pos = self.pos
        for _ in range(steps):
            if self.tokens[pos] or pos == AIRPORT - 1:
                return DEAD
            pos += 1
        remaining = AIRPORT - 1 - pos
        rounds_left = FINAL_ROUND - 1 - obs.round   # rounds after this one that still move the plane
        if remaining > 2 * rounds_left:
            return DEAD
        behind = remaining - rounds_left
        if behind > 0:
            score = -W["behind"] * behind - W["behind2"] * max(0, behind - 1)
        else:
            score = W["ahead"] * min(2, -behind)
        return score - (W["arrive_token"] * self.tokens[pos] if pos < AIRPORT - 1 else 0.0)

    def _respond(self, f: Callable[[int], float], coffee: int) -> float:
        """Expected outcome when the partner answers with its best die (and the coffee left)."""
        base = [f(v) for v in range(1, 7)]
        g = [max(base[y - 1] - W["coffee"] * abs(y - x) for y in range(max(1, x - coffee), min(6, x + coffee) + 1))
             for x in range(1, 7)]
        return _best_of(g, self.partner_choice)

    def exact(self, kind: str, value: int, coffee: int) -> float:
        """Placing exactly ``value`` on a mandatory space, ``coffee`` left for the partner."""
        key = (kind, value, coffee, self._axis_key if kind == "axis" else self._engine_key)
        score = self._shared.get(key)
        if score is None:
            score = self._shared[key] = self._exact(kind, value, coffee)
        return score

    def _exact(self, kind: str, value: int, coffee: int) -> float:
        other = self.obs.partner
        if kind == "axis":
            theirs = self.axis_slots[other]
            if theirs is not None:
                return self.axis_after(value, theirs)
            return self._respond(lambda x: self.axis_after(value, x), coffee)
        theirs = self.engine_slots[other]
        if theirs is not None:
            return self.speed_value(value + theirs)
        return self._respond(lambda x: self.speed_value(value + x), coffee)

    def adjusted(self, kind: str, die: int) -> float:
        """The best use of this die on that space, coffee included."""
        key = (kind, die)
        score = self._adjusted.get(key)
        if score is None:
            coffee = self.coffee
            exact = self.exact
            share = W["share_coffee"]
            score = max(exact(kind, die + d, coffee - (0 if share else abs(d))) - W["coffee"] * abs(d)
                        for d in range(max(-coffee, 1 - die), min(coffee, 6 - die) + 1))
            self._adjusted[key] = score
        return score

    def cover(self, dice: Sequence[int], kinds: Sequence[str]) -> float:
        """The best way to cover the still-empty mandatory spaces with these dice."""
        if not kinds:
            return 0.0
        if len(kinds) == 1:
            return max(self.adjusted(kinds[0], v) for v in dice)
        a, b = kinds[0], kinds[1]
        best = DEAD * 4
        for i, u in enumerate(dice):
            for j, v in enumerate(dice):
                if i != j:
                    best = max(best, self.adjusted(a, u) + self.adjusted(b, v))
        return best


class HeuristicBot(Bot):
    """Greedy placement with a plan. A candidate die is scored for what it does now plus how
    well the dice left can still cover this round's Axis and Engines after its effect (a
    cleared airplane, a moved marker, a coffee gained or spent); the partner is assumed to
    answer with its best die. A Reroll token is spent only to escape a disaster."""

    name = "heuristic"

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        obs = observation if isinstance(observation, Observation) else Observation.from_json(observation)
        legal = [_action(a) for a in legal_actions]
        outlooks: dict[tuple[Any, ...], Any] = {}
        if obs.phase == "reroll":
            return self._choose_reroll(obs, legal, outlooks)
        scores = [self.score(obs, action, outlooks) for action in legal]
        best = max(scores)
        choices = [i for i, s in enumerate(scores) if s >= best - 1e-9]
        return choices[self.random.randrange(len(choices))]

    @staticmethod
    def _outlook(obs: Observation, outlooks: dict[Any, Any], tokens: tuple[int, ...],
                 blue: int, orange: int, brake: int, coffee: int) -> _Outlook:
        key = (tokens, blue, orange, brake, coffee)
        found = outlooks.get(key)
        if found is None:
            shared = outlooks.setdefault("shared", {})
            found = outlooks[key] = _Outlook(obs, tokens, blue, orange, brake, coffee, shared)
        return found

    @staticmethod
    def _open_kinds(obs: Observation, skip: str = "") -> list[str]:
        b = obs.board
        axis = b.axis_pilot if obs.seat == 0 else b.axis_copilot
        engines = b.engines_pilot if obs.seat == 0 else b.engines_copilot
        return [k for k, v in (("axis", axis), ("engines", engines)) if v is None and k != skip]

    def score(self, obs: Observation, action: Action, outlooks: dict[Any, Any]) -> float:
        """A placement's worth now plus the outlook after it: what ``act`` maximises, and how
        the boss ranks its candidates."""
        if isinstance(action, SpendReroll):
            return -1000.0          # chosen only when every placement is a disaster
        if not isinstance(action, Place):
            return DEAD * 8
        value, coffee, space = action
        placed = value + coffee
        dice = list(obs.my_dice)
        dice.remove(value)
        tokens = tuple(obs.approach_tokens)
        blue, orange, brake, cups = obs.blue_marker, obs.orange_marker, obs.brake_marker, obs.coffee - abs(coffee)
        now = -W["coffee"] * abs(coffee)
        pos = obs.position - 1
        deployed = -1
        if space == "radio":
            target = pos + placed - 1
            if target < AIRPORT and tokens[target]:
                slack = max(0, target + 1 - obs.round)        # leave space t in round t + 1
                now += W["radio"] + W["radio_urgent"] / (1 + slack) + (300.0 if obs.final_round else 0.0)
                if target == AIRPORT - 1:
                    now += W["radio_airport"]
                tokens = tokens[:target] + (tokens[target] - 1,) + tokens[target + 1:]
            else:
                now -= 2.0
        elif space.startswith("gear"):
            if not obs.gear[int(space[4]) - 1]:
                now += self._switch_value(obs, 3 - sum(obs.gear), "gear")
                blue += 1
                deployed = int(space[4]) - 1
        elif space.startswith("flap"):
            if int(space[4]) - 1 == obs.flaps:
                now += self._switch_value(obs, 4 - obs.flaps, "flap")
                orange += 1
                deployed = obs.flaps
        elif space.startswith("brake"):
            if int(space[5]) - 1 == obs.brakes:
                now += 300.0 if obs.final_round else (
                    W["brake"] + W["brake_need"] * (3 - obs.brakes) / (FINAL_ROUND - obs.round + 1))
                brake = BRAKE_VALUES[obs.brakes]
        elif space == "conc" and cups < st_data.COFFEE_MAX:
            now += W["conc"]
            cups += 1
        outlook = self._outlook(obs, outlooks, tokens, blue, orange, brake, cups)
        if space in ("axis", "engines"):
            now += outlook.exact(space, placed, cups)
        open_kinds = self._open_kinds(obs, space)
        if obs.final_round:
            now -= W["short_switch"] * self._switch_shortfall(obs, dice, len(open_kinds), cups, deployed)
        return now + outlook.cover(dice, open_kinds)

    @staticmethod
    def _switch_shortfall(obs: Observation, dice: list[int], mandatory: int, cups: int, deployed: int) -> int:
        """Landing round: how many of my missing switches the dice left cannot deploy (the
        dice for the mandatory spaces set aside; coffee may bridge small gaps)."""
        if obs.seat == 0:
            needs = [GEAR_VALUES[k] for k in range(3) if not obs.gear[k] and k != deployed]
        else:
            needs = [FLAP_VALUES[k] for k in range(obs.flaps + (deployed == obs.flaps), 4)]
        if not needs:
            return 0
        spare = len(dice) - mandatory
        short = max(0, len(needs) - spare)
        pool = sorted(dice)
        for allowed in needs[:spare]:
            cost, pick = min((min(abs(v - a) for a in allowed), i) for i, v in enumerate(pool))
            if cost > cups:
                short += 1
                continue
            cups -= cost
            pool.pop(pick)
        return short

    @staticmethod
    def _switch_value(obs: Observation, missing: int, kind: str) -> float:
        """Every switch must be green at the landing: the fewer rounds left per missing
        switch, the more a deployment is worth."""
        if obs.final_round:
            return 400.0
        rounds_left = FINAL_ROUND - obs.round + 1
        return W[kind] + W[kind + "_need"] * missing / rounds_left

    def _choose_reroll(self, obs: Observation, legal: list[Action],
                       outlooks: dict[Any, Any]) -> int:
        """Reroll everything when the current dice only lead to a disaster, else keep them."""
        outlook = self._outlook(obs, outlooks, tuple(obs.approach_tokens), obs.blue_marker, obs.orange_marker,
                                obs.brake_marker, obs.coffee)
        dice = list(obs.my_dice)
        kinds = self._open_kinds(obs)
        want: tuple[int, ...] = ()
        if kinds and len(dice) >= len(kinds) and outlook.cover(dice, kinds) < -1000:
            want = tuple(sorted(dice))
        for i, action in enumerate(legal):
            if isinstance(action, Reroll) and tuple(sorted(action.dice)) == want:
                return i
        return 0


class BossBot(SearchBoss):
    """The house boss: searches every decision with the forward model, the heuristic
    playing every seat of its playouts (skyarena.search); its candidates are the
    placements the heuristic scores best."""

    heuristic = HeuristicBot

    def ranked(self, observation: Any, legal: Sequence[Any], default: int) -> list[int]:
        obs = observation if isinstance(observation, Observation) else Observation.from_json(observation)
        if obs.phase == "reroll":
            return super().ranked(observation, legal, default)
        heuristic = self.playout.bots[obs.seat if obs.seat is not None else 0]
        assert isinstance(heuristic, HeuristicBot)
        outlooks: dict[tuple[Any, ...], Any] = {}
        scores = [heuristic.score(obs, _action(a), outlooks) for a in legal]
        return sorted(range(len(legal)), key=lambda i: -scores[i])


HOUSE_BOTS: dict[str, type[Bot]] = {"random": RandomBot, "heuristic": HeuristicBot, "boss": BossBot}

__all__ = ["BossBot", "HOUSE_BOTS", "Board", "HeuristicBot", "Observation"]
