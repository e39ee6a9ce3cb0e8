"""Sky Team's forward model: a state from one seat's observation.

Everything on the Control Panel is public; the only hidden part is the partner's unplaced
dice behind its screen, which are independent fair dice whatever has been placed, so they
are rolled afresh (and sorted, as the engine keeps them). The rounds to come are rolled
by the state's own generator, which the shared core replaces.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core.rng import CounterRng
from .data import FACES, PLACEMENTS_PER_ROUND, SLOT_NAMES
from .rules import PHASE_NAMES
from .state import SkyTeamState


def rebuild(state: SkyTeamState, seat: int, view: Mapping[str, Any], rng: CounterRng) -> None:
    """Fill ``state`` from ``view`` (see referee.games.core.rebuild)."""
    state.round = view["round"] - 1
    state.first = view["first_placer"]
    state.turn = view["turn"]
    state.phase = PHASE_NAMES.index(view["phase"])
    state.board = [view["board"][name] or 0 for name in SLOT_NAMES]
    state.pos = view["position"] - 1
    state.tokens = tuple(view["approach_tokens"])
    state.tilt = view["axis"]
    state.gear = sum(1 << k for k, down in enumerate(view["gear"]) if down)
    state.flaps = view["flaps"]
    state.brakes = view["brakes"]
    state.coffee = view["coffee"]
    state.rerolls = view["rerolls"]
    state.reroll_rounds = tuple(r - 1 for r in view["reroll_rounds"])
    state.speed = view["speed"] or 0
    marker = view["landing_brake_marker"]
    state.landing_brakes = -1 if marker is None else marker
    dice: list[tuple[int, ...]] = [(), ()]
    dice[seat] = tuple(view["my_dice"])
    dice[1 - seat] = tuple(sorted(rng.die(FACES) for _ in range(view["other_dice_count"])))
    state.dice = dice
    state.placed = PLACEMENTS_PER_ROUND - len(dice[0]) - len(dice[1])
    state._movers = tuple(view["to_move"])
    state._legal0 = state._legal1 = None
    # _dice_script and _reroll_script stay as make() left them: no setup, nothing scripted.
    state._rerolls_spent = 0
    state._start_round = state.round
    state._setup_first = None
