"""The legal choices of Oddball Äeronauts that take more than a glance: the Rig orders and
Opp. limit at the start of Step 3, the card counts and tricks of Step 3, and the orders of
cards going down together.

Each list depends on a few facts only (how many cards, which tricks are usable, which
cards are copies of each other), so it is built once per combination of them and shared:
the state hands out the same list objects, and so the same interned actions, every time.
"""

from __future__ import annotations

from itertools import permutations
from typing import TYPE_CHECKING, Any

from . import rules
from .actions import ANNOUNCES, CAPTURES, CARD_SETS, LIMIT, PLAY_ZERO, READY, discard, play, rig
from .cards import Trick

if TYPE_CHECKING:
    from .state import OddballState


CAPTURE_ACTIONS = list(CAPTURES.values())  # the notation's own actions, in its order: top, deck
ANNOUNCE_ACTIONS = list(ANNOUNCES)
_RIG_CACHE: dict[tuple[int, ...], list[tuple[int, ...]]] = {}


def _rig_orders(positions: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every new order of the rigged positions except the unchanged one."""
    orders = _RIG_CACHE.get(positions)
    if orders is None:
        orders = [p for p in permutations(positions) if p != positions]
        _RIG_CACHE[positions] = orders
    return orders


_PREPARE_LISTS: dict[tuple[Any, ...], list[Any]] = {}
_DISCARD_LISTS: dict[tuple[int, ...], list[Any]] = {}


def discard_orders(pattern: tuple[int, ...]) -> list[Any]:
    """The distinct orders of cards going down together, canonical order: deck order first
    (the fallback), then the others by position. ``pattern`` names each card by the first
    position holding the same card, so copies of one card give one order, not several."""
    cached = _DISCARD_LISTS.get(pattern)
    if cached is None:
        seen: set[tuple[int, ...]] = set()
        cached = []
        for order in permutations(range(1, len(pattern) + 1)):
            cards = tuple(pattern[k - 1] for k in order)
            if cards not in seen:
                seen.add(cards)
                cached.append(discard(order))
        _DISCARD_LISTS[pattern] = cached
    return cached


_PLAY_LISTS: dict[tuple[int, int, bool, bool, bool, bool], list[Any]] = {}


def _play_list(n: int, limit: int, t1: bool, m2: bool, m3: bool, zero: bool) -> list[Any]:
    """The Step 3 choices, canonical order: Top Card alone first (the fallback when a seat
    shows no fingers), then more cards; within a count, no trick, the Top Card's, Magic ones;
    ``play 0`` last."""
    magic = {2: m2, 3: m3}
    out: list[Any] = []
    for chosen in CARD_SETS:
        if len(chosen) > limit or chosen[-1] > n:
            continue
        out.append(play(chosen))
        if t1:
            out.append(play(chosen, 1))
        for pos in chosen[1:]:
            if magic[pos]:
                out.append(play(chosen, pos))
    if zero:
        out.append(PLAY_ZERO)
    return out


def _usable_at_step3(trick: Trick | None, lead: bool, magic: bool = False) -> bool:
    """Whether a trick can be chosen with the card count: a Step 3 ("play") trick whose Lead
    condition, if printed, holds; a card Played behind the Top Card lends only a Magic trick
    (``magic``)."""
    return (trick is not None and (trick.magic or not magic) and trick.stage == "play"
            and (trick.when != "lead" or lead))


def prepare_actions(state: OddballState, seat: int) -> list[Any]:
    """``ready``, then the Top Card's Rig orders or its Opp. limit, when it has one that
    applies: asked of both seats every round, so being asked tells nobody anything."""
    up = state.up[seat]
    trick = state.table.cards[up[0]].trick if up else None
    key: tuple[Any, ...] = ()
    if trick is not None and trick.stage == "prepare" and rules.condition_ok(state, seat, trick):
        if trick.kind == "rig":
            positions = rules.rig_positions(trick, len(up))
            if len(positions) >= 2:
                key = ("rig", positions)
        else:
            key = ("limit",)
    cached = _PREPARE_LISTS.get(key)
    if cached is None:
        cached = [READY]
        if key and key[0] == "rig":
            cached += [rig(order) for order in _rig_orders(key[1])]
        elif key:
            cached.append(LIMIT)
        _PREPARE_LISTS[key] = cached
    return cached


def play_actions(state: OddballState, seat: int) -> list[Any]:
    """The Step 3 choices of ``seat``: which tricks it may use depends on its top three cards
    and on whether a Rig or limit already used its Top Card's trick."""
    up = state.up[seat]
    n = len(up)
    if n == 0:
        return [PLAY_ZERO]
    cards = state.table.cards
    free = state.pre_uid[seat] < 0
    top_trick = cards[up[0]].trick
    lead = state.lead == seat
    t1 = free and _usable_at_step3(top_trick, lead)
    zero = free and top_trick is not None and top_trick.stage == "zero"
    m2 = free and n >= 2 and _usable_at_step3(cards[up[1]].trick, lead, magic=True)
    m3 = free and n >= 3 and _usable_at_step3(cards[up[2]].trick, lead, magic=True)
    key = (min(n, 3), state.limits[seat], t1, m2, m3, zero)
    cached = _PLAY_LISTS.get(key)
    if cached is None:
        cached = _PLAY_LISTS[key] = _play_list(*key)
    return cached
