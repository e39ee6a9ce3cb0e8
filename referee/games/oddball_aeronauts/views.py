"""What each seat, and a spectator, may know of an Oddball Äeronauts position.

Kept apart from the state (as OpenSpiel keeps observers apart from states). Everyone sees
the round so far (skills, announced tricks, revealed Played cards, the last round), each
deck's size, the cards in it both seats have seen (what a player who remembers the game
knows, so that a forward model can rebuild a position from one view) and each seat's held
Events; a seat sees its own face-up cards and the
face-down cards it has seen (``seen``), a spectator what both seats have seen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from .cards import SKILLS
from .phases import CAPTURE, DISCARD, PHASE_NAMES, PLAY, PROTECT, THEN_EFFECTS

if TYPE_CHECKING:
    from .state import OddballState, Table


class RoundRecord(NamedTuple):
    """One round as everyone saw it (kept compact: the JSON is built only for views)."""

    rnd: int
    lead: int
    skills: tuple[int, int]
    positions: tuple[tuple[int, ...], ...]
    played: tuple[tuple[int, ...], tuple[int, ...]]
    trick_uid: tuple[int, int]
    pre_uid: tuple[int, int]
    blocked: tuple[bool, bool]
    totals: tuple[int, int]
    winner: int
    defence: int
    discarded: tuple[int, int]
    recovered: tuple[int, int]
    captured: int
    capture_place: str
    protected: tuple[int, int]
    log: tuple[dict[str, Any], ...]
    announced: tuple[str | None, str | None]

    def to_json(self, table: Table, final: bool = True) -> dict[str, Any]:
        ids = table.ids
        tricks: list[dict[str, Any] | None] = []
        for seat in (0, 1):
            uid = self.trick_uid[seat]
            if uid < 0:
                tricks.append(None)
                continue
            trick = table.cards[uid].trick
            assert trick is not None
            entry: dict[str, Any] = {"text": trick.text, "blocked": self.blocked[seat]}
            if uid != self.pre_uid[seat]:
                entry["card"] = ids[uid]
            tricks.append(entry)
        data: dict[str, Any] = {
            "round": self.rnd,
            "lead": self.lead,
            "skills": [SKILLS[s] for s in self.skills],
            "counts": [len(p) for p in self.positions],
            "positions": [list(p) for p in self.positions],
            "played": [[ids[u] for u in self.played[s]] for s in (0, 1)],
            "tricks": tricks,
            "totals": list(self.totals),
            "winner": None if self.winner < 0 else self.winner,
            "defence": None if self.defence < 0 else self.defence,
        }
        if final:
            data.update({
                "discarded": list(self.discarded),
                "recovered": list(self.recovered),
                "captured": None if self.captured < 0 else {"seat": self.winner, "card": ids[self.captured],
                                                             "place": self.capture_place},
                "protected": [ids[p] if p >= 0 else None for p in self.protected],
                "events": list(self.log),
                "announced": list(self.announced),
            })
        return data


def public(state: OddballState) -> dict[str, Any]:
    """What a spectator may know, and the part of every seat's view that is the same."""
    table = state.table
    revealed_counts: list[int | None] = [None, None]
    if state.phase == PLAY and not state.options["simultaneous_counts"]:
        lead_play = state.plays[state.lead]
        if lead_play is not None:
            revealed_counts[state.lead] = len(lead_play.cards)
    skills: list[str | None] = [None, None]
    for seat in (0, 1):
        if state.skills[seat] >= 0:
            skills[seat] = SKILLS[state.skills[seat]]
    return {
        "round": state.rnd,
        "phase": PHASE_NAMES[state.phase],
        "lead": state.lead,
        "to_move": list(state.movers),
        "factions": list(table.factions),
        "skills": skills,
        "announced": list(state.announced),
        "limits": [limit if limit >= 0 else None for limit in state.limits],
        "counts": revealed_counts,
        "events": list(state.log),
        "reveal": reveal(state)
        if state.phase in (CAPTURE, PROTECT) or (state.phase == DISCARD and state.then == THEN_EFFECTS) else None,
        "last_round": state.last.to_json(table) if state.last is not None else None,
        "decks": [_seat_public(state, seat) for seat in (0, 1)],
        "discarding": discarding(state, state.seen[0] & state.seen[1]),
        "result": state.outcome.to_json() if state.outcome else None,
        "box": len(state.box),
    }


def reveal(state: OddballState) -> dict[str, Any]:
    """This round so far, during the Step 5 choices and Discard orders: the Played cards,
    tricks and totals, and the Step 5 decisions already made in the open (how many cards
    the Win Effect and tricks Discarded, where a captured card goes, the Protected cards)."""
    table = state.table
    data = state.record((0, 0), (0, 0)).to_json(table, final=False)
    data["discarded"] = list(state.discarded)
    data["capture_place"] = state.capture_place or None
    data["protected"] = [table.ids[p] if p >= 0 else None for p in state.protected]
    return data


def discarding(state: OddballState, seen: int) -> dict[str, Any] | None:
    """In the ``discard`` phase: whose cards go down together and which (in deck order),
    each shown only to a viewer that has seen it (``seen``: the viewer's mask); where they
    lie in that seat's face-down cards (``start``); and the groups still to be ordered after
    them (``later``: ``[seat, start, count]``), as everyone sees cards go down."""
    if state.phase != DISCARD:
        return None
    ids = state.table.ids
    bit = state.table.bit
    seat, start, _count = state.orders[0]
    return {"seat": seat,
            "cards": [ids[u] if seen & bit[u] else None for u in state.order_group()],
            "start": start,
            "later": [list(order) for order in state.orders[1:]]}


def _seat_public(state: OddballState, seat: int) -> dict[str, Any]:
    """A deck as everyone knows it; ``revealed`` are its cards both seats have seen (Played,
    shown in Step 1, captured), sorted: where they lie is not told (Discards go face down in
    an order only their owner knows), but a player who remembers the game knows they are
    in this deck."""
    table = state.table
    ids = table.ids
    bit = table.bit
    both = state.seen[0] & state.seen[1]
    return {
        "face_up": len(state.up[seat]),
        "face_down": len(state.down[seat]),
        "revealed": sorted(ids[u] for lst in (state.up[seat], state.down[seat]) for u in lst if both & bit[u]),
        "held": [{"event": table.ids[uid], "round": due} for uid, due in state.held[seat]],
        "next_round": [{"card": table.ids[uid], "top_right": table.cards[uid].trick.top_right}  # type: ignore[union-attr]
                       for uid in state.nr_active[seat]],
    }


def observation(state: OddballState, seat: int) -> dict[str, Any]:
    """What ``seat`` may know: the public view, its own face-up cards and the face-down
    cards it has seen."""
    data = public(state)
    table = state.table
    ids = table.ids
    seen = state.seen[seat]
    bit = table.bit
    data["seat"] = seat
    data["discarding"] = discarding(state, seen)
    data["hand"] = {
        "up": [ids[u] for u in state.up[seat]],
        "down": [ids[u] if seen & bit[u] else None for u in state.down[seat]],
    }
    return data
