"""Skyjo Action's forward model: a state from one seat's observation.

Public: every face-up card, locks, totals and scored rounds, the discard pile's top and
size, the action row, the action discard pile and the counts of both decks, the public
held action cards, and the pending decision with what it is about. The seat's own: the
types of its held cards (and which were taken this turn), the face-down cards it has
looked at. Drawn here: every other Number/Star card (the face-down cards the seat has not
looked at, its own included, the main deck and the discard pile under its top card) from
the published deck less every card the seat can see, and the other seats' face-down held
action cards with the action deck, from the action cards it cannot see.

Two limits, both because a single observation does not carry the history: the cards
buried in the discard pile were seen when they were discarded, but the observation shows
only the top one, so they are drawn with the unseen cards; and the steps still pending
under the decision (the rest of an action card's effect) are rebuilt for the decisions of
a turn and of the common action cards (see ``_below``), while a position deep inside a
chain of action cards (a Defense question, a second Double-move turn, a Reactivation's
replay) is refused with ObservationError. The single-deck variant is refused too.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from ..core.errors import ObservationError
from ..core.rng import CounterRng
from .data import ACTION0, EMPTY, LINE_COL, LINE_ROW, STAR, TYPE_INDEX, number_deck, parse_pos
from .decisions import DECISIONS
from .frames import (
    NEXT,
    Activate,
    Check,
    Drawn,
    Hold,
    KeepOfThree,
    Lines,
    LookChoice,
    Meteor,
    MeteorTarget,
    OwnFirstPick,
    OwnSecondPick,
    Place,
    Replay,
    Reveal,
    StarChoice,
    Start,
    Steal,
    SwapFirstPick,
    SwapPair,
    SwapSecondPick,
    TakeAction,
    Top,
    Turn,
)
from .state import SkyjoActionState

LOCKS = {None: 0, "rows": LINE_ROW, "columns": LINE_COL}
TURN_NO = 2  # any turn number: only "taken this turn or not" is ever read


def card_code(card: Any) -> int:
    """A Number/Star card as the engine keeps it."""
    if card == "*":
        return STAR
    if type(card) is int:
        return card
    raise ObservationError(f"skyjo-action: {card!r} is not a Number/Star card; pass an unmodified observation.")


def rebuild(state: SkyjoActionState, seat: int, view: Mapping[str, Any], rng: CounterRng) -> None:
    """Fill ``state`` from ``view`` (see referee.games.core.rebuild)."""
    config = state.config
    if config.single:
        raise ObservationError("skyjo-action: the forward model does not rebuild the single-deck variant "
                               "(which action cards went into the main deck is not in an observation).")
    state.round_no = view["round"]
    state.current = view["current"]
    state.turn_no = TURN_NO
    state.round_start = 0
    state.lock = [LOCKS[a["lock"]] for a in view["areas"]]
    state.totals = [a["total"] for a in view["areas"]]
    state.rounds = tuple((r["round"], tuple(r["scores"]), -1 if r["ender"] is None else r["ender"], r["doubled"],
                          r["forced"]) for r in view["rounds"])
    state.last_grids = ()
    state._history_text = repr((state.rounds, state.last_grids))
    state.ender = -1 if view["ender"] is None else view["ender"]
    state.finals = tuple(view["last_turns"])
    state.action_row = [-1 if t is None else TYPE_INDEX[t] for t in view["action_row"]]
    state.action_discard = [TYPE_INDEX[t] for t in view["action_discard"]]
    state.box = ()
    state.over = ""
    top = _top(state, seat, view)
    state.stack = [*_below(state, seat, view, top), top]
    pool, slots = _grids(state, seat, view, top)
    # A Meteor shower that removes a held action card puts it under the main discard pile
    # (and a reshuffle can bring it into the main deck): the main pile's cards the Number
    # deck cannot fill are action cards the seat cannot see.
    buried = max(0, view["discard_size"] - 1)
    missing = len(slots) + view["deck"] + buried - sum(pool.values())
    if missing < 0:
        raise ObservationError("skyjo-action: the observation's cards do not add up to the deck; "
                               "pass an unmodified observation.")
    in_main = _held(state, seat, view, rng, missing)
    drawn = rng.shuffled(sorted(pool.elements()) + [ACTION0 + t for t in in_main])
    for k, (other, p) in enumerate(slots):
        state.cards[other][p] = drawn[k]
    rest = drawn[len(slots):]
    state.deck = rest[:view["deck"]]
    state.discard = rest[view["deck"]:] + ([] if view["discard"] is None else [card_code(view["discard"])])
    state._observations = {}
    state.public_areas = None
    state._legal = tuple(DECISIONS[type(top)].legal(state, top))


def _grids(state: SkyjoActionState, seat: int, view: Mapping[str, Any],
           top: Any) -> tuple[Counter[int], list[tuple[int, int]]]:
    """The grids as the seat sees them; returns the Number/Star cards it cannot see and
    the grid positions they go to (its unseen face-down cards, everyone's)."""
    players = state.players
    pool = Counter(number_deck(state.config.stars))
    grids: list[list[int]] = []
    up = [0] * players
    known = [0] * (players * players)
    slots: list[tuple[int, int]] = []
    for other, area in enumerate(view["areas"]):
        row = []
        for p, (card, face) in enumerate(zip(area["cards"], area["face_up"])):
            if face is None:
                row.append(EMPTY)
                continue
            if face:
                up[other] |= 1 << p
            elif card is not None:
                known[seat * players + other] |= 1 << p
            if card is None:
                slots.append((other, p))
                row.append(EMPTY)
            else:
                row.append(card_code(card))
                pool[row[-1]] -= 1
        grids.append(row)
    if view["discard"] is not None:
        pool[card_code(view["discard"])] -= 1
    for card in _cards_in_hand(top):
        pool[card] -= 1
    if min(pool.values(), default=0) < 0:
        raise ObservationError("skyjo-action: the observation shows more copies of a card than the deck has; "
                               "pass an unmodified observation.")
    state.cards = grids
    state.up = up
    state.known = known
    return pool, slots


def _cards_in_hand(top: Any) -> list[int]:
    """Number cards out of the deck and the grids, held by the pending decision."""
    if isinstance(top, (Drawn, Place)):
        return [top.card]
    if isinstance(top, (Top, KeepOfThree)):
        return list(top.cards)
    return []


def _held(state: SkyjoActionState, seat: int, view: Mapping[str, Any], rng: CounterRng, in_main: int) -> list[int]:
    """Held action cards: own and public ones as shown, the others' hidden ones drawn with
    the action deck (and ``in_main`` cards lost in the main pile, returned) from the action
    cards the seat cannot see."""
    pool = Counter(state.config.action_cards())
    seen = [t for t in state.action_row if t >= 0] + state.action_discard
    hidden: list[tuple[int, int]] = []
    for other, area in enumerate(view["areas"]):
        for i, name in enumerate(area["held"]):
            if name is None:
                hidden.append((other, i))
            else:
                seen.append(TYPE_INDEX[name])
    pool.subtract(seen)
    if min(pool.values(), default=0) < 0 or sum(pool.values()) != len(hidden) + view["action_deck"] + in_main:
        raise ObservationError("skyjo-action: the observation's action cards do not add up to the action deck; "
                               "pass an unmodified observation.")
    drawn = rng.shuffled(sorted(pool.elements()))
    held: list[list[tuple[int, bool, int]]] = []
    fresh = view["fresh"]
    k = 0
    for other, area in enumerate(view["areas"]):
        hand = []
        for i, name in enumerate(area["held"]):
            if name is None:
                hand.append((drawn[k], False, TURN_NO - 1))
                k += 1
            else:
                # Whether the others saw the seat's own card (taken from the row, not face
                # down from the deck) is history the observation does not carry: counted
                # public, it changes only what the others' playout bots are shown.
                public = True
                taken = TURN_NO if other == seat and fresh[i] else TURN_NO - 1
                hand.append((TYPE_INDEX[name], public, taken))
        held.append(hand)
    state.held = [tuple(h) for h in held]
    state.action_deck = drawn[k:k + view["action_deck"]]
    return drawn[k + view["action_deck"]:]


def _top(state: SkyjoActionState, seat: int, view: Mapping[str, Any]) -> Any:
    """The pending decision, from its name and its details."""
    kind = view["decision"]
    pending = view["pending"]
    mover = view["to_move"][0]
    codes = state.config.index_of_code
    if kind == "turn":
        return Turn(mover, int(pending["extra"]))
    if kind == "take-action":
        return TakeAction(mover)
    if kind == "activate":
        return Activate(mover)
    if kind == "drawn":
        return Drawn(mover, card_code(pending["card"]))
    if kind == "place":
        return Place(mover, card_code(pending["card"]))
    if kind == "reveal":
        return Reveal(mover)
    if kind == "star":
        return StarChoice(mover, int(not pending["optional"]))
    if kind == "lines":
        line_codes = tuple(_line_code(text) for text in pending["lines"])
        mask = 0
        for code in line_codes:
            mask |= state.config.line_by_code[code].mask
        return Lines(mover, mask, line_codes)
    if kind == "top":
        return Top(mover, tuple(card_code(c) for c in pending["cards"]))
    if kind == "keep":
        return KeepOfThree(mover, tuple(card_code(c) for c in pending["cards"]))
    if kind == "hold":
        return Hold(mover, TYPE_INDEX[pending["card"]])
    if kind == "look":
        return LookChoice(mover)
    if kind == "pair":
        return SwapPair(mover)
    if kind == "pick":
        picked = [codes[parse_pos(p)] for p in pending.get("picked", [])]
        if pending["card"] == "swap-other":
            first, second = pending["players"]
            return SwapSecondPick(mover, first, picked[0], second) if picked else SwapFirstPick(mover, first, second)
        return OwnSecondPick(mover, picked[0]) if picked else OwnFirstPick(mover)
    if kind == "meteor":
        return MeteorTarget(mover, pending["target"])
    if kind == "steal":
        return Steal(mover)
    if kind == "replay":
        return Replay(mover)
    raise ObservationError(f"skyjo-action: the forward model does not rebuild a {kind!r} decision (it lies inside "
                           "another seat's action card); sample at another decision.")


def _line_code(text: str) -> int:
    word, name = text.split()
    return int(name) - 1 if word == "row" else 10 + "ABCD".index(name)


def _below(state: SkyjoActionState, seat: int, view: Mapping[str, Any], top: Any) -> list[Any]:
    """The steps pending under the decision, in the shapes the engine leaves them (seen
    over thousands of random games): the next turn's step, and what the decision's own
    card or line still has to do."""
    kind = type(top)
    if kind is Turn and top.extra:
        raise ObservationError("skyjo-action: the forward model does not rebuild an extra turn (how many are "
                               "left is not in an observation); sample at a regular turn.")
    if kind is StarChoice:
        return _below_star(state, view, top)
    if kind is Top:
        return [NEXT, *_below_top(top)]
    if kind is MeteorTarget:
        players = state.players
        order = [(top.seat + i) % players for i in range(1, players)]
        return [NEXT, Meteor(top.seat, tuple(order[order.index(top.target) + 1:]))]
    if kind is Hold:
        raise ObservationError("skyjo-action: the forward model does not rebuild a 'hold' decision (an action card "
                               "found in the main deck); sample at another decision.")
    return [NEXT]


def _below_star(state: SkyjoActionState, view: Mapping[str, Any], top: StarChoice) -> list[Any]:
    """At setup (``must_take``) the other setup stars wait under the first player's start:
    one choice per face-up star of each later seat, and the mover's stars not yet used
    (each use gave it an action card). In play, the line check of the star just placed
    (any face-up star of the mover's: which one is not in an observation)."""
    areas = view["areas"]
    if not top.must_take:
        stars = 0
        for p, (card, up) in enumerate(zip(areas[top.seat]["cards"], areas[top.seat]["face_up"])):
            if up and card == "*":
                stars |= 1 << p
        return [NEXT, Check(top.seat, stars)]
    players = state.players
    first = view["current"]
    later = [(first + i) % players for i in range((top.seat - first) % players + 1, players)]
    below: list[Any] = [Start(first)]
    for other in reversed(later):
        below += [StarChoice(other, 1)] * sum(1 for c, up in zip(areas[other]["cards"], areas[other]["face_up"])
                                              if up and c == "*")
    own = sum(1 for c, up in zip(areas[top.seat]["cards"], areas[top.seat]["face_up"]) if up and c == "*")
    return below + [StarChoice(top.seat, 1)] * max(0, own - len(areas[top.seat]["held"]) - 1)


def _below_top(top: Top) -> list[Any]:
    """Cards going onto the discard pile come from a cleared line (its cards equal but for
    stars: the line check of the rest follows), from Draw three when none was kept (three
    cards: a reveal follows) or from Draw three when one was kept (two cards)."""
    if len(top.cards) == 2:
        return []
    numbers = {c for c in top.cards if c != STAR}
    if len(numbers) <= 1:
        return [Check(top.seat, 0)]
    return [Reveal(top.seat)]

