"""The Skybirds state: the Great War as a sequence of decisions of single seats.

Phases, in the order a Campaign meets them:

- ``pre-campaign``: from the seat dealt Roland Garros, clockwise, each seat holding an
  unused A2/C3 token says ``pass`` or uses one (``A2>t``); then ``give``: the two seats of
  the trade choose, at the same time, the card(s) they hand over.
- ``play``: dogfights; ``wild``: the mover picks the cards behind the ``*`` of the squadron
  it just announced; ``take``: a seat that went out (or last place at the end) takes a token.
- ``trade-in``: after a Campaign, in finishing order, seats trade +1VP tokens in.

Decisions that have one possible answer and depend only on public facts are applied
automatically (a single token to take); decisions that depend on a hand are always asked,
even with one answer, so the flow of turns never reveals a hand.
"""

from __future__ import annotations

from itertools import chain
from typing import Any

from referee.games.core.errors import IllegalAction
from referee.games.core.result import Result
from referee.games.core.rng import CounterRng
from referee.games.core.state import State

from . import hidden, views
from .actions import PASS, PLUS_ONE, Play, parse
from .data import (
    AERODROME,
    BOX,
    DECK,
    FACE_UP,
    FRACTION_TEXT,
    FRACTIONS,
    HAND,
    INDEX,
    TRADE_CARDS,
    trade_in_cost,
)
from .hands import counts
from .phases import GIVE, OVER, PLAY, PRE, TAKE, TRADE_IN, WILD
from .rules import (
    complete,
    give_options,
    pre_campaign_options,
    squadron_options,
    take_options,
    trade_in_options,
    usable_dogfight_tokens,
    use_token,
    victory_points,
    wild_options,
)
from .setup import parse_setup

FULL_DECK: tuple[int, ...] = tuple(v for v in range(11) for _ in range(DECK[v]))
NO_GARROS: tuple[int, ...] = tuple(v for v in FULL_DECK if v != 0)


class SkybirdsState(State):
    game = "skybirds"

    __slots__ = (
        "hands", "sizes", "box", "tokens", "plus1", "frac", "fracs_taken", "phase", "movers", "turn",
        "lead", "first", "size", "pm", "pv", "last_player", "passes", "table", "prev_table", "out",
        "played", "campaign", "armistice", "pending", "queue", "takes", "trade", "pre_used", "known",
        "garros", "deals", "dealt", "reason", "final_order", "_cache", "_view", "_snap", "_shared",
    )

    def __init__(self, players: int, seed: int, options: dict[str, Any]) -> None:
        super().__init__(players, seed, options)
        setup = parse_setup(players, options.get("setup"))
        if setup and setup["aerodromes"]:
            self.tokens = [list(t) for t, _, _ in setup["aerodromes"]]
            self.plus1 = [p for _, p, _ in setup["aerodromes"]]
            self.frac = [f for _, _, f in setup["aerodromes"]]
        else:
            self.tokens = [[0] * len(AERODROME) for _ in range(players)]
            self.plus1 = [0] * players
            self.frac = [0] * players
        self.fracs_taken = sum(1 for f in self.frac if f)
        self.deals: tuple[Any, ...] = tuple(setup["deals"]) if setup else ()
        self.dealt = 0
        self.campaign = (setup["campaign"] if setup else 1) - 1
        self.armistice = -1
        self.reason = ""
        self.final_order: list[int] = []
        self.pending: Play | None = None
        self.trade: tuple[int, int, str] | None = None
        self.queue: list[int] = []
        self.takes: list[tuple[int, int]] = []
        self.table: list[tuple[int, Play | None]] = []
        self.prev_table: list[tuple[int, Play | None]] = []
        self._cache: dict[int, Any] | None = None  # seat -> legal list; -1-seat -> its set
        self._view: dict[str, Any] | None = None
        self._snap: dict[str, Any] | None = None
        self._shared = False  # tokens and known are shared with a clone: copy before writing
        self._start_campaign()

    # ----- flow -------------------------------------------------------------------------
    movers: tuple[int, ...]

    def _set_turn(self, phase: int, seat: int) -> None:
        self.phase = phase
        self.turn = seat
        self.movers = (seat,)

    def _deal(self) -> list[list[int]]:
        """4 players: all 40 Aces. 2-3 players: Garros aside, the other 39 shuffled, 8 or 4 dealt
        into the box unseen, Garros back in, the 32 or 36 shuffled and dealt."""
        players = self.players
        if self.dealt < len(self.deals):
            hands = [counts(h) for h in self.deals[self.dealt]]
        else:
            per = HAND[players]
            if BOX[players]:
                rest = self.shuffle("box", NO_GARROS)
                deck = self.shuffle("deal", list(rest[BOX[players]:]) + [0])
            else:
                deck = self.shuffle("deal", FULL_DECK)
            hands = [counts(deck[i * per:(i + 1) * per]) for i in range(players)]
        self.dealt += 1
        return hands

    def _start_campaign(self) -> None:
        self.campaign += 1
        players = self.players
        self.hands = self._deal()
        self.sizes = [sum(h) for h in self.hands]
        self.box = [DECK[v] - sum(h[v] for h in self.hands) for v in range(11)]
        self.out: list[int] = []
        self.played = [0] * 11
        self.table = []
        self.prev_table = []
        self.pre_used: list[tuple[str, ...]] = [()] * players
        self.known: list[list[list[int]]] | None = None
        self.garros = next(s for s in range(players) if self.hands[s][0])
        self.lead = self.first = True
        self.size = self.pm = self.pv = self.passes = 0
        self.last_player = self.garros
        self.queue = [(self.garros + i) % players for i in range(players)]
        self._next_pre()

    def _next_pre(self) -> None:
        """Pre-Campaign tokens are announced from the seat dealt Garros, clockwise; a seat
        keeps the floor until it passes or has no unused Pre-Campaign token left."""
        queue = self.queue
        while queue and not pre_campaign_options(self.tokens[queue[0]], self.pre_used[queue[0]], queue[0],
                                                 self.sizes):
            queue.pop(0)
        if queue:
            self._set_turn(PRE, queue[0])
        else:
            self.first = True
            self._new_dogfight(next(s for s in range(self.players) if self.hands[s][0]))

    def _new_dogfight(self, leader: int) -> None:
        if self.table:
            self.prev_table = self.table
        self.table = []
        self.lead = True
        self.size = 0
        self.pm = self.pv = 0
        self.passes = 0
        self.last_player = leader
        self._set_turn(PLAY, leader)

    def _next_active(self, seat: int) -> int:
        players, sizes = self.players, self.sizes
        for i in range(1, players + 1):
            other = (seat + i) % players
            if sizes[other]:
                return other
        return seat

    def _play(self, seat: int, play: Play) -> None:
        hand = self.hands[seat]
        played = self.played
        cards = play.naturals + play.wilds if play.wilds else play.naturals
        for c in cards:
            hand[c] -= 1
            played[c] += 1
        self.sizes[seat] -= len(cards)
        if self.known is not None:
            self._own()
            for bounds in self.known:
                mine = bounds[seat]
                for c in cards:
                    if mine[c]:
                        mine[c] -= 1
        if play.tokens:
            self._own()
            for name in play.tokens:
                use_token(self.tokens[seat], name)
        self.table.append((seat, play))
        if self.lead:
            self.size = play.size
            self.lead = False
        self.pm = play.medals
        self.pv = play.value
        self.last_player = seat
        self.passes = 0
        if self.first:
            self.first = False
            if play.naturals == (0,) and not play.wilds:
                # Garros alone wins at once and his player leads again, unless he was its last
                # card: then it is out, and after its token the next seat clockwise leads.
                self._new_dogfight(seat)
                if self.sizes[seat]:
                    return
        if not self.sizes[seat]:
            self.out.append(seat)
            self.takes.append((seat, len(self.out)))
            left = [s for s in range(self.players) if self.sizes[s]]
            if len(left) == 1:
                self.out.append(left[0])
                self.takes.append((left[0], self.players))
            self._process_takes()
            return
        self._set_turn(PLAY, self._next_active(seat))

    def _pass(self, seat: int) -> None:
        self.table.append((seat, None))
        self.passes += 1
        sizes = self.sizes
        active = sum(1 for s in sizes if s)
        if self.passes >= active - (1 if sizes[self.last_player] else 0):
            self._dogfight_won()
        else:
            self._set_turn(PLAY, self._next_active(seat))

    def _dogfight_won(self) -> None:
        """All others passed: the last squadron wins. After an Armistice the war ends here."""
        winner = self.last_player
        if self.armistice >= 0:
            self._end_war("armistice")
            return
        self._new_dogfight(winner if self.sizes[winner] else self._next_active(winner))

    def _process_takes(self) -> None:
        short = self.options["short_war"]
        while self.takes:
            seat, place = self.takes[0]
            options = take_options(self.tokens[seat], self.plus1[seat], place, self.players, short)
            if len(options) >= 2:
                self._set_turn(TAKE, seat)
                return
            self.takes.pop(0)
            if options:
                self._take(seat, options[0].token)
        if sum(1 for s in self.sizes if s) <= 1:
            self._end_campaign()
        elif self.lead and self.armistice >= 0:
            self._end_war("armistice")  # Garros alone, its last card, won the dogfight: it is over
        else:
            self._set_turn(PLAY, self._next_active(self.last_player))

    def _take(self, seat: int, name: str) -> None:
        if name == PLUS_ONE:
            self.plus1[seat] += 1
        else:
            self._own()
            i = INDEX[name]
            self.tokens[seat][i] = FACE_UP
            kind = AERODROME[i].kind
            if kind == "tiebreaker":
                self._take_fraction(seat)
            elif kind == "armistice":
                self.armistice = seat
        if self.armistice >= 0:
            self._take_fraction(seat)  # after the Armistice each finisher takes one, in order

    def _take_fraction(self, seat: int) -> None:
        if not self.frac[seat] and self.fracs_taken < len(FRACTIONS):
            self.frac[seat] = FRACTIONS[self.fracs_taken]
            self.fracs_taken += 1

    def _end_campaign(self) -> None:
        if self.armistice >= 0:
            self._end_war("armistice")
        elif self.campaign >= self.options["campaign_limit"]:
            self._end_war("campaign-limit")
        else:
            self.queue = list(self.out)
            self._next_trade()

    def _next_trade(self) -> None:
        short = self.options["short_war"]
        queue = self.queue
        while queue and not trade_in_options(self.tokens[queue[0]], self.plus1[queue[0]], short):
            queue.pop(0)
        if queue:
            self._set_turn(TRADE_IN, queue[0])
        else:
            self._start_campaign()

    def _end_war(self, reason: str) -> None:
        """Fractional tokens go, largest first, in finishing order to those without one; seats
        still holding cards come after the finishers, fewest cards first, then clockwise from
        the winner of the last dogfight."""
        players = self.players
        start = self.last_player
        rest = [s for s in range(players) if s not in self.out]
        rest.sort(key=lambda s: (self.sizes[s], (s - start) % players))
        self.final_order = self.out + rest
        for seat in self.final_order:
            self._take_fraction(seat)
        self.reason = reason
        self.phase = OVER
        self.movers = ()

    def _learn_trade(self, user: int, target: int, gave: tuple[int, ...], got: tuple[int, ...]) -> None:
        """What each seat now knows of the others' hands (lower bounds per value)."""
        players = self.players
        self._own()
        if self.known is None:
            self.known = [[[0] * 11 for _ in range(players)] for _ in range(players)]
            if not self.played[0]:
                for obs in range(players):
                    if obs != self.garros:
                        self.known[obs][self.garros][0] = 1
        known = self.known
        for obs in range(players):
            for holder, lost, gained in ((user, gave, got), (target, got, gave)):
                if holder == obs:
                    continue
                bounds = known[obs][holder]
                if obs in (user, target):  # the other trader: saw both sides
                    for c in lost:
                        if bounds[c]:
                            bounds[c] -= 1
                    for c in gained:
                        bounds[c] += 1
                else:  # a bystander: it does not know which cards left
                    for v in range(11):
                        bounds[v] = max(0, bounds[v] - len(lost))

    def _own(self) -> None:
        """Copy-on-write of the two fields clones share (they change far less than hands)."""
        if self._shared:
            self.tokens = [t[:] for t in self.tokens]
            if self.known is not None:
                self.known = [[b[:] for b in row] for row in self.known]
            self._shared = False

    # ----- the contract ---------------------------------------------------------------------
    def to_move(self) -> tuple[int, ...]:
        return self.movers

    def _legal(self, seat: int) -> list[Any]:
        cache = self._cache
        if cache is None:
            cache = self._cache = {}
        elif seat in cache:
            return cache[seat]
        phase = self.phase
        actions: list[Any]
        if phase == PLAY:
            plays = squadron_options(self.hands[seat], usable_dogfight_tokens(self.tokens[seat]), self.lead,
                                     self.first, self.size, self.pm, self.pv)
            actions = plays if self.lead else [PASS] + plays
        elif phase == WILD:
            assert self.pending is not None
            actions = list(wild_options(self.hands[seat], self.pending))
        elif phase == TAKE:
            actions = list(take_options(self.tokens[seat], self.plus1[seat], self.takes[0][1], self.players,
                                        self.options["short_war"]))
        elif phase == TRADE_IN:
            actions = [PASS] + trade_in_options(self.tokens[seat], self.plus1[seat],
                                                self.options["short_war"])
        elif phase == PRE:
            actions = [PASS] + pre_campaign_options(self.tokens[seat], self.pre_used[seat], seat, self.sizes)
        elif phase == GIVE:
            assert self.trade is not None
            actions = list(give_options(self.hands[seat], TRADE_CARDS[AERODROME[INDEX[self.trade[2]]].effect]))
        else:
            actions = []
        cache[seat] = actions
        return actions

    def _legal_actions(self, seat: int) -> list[Any]:
        if seat not in self.movers:
            return []
        return list(self._legal(seat))

    def _is_legal(self, seat: int, action: Any) -> bool:
        if seat not in self.movers:
            return False
        legal = self._legal(seat)
        if len(legal) < 24:
            return action in legal
        key = -1 - seat  # the set of a long list, cached beside it
        cache = self._cache
        assert cache is not None
        members = cache.get(key)
        if members is None:
            members = cache[key] = set(legal)
        return action in members

    def _parse_action(self, seat: int, text: str) -> Any:
        action = parse(text)  # malformed text: IllegalAction saying what is wrong with it
        if self._is_legal(seat, action):
            return action
        hint = ""
        if isinstance(action, Play) and action.wilds:
            hint = " Wild cards are chosen next: write '*' now, then 'wild N'."
        raise IllegalAction(self._illegal_message(seat, text.strip()) + hint)

    def _apply(self, actions: dict[int, Any]) -> None:
        self._cache = None
        self._view = None
        self._snap = None
        phase = self.phase
        if phase == GIVE:
            self._apply_give(actions)
            return
        seat = self.turn
        action = actions[seat]
        kind = action.kind
        if phase == PLAY:
            if kind == "pass":
                self._pass(seat)
            elif action.free:
                self.pending = action
                self.phase = WILD
            else:
                self._play(seat, action)
        elif phase == WILD:
            assert self.pending is not None
            play = complete(self.pending, action)
            self.pending = None
            self._play(seat, play)
        elif phase == TAKE:
            self.takes.pop(0)
            self._take(seat, action.token)
            self._process_takes()
        elif phase == TRADE_IN:
            if kind == "pass":
                self.queue.pop(0)
            else:
                token = AERODROME[INDEX[action.token]]
                self.plus1[seat] -= trade_in_cost(token)
                self._take(seat, action.token)
            self._next_trade()
        elif phase == PRE:
            if kind == "pass":
                self.queue.pop(0)
                self._next_pre()
            else:
                self.trade = (seat, action.target, action.token)
                self.phase = GIVE
                self.movers = tuple(sorted((seat, action.target)))

    def _apply_give(self, actions: dict[int, Any]) -> None:
        assert self.trade is not None
        user, target, token = self.trade
        gave, got = actions[user].cards, actions[target].cards
        hands = self.hands
        for c in gave:
            hands[user][c] -= 1
            hands[target][c] += 1
        for c in got:
            hands[target][c] -= 1
            hands[user][c] += 1
        self._own()
        use_token(self.tokens[user], token)
        self.pre_used[user] = self.pre_used[user] + (token,)
        self._learn_trade(user, target, gave, got)
        self.trade = None
        self._next_pre()

    # ----- views: built by views.py -------------------------------------------------------
    def public_view(self) -> dict[str, Any]:
        """What everyone sees (built once per position; the nested parts are shared between
        the views handed out, so treat them as read-only)."""
        view = self._view
        if view is None:
            view = self._view = views.public(self)
        return dict(view)

    def _observation(self, seat: int) -> dict[str, Any]:
        return views.observation(self, seat)

    def vp(self, seat: int) -> float:
        return victory_points(self.tokens[seat], self.plus1[seat], self.frac[seat])

    def result(self) -> Result | None:
        if self.phase != OVER:
            return None
        scores = [self.vp(s) for s in range(self.players)]
        details = {
            "armistice": self.armistice if self.armistice >= 0 else None,
            "campaigns": self.campaign,
            "finishing_order": list(self.final_order),
            "reserves": [
                {"tokens": [t.name + ("" if self.tokens[s][i] == FACE_UP else "'")
                            for i, t in enumerate(AERODROME) if self.tokens[s][i]],
                 "plus1": self.plus1[s], "fraction": FRACTION_TEXT[self.frac[s]]}
                for s in range(self.players)
            ],
        }
        if self.reason == "campaign-limit":
            details["why"] = (f"no Armistice after {self.campaign} campaigns (option campaign_limit); "
                              "the war ends on victory points")
        return Result.from_scores(scores, self.reason, details=details)

    # ----- copying, hashing, hidden information ---------------------------------------------
    def _copy_into(self, twin: State) -> None:
        assert isinstance(twin, SkybirdsState)
        twin.hands = [h[:] for h in self.hands]
        twin.sizes = self.sizes[:]
        twin.box = self.box
        twin.tokens = self.tokens  # copy-on-write, with known: see _own()
        twin.plus1 = self.plus1[:]
        twin.frac = self.frac[:]
        twin.fracs_taken = self.fracs_taken
        twin.phase = self.phase
        twin.movers = self.movers
        twin.turn = self.turn
        twin.lead = self.lead
        twin.first = self.first
        twin.size = self.size
        twin.pm = self.pm
        twin.pv = self.pv
        twin.last_player = self.last_player
        twin.passes = self.passes
        twin.table = self.table[:]
        twin.prev_table = self.prev_table  # replaced, never mutated
        twin.out = self.out[:]
        twin.played = self.played[:]
        twin.campaign = self.campaign
        twin.armistice = self.armistice
        twin.pending = self.pending
        twin.queue = self.queue[:]
        twin.takes = self.takes[:]
        twin.trade = self.trade
        twin.pre_used = self.pre_used[:]
        twin.known = self.known
        twin._shared = self._shared = True
        twin.garros = self.garros
        twin.deals = self.deals
        twin.dealt = self.dealt
        twin.reason = self.reason
        twin.final_order = self.final_order[:]
        twin._cache = self._cache  # lists in it are never mutated; _apply replaces the dict
        twin._view = self._view
        twin._snap = self._snap

    def snapshot(self) -> dict[str, Any]:
        """The whole state, compact on purpose (it is hashed after every checked step): hands,
        box and Aerodromes as hex strings of one byte per value / token. Built once per
        position; treat it as read-only."""
        snap = self._snap
        if snap is None:
            snap = self._snap = self._snapshot()
        return snap

    def cards_hex(self) -> str:
        return b"".join(map(bytes, self.hands)).hex() + "/" + bytes(self.box).hex() + "/" + bytes(self.played).hex()

    def _snapshot(self) -> dict[str, Any]:
        known = self.known
        return {
            "cards": self.cards_hex(),
            "aerodromes": b"".join(map(bytes, self.tokens)).hex() + "/" + bytes(self.plus1).hex() + "/"
            + bytes(self.frac).hex(),
            "flow": [self.fracs_taken, self.phase, self.turn, self.lead, self.first, self.size, self.pm, self.pv,
                     self.last_player, self.passes, self.campaign, self.armistice, self.garros, self.dealt,
                     self.reason],
            "seats": bytes(self.movers).hex() + "/" + bytes(self.out).hex() + "/" + bytes(self.queue).hex() + "/"
            + bytes(self.final_order).hex(),
            "table": "|".join(f"{s}:{p}" for s, p in self.table),
            "prev_table": "|".join(f"{s}:{p}" for s, p in self.prev_table),
            "pending": str(self.pending) if self.pending else None,
            "takes": [list(t) for t in self.takes], "trade": list(self.trade) if self.trade else None,
            "pre_used": [" ".join(u) for u in self.pre_used],
            "known": None if known is None else b"".join(map(bytes, chain.from_iterable(known))).hex(),
        }

    def resample_hidden(self, seat: int, rng: CounterRng) -> SkybirdsState:
        return hidden.resample_hidden(self, seat, rng)
