"""Oddball Äeronauts' forward model: a state from one seat's observation.

Public: the round so far, each deck's size, its held Events and Next Round tricks, the
cards of each deck both seats have seen (``decks[s].revealed``), the pending Discard orders
and the Step 5 decisions already made. The seat's own: its face-up run and the face-down
cards it has seen, in place. Drawn here, from the table less every card the view places:

- the seat's never-seen face-down cards (the three turned down at Make Ready, until
  Recovered): the rest of its own deck list, and as many unseen Events as slots remain;
- the other deck: its revealed cards (revealed Events face down, as Recover skips them)
  and its unseen cards, in a random order, no unseen Event in its top three (Step 1 would
  have shown it) unless a Rig this round may have brought one up; the Played cards, a card
  whose trick was announced, the cards being ordered, and a top card known from last
  round's Step 5 (Protected, or captured to the top) stay where the view puts them;
- the box: unseen Events.

What the view does not tell, and a sample therefore guesses: where the other seat's
revealed cards lie (their Discard orders are secret), and which of its own face-down cards
the other seat has seen (a sample says all of them). Two positions are refused with a
one-line reason: the Lead's hidden choice when counts are not simultaneous, and a capture
of a Top Card that was not Played, whose identity the view does not give.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from ..core.errors import ObservationError
from ..core.rng import CounterRng
from . import rules
from .actions import PLAY_ZERO, Play, play
from .cards import SKILL_INDEX
from .decks import default_deck
from .phases import CAPTURE, DISCARD, PHASE_NAMES, PLAY, PROTECT, THEN_ANNOUNCE, THEN_EFFECTS
from .state import OddballState, Table
from .views import RoundRecord

GAME = "oddball-aeronauts"
_INDEX: dict[int, tuple[Table, dict[str, int], dict[str, int]]] = {}


def rebuild(state: OddballState, seat: int, view: Mapping[str, Any], rng: CounterRng) -> None:
    """Fill ``state`` from ``view`` (see referee.games.core.rebuild)."""
    _Rebuild(state, seat, view, rng).run()
    if state.observation(seat) != view:
        raise _bad("this observation does not add up (its cards, counts and round do not fit one position)")


def _bad(what: str) -> ObservationError:
    """An observation no dealt game of these options can show."""
    return ObservationError(f"{GAME}: {what}; pass an unmodified observation of this match (a game dealt by "
                            "'setup' cannot be rebuilt: its cards are not the options' decks).")


def _refuse(why: str) -> ObservationError:
    return ObservationError(f"{GAME}: the forward model cannot rebuild this position: {why}.")


def _index(table: Table) -> tuple[dict[str, int], dict[str, int]]:
    """The first uid of each card id and of each trick text (for records, which show only
    ids): tables are shared, so this is built once per table."""
    entry = _INDEX.get(id(table))
    if entry is None or entry[0] is not table:
        by_id: dict[str, int] = {}
        by_text: dict[str, int] = {}
        for uid, (cid, card) in enumerate(zip(table.ids, table.cards)):
            by_id.setdefault(cid, uid)
            if card.trick is not None:
                by_text.setdefault(card.trick.text, uid)
        entry = _INDEX[id(table)] = (table, by_id, by_text)
    return entry[1], entry[2]


class _Rebuild:
    """One rebuild: the uids still free, by card id, and the places filled so far."""

    def __init__(self, state: OddballState, seat: int, view: Mapping[str, Any], rng: CounterRng) -> None:
        self.st, self.seat, self.opp, self.view, self.rng = state, seat, 1 - seat, view, rng
        self.table = state.table
        self.by_id, self.by_text = _index(self.table)
        self.free: dict[str, list[int]] = {}
        for uid, cid in enumerate(self.table.ids):
            self.free.setdefault(cid, []).append(uid)
        self.phase = PHASE_NAMES.index(view["phase"])
        self.reveal: Mapping[str, Any] | None = view["reveal"]
        self.effects = self.phase == DISCARD and self.reveal is not None
        self.revealed_uids: list[int] = []   # the other deck's revealed cards

    def take(self, cid: str) -> int:
        uids = self.free.get(cid)
        if not uids:
            raise _bad(f"the observation shows more {cid!r} cards than the game has")
        return uids.pop(0)

    # ----- the whole position ---------------------------------------------------------------
    def run(self) -> None:
        st, view, opp = self.st, self.view, self.opp
        if self.phase == PLAY and any(c is not None for c in view["counts"]):
            raise _refuse("the Lead's card count is shown but its trick is not (simultaneous_counts is off)")
        st.rnd = view["round"]
        st.lead = view["lead"]
        st.phase = self.phase
        st.movers = tuple(view["to_move"])
        st.skills = [-1 if s is None else SKILL_INDEX[s] for s in view["skills"]]
        st.announced = list(view["announced"])
        st.limits = [-1 if n is None else n for n in view["limits"]]
        st.log = tuple(_copy_entry(e) for e in view["events"])
        st.then = THEN_EFFECTS if self.effects else THEN_ANNOUNCE
        st.outcome = None
        st.nr_pending = [(), ()]
        st.held = [tuple((self.take(h["event"]), h["round"]) for h in d["held"]) for d in view["decks"]]
        st.last = None if view["last_round"] is None else self.record(view["last_round"])
        self.round_so_far()
        own_slots = self.own_deck()
        limbo = self.limbo()
        revealed = Counter(view["decks"][opp]["revealed"])
        unknown = self.unknown(revealed, own_slots)
        self.opponent_deck(revealed, unknown)
        self.decisions(limbo)
        self.seen(limbo)
        st.nr_active = [tuple(self.nr_uid(s, n["card"]) for n in view["decks"][s]["next_round"]) for s in (0, 1)]
        orders: tuple[tuple[int, int, int], ...] = ()
        if self.phase == DISCARD:
            first = view["discarding"]
            orders = ((first["seat"], first["start"], len(first["cards"])),)
            orders += tuple((s, start, count) for s, start, count in first["later"])
        st.orders = orders
        st._legal = [None, None]

    def round_so_far(self) -> None:
        """The scalars of this round's reveal (Step 5); nothing Played before it."""
        st, rv = self.st, self.reveal
        st.pre_uid, st.trick_uid = [-1, -1], [-1, -1]
        st.plays, st.played = [None, None], [(), ()]
        st.blocked, st.totals = [False, False], [0, 0]
        st.winner, st.defence, st.discarded = -1, -1, (0, 0)
        st.captured, st.capture_place, st.protected = -1, "", [-1, -1]
        st.queue = ()
        if rv is None:
            return
        st.totals = list(rv["totals"])
        st.winner = -1 if rv["winner"] is None else rv["winner"]
        st.defence = -1 if rv["defence"] is None else rv["defence"]
        st.discarded = (rv["discarded"][0], rv["discarded"][1])
        st.capture_place = rv["capture_place"] or ""
        st.blocked = [bool(t and t["blocked"]) for t in rv["tricks"]]

    # ----- the seat's own deck ------------------------------------------------------------------
    def own_deck(self) -> list[int]:
        """The seat's cards as its view shows them; returns the positions in ``down`` it has
        never seen (filled later)."""
        hand = self.view["hand"]
        seat = self.seat
        self.st.up[seat] = [self.take(c) for c in hand["up"]]
        down: list[int] = []
        slots = []
        for k, cid in enumerate(hand["down"]):
            if cid is None:
                slots.append(k)
                down.append(-1)
            else:
                down.append(self.take(cid))
        self.st.down[seat] = down
        return slots

    def limbo(self) -> list[int]:
        """During Step 5's Discard orders, the Protected and captured cards are in no deck
        until the Recovers: their uids."""
        rv = self.reveal
        if not self.effects or rv is None:
            return []
        out = []
        for cid in rv["protected"]:
            if cid is not None:
                out.append(self.take(cid))
        if rv["capture_place"] is not None:
            loser = 1 - rv["winner"]
            if not rv["played"][loser]:
                raise _refuse("a captured Top Card that was not Played is not named until the round ends")
            out.append(self.take(rv["played"][loser][0]))
        return out

    # ----- what nobody shows --------------------------------------------------------------------
    def unknown(self, revealed: Counter[str], own_slots: list[int]) -> list[int]:
        """Deal the cards the view does not place (the table less every card taken so far and
        the other deck's revealed ones): the seat's never-seen slots get its own deck's cards
        and unseen Events, the box unseen Events; returns the other deck's unseen cards."""
        st, view, rng = self.st, self.view, self.rng
        for cid, n in revealed.items():
            if len(self.free.get(cid, ())) < n:
                raise _bad(f"the observation shows more {cid!r} cards than the game has")
        self.revealed_uids = [u for cid, n in revealed.items() for u in self.free[cid][:n]]
        pool = [u for cid, uids in self.free.items() for u in uids[revealed.get(cid, 0):]]
        pool.sort()
        opp_size = view["decks"][self.opp]["face_up"] + view["decks"][self.opp]["face_down"]
        opp_unseen = opp_size - sum(revealed.values())
        if opp_unseen < 0 or len(pool) != len(own_slots) + opp_unseen + view["box"]:
            raise _bad("the observation's decks, box and cards do not add up to the table")
        is_event = self.table.is_event
        ids = self.table.ids
        decks = st.options.get("decks") or [None, None]
        lists = [set(decks[s] if decks[s] is not None else default_deck(view["factions"][s])) for s in (0, 1)]
        mine, theirs, either, events = [], [], [], []
        for u in pool:
            if is_event[u]:
                events.append(u)
            elif ids[u] not in lists[self.opp]:
                mine.append(u)
            elif ids[u] not in lists[self.seat]:
                theirs.append(u)
            else:
                either.append(u)
        events = rng.shuffled(events)
        box, events = events[:view["box"]], events[view["box"]:]
        if len(box) < view["box"] or len(mine) > len(own_slots):
            raise _bad("the observation's unseen cards do not fit its decks and box")
        st.box = tuple(sorted(box))
        flexible = rng.shuffled(events + either)
        split = len(own_slots) - len(mine)
        down = st.down[self.seat]
        for k, u in zip(own_slots, rng.shuffled(mine + flexible[:split])):
            down[k] = u
        return theirs + flexible[split:]

    # ----- the other deck ---------------------------------------------------------------------
    def opponent_deck(self, revealed: Counter[str], unseen: list[int]) -> None:
        """The other deck: first what the view places (this round's Played cards, the cards
        being ordered, the announced card), then revealed Events face down, unseen Events
        out of the top 3, and the rest in a random order."""
        st, view, opp, rng = self.st, self.view, self.opp, self.rng
        is_event = self.table.is_event
        ids = self.table.ids
        up: list[int] = [-1] * view["decks"][opp]["face_up"]
        down: list[int] = [-1] * view["decks"][opp]["face_down"]
        known = {cid: self.free[cid][:n] for cid, n in revealed.items()}  # revealed, still to place

        def from_known(cid: str) -> int:
            uids = known.get(cid)
            if not uids:
                raise _bad(f"the observation places a {cid!r} in seat {opp}'s deck that is not among its "
                           "revealed cards")
            return uids.pop(0)

        rv = self.reveal
        if rv is not None and not self.effects:     # capture, protect: the Played cards are still up
            for pos, cid in zip(rv["positions"][opp], rv["played"][opp]):
                if pos > len(up) or up[pos - 1] >= 0:
                    raise _bad(f"the observation's Played cards do not fit seat {opp}'s deck")
                up[pos - 1] = from_known(cid)
        if self.effects and rv is not None:         # the Played cards went down together, then the Discards
            self.played_down(rv, down, from_known)
        if self.phase == DISCARD and view["discarding"]["seat"] == opp:
            first = view["discarding"]
            for k, cid in enumerate(first["cards"], start=first["start"]):
                if k >= len(down):
                    raise _bad(f"the cards being ordered lie beyond seat {opp}'s deck")
                if cid is None:
                    if down[k] < 0:
                        if not unseen:
                            raise _bad(f"more unseen cards go down than seat {opp} has")
                        down[k] = unseen.pop(rng.below(len(unseen)))
                elif down[k] < 0:
                    down[k] = from_known(cid)
                elif ids[down[k]] != cid:
                    raise _bad("the cards being ordered contradict the Played cards")
        for pos, cid in self.known_top():
            if pos < len(up) and up[pos] < 0 and known.get(cid):
                up[pos] = from_known(cid)
        rest = [u for uids in known.values() for u in uids]
        if self.phase == PLAY and st.announced[opp] is not None:
            rest, unseen = self.announced_card(up, rest, unseen)
        # Revealed Events lie face down (Recover skips them); unseen Events stay out of the top 3.
        free_down = [k for k, u in enumerate(down) if u < 0]
        shown_events = [u for u in rest if is_event[u]]
        if len(shown_events) > len(free_down):
            raise _bad(f"seat {opp}'s revealed Events do not fit its face-down cards")
        for k, u in zip(rng.shuffled(free_down), shown_events):
            down[k] = u
        rest = [u for u in rest if not is_event[u]] + unseen
        slots = [(up, k) for k, u in enumerate(up) if u < 0] + [(down, k) for k, u in enumerate(down) if u < 0]
        hidden_events = [u for u in unseen if is_event[u]]
        allowed = [i for i, (lst, k) in enumerate(slots) if not (lst is up and k < 3)]
        if self.effects or self.rigged_up(opp) or len(allowed) < len(hidden_events):
            allowed = list(range(len(slots)))
        chosen = rng.shuffled(allowed)[:len(hidden_events)]
        for i, u in zip(chosen, hidden_events):
            lst, k = slots[i]
            lst[k] = u
        taken = set(chosen)
        others = rng.shuffled([u for u in rest if not is_event[u]])
        if len(others) != len(slots) - len(taken):
            raise _bad(f"seat {opp}'s cards do not fit its deck")
        for i, (lst, k) in enumerate(slots):
            if i not in taken:
                lst[k] = others.pop()
        st.up[opp], st.down[opp] = up, down

    def played_down(self, rv: Mapping[str, Any], down: list[int], from_known: Any) -> None:
        """Step 5: the other seat's Played cards (less the Protected and captured ones) went
        down after its older Discards, and its Win Effect Discards after them; in Play order
        while their own order is still to be chosen, else in an order only it knows."""
        opp = self.opp
        cards = list(rv["played"][opp])
        for cid in (rv["protected"][opp],):
            if cid is not None and cid in cards:
                cards.remove(cid)
        if rv["capture_place"] is not None and rv["winner"] == self.seat and cards[:1] == rv["played"][opp][:1]:
            cards.pop(0)
        start = len(down) - rv["discarded"][opp] - len(cards)
        if start < 0:
            raise _bad(f"seat {opp}'s Played cards do not fit its face-down cards")
        pending = self.view["discarding"]
        groups = [(pending["seat"], pending["start"], len(pending["cards"]))] + [tuple(g) for g in pending["later"]]
        if (opp, start, len(cards)) not in groups:
            cards = self.rng.shuffled(cards)
        for k, cid in enumerate(cards, start=start):
            down[k] = from_known(cid)

    def announced_card(self, up: list[int], rest: list[int], unseen: list[int]) -> tuple[list[int], list[int]]:
        """In Step 3 the other seat's Top Card carries the trick it announced (a Rig of the
        Top Card may have moved it within the rigged positions): one of its cards with that
        trick goes there."""
        cards = self.table.cards
        text = self.st.announced[self.opp]
        if up and up[0] >= 0:             # its Top Card is known (Protected or captured last round)
            known = cards[up[0]].trick
            if known is None or known.text != text:
                raise _bad(f"seat {self.opp} announced {text!r}, which its known Top Card does not carry")
            self.st.pre_uid[self.opp] = up[0]
            return rest, unseen
        pool = [u for u in rest + unseen if cards[u].trick is not None and cards[u].trick.text == text]  # type: ignore[union-attr]
        if not pool or not up:
            raise _bad(f"seat {self.opp} announced {text!r} but has no such card to hold")
        uid = pool[self.rng.below(len(pool))]
        trick = cards[uid].trick
        assert trick is not None
        places = [0]
        if trick.kind == "rig":
            rigged = [p - 1 for p in rules.rig_positions(trick, len(up))]
            if 0 in rigged:
                places = [p for p in rigged if up[p] < 0]
        place = places[self.rng.below(len(places))] if places else 0
        if up[place] >= 0:
            raise _bad(f"seat {self.opp}'s announced trick does not fit its Top Card")
        up[place] = uid
        self.st.pre_uid[self.opp] = uid
        return [u for u in rest if u != uid], [u for u in unseen if u != uid]

    def known_top(self) -> list[tuple[int, str]]:
        """The other seat's top cards everyone knows from last round's Step 5, until this
        round's Step 3 moves them: a Protected card is its Top Card, a card it captured to the
        top lies next (or on top). A Step 1 Event that made it Discard, or a Rig of its Top
        Card, leaves them unknown."""
        last, opp = self.view["last_round"], self.opp
        if last is None or self.reveal is not None or last["round"] != self.view["round"] - 1:
            return []
        text = self.st.announced[opp]
        if self.phase == PLAY and text is not None:
            trick = self.table.cards[self.by_text[text]].trick
            if trick is not None and trick.kind == "rig" and 1 in trick.positions:
                return []
        for entry in self.view["events"]:
            event = self.table.cards[self.by_id[entry["event"]]].event
            if entry.get("taker") == opp and event is not None and event.effect == "discard" and entry.get("done"):
                return []
        out: list[tuple[int, str]] = []
        if last["protected"][opp] is not None:
            out.append((0, last["protected"][opp]))
        captured = last["captured"]
        if captured is not None and captured["seat"] == opp and captured["place"] == "top":
            out.append((len(out), captured["card"]))
        return out

    def rigged_up(self, seat: int) -> bool:
        """Whether a Rig this round may have brought a card from below the top 3 into it."""
        if self.phase == DISCARD and not self.effects:
            return False
        text = self.st.announced[seat]
        if text is None:
            return False
        trick = self.table.cards[self.by_text[text]].trick
        return trick is not None and trick.kind == "rig" and max(trick.positions) > 3

    # ----- this round's decisions -----------------------------------------------------------------
    def decisions(self, limbo: list[int]) -> None:
        """Played cards, tricks, captures and Protects, once Step 3 is over; the seat's own
        announced card from Step 3 on."""
        st, rv = self.st, self.reveal
        if self.phase == PLAY:
            text = st.announced[self.seat]
            if text is not None:
                st.pre_uid[self.seat] = self.own_announced(text)
        if rv is None:
            return
        table = self.table
        for s in (0, 1):
            st.played[s] = self.played_uids(s, rv, limbo)
            entry = rv["tricks"][s]
            positions = tuple(rv["positions"][s])
            if entry is None:
                st.plays[s] = play(positions) if positions else PLAY_ZERO
                continue
            if "card" in entry:
                uid = next((u for u in st.played[s] if table.ids[u] == entry["card"]), -1)
                if uid < 0:  # "play 0": the Top Card's trick
                    up = st.up[s]
                    uid = up[0] if up and not self.effects and table.ids[up[0]] == entry["card"] \
                        else self.by_id[entry["card"]]
                st.trick_uid[s] = uid
                st.plays[s] = _play(positions, st.played[s], uid)
            else:
                uid = next((u for u in st.played[s] if table.cards[u].trick is not None
                            and table.cards[u].trick.text == entry["text"]), self.by_text[entry["text"]])  # type: ignore[union-attr]
                st.trick_uid[s] = st.pre_uid[s] = uid
                st.plays[s] = play(positions) if positions else PLAY_ZERO
        for s in (0, 1):
            cid = rv["protected"][s]
            if cid is not None:
                st.protected[s] = next((u for u in limbo + list(st.played[s]) if table.ids[u] == cid), -1)
        if self.effects:
            if rv["capture_place"] is not None:
                st.captured = limbo[-1]
            return
        st.captured = rules.capture_target(st)
        queue: list[tuple[int, int]] = [(st.winner, CAPTURE)] if st.captured >= 0 else []
        for s in (st.lead, 1 - st.lead):
            if len(rules.protect_candidates(st, s)) > 1:
                queue.append((s, PROTECT))
        here = (st.movers[0], self.phase)
        if here not in queue:
            raise _bad(f"seat {here[0]} is asked a Step 5 question its tricks do not give")
        st.queue = tuple(queue[queue.index(here):])

    def own_announced(self, text: str) -> int:
        """The seat's own card whose trick it announced: its Top Card, or within its top 3
        after a Rig of the Top Card."""
        cards = self.table.cards
        for uid in self.st.up[self.seat][:3]:
            trick = cards[uid].trick
            if trick is not None and trick.text == text:
                return uid
        raise _bad(f"seat {self.seat} announced {text!r} but holds no such card on top")

    def played_uids(self, s: int, rv: Mapping[str, Any], limbo: list[int]) -> tuple[int, ...]:
        """This round's Played cards of seat ``s``: up where they were Played; once Step 5's
        Discards are made, in the limbo or face down."""
        ids = self.table.ids
        if not self.effects:
            up = self.st.up[s]
            return tuple(up[p - 1] for p in rv["positions"][s])
        used: set[int] = set()
        out = []
        places = limbo + self.st.down[s][::-1]
        for cid in rv["played"][s]:
            uid = next((u for u in places if u >= 0 and u not in used and ids[u] == cid), self.by_id[cid])
            used.add(uid)
            out.append(uid)
        return tuple(out)

    def nr_uid(self, s: int, cid: str) -> int:
        """A Next Round card in play lies face down in its owner's deck."""
        ids = self.table.ids
        return next((u for u in self.st.down[s] if ids[u] == cid), self.by_id[cid])

    # ----- who has seen what --------------------------------------------------------------------
    def seen(self, limbo: list[int]) -> None:
        """The seat has seen its own cards but the never-seen ones, the other deck's
        revealed cards, the held Events and the limbo; the other seat (a guess) every card of
        its own deck, and of this seat's the ``revealed`` ones."""
        st, seat, opp, view = self.st, self.seat, self.opp, self.view
        bit = self.table.bit
        ids = self.table.ids
        public = 0
        for uid in limbo:
            public |= bit[uid]
        for held in st.held:
            for uid, _due in held:
                public |= bit[uid]
        mine = public
        own_down = view["hand"]["down"]
        for uid in st.up[seat]:
            mine |= bit[uid]
        for uid, cid in zip(st.down[seat], own_down):
            if cid is not None:
                mine |= bit[uid]
        theirs = public
        for lst in (st.up[opp], st.down[opp]):
            for uid in lst:
                theirs |= bit[uid]
        for uid in self.revealed_uids:
            mine |= bit[uid]
        shown = Counter(view["decks"][seat]["revealed"])
        candidates = list(st.played[seat]) + st.up[seat] + [u for u, c in zip(st.down[seat], own_down) if c]
        for uid in candidates:
            if shown.get(ids[uid], 0) > 0 and not theirs & bit[uid]:
                shown[ids[uid]] -= 1
                theirs |= bit[uid]
        st.seen = [0, 0]
        st.seen[seat], st.seen[opp] = mine, theirs

    # ----- the last round -------------------------------------------------------------------------
    def record(self, data: Mapping[str, Any]) -> RoundRecord:
        """The previous round as a record: only its ids are ever shown, so any uid of each
        card will do."""
        by_id, by_text = self.by_id, self.by_text
        tricks, pres, blocked = [], [], []
        for entry in data["tricks"]:
            if entry is None:
                tricks.append(-1)
                pres.append(-1)
            elif "card" in entry:
                tricks.append(by_id[entry["card"]])
                pres.append(-1)
            else:
                tricks.append(by_text[entry["text"]])
                pres.append(tricks[-1])
            blocked.append(bool(entry and entry["blocked"]))
        captured = data["captured"]
        return RoundRecord(
            data["round"], data["lead"], (SKILL_INDEX[data["skills"][0]], SKILL_INDEX[data["skills"][1]]),
            (tuple(data["positions"][0]), tuple(data["positions"][1])),
            (tuple(by_id[c] for c in data["played"][0]), tuple(by_id[c] for c in data["played"][1])),
            (tricks[0], tricks[1]), (pres[0], pres[1]), (blocked[0], blocked[1]),
            (data["totals"][0], data["totals"][1]), -1 if data["winner"] is None else data["winner"],
            -1 if data["defence"] is None else data["defence"],
            (data["discarded"][0], data["discarded"][1]), (data["recovered"][0], data["recovered"][1]),
            -1 if captured is None else by_id[captured["card"]], "" if captured is None else captured["place"],
            tuple(-1 if p is None else by_id[p] for p in data["protected"]),  # type: ignore[arg-type]
            tuple(_copy_entry(e) for e in data["events"]),
            (data["announced"][0], data["announced"][1]),
        )


def _play(positions: tuple[int, ...], played: tuple[int, ...], trick_uid: int) -> Play:
    """The Step 3 choice behind a reveal: the Played positions and the position whose trick
    was used (none for ``play 0``, whose trick is the Top Card's)."""
    if not positions:
        return PLAY_ZERO
    pos = next((p for p, u in zip(positions, played) if u == trick_uid), 0)
    return play(positions, pos)


def _copy_entry(entry: Mapping[str, Any]) -> dict[str, Any]:
    """A Step 1 log entry, copied so that the sample never shares the caller's lists."""
    return {k: list(v) if isinstance(v, list) else v for k, v in entry.items()}
