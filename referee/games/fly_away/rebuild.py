"""Fly Away's forward model: a state from one seat's observation.

Public: the display, every formation (with flips and spent swaps), the penalties taken,
the phase and the turn. The seat's own: its dealt scoring cards and the ones it kept.
Hidden and drawn here: the order of the draw pile (every bird of this player count that
is neither on the display nor in a formation), the order of the penalty pile (the eleven
penalty cards less those taken), and the other seats' scoring cards: one per type from
the cards of that type the seat has not seen, and, when they have kept some without
showing them, which ones (as many as each kept).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from ..core.errors import ObservationError
from ..core.rng import CounterRng
from .data import PENALTIES, SCORING_INDEX, SCORING_PILES, TYPE_OF, deck_for
from .geometry import anchors_for
from .rules import KEEP, PHASE_NAMES, STAGE_NAMES, SWAPS, display_mask_of
from .state import FlyAwayState


def rebuild(state: FlyAwayState, seat: int, view: Mapping[str, Any], rng: CounterRng) -> None:
    """Fill ``state`` from ``view`` (see referee.games.core.rebuild)."""
    players = state.players
    seats = view["seats"]
    state.phase = PHASE_NAMES.index(view["phase"])
    state.lead = view["lead"]
    state.current = view["lead"] if state.phase == KEEP else (-1 if view["current"] is None else view["current"])
    state.first_turn = state.current
    state.end_triggered = view["end_triggered"]
    state.penalty_turns = view["penalty_turns"]
    state.display = [0 if card is None else card["id"] for card in view["display"]]
    state.display_mask = display_mask_of(state.display)
    state.cells = [{(c["row"], c["col"]): c["card"]["id"] for c in s["formation"]} for s in seats]
    state.anchors = [_anchors(cells, s["anchors"]) for cells, s in zip(state.cells, seats)]
    state.spots = [None] * players
    state.flipped = [frozenset(c["card"]["id"] for c in s["formation"] if c["flipped"]) for s in seats]
    state.used = [frozenset(c["card"]["id"] for c in s["formation"] if c["ability_used"]) for s in seats]
    state.stage = [SWAPS if s["ability_stage"] is None else STAGE_NAMES.index(s["ability_stage"]) for s in seats]
    state.penalties = [tuple(s["penalties"]) for s in seats]
    state.final = None
    _draw_piles(state, view, rng)
    _scoring_cards(state, seat, view, rng)


def _anchors(cells: dict[tuple[int, int], int], shown: list[list[int]] | None) -> Any:
    """The wedge placements, in the order the view lists them."""
    if shown is None:
        return None
    found = {(a.row, a.col): a for a in anchors_for(list(cells))}
    return tuple(found[(r, c)] for r, c in shown)


def _draw_piles(state: FlyAwayState, view: Mapping[str, Any], rng: CounterRng) -> None:
    seen = {card for card in state.display if card} | {card for cells in state.cells for card in cells.values()}
    unseen = sorted(set(deck_for(state.players)) - seen)
    if len(unseen) != view["deck_size"]:
        raise ObservationError(f"fly-away: the observation shows {view['deck_size']} cards in the draw pile but "
                               f"{len(unseen)} birds are unaccounted for; pass an unmodified observation.")
    state.deck = tuple(rng.shuffled(unseen))
    state.deck_pos = 0
    # Counter subtraction stops at zero: the -4s of option empty_penalty_pile=minus-4 come
    # after the pile ran out and take nothing from it.
    taken = Counter(value for p in state.penalties for value in p)
    rest = sorted((Counter(PENALTIES) - taken).elements())
    if len(rest) != view["penalty_pile_size"]:
        raise ObservationError(f"fly-away: the observation shows {view['penalty_pile_size']} penalty cards in the "
                               f"pile but {len(rest)} are unaccounted for; pass an unmodified observation.")
    state.pen_pile = tuple(rng.shuffled(rest))
    state.pen_pos = 0


def _scoring_cards(state: FlyAwayState, seat: int, view: Mapping[str, Any], rng: CounterRng) -> None:
    """The seat's own cards as shown; the others' drawn from what it has not seen."""
    seats = view["seats"]
    own = tuple(SCORING_INDEX[c["id"]] for c in view["dealt"])
    shown_kept = [None if s["kept"] is None else tuple(SCORING_INDEX[c["id"]] for c in s["kept"]) for s in seats]
    known = set(own) | {c for k in shown_kept if k is not None for c in k}
    dealt: list[list[int]] = [[-1] * len(SCORING_PILES) for _ in range(state.players)]
    dealt[seat] = list(own)
    for other, kept in enumerate(shown_kept):
        for card in kept or ():
            dealt[other][TYPE_OF[card]] = card
    for kind, pile in enumerate(SCORING_PILES):
        pool = rng.shuffled([c for c in pile if c not in known])
        for other in range(state.players):
            if dealt[other][kind] < 0:
                dealt[other][kind] = pool.pop()
    kept_out: list[tuple[int, ...] | None] = []
    for other, s in enumerate(seats):
        count = s["kept_count"]
        if count is None:
            kept_out.append(None)
        elif shown_kept[other] is not None:
            kept_out.append(shown_kept[other])
        else:
            chosen = rng.shuffled(range(len(dealt[other])))[:count]
            kept_out.append(tuple(sorted((dealt[other][k] for k in chosen), key=lambda c: TYPE_OF[c])))
    state.dealt = tuple(tuple(d) for d in dealt)
    state.kept = tuple(kept_out)
