"""Sky Team: two players land an airliner together (co-operative, hidden dice).

Registers the ``sky-team`` game. Rules live in ``rules.py``, board data in ``data.py``,
the notation in ``actions.py``, the ``setup`` format in ``scenario.py``; README.md
documents all of them and the rulings applied.
"""

from __future__ import annotations

from typing import Any

from ..core.registry import register
from ..core.spec import GameSpec, OptionSpec
from .actions import Place, Reroll, SpendReroll
from .data import ROUNDS
from .scenario import MAX_REROLLS_HELD, parse_setup
from .state import SkyTeamState

OPTIONS = (
    OptionSpec("first_placer", "pilot", "Who places first at 6000 ft; the altitude track alternates from there "
               "(RULINGS: the Pilot).", str, choices=("pilot", "copilot")),
    OptionSpec("mandatory_lock", True, "RULINGS: once a player's unplaced dice equal their unfilled Axis/Engines "
               "spaces, only those spaces are legal. false lets a seat strand a mandatory space and lose "
               "('missing-mandatory').", bool),
    OptionSpec("green_switch_takes_die", True, "RULINGS: a gear, flap or brake space whose switch is already green "
               "still takes a die that meets its constraint (and does nothing). false closes such spaces.", bool),
    OptionSpec("brake_check", "at-most", "RULINGS: the landing needs speed at most the brake marker ('at-most'); "
               "'below' reads the rulebook's 'less than' literally.", str, choices=("at-most", "below")),
    OptionSpec("brake_timing", "engines", "Decided from the rulebook: the landing round's speed meets the Brake "
               "marker 'when the second Engine die is played' ('engines'), so later brakes come too late; 'end' "
               "uses the marker at the end of the round.", str, choices=("engines", "end")),
)

# Every round places 8 dice; each Reroll token adds one spend and one simultaneous choice.
MAX_DECISIONS = ROUNDS * 8 + 2 * (MAX_REROLLS_HELD + ROUNDS)


def check_options(players: int, options: dict[str, Any]) -> None:
    """The setup must describe a reachable, self-consistent position; parse_setup's
    OptionError says what to fix (e.g. 'round' and 'altitude' disagreeing)."""
    parse_setup(options.get("setup"))


def _factory(players: int, seed: int, options: dict[str, Any]) -> SkyTeamState:
    return SkyTeamState(players, seed, options)


SPEC = register(GameSpec(
    name="sky-team",
    title="Sky Team",
    version="1",
    min_players=2,
    max_players=2,
    factory=_factory,
    options=OPTIONS,
    max_decisions=MAX_DECISIONS,
    cooperative=True,
    rulebook="docs/rules/sky-team.md",
    check_options=check_options,
    description="Co-operative landing: Pilot (seat 0) and Co-Pilot (seat 1) place hidden dice in silence.",
))

__all__ = ["SPEC", "Place", "Reroll", "SkyTeamState", "SpendReroll"]
