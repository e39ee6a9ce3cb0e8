"""The Oddball Äeronauts state: phases, decisions and hidden information (what each seat
sees is built by views.py, the longer legal lists by choices.py).

A round is: Step 1 (Events, automatic), Step 2 (the Lead then the other seat announce a
skill), the start of Step 3 (both seats at once: a Rig, an Opp. limit or neither), Step 3
(both seats choose at once how many cards to Play and which trick to use), Step 4
(results) and Step 5 (effects; a Capture or a Protect trick may ask its owner one more
question). Whenever several cards go down together, their owner orders them.

Hidden information is tracked with one bitmask per seat over card uids (``seen``): a seat
has seen its own face-up cards, every Played card, every Event shown in Step 1 and every
card it Recovered. ``resample_hidden`` redraws exactly the cards a seat has not seen.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core import CounterRng, IllegalAction, Result, State
from . import choices, rules, views
from .actions import PROTECTS, Discard, Play, Prepare
from .actions import parse as parse_notation
from .cards import CARDS, EVENTS, FACTIONS, Card
from .decks import default_deck
from .phases import (
    ANNOUNCE,
    CAPTURE,
    DISCARD,
    OVER,
    PHASE_NAMES,
    PLAY,
    PREPARE,
    PROTECT,
    THEN_ANNOUNCE,
    THEN_EFFECTS,
)
from .views import RoundRecord


class Table:
    """The cards of one game, by uid: fixed at the deal and shared by every clone."""

    __slots__ = ("ids", "cards", "is_event", "bit", "factions")

    def __init__(self, ids: list[str], factions: tuple[str, str]) -> None:
        self.ids = tuple(ids)
        self.cards: tuple[Card, ...] = tuple(CARDS[i] for i in ids)
        self.is_event = tuple(c.is_event for c in self.cards)
        self.bit = tuple(1 << uid for uid in range(len(ids)))
        self.factions = factions


class OddballState(State):
    """One position of Oddball Äeronauts (2 players)."""

    game = "oddball-aeronauts"

    __slots__ = (
        "table", "up", "down", "box", "seen", "lead", "rnd", "phase", "movers",
        "skills", "pre_uid", "announced", "limits", "plays", "played", "trick_uid", "blocked",
        "held", "nr_active", "nr_pending", "totals", "winner", "queue", "captured", "capture_place",
        "protected", "log", "defence", "last", "outcome", "orders", "then", "discarded", "_legal",
    )
    movers: tuple[int, ...]

    def __init__(self, players: int, seed: int, options: Mapping[str, Any]) -> None:
        super().__init__(players, seed, options)
        setup = self.options.get("setup")
        factions = _factions(self.options)
        if setup is not None:
            seats = setup["seats"]
            ids: list[str] = []
            ups: list[list[int]] = []
            downs: list[list[int]] = []
            for seat in (0, 1):
                start = len(ids)
                ids.extend(seats[seat].get("up", []))
                mid = len(ids)
                ids.extend(seats[seat].get("down", []))
                ups.append(list(range(start, mid)))
                downs.append(list(range(mid, len(ids))))
            in_decks = {i for i in ids if CARDS[i].is_event}
            box = setup.get("box")
            if box is None:
                box = [e for e in EVENTS if e not in in_decks]
            first = len(ids)
            ids.extend(box)
            self.table = _table(tuple(ids), factions)
            self.up, self.down = ups, downs
            self.box = tuple(range(first, len(ids)))
            lead = setup.get("lead")
        else:
            decks = self.options.get("decks") or [None, None]
            lists = [list(decks[s]) if decks[s] is not None else default_deck(factions[s]) for s in (0, 1)]
            # The table lists the cards in a fixed order (so it is shared across games); the
            # deal shuffles uids: which Events each seat gets, then each deck.
            self.table = _table(tuple(lists[0] + lists[1]) + EVENTS, factions)
            first_event = len(lists[0]) + len(lists[1])
            events = self.shuffle("events", list(range(first_event, first_event + len(EVENTS))))
            starts = (0, len(lists[0]))
            self.up, self.down = [], []
            for seat in (0, 1):
                mine = list(range(starts[seat], starts[seat] + len(lists[seat]))) + events[2 * seat:2 * seat + 2]
                deck = self.shuffle(f"deck {seat}", mine)
                self.up.append(deck[:-3])
                self.down.append(deck[-3:])
            self.box = tuple(events[4:])
            lead = None
        if lead is None:
            rule = self.options["first_lead"]
            lead = 0 if rule == "seat0" else 1 if rule == "seat1" else self.draw_below("first lead", 2)
        self.lead = lead
        bit = self.table.bit
        self.seen = [0, 0]
        for seat in (0, 1):
            for uid in self.up[seat]:
                self.seen[seat] |= bit[uid]
        self.rnd = 0
        self.held: list[tuple[tuple[int, int], ...]] = [(), ()]
        self.nr_pending: list[tuple[int, ...]] = [(), ()]
        self.nr_active: list[tuple[int, ...]] = [(), ()]
        self.last: RoundRecord | None = None
        self.outcome: Result | None = None
        self.orders: tuple[tuple[int, int, int], ...] = ()
        self.then = THEN_ANNOUNCE
        self._start_round()

    # ----- the round --------------------------------------------------------------------
    def _start_round(self) -> None:
        self.rnd += 1
        self.nr_active = self.nr_pending
        self.nr_pending = [(), ()]
        self.skills = [-1, -1]
        self.pre_uid = [-1, -1]
        self.announced: list[str | None] = [None, None]
        self.limits = [-1, -1]      # known from the start of Step 3
        self.plays: list[Play | None] = [None, None]
        self.played: list[tuple[int, ...]] = [(), ()]
        self.trick_uid = [-1, -1]
        self.blocked = [False, False]
        self.totals = [0, 0]
        self.winner = -1
        self.queue: tuple[tuple[int, int], ...] = ()
        self.captured = -1
        self.capture_place = ""
        self.protected = [-1, -1]
        self.defence = -1
        self.discarded = (0, 0)
        self._legal: list[list[Any] | None] = [None, None]
        self.log = tuple(rules.step1_events(self))
        self.then = THEN_ANNOUNCE
        self._next_order()

    def _announce(self) -> None:
        self.phase = ANNOUNCE
        self.movers = (self.lead,)

    # ----- several cards going down together -------------------------------------------------
    def note_discard(self, seat: int, start: int, count: int) -> None:
        """Cards ``down[seat][start:start + count]`` just went down together, in deck order.
        Their owner chooses their order (rulebook, Discard) before anything Recovers, which
        is the only thing that reads it: the order is asked when it can matter, two or more
        different cards, or two or more cards the opponent has not all seen (so that being
        asked never tells the opponent whether they were copies of one card)."""
        if count < 2:
            return
        uids = self.down[seat][start:start + count]
        ids = self.table.ids
        bit = self.table.bit
        opp_seen = self.seen[1 - seat]
        if len({ids[u] for u in uids}) >= 2 or any(not opp_seen & bit[u] for u in uids):
            self.orders = self.orders + ((seat, start, count),)

    def _next_order(self) -> None:
        """Ask the next pending Discard order, or carry on with the round."""
        if self.orders:
            self.phase = DISCARD
            self.movers = (self.orders[0][0],)
        elif self.then == THEN_ANNOUNCE:
            self._announce()
        else:
            self._complete_round()

    def order_group(self) -> list[int]:
        seat, start, count = self.orders[0]
        return self.down[seat][start:start + count]

    def _apply_discard(self, action: Discard) -> None:
        seat, start, count = self.orders[0]
        group = self.down[seat][start:start + count]
        self.down[seat][start:start + count] = [group[k - 1] for k in action.order]
        self.orders = self.orders[1:]
        self._next_order()

    def _begin_play(self) -> None:
        self.limits = [rules.limit_for(self, 0), rules.limit_for(self, 1)]
        self.phase = PLAY
        self.movers = (0, 1) if self.options["simultaneous_counts"] else (self.lead,)

    def _reveal_and_resolve(self) -> None:
        table = self.table
        for seat in (0, 1):
            chosen = self.plays[seat]
            assert chosen is not None
            up = self.up[seat]
            self.played[seat] = tuple(up[p - 1] for p in chosen.cards)
            if chosen.trick:
                self.trick_uid[seat] = up[chosen.trick - 1]
            elif not chosen.cards and up:
                self.trick_uid[seat] = up[0]       # "play 0" is the Top Card's trick
            elif self.pre_uid[seat] >= 0:
                self.trick_uid[seat] = self.pre_uid[seat]
        bits = 0
        bit = table.bit
        for seat in (0, 1):
            for uid in self.played[seat]:
                bits |= bit[uid]
        self.seen[0] |= bits
        self.seen[1] |= bits
        rules.results(self)
        self.captured = rules.capture_target(self)
        queue: list[tuple[int, int]] = []
        if self.captured >= 0:
            queue.append((self.winner, CAPTURE))
        for seat in (self.lead, 1 - self.lead):
            candidates = rules.protect_candidates(self, seat)
            if len(candidates) == 1:
                chosen = self.plays[seat]
                assert chosen is not None
                self.protected[seat] = self.played[seat][chosen.cards.index(candidates[0])]
            elif candidates:
                queue.append((seat, PROTECT))
        self.queue = tuple(queue)
        self._next_decision()

    def _next_decision(self) -> None:
        if self.queue:
            seat, phase = self.queue[0]
            self.phase = phase
            self.movers = (seat,)
            return
        self._finish_round()

    def record(self, discarded: tuple[int, int], recovered: tuple[int, int]) -> RoundRecord:
        plays = self.plays
        return RoundRecord(
            self.rnd, self.lead, (self.skills[0], self.skills[1]),
            tuple(p.cards if p is not None else () for p in plays),
            (self.played[0], self.played[1]), (self.trick_uid[0], self.trick_uid[1]),
            (self.pre_uid[0], self.pre_uid[1]), (self.blocked[0], self.blocked[1]),
            (self.totals[0], self.totals[1]), self.winner, self.defence, discarded, recovered,
            self.captured, self.capture_place, (self.protected[0], self.protected[1]), self.log,
            (self.announced[0], self.announced[1]),
        )

    def _finish_round(self) -> None:
        """Step 5: the Discards first, then (once their owners ordered them) the rest."""
        self.discarded = rules.effects_discards(self)
        self.then = THEN_EFFECTS
        self._next_order()

    def _complete_round(self) -> None:
        recovered = rules.effects_after_discards(self)
        self.last = self.record(self.discarded, recovered)
        if self.winner >= 0:
            self.lead = self.winner
        elif not self.options["draw_keeps_lead"]:
            self.lead = 1 - self.lead
        counts = [rules.face_up_cards(self, 0), rules.face_up_cards(self, 1)]
        if counts[0] == 0 or counts[1] == 0:
            reason = "mutual-rout" if counts[0] == counts[1] else "routed"
            self._end(counts, reason)
        elif self.rnd >= self.options["max_rounds"]:
            self._end(counts, "round-limit")
        else:
            self._start_round()

    def _end(self, counts: list[int], reason: str) -> None:
        details = {"rounds": self.rnd, "face_up": counts}
        if reason == "routed":
            details["routed"] = 0 if counts[0] == 0 else 1
        self.outcome = Result.from_scores(counts, reason, details=details)
        self.phase = OVER
        self.movers = ()
        self._legal = [None, None]

    # ----- the contract -----------------------------------------------------------------
    def to_move(self) -> tuple[int, ...]:
        return self.movers

    def _legal_actions(self, seat: int) -> list[Any]:
        if seat not in self.movers:
            return []
        cached = self._legal[seat]
        if cached is None:
            cached = self._legal[seat] = self._compute_legal(seat)
        return list(cached)

    def _parse_action(self, seat: int, text: str) -> Any:
        """Malformed text and well-formed but illegal actions get different messages."""
        action = parse_notation(text)
        if not self._is_legal(seat, action):
            raise IllegalAction(self._illegal_message(seat, str(action)))
        return action

    def _is_legal(self, seat: int, action: Any) -> bool:
        if seat not in self.movers:
            return False
        cached = self._legal[seat]
        if cached is None:
            cached = self._legal[seat] = self._compute_legal(seat)
        return action in cached

    def _compute_legal(self, seat: int) -> list[Any]:
        phase = self.phase
        if phase == ANNOUNCE:
            return choices.ANNOUNCE_ACTIONS
        if phase == PREPARE:
            return choices.prepare_actions(self, seat)
        if phase == DISCARD:
            ids = self.table.ids
            names = [ids[u] for u in self.order_group()]
            return choices.discard_orders(tuple(names.index(name) for name in names))
        if phase == PLAY:
            return choices.play_actions(self, seat)
        if phase == CAPTURE:
            return choices.CAPTURE_ACTIONS
        if phase == PROTECT:
            return [PROTECTS[p] for p in rules.protect_candidates(self, seat)]
        return []

    def _apply(self, actions: dict[int, Any]) -> None:
        phase = self.phase
        self._legal = [None, None]
        if phase == ANNOUNCE:
            (seat, action), = actions.items()
            self.skills[seat] = action.skill
            if seat == self.lead:
                self.movers = (1 - seat,)
            else:
                self.phase = PREPARE
                self.movers = (0, 1)
        elif phase == PREPARE:
            for seat in (self.lead, 1 - self.lead):
                self._apply_prepare(seat, actions[seat])
            self._begin_play()
        elif phase == DISCARD:
            (seat, action), = actions.items()
            self._apply_discard(action)
        elif phase == PLAY:
            for seat, action in actions.items():
                self.plays[seat] = action
            if self.plays[0] is None or self.plays[1] is None:
                self.movers = (1 - self.lead,)
                return
            self._reveal_and_resolve()
        elif phase == CAPTURE:
            (seat, action), = actions.items()
            self.capture_place = action.place
            self.queue = self.queue[1:]
            self._next_decision()
        elif phase == PROTECT:
            (seat, action), = actions.items()
            chosen = self.plays[seat]
            assert chosen is not None
            self.protected[seat] = self.played[seat][chosen.cards.index(action.position)]
            self.queue = self.queue[1:]
            self._next_decision()

    def _apply_prepare(self, seat: int, action: Prepare) -> None:
        if action.rig or action.limit:
            up = self.up[seat]
            uid = up[0]
            trick = self.table.cards[uid].trick
            assert trick is not None
            self.pre_uid[seat] = uid
            self.announced[seat] = trick.text
            if action.rig:
                rules.rig(self, seat, trick, action.rig)

    def result(self) -> Result | None:
        return self.outcome

    # ----- views: built by views.py -------------------------------------------------------
    def _observation(self, seat: int) -> dict[str, Any]:
        return views.observation(self, seat)

    def public_view(self) -> dict[str, Any]:
        return views.public(self)

    # ----- copying and hashing --------------------------------------------------------------
    def _copy_into(self, twin: State) -> None:
        assert isinstance(twin, OddballState)
        twin.table = self.table
        twin.up = [self.up[0][:], self.up[1][:]]
        twin.down = [self.down[0][:], self.down[1][:]]
        twin.box = self.box
        twin.seen = self.seen[:]
        twin.lead = self.lead
        twin.rnd = self.rnd
        twin.phase = self.phase
        twin.movers = self.movers
        twin.skills = self.skills[:]
        twin.pre_uid = self.pre_uid[:]
        twin.announced = self.announced[:]
        twin.limits = self.limits[:]
        twin.plays = self.plays[:]
        twin.played = self.played[:]
        twin.trick_uid = self.trick_uid[:]
        twin.blocked = self.blocked[:]
        twin.held = self.held[:]
        twin.nr_active = self.nr_active[:]
        twin.nr_pending = self.nr_pending[:]
        twin.totals = self.totals[:]
        twin.winner = self.winner
        twin.queue = self.queue
        twin.captured = self.captured
        twin.capture_place = self.capture_place
        twin.protected = self.protected[:]
        twin.log = self.log
        twin.defence = self.defence
        twin.last = self.last
        twin.outcome = self.outcome
        twin.orders = self.orders
        twin.then = self.then
        twin.discarded = self.discarded
        twin._legal = [None, None]

    def snapshot(self) -> dict[str, Any]:
        ids = self.table.ids
        return {
            "cards": list(ids),
            "up": [list(u) for u in self.up],
            "down": [list(d) for d in self.down],
            "box": list(self.box),
            "seen": [format(s, "x") for s in self.seen],
            "lead": self.lead,
            "round": self.rnd,
            "phase": PHASE_NAMES[self.phase],
            "movers": list(self.movers),
            "skills": list(self.skills),
            "pre": list(self.pre_uid),
            "announced": list(self.announced),
            "limits": list(self.limits),
            "plays": [None if p is None else str(p) for p in self.plays],
            "played": [list(p) for p in self.played],
            "tricks": list(self.trick_uid),
            "blocked": list(self.blocked),
            "held": [[list(h) for h in held] for held in self.held],
            "nr_active": [list(n) for n in self.nr_active],
            "nr_pending": [list(n) for n in self.nr_pending],
            "totals": list(self.totals),
            "winner": self.winner,
            "queue": [list(q) for q in self.queue],
            "captured": self.captured,
            "capture_place": self.capture_place,
            "protected": list(self.protected),
            "log": list(self.log),
            "defence": self.defence,
            "last": self.last.to_json(self.table) if self.last is not None else None,
            "result": self.outcome.to_json() if self.outcome else None,
            "orders": [list(o) for o in self.orders],
            "then": self.then,
            "discarded": list(self.discarded),
        }

    # ----- hidden information -----------------------------------------------------------------
    def resample_hidden(self, seat: int, rng: CounterRng) -> State:
        """Redraw what ``seat`` has not seen: the opponent's unseen cards (kept within the
        opponent's deck, whose list is public), the seat's own never-seen face-down cards,
        and which unseen Events are where (the opponent's deck, the seat's own, the box),
        keeping how many each holds. No Event goes into the opponent's top 3, where Step 1
        would have shown it."""
        twin = self.clone()
        assert isinstance(twin, OddballState)
        table = twin.table
        seen = twin.seen[seat]
        bit = table.bit
        is_event = table.is_event
        opp = 1 - seat
        # Slots: (list, index) of every card this seat has not seen, by region.
        opp_slots: list[tuple[list[int], int]] = []
        for lst in (twin.up[opp], twin.down[opp]):
            opp_slots.extend((lst, i) for i, uid in enumerate(lst) if not seen & bit[uid])
        own_slots = [(twin.down[seat], i) for i, uid in enumerate(twin.down[seat]) if not seen & bit[uid]]
        box = list(twin.box)
        box_slots = [(box, i) for i in range(len(box))]
        # 1. Which unseen Event is in which region (counts per region kept).
        event_slots = [(lst, i) for lst, i in opp_slots + own_slots + box_slots if is_event[lst[i]]]
        names = rng.shuffled([lst[i] for lst, i in event_slots])
        for (lst, i), uid in zip(event_slots, names):
            lst[i] = uid
        # 2. The opponent's unseen cards, in a uniformly random order, Events kept out of its top 3.
        cards = [lst[i] for lst, i in opp_slots]
        events = [u for u in cards if is_event[u]]
        others = rng.shuffled([u for u in cards if not is_event[u]])
        top = twin.up[opp]
        allowed = [k for k, (lst, i) in enumerate(opp_slots) if not (lst is top and i < 3)]
        if len(allowed) < len(events):   # a Rig after Step 1 can bring an Event up: allow every slot
            allowed = list(range(len(opp_slots)))
        chosen = set(rng.shuffled(allowed)[:len(events)]) if events else set()
        events = rng.shuffled(events)
        for k, (lst, i) in enumerate(opp_slots):
            lst[i] = events.pop() if k in chosen else others.pop()
        # 3. The seat's own never-seen face-down cards, in a random order.
        order = rng.shuffled([lst[i] for lst, i in own_slots])
        for (lst, i), uid in zip(own_slots, order):
            lst[i] = uid
        twin.box = tuple(box)
        return twin


_TABLES: dict[tuple[tuple[str, ...], tuple[str, str]], Table] = {}


def _table(ids: tuple[str, ...], factions: tuple[str, str]) -> Table:
    """Tables are immutable, so games with the same cards share one."""
    key = (ids, factions)
    table = _TABLES.get(key)
    if table is None:
        if len(_TABLES) > 256:
            _TABLES.clear()
        table = _TABLES[key] = Table(list(ids), factions)
    return table


def _factions(options: Mapping[str, Any]) -> tuple[str, str]:
    """Each seat's faction: the ``factions`` option, else its deck list's (already checked
    by ``check_options``), else Pendragon (seat 0) and Pirates (seat 1)."""
    given = options.get("factions")
    if given is not None:
        return given[0], given[1]
    decks = options.get("decks") or [None, None]
    default = ("pendragon", "pirates")
    out = []
    for seat in (0, 1):
        deck = decks[seat]
        if deck is None:
            out.append(default[seat])
        else:
            out.append(next(CARDS[c].faction for c in deck if CARDS[c].faction in FACTIONS))
    return out[0], out[1]
