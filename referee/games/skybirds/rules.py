"""Skybirds rules as functions, one per rule of the rulebook, on plain data.

A hand is a list of 11 counts (index = card value, 0 = Roland Garros). A player's Aerodrome
is a list of 11 token states (``ON_MAT``, ``FACE_UP``, ``FLIPPED``, in the table's order)
plus a count of +1VP tokens in reserve and a fractional token (in quarters, 0 = none).

Legal squadrons are enumerated canonically: cards of one value are interchangeable, so a
squadron is named by its values; wild cards count only as their declared value (no
medallion), so which cards are wild never changes what a squadron beats, and they are
chosen in a second small decision (``wild N``) once the squadron is announced. A token is only offered
where it changes something (B1 only to equal, C1 only to change the size, a wild card
never at its own printed value), so every legal play has one spelling and the lists stay
bounded: a few hundred plays at most even with every token in hand.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from itertools import combinations, combinations_with_replacement

from .actions import PLUS_ONE, Give, Play, PreUse, Take, Trade, Wild, canonical_tokens
from .data import (
    AERODROME,
    ARMISTICE,
    DOGFIGHT_TOKENS,
    FACE_UP,
    FLIPPED,
    INDEX,
    MAX_SQUADRON,
    MEDAL_BONUS,
    MEDALS,
    ON_MAT,
    PLUS_ONE_TOKENS,
    PRE_CAMPAIGN_TOKENS,
    TRADE_CARDS,
    WILD_CARDS,
    Token,
    trade_in_cost,
)

_DOG_IDX = tuple((INDEX[name], name) for name in DOGFIGHT_TOKENS)
_PRE_IDX = tuple((INDEX[name], name) for name in PRE_CAMPAIGN_TOKENS)
_DOGFIGHT = tuple(t for t in AERODROME if t.kind == "dogfight")

# ----- precomputed plain squadrons (no token): the hot path of every game ------------------
PLAIN: list[list[Play | None]] = [[None] * (MAX_SQUADRON + 1) for _ in range(11)]
WITH_GARROS: list[list[Play | None]] = [[None] * MAX_SQUADRON for _ in range(11)]
for _v in range(1, 11):
    for _k in range(1, MAX_SQUADRON + 1):
        PLAIN[_v][_k] = Play((_v,) * _k, (), 0, (), _v, 0, _k, _k * MEDALS[_v])
    for _k in range(1, MAX_SQUADRON):
        WITH_GARROS[_v][_k] = Play((0,) + (_v,) * _k, (), 0, (), _v, 0, _k + 1, _k * MEDALS[_v])
GARROS_ALONE = Play((0,), (), 0, (), 0, 0, 1, 0)


# ----- the Aerodrome ------------------------------------------------------------------------
def meets_prerequisites(tokens: list[int], token: Token, short_war: bool = False) -> bool:
    """Only the immediate prerequisites count; one suffices except for a ``needs_all`` token
    (the Armistice: both), which needs only one in the optional shorter war."""
    if not token.needs:
        return True
    held = [tokens[INDEX[n]] != ON_MAT for n in token.needs]
    if token.needs_all and not short_war:
        return all(held)
    return any(held)


def eligible_for(place: int, players: int, token: Token) -> bool:
    """The ribbon names the finishing places (of the Campaign) that may take the token; last
    place takes only +1VP tokens, except in a two-player war."""
    if place == players and players > 2:
        return False
    return place in token.ribbon


def take_options(tokens: list[int], plus1: int, place: int, players: int, short_war: bool) -> list[Take]:
    """What a player finishing in ``place`` may take: a progression token it qualifies for
    and that is still on its Aerodrome, or a +1VP token while any is left."""
    options = [
        Take(t.name) for i, t in enumerate(AERODROME)
        if tokens[i] == ON_MAT and eligible_for(place, players, t) and meets_prerequisites(tokens, t, short_war)
    ]
    if plus1 < PLUS_ONE_TOKENS:
        options.append(Take(PLUS_ONE))
    return options


def trade_in_options(tokens: list[int], plus1: int, short_war: bool) -> list[Trade]:
    """After a Campaign: 2/3/4 +1VP tokens buy a 1-2-3 / 1-2 / 1-only token whose
    prerequisites are met; never the Armistice."""
    if plus1 < 2:
        return []
    return [
        Trade(t.name) for i, t in enumerate(AERODROME)
        if i != ARMISTICE and tokens[i] == ON_MAT and trade_in_cost(t) <= plus1
        and meets_prerequisites(tokens, t, short_war)
    ]


def use_token(tokens: list[int], name: str) -> None:
    """First use flips the token (one VP less); the second returns it to the Aerodrome."""
    i = INDEX[name]
    tokens[i] = FLIPPED if tokens[i] == FACE_UP else ON_MAT


def victory_points(tokens: list[int], plus1: int, fraction: int) -> float:
    """Tokens in reserve at their face's value, +1VP tokens, and the fractional token."""
    vp = plus1 + fraction / 4
    for i, t in enumerate(AERODROME):
        state = tokens[i]
        if state == FACE_UP:
            vp += t.vp_front
        elif state == FLIPPED:
            vp += t.vp_back
    return vp


def usable_dogfight_tokens(tokens: list[int]) -> frozenset[str]:
    return frozenset(name for i, name in _DOG_IDX if tokens[i] != ON_MAT)


def pre_campaign_options(tokens: list[int], used: Iterable[str], seat: int, sizes: list[int]) -> list[PreUse]:
    """Pre-Campaign tokens in reserve not yet used before this Campaign, against each opponent
    (both hands must hold the cards to trade: only short scenario hands lack them)."""
    done = set(used)
    return [
        PreUse(name, target) for i, name in _PRE_IDX if tokens[i] != ON_MAT and name not in done
        and sizes[seat] >= TRADE_CARDS[AERODROME[i].effect]
        for target in range(len(sizes)) if target != seat and sizes[target] >= TRADE_CARDS[AERODROME[i].effect]
    ]


def give_options(hand: list[int], count: int) -> list[Give]:
    """Which card(s) to hand over in a pre-campaign trade: every multiset of ``count`` cards."""
    values = [v for v in range(11) for _ in range(min(hand[v], count))]
    seen: dict[tuple[int, ...], None] = {}
    for combo in combinations_with_replacement(sorted(set(values)), count):
        if all(combo.count(v) <= hand[v] for v in set(combo)):
            seen[combo] = None
    return [Give(c) for c in seen]


# ----- dogfights ---------------------------------------------------------------------------
def beats(medals: int, value: int, prev_medals: int, prev_value: int) -> bool:
    """More medallions win; equal medallions compare value, strictly ("5s cannot follow 5s")."""
    return medals > prev_medals or (medals == prev_medals and value > prev_value)


def squadron_options(hand: list[int], usable: frozenset[str], lead: bool, first: bool,
                     size: int, prev_medals: int, prev_value: int) -> list[Play]:
    """Every legal squadron, canonical order (by value, then size, then tokens).

    ``lead``: starting a dogfight (any size 1-6); ``first``: the Campaign's first lead, which
    must include Roland Garros; otherwise the squadron must have ``size`` cards (or be a
    medallion singleton, or use C1) and beat (``prev_medals``, ``prev_value``)."""
    if not usable:
        return _plain_options(hand, lead, first, size, prev_medals, prev_value)
    return _token_options(hand, usable, lead, first, size, prev_medals, prev_value)


def _plain_options(hand: list[int], lead: bool, first: bool, size: int, pm: int, pv: int) -> list[Play]:
    out: list[Play] = []
    if first:
        out.append(GARROS_ALONE)
        for v in range(1, 11):
            row = WITH_GARROS[v]
            for k in range(1, min(hand[v], MAX_SQUADRON - 1) + 1):
                out.append(row[k])  # type: ignore[arg-type]
        return out
    if lead:
        for v in range(1, 11):
            row = PLAIN[v]
            for k in range(1, min(hand[v], MAX_SQUADRON) + 1):
                out.append(row[k])  # type: ignore[arg-type]
        return out
    for v in range(1, 11):
        h = hand[v]
        if not h:
            continue
        if size > 1 and MEDALS[v] and (pm < 1 or (pm == 1 and v > pv)):  # a medallion Ace flies alone
            out.append(PLAIN[v][1])  # type: ignore[arg-type]
        if h >= size:
            m = size * MEDALS[v]
            if m > pm or (m == pm and v > pv):
                out.append(PLAIN[v][size])  # type: ignore[arg-type]
    return out


@cache
def medal_options(usable: frozenset[str]) -> list[tuple[tuple[str, ...], int]]:
    """Every combination of the usable medallion tokens (A1, D1: ``MEDAL_BONUS``) with the
    medallions it adds, Aerodrome order: the bonuses live in the table, so a rebalanced token
    needs no change here. Cached per set of tokens (shared lists: read them only)."""
    held = [(t.name, MEDAL_BONUS[t.effect]) for t in _DOGFIGHT if t.effect in MEDAL_BONUS and t.name in usable]
    return [(tuple(name for name, _ in combo), sum(bonus for _, bonus in combo))
            for r in range(len(held) + 1) for combo in combinations(held, r)]


@cache
def wild_card_options(usable: frozenset[str]) -> list[list[tuple[str, ...]]]:
    """By number of wild cards ``w`` (index), the combinations of usable wild tokens (A3, D2:
    ``WILD_CARDS``) that make exactly ``w`` cards wild: a token may make fewer cards wild than
    it allows, but each token of the combination makes at least one (else it is not used).
    Cached per set of tokens (shared lists: read them only)."""
    held = [(t.name, WILD_CARDS[t.effect]) for t in _DOGFIGHT if t.effect in WILD_CARDS]
    out: list[list[tuple[str, ...]]] = [[] for _ in range(sum(n for _, n in held) + 1)]
    out[0].append(())
    held = [(name, n) for name, n in held if name in usable]
    for r in range(1, len(held) + 1):
        for combo in combinations(held, r):
            most = sum(n for _, n in combo)
            least = most - min(n for _, n in combo)
            names = tuple(name for name, _ in combo)
            for w in range(least + 1, most + 1):
                out[w].append(names)
    return out


def _token_options(hand: list[int], usable: frozenset[str], lead: bool, first: bool,
                   size: int, pm: int, pv: int) -> list[Play]:
    med_opts = medal_options(usable)
    wild_opts = wild_card_options(usable)
    has_b1 = "B1" in usable
    has_c1 = "C1" in usable
    if lead:
        counts = list(range(1, MAX_SQUADRON + 1))
    else:
        wanted = {size, 1}
        if has_c1:
            wanted |= {size - 1, size + 1}
        counts = sorted(n for n in wanted if 1 <= n <= MAX_SQUADRON)

    def fit(n: int, m: int, v: int) -> tuple[str, ...] | None:
        """The B1/C1 tokens this squadron needs to be legal now, or None if it cannot be."""
        if lead:
            return ()
        extra: tuple[str, ...] = ()
        if n == size or (n == 1 and m >= 1):
            pass
        elif has_c1 and (n == size - 1 or n == size + 1):
            extra = ("C1",)
        else:
            return None
        if m > pm or (m == pm and v > pv):
            return extra
        if has_b1 and m == pm and v == pv:
            return extra + ("B1",)
        return None

    out: list[Play] = []
    if first:
        out.append(GARROS_ALONE)
    garros = 1 if first else 0
    total = sum(hand[1:])
    for v in range(1, 11):
        hv = hand[v]
        others = total - hv  # cards that can be wild for value v
        for n in counts:
            for w in range(len(wild_opts)):
                wts = wild_opts[w]
                if not wts or w > others:
                    continue
                k = n - w - garros
                if k < 0 or k > hv or k + w == 0:
                    continue
                naturals = (0,) * garros + (v,) * k
                base = k * MEDALS[v]
                for mt, mb in med_opts:
                    extra = fit(n, base + mb, v)
                    if extra is None:
                        continue
                    for wt in wts:
                        out.append(Play(naturals, (), w, canonical_tokens(mt + wt + extra), v, 0, n, base + mb))
    if "B2" in usable and not first:
        out.extend(_run_options(hand, counts, med_opts, wild_opts[1], fit))
    return out


def _run_options(hand: list[int], counts: list[int], med_opts: list[tuple[tuple[str, ...], int]],
                 wild1: list[tuple[str, ...]], fit) -> list[Play]:  # type: ignore[no-untyped-def]
    """B2: 2 or 3 consecutive values count as the lowest; at least two natural cards (a run of
    one natural and wild cards is never better than the set it could be); Garros never joins."""
    out: list[Play] = []
    for length in (2, 3):
        if length not in counts:
            continue
        for r in range(1, 12 - length):
            positions = range(r, r + length)
            shapes: list[tuple[int, tuple[int, ...]]] = []  # (hole, naturals)
            if all(hand[p] for p in positions):
                shapes.append((0, tuple(positions)))
            if length == 3 and wild1:
                for q in positions:
                    rest = tuple(p for p in positions if p != q)
                    if all(hand[p] for p in rest):
                        shapes.append((q, rest))
            for hole, naturals in shapes:
                m = sum(MEDALS[p] for p in naturals)
                if hole:
                    # the wild card: any card left that is not already the value it stands for
                    if sum(hand[1:]) - len(naturals) - hand[hole] < 1:
                        continue
                    wts = wild1
                else:
                    wts = [()]
                for mt, mb in med_opts:
                    extra = fit(length, m + mb, r)
                    if extra is None:
                        continue
                    for wt in wts:
                        out.append(Play(naturals, (), 1 if hole else 0,
                                        canonical_tokens(mt + wt + ("B2",) + extra), r, hole, length, m + mb))
    return out


def wild_options(hand: list[int], pending: Play) -> list[Wild]:
    """The cards that can be the pending squadron's wild cards: never the value they stand
    for (that card would simply be natural), never a card already in it, never Garros."""
    left = list(hand)
    for v in pending.naturals:
        left[v] -= 1
    banned = pending.hole if pending.hole else pending.value
    pool = [u for u in range(1, 11) if u != banned and left[u] > 0]
    out = []
    for combo in combinations_with_replacement(pool, pending.free):
        if all(combo.count(u) <= left[u] for u in set(combo)):
            out.append(Wild(combo))
    return out


def complete(pending: Play, wild: Wild) -> Play:
    return pending._replace(wilds=tuple(sorted(pending.wilds + wild.values)), free=0)
