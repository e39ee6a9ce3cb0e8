"""The Fly Away state: the engine contract of DESIGN.md over the rules in rules.py.

Cloning is cheap because almost everything is immutable and shared: the draw piles are
tuples read through a position, formations are replaced (never edited) when they change,
anchors and the cached legal cells are tuples. Only the display and a few small lists
are copied.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from ..core.errors import IllegalAction
from ..core.result import Result
from ..core.rng import CounterRng
from ..core.state import State
from . import actions as act
from .actions import Flip, Keep, Swap, Take
from .data import AREA_VIEW, SCORING, SCORING_PILES, TYPE_OF, bird_json, scoring_view
from .deal import deal, keep_sizes
from .geometry import (
    FIRST_POSITIONS,
    GROUPS,
    SLOT_NAMES,
    Anchors,
    Cell,
    available_groups,
    placement_fault,
    positions,
    shape_at,
    slot_of,
)
from .rules import (
    ABILITIES,
    FINISHED,
    FORMATION_SIZE,
    KEEP,
    OVER,
    PHASE_NAMES,
    PLAY,
    STAGE_NAMES,
    ability_actions,
    begin_play,
    finish,
    take_and_play,
    use_ability,
)

GROUP_SHAPE: tuple[int, ...] = tuple(g.shape for g in GROUPS)


# Why a take cannot go where it was asked: the one placement condition it breaks.
PLACEMENT_FAULTS = {
    "origin": "your formation is empty and its first cards go at @0,0 (the first listed card there)",
    "cover": "they would cover a card you already played",
    "touch": "none of them would touch a card of your formation",
    "wedge": "your formation would no longer fit the 3/4/5 wedge",
}


class FlyAwayState(State):
    game = "fly-away"

    __slots__ = (
        "phase", "lead", "current", "first_turn", "end_triggered", "penalty_turns",
        "display", "display_mask", "deck", "deck_pos", "pen_pile", "pen_pos",
        "cells", "anchors", "spots", "penalties", "dealt", "kept", "stage", "used", "flipped", "final",
    )

    phase: int
    lead: int                   # holds the lead bird: the first player
    current: int                # seat whose turn it is (PLAY), else -1
    first_turn: int             # seat whose turn starts the play phase
    end_triggered: bool         # some formation is complete
    penalty_turns: bool         # the normal turns are over: late seats take penalty cards
    display: list[int]          # bird id per slot T1..B5, 0 when empty
    display_mask: int
    deck: tuple[int, ...]       # draw pile, read from deck_pos on
    deck_pos: int
    pen_pile: tuple[int, ...]   # penalty values, read from pen_pos on
    pen_pos: int
    cells: list[dict[Cell, int]]          # per seat: personal cell -> bird id (replaced on change)
    anchors: list[Anchors | None]         # per seat: wedge placements still possible (None: empty)
    spots: list[tuple[tuple[Cell, ...], ...] | None]  # per seat, per shape: legal origin cells (cache)
    penalties: list[tuple[int, ...]]      # per seat: penalty values taken
    dealt: tuple[tuple[int, ...], ...]    # per seat: scoring cards dealt, one per type
    kept: tuple[tuple[int, ...] | None, ...]  # per seat: scoring cards kept (None: not chosen yet)
    stage: list[int]            # per seat: ability stage (rules.SWAPS, FLIPS, FINISHED)
    used: list[frozenset[int]]  # per seat: swap cards whose ability is spent
    flipped: list[frozenset[int]]
    final: Result | None

    def __init__(self, players: int, seed: int, options: dict[str, Any]) -> None:
        super().__init__(players, seed, options)
        deal(self)

    # ----- whose turn, what is legal ---------------------------------------------------
    def to_move(self) -> tuple[int, ...]:
        phase = self.phase
        if phase == PLAY:
            return (self.current,)
        if phase == KEEP:
            return tuple(range(self.players))
        if phase == ABILITIES:
            return tuple(s for s in range(self.players) if self.stage[s] != FINISHED)
        return ()

    def _spots(self, seat: int) -> tuple[tuple[Cell, ...], ...]:
        spots = self.spots[seat]
        if spots is None:
            anchors = self.anchors[seat]
            spots = self.spots[seat] = FIRST_POSITIONS if anchors is None else positions(anchors)
        return spots

    def _keep_actions(self, seat: int) -> list[Keep]:
        cards = self.dealt[seat]
        return [act.keep(combo) for n in keep_sizes(self.options) for combo in combinations(cards, n)]

    def _legal_actions(self, seat: int) -> list[Any]:
        phase = self.phase
        if phase == PLAY:
            if seat != self.current:
                return []
            spots = self._spots(seat)
            out: list[Any] = []
            takes = act.takes
            for g in available_groups(self.display_mask):
                cells = spots[GROUP_SHAPE[g]]
                if cells:
                    out += takes(g, cells)
            return out
        if phase == KEEP:
            return self._keep_actions(seat)
        if phase == ABILITIES:
            return ability_actions(self, seat)
        return []

    def _is_legal(self, seat: int, action: Any) -> bool:
        if self.phase == PLAY:
            if seat != self.current or type(action) is not Take:
                return False
            group = GROUPS[action.group] if 0 <= action.group < len(GROUPS) else None
            if group is None or group.mask & self.display_mask != group.mask:
                return False
            return (action.row, action.col) in self._spots(seat)[group.shape]
        return action in self._legal_actions(seat)

    def _parse_action(self, seat: int, text: str) -> Any:
        action = act.parse(text)
        if self._is_legal(seat, action):
            return action
        raise IllegalAction(self._why_illegal(seat, text, action))

    def _why_illegal(self, seat: int, text: str, action: Any) -> str:
        movers = self.to_move()
        if seat not in movers:
            return f"{self.game}: seat {seat} is not to move now (to move: {list(movers)})."
        phase = PHASE_NAMES[self.phase]
        expected = {KEEP: "keep", PLAY: "take", ABILITIES: "swap, flip or done"}[self.phase]
        if self.phase == PLAY and isinstance(action, Take):
            group = GROUPS[action.group]
            empty = [SLOT_NAMES[s] for s in group.slots if not self.display[s]]
            if empty:
                return f"{self.game}: {text!r}: display slot {', '.join(empty)} is empty."
            fault = placement_fault(self.cells[seat], self.anchors[seat],
                                    shape_at(group.shape, (action.row, action.col)))
            return (f"{self.game}: {text!r}: the cards cannot go there: {PLACEMENT_FAULTS[fault or 'wedge']} "
                    "(legal cells for the first listed card: "
                    + (" ".join(f"@{r},{c}" for r, c in self._spots(seat)[group.shape]) or "none") + ").")
        if self.phase == ABILITIES and isinstance(action, (Swap, Flip)):
            return (f"{self.game}: {text!r} is not available to seat {seat} now (ability stage "
                    f"{STAGE_NAMES[self.stage[seat]]}); legal: "
                    + ", ".join(str(a) for a in self._legal_actions(seat)[:12]) + ".")
        if self.phase == KEEP and isinstance(action, Keep):
            return (f"{self.game}: {text!r}: keep "
                    + " or ".join(str(n) for n in keep_sizes(self.options))
                    + " of your dealt scoring cards; legal: "
                    + ", ".join(str(a) for a in self._keep_actions(seat)) + ".")
        return f"{self.game}: {text!r} is not a {expected} action; this is the {phase} phase."

    def _apply(self, actions: dict[int, Any]) -> None:
        phase = self.phase
        if phase == PLAY:
            seat = self.current
            take_and_play(self, seat, actions[seat])
        elif phase == KEEP:
            kept = list(self.kept)
            for seat, action in actions.items():
                kept[seat] = action.cards
            self.kept = tuple(kept)
            begin_play(self)
        elif phase == ABILITIES:
            for seat, action in actions.items():
                use_ability(self, seat, action)
            if all(s == FINISHED for s in self.stage):
                finish(self)

    # ----- views -----------------------------------------------------------------------
    def result(self) -> Result | None:
        return self.final

    def _revealed(self) -> bool:
        return self.phase == OVER or bool(self.options["public_scoring_cards"])

    def _seat_view(self, seat: int, viewer: int | None) -> dict[str, Any]:
        anchors = self.anchors[seat]
        unique = anchors[0] if anchors is not None and len(anchors) == 1 else None
        used = self.used[seat]
        flipped = self.flipped[seat]
        cards = []
        for (r, c), bird in sorted(self.cells[seat].items()):
            slot = SLOT_NAMES[slot_of(unique, (r, c))] if unique is not None else None
            cards.append({"row": r, "col": c, "slot": slot, "card": bird_json(bird),
                          "flipped": bird in flipped, "ability_used": bird in used})
        kept = self.kept[seat]
        shown = kept is not None and (viewer == seat or self._revealed())
        return {
            "seat": seat,
            "formation": cards,
            "anchors": [[a.row, a.col] for a in anchors] if anchors is not None else None,
            "complete": len(self.cells[seat]) == FORMATION_SIZE,
            "penalties": list(self.penalties[seat]),
            "kept_count": None if kept is None else len(kept),
            "kept": [scoring_view(c, self.options["scoring_data"]) for c in kept]
            if shown and kept is not None else None,
            "ability_stage": STAGE_NAMES[self.stage[seat]] if self.phase >= ABILITIES else None,
        }

    def _view(self, viewer: int | None) -> dict[str, Any]:
        return {
            "game": self.game,
            "seat": viewer,
            "players": self.players,
            "phase": PHASE_NAMES[self.phase],
            "to_move": list(self.to_move()),
            "current": self.current if self.phase == PLAY else None,
            "lead": self.lead,
            "end_triggered": self.end_triggered,
            "penalty_turns": self.penalty_turns,
            "display": [bird_json(b) if b else None for b in self.display],
            "deck_size": len(self.deck) - self.deck_pos,
            "penalty_pile_size": len(self.pen_pile) - self.pen_pos,
            "dealt": [scoring_view(c, self.options["scoring_data"]) for c in self.dealt[viewer]]
            if viewer is not None else None,
            "seats": [self._seat_view(s, viewer) for s in range(self.players)],
            "areas": {name: list(slots) for name, slots in AREA_VIEW.items()},
            "result": self.final.to_json() if self.final is not None else None,
        }

    def _observation(self, seat: int) -> dict[str, Any]:
        return self._view(seat)

    def public_view(self) -> dict[str, Any]:
        return self._view(None)

    # ----- copying, hashing, hidden information ----------------------------------------
    def _copy_into(self, twin: State) -> None:
        assert isinstance(twin, FlyAwayState)
        twin.phase = self.phase
        twin.lead = self.lead
        twin.current = self.current
        twin.first_turn = self.first_turn
        twin.end_triggered = self.end_triggered
        twin.penalty_turns = self.penalty_turns
        twin.display = self.display[:]
        twin.display_mask = self.display_mask
        twin.deck = self.deck
        twin.deck_pos = self.deck_pos
        twin.pen_pile = self.pen_pile
        twin.pen_pos = self.pen_pos
        twin.cells = self.cells[:]        # the dicts themselves are replaced, never edited
        twin.anchors = self.anchors[:]
        twin.spots = self.spots[:]
        twin.penalties = self.penalties[:]
        twin.dealt = self.dealt
        twin.kept = self.kept
        twin.stage = self.stage[:]
        twin.used = self.used[:]
        twin.flipped = self.flipped[:]
        twin.final = self.final

    def snapshot(self) -> dict[str, Any]:
        return {
            "phase": PHASE_NAMES[self.phase],
            "lead": self.lead,
            "current": self.current,
            "first_turn": self.first_turn,
            "end_triggered": self.end_triggered,
            "penalty_turns": self.penalty_turns,
            "display": list(self.display),
            "deck": list(self.deck[self.deck_pos:]),
            "penalty_pile": list(self.pen_pile[self.pen_pos:]),
            "formations": [sorted([r, c, b] for (r, c), b in cells.items()) for cells in self.cells],
            "penalties": [list(p) for p in self.penalties],
            "dealt": [[SCORING[c].id for c in d] for d in self.dealt],
            "kept": [None if k is None else [SCORING[c].id for c in k] for k in self.kept],
            "stage": list(self.stage),
            "used": [sorted(u) for u in self.used],
            "flipped": [sorted(f) for f in self.flipped],
        }

    def resample_hidden(self, seat: int, rng: CounterRng) -> FlyAwayState:
        """Redraw what ``seat`` cannot see: the order of both draw piles, and the other
        seats' scoring cards (dealt and kept, keeping how many each kept) unless they
        are revealed; their kept cards are then fixed and only the unkept ones redrawn."""
        twin = self.clone()
        assert isinstance(twin, FlyAwayState)
        twin.deck = self.deck[: self.deck_pos] + tuple(rng.shuffled(self.deck[self.deck_pos:]))
        twin.pen_pile = self.pen_pile[: self.pen_pos] + tuple(rng.shuffled(self.pen_pile[self.pen_pos:]))
        revealed = self._revealed()
        others = [s for s in range(self.players) if s != seat]
        known: set[int] = set(self.dealt[seat])
        if revealed:
            for s in others:
                known.update(self.kept[s] or ())
        dealt = [list(d) for d in self.dealt]
        kept = list(self.kept)
        for kind, pile in enumerate(SCORING_PILES):
            pool = rng.shuffled([c for c in pile if c not in known])
            for s in others:
                fixed = revealed and self.kept[s] is not None and self.dealt[s][kind] in (self.kept[s] or ())
                if not fixed:
                    dealt[s][kind] = pool.pop()
        for s in others:
            if self.kept[s] is not None and not revealed:
                chosen = rng.shuffled(range(len(dealt[s])))[: len(self.kept[s] or ())]
                kept[s] = tuple(sorted((dealt[s][k] for k in chosen), key=lambda c: TYPE_OF[c]))
        twin.dealt = tuple(tuple(d) for d in dealt)
        twin.kept = tuple(kept)
        return twin
