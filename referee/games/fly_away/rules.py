"""The rules of Fly Away, one function per rule of the rulebook.

The functions mutate a :class:`~referee.games.fly_away.state.FlyAwayState` that the
caller has already validated the action for; the geometry lives in ``geometry.py`` and
the card numbers in ``data/``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from ..core.result import Result
from .actions import DONE, Done, Flip, Swap, Take
from .data import (
    ABILITY_OF,
    EMPTY_PILE_PENALTY,
    SCORING,
    SCORING_SETS,
    SPECIES,
    SPECIES_BONUS,
    SPECIES_OF,
    ScoringCard,
)
from .geometry import GROUPS, SLOT_COUNT, WEDGE, anchors_for, cell_of, mask_of, narrow, slots_of

if TYPE_CHECKING:
    from .state import FlyAwayState

# Phases.
KEEP, PLAY, ABILITIES, OVER = 0, 1, 2, 3
PHASE_NAMES = ("keep", "play", "abilities", "over")
# Ability stages of a seat at the end of the game.
SWAPS, FLIPS, FINISHED = 0, 1, 2
STAGE_NAMES = ("swaps", "flips", "finished")

FORMATION_SIZE = len(WEDGE)
EMPTY = 0  # an empty display slot (bird ids start at 1)
AREA_SLOTS: tuple[tuple[int, ...], ...] = tuple(slots_of(c.area) for c in SCORING)


# ----- Setup ----------------------------------------------------------------------------

def refill_display(state: FlyAwayState) -> None:
    """Refill the empty spaces of the display from the draw pile, in slot order; when the
    pile runs out, the gaps stay empty (RULINGS.md)."""
    display = state.display
    deck = state.deck
    for slot in range(SLOT_COUNT):
        if display[slot] == EMPTY and state.deck_pos < len(deck):
            display[slot] = deck[state.deck_pos]
            state.deck_pos += 1
    state.display_mask = display_mask_of(display)


def begin_play(state: FlyAwayState) -> None:
    """The first turn: of the seat ``to_move`` (the lead bird's holder by default). A
    setup with complete formations has already triggered the end; when the seat to move
    holds the lead bird, the normal turns are over and it starts with a penalty card."""
    state.phase = PLAY
    state.current = state.first_turn
    complete = complete_formations(state)
    if all(complete):
        start_abilities(state)
        return
    state.end_triggered = any(complete)
    if state.end_triggered and state.current == state.lead:
        state.penalty_turns = True
        take_penalty(state, state.current)


# ----- Turn -----------------------------------------------------------------------------

def take_and_play(state: FlyAwayState, seat: int, action: Take) -> None:
    """Take 1-3 adjacent cards from the display and play them in the same arrangement,
    touching the formation, covering nothing and keeping the wedge possible."""
    group = GROUPS[action.group]
    display = state.display
    r0, c0 = WEDGE[group.slots[0]]
    cells = state.cells[seat] = dict(state.cells[seat])
    placed = []
    for slot in group.slots:
        r, c = WEDGE[slot]
        cell = (r - r0 + action.row, c - c0 + action.col)
        cells[cell] = display[slot]
        display[slot] = EMPTY
        placed.append(cell)
    anchors = state.anchors[seat]
    state.anchors[seat] = anchors_for(placed) if anchors is None else narrow(anchors, placed)
    state.spots[seat] = None
    refill_display(state)
    end_turn(state, seat)


# ----- End of the game ------------------------------------------------------------------

def complete_formations(state: FlyAwayState) -> list[bool]:
    """Per seat: whether its formation has all 12 cards; the first one triggers the end."""
    return [len(c) == FORMATION_SIZE for c in state.cells]


def end_turn(state: FlyAwayState, seat: int) -> None:
    """Pass the turn clockwise. The 12th card of a formation triggers the end; normal turns
    go on until the lead bird's holder would play again; then the seats still missing
    cards keep playing, taking a penalty card at the start of each turn; once every
    formation is complete, the special abilities are used."""
    players = state.players
    complete = complete_formations(state)
    if complete[seat]:
        state.end_triggered = True
    nxt = (seat + 1) % players
    if not state.penalty_turns:
        for _ in range(players):
            if state.end_triggered and nxt == state.lead:
                state.penalty_turns = True
                break
            if not complete[nxt]:
                state.current = nxt
                return
            nxt = (nxt + 1) % players
    for _ in range(players):
        if not complete[nxt]:
            state.current = nxt
            take_penalty(state, nxt)
            return
        nxt = (nxt + 1) % players
    start_abilities(state)


def take_penalty(state: FlyAwayState, seat: int) -> None:
    """A late player takes the top penalty card; with the pile empty, the option
    ``empty_penalty_pile`` decides (no penalty by default)."""
    if state.pen_pos < len(state.pen_pile):
        value = state.pen_pile[state.pen_pos]
        state.pen_pos += 1
    else:
        empty = EMPTY_PILE_PENALTY[state.options["empty_penalty_pile"]]
        if empty is None:
            return
        value = empty
    state.penalties[seat] = state.penalties[seat] + (value,)


# ----- Special abilities ----------------------------------------------------------------

def board(state: FlyAwayState, seat: int) -> list[int]:
    """The cards of a complete formation by wedge slot (T1..B5)."""
    anchor = state.anchors[seat][0]  # type: ignore[index]
    cells = state.cells[seat]
    return [cells[cell_of(anchor, s)] for s in range(SLOT_COUNT)]


def next_stage(state: FlyAwayState, seat: int, stage: int) -> int:
    """The first ability stage from ``stage`` on in which the seat has something to use."""
    cards = state.cells[seat].values()
    used = state.used[seat]
    flipped = state.flipped[seat]
    can_swap = any(ABILITY_OF[c] == "swap" and c not in used for c in cards)
    can_flip = any(ABILITY_OF[c] == "flip" and c not in flipped for c in cards)
    if state.options["ability_order"] == "any-order":
        return SWAPS if stage == SWAPS and (can_swap or can_flip) else FINISHED
    if stage == SWAPS and can_swap:
        return SWAPS
    if stage <= FLIPS and can_flip:
        return FLIPS
    return FINISHED


def start_abilities(state: FlyAwayState) -> None:
    state.phase = ABILITIES
    state.current = -1
    state.stage = [next_stage(state, s, SWAPS) for s in range(state.players)]
    if all(st == FINISHED for st in state.stage):
        finish(state)


def ability_actions(state: FlyAwayState, seat: int) -> list[Swap | Flip | Done]:
    """``done`` first (the safe fallback), then swaps by (source, target), then flips."""
    stage = state.stage[seat]
    if stage == FINISHED:
        return []
    cards = board(state, seat)
    out: list[Swap | Flip | Done] = [DONE]
    any_order = state.options["ability_order"] == "any-order"
    if stage == SWAPS:
        used = state.used[seat]
        for s, card in enumerate(cards):
            if ABILITY_OF[card] == "swap" and card not in used:
                out.extend(Swap(s, t) for t in range(SLOT_COUNT) if t != s)
    if stage == FLIPS or any_order:
        flipped = state.flipped[seat]
        out.extend(Flip(s) for s, card in enumerate(cards) if ABILITY_OF[card] == "flip" and card not in flipped)
    return out


def use_ability(state: FlyAwayState, seat: int, action: Swap | Flip | Done) -> None:
    """Swapping: the card trades places with any other card, once. Flipping: the card is
    turned face down. Doubling needs no decision. Swaps come before flips (RULINGS.md)."""
    stage = state.stage[seat]
    if isinstance(action, Done):
        state.stage[seat] = next_stage(state, seat, FLIPS) if stage == SWAPS else FINISHED
        return
    anchor = state.anchors[seat][0]  # type: ignore[index]
    cells = state.cells[seat] = dict(state.cells[seat])
    if isinstance(action, Swap):
        a, b = cell_of(anchor, action.source), cell_of(anchor, action.target)
        state.used[seat] = state.used[seat] | {cells[a]}
        cells[a], cells[b] = cells[b], cells[a]
    else:
        state.flipped[seat] = state.flipped[seat] | {cells[cell_of(anchor, action.slot)]}
    state.stage[seat] = next_stage(state, seat, stage)


# ----- Final scoring --------------------------------------------------------------------

class CardScore(NamedTuple):
    card: int                   # index into data.SCORING
    no_card: int                # the "no card" bonus scored (0 if a card of that species is there)
    species: tuple[int, ...]    # points per species, by species index
    total: int


class Score(NamedTuple):
    total: int
    cards: tuple[CardScore, ...]
    species_bonus: int
    penalties: int
    best_card: int              # most points from one bird card: the tie-breaker

    def to_json(self) -> dict[str, object]:
        return {
            "total": self.total,
            "scoring_cards": [
                {"card": SCORING[c.card].id, "no_card": c.no_card, "total": c.total,
                 "species": {s: p for s, p in zip(SPECIES, c.species)}}
                for c in self.cards
            ],
            "species_bonus": self.species_bonus,
            "penalties": self.penalties,
            "best_card": self.best_card,
        }


def score(cards: Sequence[int], flipped: frozenset[int] | set[int], kept: Sequence[int],
          penalties: Sequence[int], double_counts_for_set: bool = False,
          table: Sequence[ScoringCard] = SCORING) -> Score:
    """Final scoring of one formation given by wedge slot (EMPTY for a missing card).

    Per scoring card: the points of each card of its area by species (a doubling card
    doubles them, minus points too) and the "no card" bonus when no face-up card of that
    species is in the area. Then the species set bonus (a flipped card has no species; a
    doubling card counts once unless the option says otherwise) and the penalties.
    """
    per_bird = [0] * SLOT_COUNT
    results = []
    for k in kept:
        card = table[k]
        per = [0] * len(SPECIES)
        present = 0
        for slot in AREA_SLOTS[k]:
            bird = cards[slot]
            if bird == EMPTY or bird in flipped:
                continue
            species = SPECIES_OF[bird]
            present |= 1 << species
            points = card.points[species] * (2 if ABILITY_OF[bird] == "double" else 1)
            per[species] += points
            per_bird[slot] += points
        bonus = 0 if present >> card.no_card_species & 1 else card.no_card_points
        results.append(CardScore(k, bonus, tuple(per), bonus + sum(per)))
    counts = [0] * len(SPECIES)
    for bird in cards:
        if bird != EMPTY and bird not in flipped:
            counts[SPECIES_OF[bird]] += 2 if double_counts_for_set and ABILITY_OF[bird] == "double" else 1
    least = min(counts)
    set_bonus = next((points for n, points in SPECIES_BONUS if least >= n), 0)
    penalty = sum(penalties)
    best = max((per_bird[s] for s in range(SLOT_COUNT) if cards[s] != EMPTY), default=0)
    total = sum(r.total for r in results) + set_bonus + penalty
    return Score(total, tuple(results), set_bonus, penalty, best)


def rank(scores: Sequence[Score]) -> tuple[int, ...]:
    """Most points first; a tie goes to the most points from a single bird card; still
    tied players share the place (applied to every place, not only the first)."""
    keys = [(s.total, s.best_card) for s in scores]
    return tuple(sum(1 for other in keys if other > mine) for mine in keys)


def final_scores(state: FlyAwayState) -> list[Score]:
    double = state.options["double_counts_for_set"]
    table = SCORING_SETS[state.options["scoring_data"]]
    return [
        score(board(state, s), state.flipped[s], state.kept[s] or (), state.penalties[s], double, table)
        for s in range(state.players)
    ]


def finish(state: FlyAwayState) -> None:
    state.phase = OVER
    scores = final_scores(state)
    state.final = Result(
        rank(scores), tuple(float(s.total) for s in scores), "score",
        {"scores": [s.to_json() for s in scores]},
    )


def display_mask_of(display: Sequence[int]) -> int:
    """The display's occupied slots as a mask (what the group lookups read)."""
    return mask_of(s for s in range(SLOT_COUNT) if display[s])
