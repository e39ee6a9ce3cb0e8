"""Redrawing what a Skybirds seat cannot see (the state's ``resample_hidden``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from ..core.rng import CounterRng
from .hands import card_list, counts
from .phases import WILD
from .rules import wild_options
from .views import known_for

if TYPE_CHECKING:
    from .state import SkybirdsState


def resample_hidden(state: SkybirdsState, seat: int, rng: CounterRng) -> SkybirdsState:
    """Redraw the other hands and the box from the cards ``seat`` has not seen, keeping
    what it knows: cards it handed over in a trade, Garros with the seat dealt him (until a
    trade might have moved him; never in the box), and the cards of a squadron announced
    before its wild cards are chosen."""
    twin = cast("SkybirdsState", state.clone())
    players = state.players
    hands = state.hands
    others = [s for s in range(players) if s != seat]
    pending = state.pending if state.phase == WILD and state.turn != seat else None
    if pending is None and state.known is None and (state.played[0] or state.garros == seat):
        # Nothing known of the other hands (the common case): one shuffle of all unseen cards.
        pool: list[int] = []
        for s in others:
            pool += card_list(hands[s])
        pool += card_list(state.box)
        drawn = rng.shuffled(pool)
        pos = 0
        for s in others:
            size = state.sizes[s]
            twin.hands[s] = counts(drawn[pos:pos + size])
            pos += size
        twin.box = counts(drawn[pos:])
        twin._cache = None
        snap = dict(state.snapshot())  # only the cards differ
        snap["cards"] = twin.cards_hex()
        twin._snap = snap
        return twin
    if state.known is None and (state.played[0] or state.garros == seat):
        fixed = {s: [0] * 11 for s in others}  # nothing known of the other hands
    else:
        bounds = known_for(state, seat)
        fixed = {s: [min(b, h) for b, h in zip(bounds[s], hands[s])] for s in others}
    if pending is not None:
        need = counts(pending.naturals)
        fixed[state.turn] = [max(a, b) for a, b in zip(fixed[state.turn], need)]
    for attempt in range(60):
        if attempt == 59 and pending is not None:
            fixed[state.turn] = list(hands[state.turn])  # give up redrawing the mover
        pool = []
        free = []
        for s in others:
            pool.extend(card_list([h - f for h, f in zip(hands[s], fixed[s])]))
            free.append(state.sizes[s] - sum(fixed[s]))
        slots = len(pool)
        pool.extend(card_list(state.box))
        drawn = rng.shuffled(pool)
        if 0 in drawn[slots:]:  # Garros is never in the box
            i = drawn.index(0, slots)
            j = rng.below(slots)
            drawn[i], drawn[j] = drawn[j], drawn[i]
        pos = 0
        for s, take in zip(others, free):
            hand = fixed[s][:]
            for c in drawn[pos:pos + take]:
                hand[c] += 1
            pos += take
            twin.hands[s] = hand
        twin.box = counts(drawn[pos:])
        if pending is None or wild_options(twin.hands[state.turn], pending):
            break
    if twin.known is not None:
        twin._own()
        for obs in others:
            for holder in range(players):
                row = twin.known[obs][holder]
                for v in range(11):
                    if row[v] > twin.hands[holder][v]:
                        row[v] = twin.hands[holder][v]
    twin._cache = None
    twin._snap = None
    return twin
