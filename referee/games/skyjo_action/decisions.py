"""The decisions of Skyjo Action: for each kind, its legal moves and what a move does.

One table row per decision (``DECISIONS``) holds everything about it: its public name (the
observation's "decision"), the action card behind it (the observation's "pending" "card"),
its legal moves in canonical order, and its effect. A decision with no legal move is
skipped by the state's driver.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from . import actions
from .actions import Move
from .data import ACTION0, DEFENSE, EMPTY, LOOK, METEOR, REACTIVATION, SWAP_OTHER, SWAP_OWN, THIEF
from .frames import (
    DRAW,
    PLACE,
    PLACED,
    REVEAL,
    Activate,
    Check,
    Defend,
    Drawn,
    Effect,
    Hit,
    Hold,
    KeepOfThree,
    Lines,
    LookChoice,
    LookHit,
    MeteorHit,
    MeteorTarget,
    OwnFirstPick,
    OwnSecondPick,
    Place,
    Replay,
    Reveal,
    StarChoice,
    Steal,
    StealHit,
    SwapFirstPick,
    SwapHit,
    SwapPair,
    SwapSecondPick,
    TakeAction,
    ToDiscard,
    Top,
    Turn,
)

if TYPE_CHECKING:
    from .state import SkyjoActionState as State


class Decision(NamedTuple):
    """Everything about one kind of decision."""

    name: str                                       # public name (observation "decision")
    legal: Callable[[Any, Any], list[Move]]         # (state, frame) -> moves, canonical order
    apply: Callable[[Any, Any, Move], None]         # (state, frame, move): its effect
    card: int | None = None                         # the action card it belongs to, if any


def moves_at_cards(state: State, seat: int, moves: tuple[Move, ...], skip: int = -1) -> list[Move]:
    """The move for each position of ``seat`` that still holds a card, but ``skip``: an empty
    position (a cleared Skyjo line) has no card to replace, swap or remove. ``moves`` lists
    one move per position, in grid order."""
    row = state.cards[seat]
    if skip < 0 and EMPTY not in row:
        return list(moves)
    return [moves[p] for p, c in enumerate(row) if c != EMPTY and p != skip]


# ----- a turn -------------------------------------------------------------------------------
def legal_turn(state: State, frame: Turn) -> list[Move]:
    seat = frame.seat
    if frame.extra and state.ender >= 0:
        return []
    out = []
    if state.deck or len(state.discard) > 1:
        out.append(actions.DRAW)
    # Rule 1b takes a Number/Star card: an action card on top (Meteor shower puts them under
    # the pile, which the pile can run down to) stays there until a discard covers it.
    if state.discard and state.discard[-1] < ACTION0:
        out += moves_at_cards(state, seat, state.config.take_discard)
    if state.config.row_mode and (state.action_deck or state.action_discard or max(state.action_row) >= 0):
        out.append(actions.TAKE_ACTION)
    if state.ender < 0:
        turn = state.turn_no
        if any(taken != turn for _, _, taken in state.held[seat]):
            out.append(actions.ACTIVATE)
    return out


def apply_turn(state: State, frame: Turn, move: Move) -> None:
    seat = frame.seat
    if move is actions.DRAW:
        state.stack[-1] = DRAW[seat]
    elif move.verb == "take-discard":
        state.stack.pop()
        state.place_card(seat, state.config.index_of_code[move.arg], state.discard.pop())
    elif move is actions.TAKE_ACTION:
        state.stack[-1] = TakeAction(seat)
    else:
        state.stack[-1] = Activate(seat)


def legal_take_action(state: State, frame: TakeAction) -> list[Move]:
    out = [actions.TAKE_DECK] if state.action_deck or state.action_discard else []
    return out + [actions.TAKE[t] for t in sorted(set(state.action_row)) if t >= 0]


def apply_take_action(state: State, frame: TakeAction, move: Move) -> None:
    state.stack.pop()
    if move.arg == actions.NONE:
        state.give_action_card(frame.seat, state.pop_action_deck(), False)
    else:
        state.take_from_row(move.arg)
        state.give_action_card(frame.seat, move.arg, True)


def legal_activate(state: State, frame: Activate) -> list[Move]:
    turn = state.turn_no
    usable = sorted({t for t, _, taken in state.held[frame.seat] if taken != turn})
    return [actions.PLAY[t] for t in usable] + [actions.DROP[t] for t in usable]


def apply_activate(state: State, frame: Activate, move: Move) -> None:
    """Play or drop: the card goes onto the action discard pile either way."""
    state.stack.pop()
    state.use_held(frame.seat, move.arg)
    state.action_discard.append(move.arg)
    if move.verb == "play":
        state.stack.append(Effect(frame.seat, move.arg))


def legal_drawn(state: State, frame: Drawn) -> list[Move]:
    return [actions.DISCARD, actions.KEEP_DRAWN] if state.face_down_mask(frame.seat) else [actions.KEEP_DRAWN]


def apply_drawn(state: State, frame: Drawn, move: Move) -> None:
    if move is actions.DISCARD:
        state.discard.append(frame.card)
        state.stack[-1] = REVEAL[frame.seat]
    else:
        state.stack[-1] = PLACE[frame.seat][frame.card]


def legal_place(state: State, frame: Place) -> list[Move]:
    return moves_at_cards(state, frame.seat, state.config.place)


def apply_place(state: State, frame: Place, move: Move) -> None:
    state.stack.pop()
    state.place_card(frame.seat, state.config.index_of_code[move.arg], frame.card)


def legal_reveal(state: State, frame: Reveal) -> list[Move]:
    down = state.face_down_mask(frame.seat)
    reveal = state.config.reveal
    return [reveal[p] for p in range(state.config.size) if (down >> p) & 1]


def apply_reveal(state: State, frame: Reveal, move: Move) -> None:
    seat = frame.seat
    position = state.config.index_of_code[move.arg]
    state.stack.pop()
    state.up[seat] |= 1 << position
    state.forget(seat, 1 << position)
    state.stack.append(PLACED[seat][position])


# ----- what a placed or revealed card leads to ------------------------------------------------
def legal_star(state: State, frame: StarChoice) -> list[Move]:
    types = sorted({t for t in state.action_row if t >= 0})
    if not types:
        return []
    return ([] if frame.must_take else [actions.STAR_PASS]) + [actions.STAR_TAKE[t] for t in types]


def apply_star(state: State, frame: StarChoice, move: Move) -> None:
    state.stack.pop()
    if move.arg != actions.NONE:
        state.take_from_row(move.arg)
        state.give_action_card(frame.seat, move.arg, True)


def legal_lines(state: State, frame: Lines) -> list[Move]:
    return [actions.CLEAR[code] for code in frame.codes] + [actions.CLEAR_NONE]


def apply_lines(state: State, frame: Lines, move: Move) -> None:
    state.stack.pop()
    if move.arg == actions.NONE:
        return
    line = state.config.line_by_code[move.arg]
    removed = state.clear_line(frame.seat, line)
    state.stack.append(Check(frame.seat, frame.mask & ~line.mask))
    state.to_discard(frame.seat, removed)


def legal_top(state: State, frame: Top) -> list[Move]:
    return [actions.TOP[c] for c in sorted(set(frame.cards))]


def apply_top(state: State, frame: Top, move: Move) -> None:
    state.stack.pop()
    rest = list(frame.cards)
    rest.remove(move.arg)
    state.discard.extend(rest)
    state.discard.append(move.arg)


def legal_keep_of_three(state: State, frame: KeepOfThree) -> list[Move]:
    out = [actions.KEEP_NONE] if state.face_down_mask(frame.seat) or not frame.cards else []
    return out + [actions.KEEP[c] for c in sorted(set(frame.cards))]


def apply_keep_of_three(state: State, frame: KeepOfThree, move: Move) -> None:
    seat, cards = frame
    state.stack.pop()
    if move.arg == actions.NONE:
        state.stack.append(Reveal(seat))
        state.to_discard(seat, list(cards))
    else:
        rest = list(cards)
        rest.remove(move.arg)
        state.stack.append(ToDiscard(seat, tuple(rest)))
        state.stack.append(Place(seat, move.arg))


def legal_hold(state: State, frame: Hold) -> list[Move]:
    return [actions.DISCARD, actions.HOLD]


def apply_hold(state: State, frame: Hold, move: Move) -> None:
    state.stack.pop()
    if move is actions.HOLD:
        state.give_action_card(frame.seat, frame.card_type, True)
    else:
        state.action_discard.append(frame.card_type)


# ----- the effects of action cards ------------------------------------------------------------
def legal_swap_pair(state: State, frame: SwapPair) -> list[Move]:
    holders = [seat for seat in range(state.players) if state.present_mask(seat)]
    return [actions.BETWEEN[(a, b)] for i, a in enumerate(holders) for b in holders[i + 1:]]


def apply_swap_pair(state: State, frame: SwapPair, move: Move) -> None:
    state.stack[-1] = SwapFirstPick(frame.seat, move.seat, move.arg)


def _picks(state: State, seat: int, skip: int = -1) -> list[Move]:
    return moves_at_cards(state, seat, state.config.pick[seat], skip)


def legal_swap_first(state: State, frame: SwapFirstPick) -> list[Move]:
    return _picks(state, frame.first)


def apply_swap_first(state: State, frame: SwapFirstPick, move: Move) -> None:
    state.stack[-1] = SwapSecondPick(frame.seat, frame.first, state.config.index_of_code[move.arg], frame.second)


def legal_swap_second(state: State, frame: SwapSecondPick) -> list[Move]:
    return _picks(state, frame.second)


def apply_swap_second(state: State, frame: SwapSecondPick, move: Move) -> None:
    seat, first, first_position, second = frame
    state.stack.pop()
    hit = SwapHit(first, first_position, second, state.config.index_of_code[move.arg])
    state.strike(seat, hit, [x for x in (first, second) if x != seat])


def legal_own_first(state: State, frame: OwnFirstPick) -> list[Move]:
    moves = _picks(state, frame.seat)
    return moves if len(moves) > 1 else []


def apply_own_first(state: State, frame: OwnFirstPick, move: Move) -> None:
    state.stack[-1] = OwnSecondPick(frame.seat, state.config.index_of_code[move.arg])


def legal_own_second(state: State, frame: OwnSecondPick) -> list[Move]:
    return _picks(state, frame.seat, frame.first_position)


def apply_own_second(state: State, frame: OwnSecondPick, move: Move) -> None:
    seat, first = frame
    second = state.config.index_of_code[move.arg]
    state.stack.pop()
    state.swap_cards(seat, first, seat, second)
    state.stack.append(Check(seat, (1 << first) | (1 << second)))


def legal_look(state: State, frame: LookChoice) -> list[Move]:
    out = []
    for seat in range(state.players):
        down = state.face_down_mask(seat)
        if down:
            out += [move for line, move in state.config.look[seat] if line.mask & down]
    return out


def apply_look(state: State, frame: LookChoice, move: Move) -> None:
    seat = frame.seat
    state.stack.pop()
    hit = LookHit(move.seat, move.arg)
    if move.seat == seat:
        state.stack.append(Hit(seat, hit))
    else:
        state.strike(seat, hit, [move.seat])


def _held_targets(state: State, seat: int, public_moves: tuple[Move, ...], hidden_move: Move) -> list[Move]:
    hand = state.held[seat]
    out = [public_moves[t] for t in sorted({t for t, public, _ in hand if public})]
    if any(not public for _, public, _ in hand):
        out.append(hidden_move)
    return out


def legal_meteor_target(state: State, frame: MeteorTarget) -> list[Move]:
    target = frame.target
    return (moves_at_cards(state, target, state.config.remove[target])
            + _held_targets(state, target, actions.REMOVE_HELD[target], actions.REMOVE_HIDDEN[target]))


def apply_meteor_target(state: State, frame: MeteorTarget, move: Move) -> None:
    seat, target = frame
    state.stack.pop()
    if move.arg == actions.NONE:
        removed = actions.HELD + state.pick_held_slot(target, actions.NONE)
    elif move.arg >= actions.HELD:
        removed = actions.HELD + state.pick_held_slot(target, move.arg - actions.HELD)
    else:
        removed = state.config.index_of_code[move.arg]
    state.strike(seat, MeteorHit(target, removed), [target])


def legal_steal(state: State, frame: Steal) -> list[Move]:
    out: list[Move] = []
    for seat in range(state.players):
        if seat != frame.seat:
            out += _held_targets(state, seat, actions.STEAL[seat], actions.STEAL_HIDDEN[seat])
    return out


def apply_steal(state: State, frame: Steal, move: Move) -> None:
    state.stack.pop()
    state.strike(frame.seat, StealHit(move.seat, state.pick_held_slot(move.seat, move.arg)), [move.seat])


def legal_replay(state: State, frame: Replay) -> list[Move]:
    return [actions.REPLAY[t] for t in sorted(set(state.action_discard)) if t != REACTIVATION]


def apply_replay(state: State, frame: Replay, move: Move) -> None:
    state.stack.pop()
    pile = state.action_discard
    i = len(pile) - 1 - pile[::-1].index(move.arg)
    del pile[i]
    pile.append(move.arg)                     # played, then back on top of the pile
    state.stack.append(Effect(frame.seat, move.arg))


def legal_defend(state: State, frame: Defend) -> list[Move]:
    if any(t == DEFENSE for t, _, _ in state.held[frame.seat]):
        return [actions.ALLOW, actions.DEFEND]
    return [actions.ALLOW]


def apply_defend(state: State, frame: Defend, move: Move) -> None:
    if move is actions.ALLOW:
        state.stack.pop()
        return
    target = frame.seat
    i = next(i for i, slot in enumerate(state.held[target]) if slot[0] == DEFENSE)
    state.take_held(target, i)
    state.action_discard.append(DEFENSE)
    while type(state.stack.pop()) is not Hit:    # the effect and the other targets' questions go
        pass


DECISIONS: dict[type, Decision] = {
    Turn: Decision("turn", legal_turn, apply_turn),
    TakeAction: Decision("take-action", legal_take_action, apply_take_action),
    Activate: Decision("activate", legal_activate, apply_activate),
    Drawn: Decision("drawn", legal_drawn, apply_drawn),
    Place: Decision("place", legal_place, apply_place),
    Reveal: Decision("reveal", legal_reveal, apply_reveal),
    StarChoice: Decision("star", legal_star, apply_star),
    Lines: Decision("lines", legal_lines, apply_lines),
    Top: Decision("top", legal_top, apply_top),
    KeepOfThree: Decision("keep", legal_keep_of_three, apply_keep_of_three),
    Hold: Decision("hold", legal_hold, apply_hold),
    LookChoice: Decision("look", legal_look, apply_look, LOOK),
    SwapPair: Decision("pair", legal_swap_pair, apply_swap_pair, SWAP_OTHER),
    SwapFirstPick: Decision("pick", legal_swap_first, apply_swap_first, SWAP_OTHER),
    SwapSecondPick: Decision("pick", legal_swap_second, apply_swap_second, SWAP_OTHER),
    OwnFirstPick: Decision("pick", legal_own_first, apply_own_first, SWAP_OWN),
    OwnSecondPick: Decision("pick", legal_own_second, apply_own_second, SWAP_OWN),
    MeteorTarget: Decision("meteor", legal_meteor_target, apply_meteor_target, METEOR),
    Steal: Decision("steal", legal_steal, apply_steal, THIEF),
    Replay: Decision("replay", legal_replay, apply_replay, REACTIVATION),
    Defend: Decision("defend", legal_defend, apply_defend),
}
# The driver asks for the legal moves after every step: straight from the class, one lookup.
LEGAL_MOVES = {kind: decision.legal for kind, decision in DECISIONS.items()}
