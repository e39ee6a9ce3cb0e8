"""The Sky Team state: plain ints, tuples and two short lists, so clone() is a few slot
copies and legal actions are table lookups cached per position."""

from __future__ import annotations

from typing import Any, NamedTuple

from ..core.errors import IllegalAction
from ..core.result import Result
from ..core.rng import CounterRng
from ..core.state import State
from . import rules
from .actions import PLACE_TABLE, SPEND_REROLL, Place, Reroll, SpendReroll, parse, reroll_choices
from .data import (
    AIRPORT,
    ALTITUDES,
    CONC,
    FACES,
    FINAL_ROUND,
    GEAR_VALUES,
    MANDATORY_KINDS,
    MANDATORY_SLOTS,
    PLACEMENTS_PER_ROUND,
    SEAT_NAMES,
    SEAT_SPACES,
    SLOT_NAMES,
    SPACE_BY_NAME,
    SWITCH_KINDS,
)
from .rules import OVER, PHASE_NAMES, PLACE, REROLL, TRACK_FIELDS
from .scenario import RoundDice, parse_setup


class Config(NamedTuple):
    """The rulings in force (from the options), shared by every clone of a game."""

    first: int              # seat placing first at 6000 ft
    lock: bool              # mandatory_lock
    green_ok: bool          # green_switch_takes_die
    brake_below: bool       # brake_check == "below"
    brakes_at_engines: bool  # brake_timing == "engines"


# Per seat: (kind, number, slots, action rows) in canonical order, Axis and Engines first.
_SPACE_ROWS = tuple(
    tuple((sp.kind, sp.number, sp.slots, PLACE_TABLE[seat][i]) for i, sp in enumerate(spaces))
    for seat, spaces in enumerate(SEAT_SPACES)
)


class SkyTeamState(State):
    """One position of a Sky Team game. Seat 0 is the Pilot (blue), seat 1 the Co-Pilot."""

    game = "sky-team"

    __slots__ = (
        "round", "first", "turn", "phase", "dice", "board", "placed", "pos", "tokens", "tilt", "gear",
        "flaps", "brakes", "coffee", "rerolls", "reroll_rounds", "speed", "landing_brakes", "outcome",
        "_movers", "_legal0", "_legal1", "_cfg", "_dice_script", "_reroll_script", "_rerolls_spent",
        "_start_round", "_setup_first",
    )

    round: int
    first: int
    turn: int
    phase: int
    dice: list[tuple[int, ...]]
    board: list[int]
    placed: int
    pos: int
    tokens: tuple[int, ...]
    tilt: int
    gear: int
    flaps: int
    brakes: int
    coffee: int
    rerolls: int
    reroll_rounds: tuple[int, ...]
    speed: int
    landing_brakes: int
    outcome: Result | None
    _movers: tuple[int, ...]
    _legal0: tuple[Any, ...] | None
    _legal1: tuple[Any, ...] | None
    _cfg: Config
    _dice_script: tuple[RoundDice | None, ...]
    _reroll_script: tuple[RoundDice, ...]
    _rerolls_spent: int
    _start_round: int
    _setup_first: int | None

    def __init__(self, players: int, seed: int, options: dict[str, Any]) -> None:
        super().__init__(players, seed, options)
        # make() hands over validated options with every default filled in.
        self._cfg = Config(
            SEAT_NAMES.index(options["first_placer"]),
            options["mandatory_lock"],
            options["green_switch_takes_die"],
            options["brake_check"] == "below",
            options["brake_timing"] == "engines",
        )
        setup = parse_setup(options["setup"])
        self.round = setup.start_round
        self.pos = setup.position
        self.tokens = setup.tokens
        self.tilt = setup.tilt
        self.gear = setup.gear
        self.flaps = setup.flaps
        self.brakes = setup.brakes
        self.coffee = setup.coffee
        self.rerolls = setup.rerolls
        self.reroll_rounds = setup.reroll_rounds
        self._dice_script = setup.dice
        self._reroll_script = setup.reroll_dice
        self._rerolls_spent = 0
        self._start_round = setup.start_round
        self._setup_first = setup.first_placer
        self.outcome = None
        self.dice = [(), ()]
        self._legal0 = self._legal1 = None
        rules.start_round(self)

    # ----- chance ------------------------------------------------------------------------
    def draw_dice(self, label: str, count: int, fixed: tuple[int, ...]) -> tuple[int, ...]:
        """``count`` dice, sorted: the setup's values first, the rest rolled (both recorded)."""
        values = list(fixed[:count])
        if values:
            self._chance(label + " (setup)", values)
        if len(values) < count:
            values += self.roll_dice(label, count - len(values))
        values.sort()
        return tuple(values)

    # ----- the contract --------------------------------------------------------------------
    def to_move(self) -> tuple[int, ...]:
        return self._movers

    def _legal_actions(self, seat: int) -> list[Any]:
        if seat not in self._movers:
            return []
        cached = self._legal0 if seat == 0 else self._legal1
        if cached is None:
            cached = self._compute_legal(seat)
        return list(cached)

    def _is_legal(self, seat: int, action: Any) -> bool:
        if seat not in self._movers:
            return False
        cached = self._legal0 if seat == 0 else self._legal1
        if cached is None:
            cached = self._compute_legal(seat)
        return action in cached

    def _compute_legal(self, seat: int) -> tuple[Any, ...]:
        if self.phase == REROLL:
            legal: tuple[Any, ...] = reroll_choices(self.dice[seat])
        else:
            legal = self._placements(seat)
        if seat == 0:
            self._legal0 = legal
        else:
            self._legal1 = legal
        return legal

    def _placements(self, seat: int) -> tuple[Any, ...]:
        dice = self.dice[seat]
        board = self.board
        coffee = self.coffee
        cfg = self._cfg
        values = dict.fromkeys(dice)
        # RULINGS: once the unplaced dice only just cover the unfilled mandatory spaces,
        # only those spaces may be chosen.
        locked = cfg.lock and len(dice) == [board[slot] for slot in MANDATORY_SLOTS[seat]].count(0)
        out: list[Any] = []
        for kind, number, slots, rows in _SPACE_ROWS[seat]:
            if locked and kind not in MANDATORY_KINDS:
                continue
            for slot in slots:
                if not board[slot]:
                    break
            else:
                continue
            if kind in SWITCH_KINDS and not rules.switch_takes_die(self, kind, number):
                continue
            for v in values:
                out.extend(rows[v][coffee])
        if self.rerolls:
            out.append(SPEND_REROLL)
        return tuple(out)

    def _parse_action(self, seat: int, text: str) -> Any:
        action = parse(text)
        if self._is_legal(seat, action):
            return action
        raise IllegalAction(self.why_illegal(seat, action))

    def why_illegal(self, seat: int, action: Any) -> str:
        """A person-readable reason why a well-formed action is not legal now."""
        who = f"sky-team: {action} by the {SEAT_NAMES[seat] if seat in (0, 1) else f'seat {seat}'}"
        if seat not in self._movers:
            if self.phase == OVER:
                return f"{who}: the game is over."
            return f"{who}: that seat is not to move now (to move: {list(self._movers)})."
        if self.phase == REROLL:
            if not isinstance(action, Reroll):
                return f"{who}: a Reroll token was just spent; choose which dice to reroll ('roll none', 'roll 1,3')."
            return f"{who}: you can only reroll your unplaced dice {list(self.dice[seat])}."
        if isinstance(action, Reroll):
            return f"{who}: no Reroll token has been spent; write 'reroll' first to spend one."
        if isinstance(action, SpendReroll):
            return f"{who}: you hold no Reroll token."
        assert isinstance(action, Place)
        space = SPACE_BY_NAME[seat].get(action.space)
        if space is None:
            return f"{who}: {action.space} is not a {SEAT_NAMES[seat]} space."
        if action.value not in self.dice[seat]:
            return f"{who}: you have no unplaced {action.value} (your dice: {list(self.dice[seat])})."
        if all(self.board[s] for s in space.slots):
            return f"{who}: {action.space} is already taken this round."
        if abs(action.coffee) > self.coffee:
            return f"{who}: it needs {abs(action.coffee)} coffee and only {self.coffee} is held."
        if not 1 <= action.placed_value <= FACES:
            return f"{who}: a die stays within 1..6."
        track = TRACK_FIELDS.get(space.kind)
        if track is not None and not rules.switch_takes_die(self, space.kind, space.number):
            deployed = getattr(self, track)
            if space.number > deployed:  # (else a green switch closed by the ruling: the generic message)
                return f"{who}: {track} go in order; the next one is {space.name[:-1]}{deployed + 1}."
        if space.kind == CONC and action.coffee:
            return f"{who}: coffee is never spent on Concentration (the value does not matter there)."
        if space.values is not None and action.placed_value not in space.values:
            return f"{who}: {action.space} takes only {' or '.join(map(str, space.values))}."
        return f"{who}: not legal now; legal: {', '.join(map(str, self._legal_actions(seat)))}."

    def _apply(self, actions: dict[int, Any]) -> None:
        self._legal0 = self._legal1 = None
        if self.phase == REROLL:
            self._reroll(actions)
            return
        seat = self.turn
        action = actions[seat]
        if type(action) is SpendReroll:
            self.rerolls -= 1
            self.phase = REROLL
            self._movers = tuple(s for s in (0, 1) if self.dice[s])
            return
        self._place(seat, action)

    def _place(self, seat: int, action: Place) -> None:
        value, coffee, name = action
        dice = self.dice[seat]
        i = dice.index(value)
        self.dice[seat] = dice[:i] + dice[i + 1:]
        if coffee:
            self.coffee -= coffee if coffee > 0 else -coffee
            value += coffee
        space = SPACE_BY_NAME[seat][name]
        board = self.board
        for slot in space.slots:
            if not board[slot]:
                board[slot] = value
                break
        rules.ON_PLACE[space.kind](self, seat, space, value)
        if self.phase == OVER:
            return
        self.placed += 1
        if self.placed == PLACEMENTS_PER_ROUND:
            rules.end_round(self)
        else:
            self.turn = seat = 1 - seat
            self._movers = (seat,)

    def _reroll(self, actions: dict[int, Any]) -> None:
        """Both seats reroll the dice they chose, at the same time; then the seat that
        spent the token places."""
        n = self._rerolls_spent
        script = self._reroll_script[n] if n < len(self._reroll_script) else ((), ())
        for seat in sorted(actions):
            chosen = actions[seat].dice
            if not chosen:
                continue
            kept = list(self.dice[seat])
            for v in chosen:
                kept.remove(v)
            new = self.draw_dice(f"reroll {n + 1} {SEAT_NAMES[seat]}", len(chosen), script[seat])
            self.dice[seat] = tuple(sorted(kept + list(new)))
        self._rerolls_spent = n + 1
        self.phase = PLACE
        self._movers = (self.turn,)

    # ----- views ---------------------------------------------------------------------------
    def _common_view(self) -> dict[str, Any]:
        outcome = self.outcome
        return {
            "round": self.round + 1,
            "altitude": ALTITUDES[self.round],
            "final_round": self.round == FINAL_ROUND,
            "phase": PHASE_NAMES[self.phase],
            "to_move": list(self._movers),
            "first_placer": self.first,
            "turn": self.turn,
            "board": {name: (v or None) for name, v in zip(SLOT_NAMES, self.board)},
            "axis": self.tilt,
            "position": self.pos + 1,
            "airport": AIRPORT + 1,
            "approach_tokens": list(self.tokens),
            "blue_marker": rules.blue_marker(self),
            "orange_marker": rules.orange_marker(self),
            "brake_marker": rules.brake_marker(self),
            "gear": [bool(self.gear >> k & 1) for k in range(len(GEAR_VALUES))],
            "flaps": self.flaps,
            "brakes": self.brakes,
            "coffee": self.coffee,
            "rerolls": self.rerolls,
            "reroll_rounds": [r + 1 for r in self.reroll_rounds],
            "speed": self.speed or None,
            "landing_brake_marker": None if self.landing_brakes < 0 else self.landing_brakes,
            "dice_count": [len(self.dice[0]), len(self.dice[1])],
            "result": None if outcome is None else {"reason": outcome.reason, "landed": outcome.reason == "landed",
                                                    "details": outcome.details},
        }

    def _observation(self, seat: int) -> dict[str, Any]:
        view = self._common_view()
        view["seat"] = seat
        view["role"] = SEAT_NAMES[seat]
        view["my_dice"] = list(self.dice[seat])
        view["other_dice_count"] = len(self.dice[1 - seat])
        return view

    def public_view(self) -> dict[str, Any]:
        return self._common_view()

    def result(self) -> Result | None:
        return self.outcome

    def snapshot(self) -> dict[str, Any]:
        view = self._common_view()
        view["dice"] = [list(self.dice[0]), list(self.dice[1])]
        view["rerolls_spent"] = self._rerolls_spent
        view["scripted_rounds"] = [r for r, d in enumerate(self._dice_script) if d is not None and r > self.round]
        return view

    def _copy_into(self, twin: State) -> None:
        assert isinstance(twin, SkyTeamState)
        twin.round = self.round
        twin.first = self.first
        twin.turn = self.turn
        twin.phase = self.phase
        twin.dice = self.dice[:]
        twin.board = self.board[:]
        twin.placed = self.placed
        twin.pos = self.pos
        twin.tokens = self.tokens
        twin.tilt = self.tilt
        twin.gear = self.gear
        twin.flaps = self.flaps
        twin.brakes = self.brakes
        twin.coffee = self.coffee
        twin.rerolls = self.rerolls
        twin.reroll_rounds = self.reroll_rounds
        twin.speed = self.speed
        twin.landing_brakes = self.landing_brakes
        twin.outcome = self.outcome
        twin._movers = self._movers
        twin._legal0 = self._legal0
        twin._legal1 = self._legal1
        twin._cfg = self._cfg
        twin._dice_script = self._dice_script
        twin._reroll_script = self._reroll_script
        twin._rerolls_spent = self._rerolls_spent
        twin._start_round = self._start_round
        twin._setup_first = self._setup_first

    def resample_hidden(self, seat: int, rng: CounterRng) -> SkyTeamState:
        """The other seat's unplaced dice are redrawn, and so is every future roll (the
        seat cannot know the dice to come, scripted or not)."""
        twin = self.clone()
        assert isinstance(twin, SkyTeamState)
        other = 1 - seat
        twin.dice[other] = tuple(sorted(rng.die(FACES) for _ in self.dice[other]))
        twin._legal0 = twin._legal1 = None
        twin._rng = CounterRng(rng.below(1 << 62))
        twin._dice_script = tuple(d if r <= self.round else None for r, d in enumerate(self._dice_script))
        twin._reroll_script = self._reroll_script[:self._rerolls_spent]
        return twin

