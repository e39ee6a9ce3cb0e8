"""What each seat, and a spectator, may know of a Skybirds position.

Kept apart from the state (as OpenSpiel keeps observers apart from states). Everyone sees
the dogfight, the Aerodromes, hand sizes and the trade in progress; a seat also sees its
own hand and the cards it knows others hold (``known_cards``: what it handed over in a
trade until played, and Garros with the seat dealt him before the first dogfight).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .actions import Play
from .data import AERODROME, FRACTIONS, INDEX, STATE_TEXT, TRADE_CARDS
from .hands import card_list
from .phases import OVER, PHASES, TAKE

if TYPE_CHECKING:
    from .state import SkybirdsState


def _beaten(seat: int, play: Play) -> dict[str, Any]:
    """The squadron to beat, with what comparing needs spelled out."""
    return {"seat": seat, "action": str(play), "size": play.size, "value": play.value, "medallions": play.medals}


def _aerodrome(state: SkybirdsState, seat: int) -> dict[str, Any]:
    tokens = state.tokens[seat]
    return {"reserve": {t.name: STATE_TEXT[tokens[i]] for i, t in enumerate(AERODROME) if tokens[i]},
            "plus1": state.plus1[seat], "fraction": state.frac[seat] / 4, "vp": state.vp(seat)}


def public(state: SkybirdsState) -> dict[str, Any]:
    """What everyone sees."""
    table = state.table
    last = next(((s, p) for s, p in reversed(table) if p is not None), None)
    return {
        "players": state.players,
        "phase": PHASES[state.phase],
        "to_move": list(state.movers),
        "campaign": state.campaign,
        "campaign_limit": state.options["campaign_limit"],
        "short_war": state.options["short_war"],
        "hand_sizes": list(state.sizes),
        "box_size": sum(state.box),
        "garros_dealt_to": state.garros,
        "dogfight": {
            "leader": table[0][0] if table else state.turn,
            "size": state.size,
            "plays": [[s, str(p) if p else "pass"] for s, p in table],
            "to_beat": _beaten(*last) if last else None,
            "passes": state.passes if table else 0,
        },
        "previous_dogfight": [[s, str(p) if p else "pass"] for s, p in state.prev_table],
        "played": list(state.played),
        "finished": list(state.out),
        "aerodromes": [_aerodrome(state, s) for s in range(state.players)],
        "fractions_left": [q / 4 for q in FRACTIONS[state.fracs_taken:]],
        "armistice": state.armistice if state.armistice >= 0 else None,
        "pending": str(state.pending) if state.pending is not None else None,
        "trade": ({"token": state.trade[2], "user": state.trade[0], "target": state.trade[1],
                   "cards": TRADE_CARDS[AERODROME[INDEX[state.trade[2]]].effect]} if state.trade else None),
        "pre_campaign_used": [list(u) for u in state.pre_used],
        "take_place": state.takes[0][1] if state.phase == TAKE else None,
        "finishing_order": list(state.final_order) if state.phase == OVER else None,
    }


def known_for(state: SkybirdsState, obs: int) -> list[list[int]]:
    """Per holder, the counts of the cards seat ``obs`` knows it holds."""
    if state.known is not None:
        return state.known[obs]
    bounds = [[0] * 11 for _ in range(state.players)]
    if not state.played[0] and state.garros != obs:
        bounds[state.garros][0] = 1  # the seat dealt Garros says so before the first dogfight
    return bounds


def observation(state: SkybirdsState, seat: int) -> dict[str, Any]:
    """The public view, the seat's hand, and the cards it knows others hold."""
    view = state.public_view()
    view["seat"] = seat
    view["hand"] = card_list(state.hands[seat])
    if state.known is None and state.played[0]:
        view["known_cards"] = [[] for _ in range(state.players)]
    else:
        bounds = known_for(state, seat)
        view["known_cards"] = [card_list(bounds[h]) if h != seat and any(bounds[h]) else []
                               for h in range(state.players)]
    return view
