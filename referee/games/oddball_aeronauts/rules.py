"""The rules of a round, one function per rule of the rulebook, acting on a state.

A deck is two lists per seat: ``up`` (the face-up run, Top Card first) and ``down`` (the
Discarded cards, the next to be Recovered first). Discarding appends to ``down`` (the
bottom of the deck); Recovering turns the first card of ``down`` face up, which is where
it already sits, i.e. the end of ``up``. Cards are ints (their uid in the game's table).

These functions mutate the state passed in; the state module owns the phases and the
decisions, this module owns what happens between them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards import SKILLS, WIN_EFFECT, Trick

if TYPE_CHECKING:
    from .state import OddballState


# ----- Discard and Recover ------------------------------------------------------------------
def discard_top(st: OddballState, seat: int, n: int) -> int:
    """Discard the next ``n`` topmost face-up cards, together (their owner orders them, see
    ``OddballState.note_discard``); returns how many went."""
    up, down = st.up[seat], st.down[seat]
    start = len(down)
    done = min(n, len(up))
    down.extend(up[:done])
    del up[:done]
    st.note_discard(seat, start, done)
    return done


def recover(st: OddballState, seat: int, n: int) -> int:
    """Recover ``n`` cards: the first Discarded card turns face up where it lies. A
    Recovered Event is Discarded again at once and the next card Recovered instead; when
    only Events are face down, nothing can be Recovered. Returns how many came back."""
    up, down = st.up[seat], st.down[seat]
    is_event = st.table.is_event
    bit = st.table.bit
    got = 0
    while got < n and down:
        tries = len(down)
        while tries:
            uid = down.pop(0)
            st.seen[seat] |= bit[uid]
            if is_event[uid]:
                down.append(uid)
                tries -= 1
                continue
            up.append(uid)
            got += 1
            break
        else:
            break
    return got


# ----- Step 1: Events ---------------------------------------------------------------------
def _events_in_top3(st: OddballState, seat: int) -> list[int]:
    is_event = st.table.is_event
    return [uid for uid in st.up[seat][:3] if is_event[uid]]


def top_value(st: OddballState, seat: int, skill: int) -> int:
    """An Event compares Skill Level + Skill Bonus of the Top Cards only (0 with no card)."""
    up = st.up[seat]
    if not up:
        return 0
    card = st.table.cards[up[0]]
    return card.levels[skill] + card.bonuses[skill]


def _discard_event(st: OddballState, seat: int, uid: int, log: list[dict[str, Any]], why: str) -> None:
    st.up[seat].remove(uid)
    st.down[seat].append(uid)
    st.seen[0] |= st.table.bit[uid]
    st.seen[1] |= st.table.bit[uid]
    log.append({"seat": seat, "event": st.table.ids[uid], "result": "discarded", "why": why})


def step1_events(st: OddballState) -> list[dict[str, Any]]:
    """Step 1. While both seats have Events in their top 3, each Discards its topmost one;
    a seat with 2 or more Discards its topmost; a lone Event is resolved, and any Event
    that shows up after one has been resolved this round is Discarded."""
    log: list[dict[str, Any]] = []
    resolved = False
    while True:
        e0 = _events_in_top3(st, 0)
        e1 = _events_in_top3(st, 1)
        if e0 and e1:
            _discard_event(st, 0, e0[0], log, "both")
            _discard_event(st, 1, e1[0], log, "both")
            continue
        if not e0 and not e1:
            return log
        seat, found = (0, e0) if e0 else (1, e1)
        if len(found) >= 2:
            _discard_event(st, seat, found[0], log, "two")
        elif resolved:
            _discard_event(st, seat, found[0], log, "chained")
        else:
            resolve_event(st, seat, found[0], log)
            resolved = True


def resolve_event(st: OddballState, owner: int, uid: int, log: list[dict[str, Any]]) -> None:
    """Compare the Event's skill on the Top Cards; the highest (or lowest) takes it and
    applies it. Immediate effects apply now and the Event is Discarded to the taker's
    deck; others are held until used. Equal totals: Discarded with no effect."""
    table = st.table
    event = table.cards[uid].event
    assert event is not None
    st.up[owner].remove(uid)
    st.seen[0] |= table.bit[uid]
    st.seen[1] |= table.bit[uid]
    values = [top_value(st, 0, event.compare), top_value(st, 1, event.compare)]
    entry: dict[str, Any] = {"seat": owner, "event": table.ids[uid], "compare": SKILLS[event.compare],
                             "values": values}
    if values[0] == values[1]:
        st.down[owner].append(uid)
        entry.update(result="tie", taker=None)
        log.append(entry)
        return
    high = 0 if values[0] > values[1] else 1
    taker = high if event.taker == "highest" else 1 - high
    entry.update(result="taken", taker=taker)
    if event.timing == "now":
        if event.effect == "discard":
            entry["done"] = discard_top(st, taker, event.amount)
        else:
            entry["done"] = recover(st, taker, event.amount)
        st.down[taker].append(uid)
    else:
        due = st.rnd + (1 if event.timing == "next_round" else 0)
        st.held[taker] = st.held[taker] + ((uid, due),)
    log.append(entry)


# ----- Tricks -------------------------------------------------------------------------------
def trick_of(st: OddballState, seat: int) -> Trick | None:
    """The trick this seat uses this round, if it is not blocked by a Shadow emblem."""
    uid = st.trick_uid[seat]
    if uid < 0 or st.blocked[seat]:
        return None
    return st.table.cards[uid].trick


def condition_ok(st: OddballState, seat: int, trick: Trick) -> bool:
    """Win / Lose / Lead conditions (with a skill after Win or Lose when printed)."""
    when = trick.when
    if when is None:
        return True
    if when == "lead":
        return st.lead == seat
    if when == "win":
        ok = st.winner == seat
    else:
        ok = st.winner == 1 - seat
    return ok and (trick.when_skill < 0 or trick.when_skill == st.skills[seat])


def active_step4(st: OddballState, seat: int) -> list[Trick]:
    """Tricks that touch this seat's Skill Total: its own trick this round (unless it is a
    Next Round trick, which works next round) and the Next Round tricks now in play."""
    found = []
    trick = trick_of(st, seat)
    if trick is not None and not trick.next_round and (trick.when is None or trick.when == "lead") \
            and condition_ok(st, seat, trick):
        found.append(trick)
    cards = st.table.cards
    for uid in st.nr_active[seat]:
        nr = cards[uid].trick
        assert nr is not None
        found.append(nr)
    return found


def limit_for(st: OddballState, seat: int) -> int:
    """The most cards this seat may Play: 3, or fewer under an Opp. limit (announced this
    round or in play from last round) or an Event it holds."""
    limit = 3
    opp = 1 - seat
    cards = st.table.cards
    uid = st.pre_uid[opp]
    if uid >= 0:
        trick = cards[uid].trick
        if trick is not None and trick.kind == "opp_limit":
            limit = min(limit, trick.cards)
    for uid in st.nr_active[opp]:
        trick = cards[uid].trick
        if trick is not None and trick.kind == "opp_limit":
            limit = min(limit, trick.cards)
    for uid, due in st.held[seat]:
        event = cards[uid].event
        if event is not None and event.effect == "limit" and due == st.rnd:
            limit = min(limit, event.amount)
    return limit


def rig(st: OddballState, seat: int, trick: Trick, order: tuple[int, ...]) -> None:
    """Rig: the rigged positions (those that exist) now hold the cards from ``order``."""
    up = st.up[seat]
    positions = rig_positions(trick, len(up))
    taken = [up[p - 1] for p in order]
    for p, uid in zip(positions, taken):
        up[p - 1] = uid


def rig_positions(trick: Trick, face_up: int) -> tuple[int, ...]:
    """The printed rig positions the deck reaches: a short deck rigs only the cards it has."""
    return tuple(p for p in trick.positions if p <= face_up)


# ----- Step 4: Results ----------------------------------------------------------------------
def skill_total(st: OddballState, seat: int, active: list[list[Trick]] | None = None) -> int:
    """Skill Level of the Top Card + Skill Bonus of the other Played cards (of the chosen
    skill, or the best of the skills a Support trick allows) + trick and Event bonuses;
    0 with no card Played. Never below 0."""
    played = st.played[seat]
    if not played:
        return 0
    cards = st.table.cards
    skill = st.skills[seat]
    opp = 1 - seat
    if active is None:
        active = [active_step4(st, 0), active_step4(st, 1)]
    tricks = active[seat]
    support: tuple[int, ...] = (skill,)
    for trick in tricks:
        if trick.kind == "support" and trick.skill == skill:
            support = tuple(set(support) | set(trick.support))
    total = cards[played[0]].levels[skill]
    for uid in played[1:]:
        bonuses = cards[uid].bonuses
        total += max(bonuses[k] for k in support)
    for trick in tricks:
        kind = trick.kind
        if kind == "extra_bonus":
            if skill in trick.skills:
                total += trick.amount
        elif kind == "bonus_vs_skills":
            if skill == trick.skill and st.skills[opp] in trick.versus:
                total += trick.amount
        elif kind == "bonus_vs_cards" and skill == trick.skill and len(st.played[opp]) == trick.cards:
            total += trick.amount
    for uid, due in st.held[seat]:
        event = cards[uid].event
        if event is not None and event.effect == "bonus" and due == st.rnd:
            total += event.amount
    for trick in active[opp]:
        if trick.kind == "opp_penalty":
            total -= trick.amount
    return max(total, 0)


def defence_applies(st: OddballState, seat: int, tricks: list[Trick]) -> int:
    """The Defence Bonus a losing seat adds (0 if none applies)."""
    opp = 1 - seat
    bonus = 0
    for trick in tricks:
        if trick.kind == "defence_bonus" and st.skills[seat] == trick.skill and st.skills[opp] in trick.versus:
            bonus += trick.amount
    return bonus


def check_shadow(st: OddballState) -> None:
    """A Magic trick (the chosen one) fails if the opponent's Top Card has a Shadow emblem;
    the seat then has no trick this round."""
    cards = st.table.cards
    for seat in (0, 1):
        uid = st.trick_uid[seat]
        if uid < 0:
            continue
        trick = cards[uid].trick
        opp_up = st.up[1 - seat]
        st.blocked[seat] = bool(trick is not None and trick.magic and opp_up and cards[opp_up[0]].shadow)


def results(st: OddballState) -> None:
    """Step 4: Skill Totals, the Defence Bonus, and the winner (-1 for a draw)."""
    check_shadow(st)
    active = [active_step4(st, 0), active_step4(st, 1)]
    totals = [skill_total(st, 0, active), skill_total(st, 1, active)]
    defence = -1
    if totals[0] != totals[1]:
        loser = 0 if totals[0] < totals[1] else 1
        bonus = defence_applies(st, loser, active[loser])
        if bonus:
            totals[loser] += bonus
            defence = loser
            reaches = totals[loser] >= totals[1 - loser] if st.options["defence_tie"] == "draw" \
                else totals[loser] > totals[1 - loser]
            st.winner = -1 if reaches else 1 - loser
        else:
            st.winner = 1 - loser
    else:
        st.winner = -1
    st.totals = totals
    st.defence = defence


# ----- Step 5: Effects ----------------------------------------------------------------------
def capture_target(st: OddballState) -> int:
    """The card a winning Capture trick takes: the loser's Played Top Card, or its Top
    Card when it Played none; -1 when there is nothing to take or no Capture applies."""
    w = st.winner
    if w < 0:
        return -1
    trick = trick_of(st, w)
    if trick is None or trick.kind != "capture" or not condition_ok(st, w, trick):
        return -1
    loser = 1 - w
    if st.played[loser]:
        return st.played[loser][0]
    return st.up[loser][0] if st.up[loser] else -1


def protect_candidates(st: OddballState, seat: int) -> list[int]:
    """Positions of this seat's Played cards it may Protect (never a card with a Protect
    trick, never the card the opponent captures)."""
    trick = trick_of(st, seat)
    if trick is None or trick.kind != "protect" or not condition_ok(st, seat, trick):
        return []
    cards = st.table.cards
    play = st.plays[seat]
    assert play is not None
    out = []
    for pos, uid in zip(play.cards, st.played[seat]):
        other = cards[uid].trick
        if (other is not None and other.kind == "protect") or uid == st.captured:
            continue
        out.append(pos)
    return out


def win_effect(skill: int) -> tuple[int, int]:
    """(winner Recovers, loser Discards) for the winner's skill, from the ``WIN_EFFECT`` table."""
    return WIN_EFFECT[skill]


def effects_discards(st: OddballState) -> tuple[int, int]:
    """Step 5, first half, once every Capture and Protect choice is made: Played cards are
    Discarded (but the Protected and the captured one), then the Win Effect's Discards (none
    after a Capture) and the tricks' extra Discards, all together. Returns how many cards
    the Win Effect and tricks Discarded per seat. Each Discard of several cards is ordered by
    its owner before the second half, whose Recovers are what the order decides."""
    w = st.winner
    captured = st.captured
    for seat in (0, 1):
        up, down = st.up[seat], st.down[seat]
        keep = st.protected[seat]
        start = len(down)
        for uid in st.played[seat]:
            up.remove(uid)
            if uid != keep and uid != captured:
                down.append(uid)
        st.note_discard(seat, start, len(down) - start)
    if captured >= 0 and captured in st.up[1 - w]:
        st.up[1 - w].remove(captured)
    discards = [0, 0]
    if w >= 0 and captured < 0:
        discards[1 - w] += win_effect(st.skills[w])[1]
    for seat in (0, 1):
        trick = _extra_trick(st, seat)
        if trick is not None and trick.kind == "opp_discard":
            discards[1 - seat] += trick.count
    return discard_top(st, 0, discards[0]), discard_top(st, 1, discards[1])


def _extra_trick(st: OddballState, seat: int) -> Trick | None:
    """The seat's trick if it acts in Step 5 this round (its condition met, not Next Round)."""
    trick = trick_of(st, seat)
    if trick is None or trick.next_round or not condition_ok(st, seat, trick):
        return None
    return trick


def effects_after_discards(st: OddballState) -> tuple[int, int]:
    """Step 5, second half: the Win Effect's and the tricks' Recovers, then the captured card
    goes where its taker chose and a Protected card on top; held Events used this round are
    Discarded and Next Round tricks used come into play. Returns the Recovers per seat."""
    table = st.table
    w = st.winner
    captured = st.captured
    recovers = [0, 0]
    if w >= 0 and captured < 0:
        recovers[w] += win_effect(st.skills[w])[0]
    for seat in (0, 1):
        trick = _extra_trick(st, seat)
        if trick is not None and trick.kind == "recover":
            recovers[seat] += trick.count
    done_r = (recover(st, 0, recovers[0]), recover(st, 1, recovers[1]))
    if captured >= 0:
        if st.capture_place == "top":
            st.up[w].insert(0, captured)
        else:
            st.up[w].append(captured)
        st.seen[0] |= table.bit[captured]
        st.seen[1] |= table.bit[captured]
    for seat in (0, 1):
        keep = st.protected[seat]
        if keep >= 0:
            st.up[seat].insert(0, keep)
    # Events held for this round are used: Discard them into their holder's deck (in the
    # order taken: Recover skips Events, so their order never changes what comes back).
    for seat in (0, 1):
        if st.held[seat]:
            still = []
            for uid, due in st.held[seat]:
                if due <= st.rnd:
                    st.down[seat].append(uid)
                else:
                    still.append((uid, due))
            st.held[seat] = tuple(still)
    # Next Round tricks used this round come into play next round.
    for seat in (0, 1):
        trick = trick_of(st, seat)
        if trick is not None and trick.next_round and condition_ok(st, seat, trick):
            st.nr_pending[seat] = st.nr_pending[seat] + (st.trick_uid[seat],)
    return done_r


def face_up_cards(st: OddballState, seat: int) -> int:
    """Face-up cards that count: Events do not (ruling ``events_only_is_out``)."""
    if not st.options["events_only_is_out"]:
        return len(st.up[seat])
    is_event = st.table.is_event
    return sum(1 for uid in st.up[seat] if not is_event[uid])
