"""Skybirds' forward model: a state from one seat's observation.

Public: the dogfight, the Aerodromes, hand sizes, the cards played this Campaign, the
trade in progress. The seat's own: its hand, and the cards it knows others hold (what it
handed over in a trade, Garros with the seat dealt him). Drawn here: the other hands and
the box (2-3 players), from the deck less the cards played, the seat's hand and the cards
it knows of, each seat's known cards put back in its hand first; Garros is never in the
box. When another seat has announced a squadron with wild cards, its named cards are in
its hand too, and a deal that leaves it no way to choose its wild cards is drawn again.

What the other seats know of each other's hands (after a trade this seat saw from aside)
is not in this seat's observation; in a sample they know only what this seat can tell
they know (Garros's holder, before the first dogfight).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core.errors import ObservationError
from ..core.rng import CounterRng
from .actions import Play, parse
from .data import AERODROME, BOX, DECK, FRACTIONS, STATE_TEXT
from .hands import card_list, counts
from .phases import PHASES, PRE, TAKE, TRADE_IN, WILD
from .rules import wild_options
from .state import SkybirdsState

ATTEMPTS = 60  # deals tried for a wild-card announcement before keeping the announcer's natural cards only


def rebuild(state: SkybirdsState, seat: int, view: Mapping[str, Any], rng: CounterRng) -> None:
    """Fill ``state`` from ``view`` (see referee.games.core.rebuild)."""
    state.tokens = [[STATE_TEXT.index(a["reserve"].get(t.name, "mat")) for t in AERODROME] for a in view["aerodromes"]]
    state.plus1 = [a["plus1"] for a in view["aerodromes"]]
    state.frac = [round(a["fraction"] * 4) for a in view["aerodromes"]]
    state.fracs_taken = len(FRACTIONS) - len(view["fractions_left"])
    state.phase = PHASES.index(view["phase"])
    state.movers = tuple(view["to_move"])
    state.campaign = view["campaign"]
    state.armistice = -1 if view["armistice"] is None else view["armistice"]
    state.garros = view["garros_dealt_to"]
    state.sizes = list(view["hand_sizes"])
    state.played = list(view["played"])
    state.out = list(view["finished"])
    state.pre_used = [tuple(u) for u in view["pre_campaign_used"]]
    state.pending = None if view["pending"] is None else _play(view["pending"])
    trade = view["trade"]
    state.trade = None if trade is None else (trade["user"], trade["target"], trade["token"])
    _dogfight(state, view["dogfight"], view["previous_dogfight"])
    state.turn = state.trade[0] if state.trade is not None else (state.movers[0] if state.movers else 0)
    state.first = sum(state.played) == 0
    state.queue = _queue(state)
    state.takes = _takes(state, view)
    state.deals, state.dealt = (), state.campaign
    state.reason, state.final_order = "", []
    state._cache = state._view = state._snap = None
    state._shared = False
    _deal_hidden(state, seat, view, rng)


def _play(text: str) -> Play:
    action = parse(text)
    if not isinstance(action, Play):
        raise ObservationError(f"skybirds: {text!r} in the observation is not a squadron; "
                               "pass an unmodified observation.")
    return action


def _dogfight(state: SkybirdsState, fight: Mapping[str, Any], previous: list[list[Any]]) -> None:
    state.table = [(s, None if text == "pass" else _play(text)) for s, text in fight["plays"]]
    state.prev_table = [(s, None if text == "pass" else _play(text)) for s, text in previous]
    state.lead = not state.table
    state.size = fight["size"]
    beaten = fight["to_beat"]
    state.pm = beaten["medallions"] if beaten else 0
    state.pv = beaten["value"] if beaten else 0
    state.last_player = beaten["seat"] if beaten else fight["leader"]
    state.passes = fight["passes"]


def _queue(state: SkybirdsState) -> list[int]:
    """Who still announces (pre-Campaign: clockwise from the mover up to Garros's holder)
    or trades in (the finishers from the mover on)."""
    if state.phase == PRE:
        players, start = state.players, state.movers[0]
        return [(start + i) % players for i in range((state.garros - start) % players or players)]
    if state.phase == TRADE_IN:
        return state.out[state.out.index(state.movers[0]):]
    return []


def _takes(state: SkybirdsState, view: Mapping[str, Any]) -> list[tuple[int, int]]:
    """The token takes still due: the mover's, and the last seat's when it was left alone."""
    if state.phase != TAKE:
        return []
    takes = [(state.movers[0], view["take_place"])]
    if len(state.out) == state.players and state.out[-1] != state.movers[0]:
        takes.append((state.out[-1], state.players))
    return takes


def _deal_hidden(state: SkybirdsState, seat: int, view: Mapping[str, Any], rng: CounterRng) -> None:
    players = state.players
    own = counts(view["hand"])
    known = [counts(cards) for cards in view["known_cards"]]
    fixed = [own if s == seat else known[s] for s in range(players)]
    pending = state.pending if state.phase == WILD and state.movers[0] != seat else None
    if pending is not None:
        need = counts(pending.naturals)
        fixed[state.movers[0]] = [max(a, b) for a, b in zip(fixed[state.movers[0]], need)]
    unseen = [DECK[v] - state.played[v] - sum(f[v] for f in fixed) for v in range(11)]
    free = [state.sizes[s] - sum(fixed[s]) for s in range(players)]
    box = BOX[players]
    if min(unseen) < 0 or min(free) < 0 or sum(unseen) != sum(free) + box:
        raise ObservationError("skybirds: the observation's hands, known cards and played cards do not add up to "
                               "the deck; pass an unmodified observation.")
    pool = card_list(unseen)
    others = [s for s in range(players) if s != seat]
    for _ in range(ATTEMPTS):
        drawn = rng.shuffled(pool)
        slots = len(drawn) - box
        if 0 in drawn[slots:]:  # Garros is never in the box
            i = drawn.index(0, slots)
            j = rng.below(slots)
            drawn[i], drawn[j] = drawn[j], drawn[i]
        hands = [h[:] for h in fixed]
        pos = 0
        for s in others:
            for c in drawn[pos:pos + free[s]]:
                hands[s][c] += 1
            pos += free[s]
        if pending is None or wild_options(hands[state.movers[0]], pending):
            break
    state.hands = hands
    state.box = counts(drawn[pos:])
    state.known = _knowledge(state, seat, known)


def _knowledge(state: SkybirdsState, seat: int, known: list[list[int]]) -> list[list[list[int]]] | None:
    """The engine's who-knows-what: this seat's row as its observation shows it; the other
    seats know Garros's holder before the first dogfight."""
    if not any(any(k) for k in known):
        return None
    players = state.players
    matrix = [[[0] * 11 for _ in range(players)] for _ in range(players)]
    for obs in range(players):
        if not state.played[0] and obs != state.garros:
            matrix[obs][state.garros][0] = 1
    matrix[seat] = [k[:] for k in known]
    return matrix
