"""The rules of Sky Team, one function per rule of the rulebook (and RULINGS.md).

Each function mutates a :class:`~referee.games.sky_team.state.SkyTeamState` in place; the
state decides when a rule applies and the tables in ``data`` say what the board holds.
A loss ends the game at once through :func:`lose`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..core.result import Result
from .data import (
    AIRPORT,
    ALTITUDES,
    AXIS,
    AXIS_SLOTS,
    BLUE_START,
    BRAKE,
    BRAKE_VALUES,
    COFFEE_MAX,
    CONC,
    DICE_PER_SEAT,
    ENGINE_SLOTS,
    ENGINES,
    FINAL_ROUND,
    FLAP,
    FLAP_VALUES,
    GEAR,
    GEAR_VALUES,
    LANDING_CONDITIONS,
    MANDATORY_KINDS,
    MANDATORY_SPACES,
    ORANGE_START,
    RADIO,
    SEAT_NAMES,
    SLOTS,
    SPIN_TILT,
    Space,
    first_placer,
)

if TYPE_CHECKING:
    from .state import SkyTeamState

PLACE, REROLL, OVER = 0, 1, 2
PHASE_NAMES = ("place", "reroll", "over")
_BITS = tuple(bin(i).count("1") for i in range(1 << len(GEAR_VALUES)))
ALL_GEAR = (1 << len(GEAR_VALUES)) - 1
# The switch tracks deployed strictly in order (flaps top to bottom, brakes 2, 4, 6):
# kind -> the state field counting the switches of that track already green.
TRACK_FIELDS = {FLAP: "flaps", BRAKE: "brakes"}


# ----- gauges ---------------------------------------------------------------------------
def blue_marker(st: SkyTeamState) -> int:
    """Each landing gear pushes the blue Aerodynamics marker one step right."""
    return BLUE_START + _BITS[st.gear]


def orange_marker(st: SkyTeamState) -> int:
    """Each flap pushes the orange Aerodynamics marker one step right."""
    return ORANGE_START + st.flaps


def brake_marker(st: SkyTeamState) -> int:
    """The red marker sits at the value of the last brake deployed (0 before any)."""
    return BRAKE_VALUES[st.brakes - 1][0] if st.brakes else 0


# ----- the round ------------------------------------------------------------------------
def start_round(st: SkyTeamState) -> None:
    """Take the altitude space's Reroll token, roll behind the screens, and let the
    altitude track's arrow name the first placer."""
    r = st.round
    take_reroll_token(st)
    st.board = [0] * SLOTS
    st.placed = 0
    st.speed = 0
    st.landing_brakes = -1
    first = st._setup_first if (r == st._start_round and st._setup_first is not None) else None
    st.first = first_placer(r, st._cfg.first) if first is None else first
    st.turn = st.first
    roll_behind_screens(st)
    st.phase = PLACE
    st._movers = (st.turn,)


def take_reroll_token(st: SkyTeamState) -> None:
    """A Reroll token on the Current Altitude space at the start of the round is taken."""
    if st.round in st.reroll_rounds:
        st.reroll_rounds = tuple(r for r in st.reroll_rounds if r != st.round)
        st.rerolls += 1


def roll_behind_screens(st: SkyTeamState) -> None:
    fixed = st._dice_script[st.round]
    label = f"round {st.round + 1}"
    st.dice = [
        st.draw_dice(f"{label} {SEAT_NAMES[seat]}", DICE_PER_SEAT, fixed[seat] if fixed else ())
        for seat in (0, 1)
    ]


def end_round(st: SkyTeamState) -> None:
    """All eight dice are down: the mandatory check, then landing or descent."""
    if not check_mandatory(st):
        return
    if st.round == FINAL_ROUND:
        landing_check(st)
        return
    descend(st)


def descend(st: SkyTeamState) -> None:
    """The altitude track advances; reaching the landing round away from the airport is a
    crash. The crash ends the game before the landing round starts, so the views keep the
    round just played, with its board and its speed (a round 7 with round 6's board would
    contradict "speed: this round's")."""
    if st.round + 1 == FINAL_ROUND and st.pos != AIRPORT:
        lose(st, "crash", {"round": st.round + 1, "position": st.pos + 1, "airport": AIRPORT + 1,
                           "message": "the landing round came before the plane reached the airport"})
        return
    st.round += 1
    start_round(st)


def check_mandatory(st: SkyTeamState) -> bool:
    """The mandatory sections (data.MANDATORY_KINDS: Axis and Engines) must each hold one
    die of each colour at the end of a round."""
    board = st.board
    missing = [f"{SEAT_NAMES[s]} {spaces[k].name}"
               for k in range(len(MANDATORY_KINDS)) for s, spaces in enumerate(MANDATORY_SPACES)
               if not all(board[slot] for slot in spaces[k].slots)]
    if missing:
        lose(st, "missing-mandatory", {"round": st.round + 1, "missing": missing})
        return False
    return True


# ----- the spaces ------------------------------------------------------------------------
def resolve_axis(st: SkyTeamState) -> None:
    """Second axis die: tilt by the difference toward the higher die; ±3 is a spin."""
    board = st.board
    st.tilt += board[AXIS_SLOTS[1]] - board[AXIS_SLOTS[0]]
    if -SPIN_TILT < st.tilt < SPIN_TILT:
        return
    lose(st, "spin", {"round": st.round + 1, "axis": st.tilt})


def resolve_engines(st: SkyTeamState) -> None:
    """Second engine die: the speed moves the plane 0, 1 or 2 spaces (never in the final
    round, where the speed waits for the brake check)."""
    board = st.board
    speed = board[ENGINE_SLOTS[0]] + board[ENGINE_SLOTS[1]]
    st.speed = speed
    if st.round == FINAL_ROUND:
        # The rulebook compares the speed with the Brake marker "when the second Engine die
        # is played": brakes deployed after that come too late.
        st.landing_brakes = brake_marker(st)
        return
    if speed <= blue_marker(st):
        return
    advance(st, 1 if speed <= orange_marker(st) else 2, speed)


def advance(st: SkyTeamState, steps: int, speed: int) -> None:
    """One space at a time: leaving a space with airplanes is a collision, stepping past
    the airport an overshoot (collision checked first)."""
    for _ in range(steps):
        pos = st.pos
        if st.tokens[pos]:
            lose(st, "collision", {"round": st.round + 1, "space": pos + 1, "airplanes": st.tokens[pos],
                                   "speed": speed, "advance": steps})
            return
        if pos == AIRPORT:
            lose(st, "overshoot", {"round": st.round + 1, "speed": speed, "advance": steps})
            return
        st.pos = pos + 1


def place_axis(st: SkyTeamState, seat: int, space: Space, value: int) -> None:
    """The Axis resolves once both seats have a die on it."""
    if st.board[AXIS_SLOTS[1 - seat]]:
        resolve_axis(st)


def place_engines(st: SkyTeamState, seat: int, space: Space, value: int) -> None:
    """The Engines resolve once both seats have a die on them."""
    if st.board[ENGINE_SLOTS[1 - seat]]:
        resolve_engines(st)


def radio(st: SkyTeamState, seat: int, space: Space, value: int) -> None:
    """Remove one airplane from the space value − 1 ahead (value 1: the current space)."""
    target = st.pos + value - 1
    if target <= AIRPORT and st.tokens[target]:
        tokens = list(st.tokens)
        tokens[target] -= 1
        st.tokens = tuple(tokens)


def deploy_gear(st: SkyTeamState, seat: int, space: Space, value: int) -> None:
    """A landing gear switch turns green (once); the blue marker follows via blue_marker()."""
    st.gear |= 1 << space.number


def switch_takes_die(st: SkyTeamState, kind: int, number: int) -> bool:
    """Whether the switch space ``number`` of ``kind`` (gear, flap, brake) takes a die now.
    Flaps and brakes go strictly in order, so a track's next switch takes one and a later
    one does not; a switch already green takes one only under the ruling
    ``green_switch_takes_die`` (and the die then does nothing)."""
    if kind == GEAR:
        return not st.gear >> number & 1 or st._cfg.green_ok
    deployed: int = getattr(st, TRACK_FIELDS[kind])
    return number == deployed or (number < deployed and st._cfg.green_ok)


def deploy_in_order(st: SkyTeamState, seat: int, space: Space, value: int) -> None:
    """A flap or brake switch turns green if it is the next of its track (flaps top to
    bottom, brakes 2, 4, 6); a die on an already-green switch does nothing."""
    field = TRACK_FIELDS[space.kind]
    if space.number == getattr(st, field):
        setattr(st, field, space.number + 1)


def concentration(st: SkyTeamState, seat: int, space: Space, value: int) -> None:
    """A coffee token, up to three held (a fourth is not gained)."""
    if st.coffee < COFFEE_MAX:
        st.coffee += 1


# What a die does where it lands: space kind -> rule(state, seat, space, placed value).
# A table rather than a branch per kind, so a new space kind is one rule and one entry.
ON_PLACE: dict[int, Callable[[SkyTeamState, int, Space, int], None]] = {
    AXIS: place_axis,
    ENGINES: place_engines,
    RADIO: radio,
    GEAR: deploy_gear,
    FLAP: deploy_in_order,
    BRAKE: deploy_in_order,
    CONC: concentration,
}


# ----- the end ---------------------------------------------------------------------------
def landing_check(st: SkyTeamState) -> None:
    """All four conditions at once: approach clear, every switch green, level, slow enough."""
    marker = st.landing_brakes if st._cfg.brakes_at_engines else brake_marker(st)
    speed = st.speed
    slow = speed < marker if st._cfg.brake_below else speed <= marker
    held = (
        not any(st.tokens[st.pos:]),
        st.gear == ALL_GEAR and st.flaps == len(FLAP_VALUES),
        st.tilt == 0,
        slow and marker >= BRAKE_VALUES[0][0],
    )
    details: dict[str, Any] = {
        "speed": speed, "brake_marker": marker, "axis": st.tilt, "airplanes_left": sum(st.tokens[st.pos:]),
        "gear": _BITS[st.gear], "flaps": st.flaps,
    }
    missed = [name for name, ok in zip(LANDING_CONDITIONS, held) if not ok]
    if missed:
        details["missed"] = missed
        lose(st, "failed-landing", details)
        return
    st.outcome = Result((0, 0), (1.0, 1.0), "landed", details)
    st.phase = OVER
    st._movers = ()


def lose(st: SkyTeamState, reason: str, details: dict[str, Any]) -> None:
    """Co-operative: both seats share the loss."""
    details.setdefault("altitude", ALTITUDES[st.round])
    st.outcome = Result((0, 0), (0.0, 0.0), reason, details)
    st.phase = OVER
    st._movers = ()
