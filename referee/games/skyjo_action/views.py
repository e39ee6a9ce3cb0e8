"""What each seat, and a spectator, may know of a Skyjo Action position.

Kept apart from the state (as OpenSpiel keeps observers apart from states): the state
holds the position, this module decides what of it each viewer sees. A viewer sees every
face-up card, the face-down cards it has looked at (``known``), the types of its own held
cards and of the others' public ones, and the pending decision with what it is about.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .actions import HELD
from .data import (
    CARD_JSON,
    EMPTY,
    FACE_UP_OF_MASK,
    LINE_COL,
    LINE_ROW,
    LOOK,
    METEOR,
    POSITIONS_OF_MASK,
    SWAP_OTHER,
    THIEF,
    TYPE_NAMES,
    card_json,
    line_text,
    pos_text,
)
from .decisions import DECISIONS
from .frames import (
    AnyHit,
    Defend,
    Drawn,
    Frame,
    Hold,
    KeepOfThree,
    Lines,
    LookHit,
    MeteorHit,
    MeteorTarget,
    OwnFirstPick,
    OwnSecondPick,
    Place,
    StarChoice,
    StealHit,
    SwapFirstPick,
    SwapHit,
    SwapSecondPick,
    Top,
    Turn,
)

if TYPE_CHECKING:
    from .state import SkyjoActionState

LOCK_NAMES = {0: None, LINE_ROW: "rows", LINE_COL: "columns"}
# The action card behind each effect on other players (a Defense holder's question names it).
HIT_CARD: dict[type, int] = {SwapHit: SWAP_OTHER, LookHit: LOOK, MeteorHit: METEOR, StealHit: THIEF}


def view(state: SkyjoActionState, viewer: int) -> dict[str, Any]:
    """The whole view of ``viewer`` (-1: a spectator)."""
    config = state.config
    stack = state.stack
    top = stack[-1] if stack else None
    return {
        "seat": viewer if viewer >= 0 else None,
        "players": state.players,
        "rows": config.layout.rows,
        "cols": config.layout.cols,
        "round": state.round_no,
        "current": state.current,
        "to_move": list(state.to_move()),
        "decision": DECISIONS[type(top)].name if top else None,
        "pending": pending(state, top) if top else {},
        "areas": areas(state, viewer),
        "fresh": [taken == state.turn_no for _, _, taken in state.held[viewer]] if viewer >= 0 else [],
        "deck": len(state.deck),
        "discard": card_json(state.discard[-1]) if state.discard else None,
        "discard_size": len(state.discard),
        "action_deck": len(state.action_deck),
        "action_row": [TYPE_NAMES[t] if t >= 0 else None for t in state.action_row],
        "action_discard": [TYPE_NAMES[t] for t in state.action_discard],
        "ender": state.ender if state.ender >= 0 else None,
        "last_turns": list(state.finals),
        "rounds": [{"round": r[0], "scores": list(r[1]), "ender": r[2] if r[2] >= 0 else None,
                    "doubled": r[3], "forced": r[4]} for r in state.rounds],
    }


def areas(state: SkyjoActionState, viewer: int) -> list[dict[str, Any]]:
    """Every play area as ``viewer`` sees it. The public form of each area is built once
    per position and shared by the seats' observations (treat observations as
    read-only); only the viewer's own area and areas where it has looked at face-down
    cards are built for it."""
    public = state.public_areas
    if public is None:
        public = state.public_areas = [area(state, seat, -1) for seat in range(state.players)]
    if viewer < 0:
        return list(public)
    players = state.players
    known = state.known
    up = state.up
    out = list(public)
    base = viewer * players
    for seat in range(players):
        if seat == viewer or known[base + seat] & ~up[seat]:
            out[seat] = area(state, seat, viewer)
    return out


def area(state: SkyjoActionState, seat: int, viewer: int) -> dict[str, Any]:
    row = state.cards[seat]
    up = state.up[seat]
    visible = up | state.known[viewer * state.players + seat] if viewer >= 0 else up
    size = len(row)
    cards = list(map(CARD_JSON.__getitem__, row))        # EMPTY is None already
    for p in POSITIONS_OF_MASK[~visible & ((1 << size) - 1)]:
        cards[p] = None
    face: list[bool | None] = list(FACE_UP_OF_MASK[up][:size])
    if EMPTY in row:
        for p, c in enumerate(row):
            if c == EMPTY:
                face[p] = None
    return {
        "cards": cards,
        "face_up": face,
        "lock": LOCK_NAMES[state.lock[seat]],
        "held": [TYPE_NAMES[t] if public or seat == viewer else None for t, public, _ in state.held[seat]],
        "total": state.totals[seat],
    }


def pending(state: SkyjoActionState, frame: Frame) -> dict[str, Any]:
    """What the pending decision is about."""
    codes = state.config.codes
    kind = type(frame)
    if kind is Turn:
        return {"extra": bool(frame.extra)}
    if kind is Drawn or kind is Place:
        return {"card": card_json(frame.card)}
    if kind is StarChoice:
        return {"optional": not frame.must_take}
    if kind is Top or kind is KeepOfThree:
        return {"cards": [card_json(c) for c in frame.cards]}
    if kind is Hold:
        return {"card": TYPE_NAMES[frame.card_type]}
    if kind is Lines:
        return {"lines": [line_text(code) for code in frame.codes]}
    if kind is Defend:
        return {"by": frame.by, **hit_view(state, frame.hit)}
    card = DECISIONS[kind].card
    if card is None:
        return {}
    shown: dict[str, Any] = {"card": TYPE_NAMES[card]}
    if kind is SwapFirstPick:
        shown.update(players=[frame.first, frame.second], picked=[])
    elif kind is SwapSecondPick:
        shown.update(players=[frame.first, frame.second], picked=[pos_text(codes[frame.first_position])])
    elif kind is OwnFirstPick:
        shown.update(picked=[])
    elif kind is OwnSecondPick:
        shown.update(picked=[pos_text(codes[frame.first_position])])
    elif kind is MeteorTarget:
        shown.update(target=frame.target)
    return shown


def hit_view(state: SkyjoActionState, hit: AnyHit) -> dict[str, Any]:
    """What a Defense holder is asked about: the card and what it would do to whom."""
    codes = state.config.codes
    shown: dict[str, Any] = {"card": TYPE_NAMES[HIT_CARD[type(hit)]]}
    if isinstance(hit, SwapHit):
        shown["swap"] = [[hit.first, pos_text(codes[hit.first_position])],
                         [hit.second, pos_text(codes[hit.second_position])]]
    elif isinstance(hit, LookHit):
        shown["look"] = [hit.seat, line_text(hit.line_code)]
    elif isinstance(hit, MeteorHit):
        target = hit.target
        shown["remove"] = [hit.seat, f"held {target - HELD}" if target >= HELD else pos_text(codes[target])]
    else:
        shown["steal"] = [hit.seat, f"held {hit.slot}"]
    return shown
