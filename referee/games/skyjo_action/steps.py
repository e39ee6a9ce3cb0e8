"""The automatic steps of Skyjo Action: what happens between decisions, without asking.

Each runs when its frame is on top of the state's stack, and pops or replaces it (and may
push more steps or decisions). ``AUTOMATIC`` maps each frame class to its step.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from . import rules
from .actions import HELD
from .data import (
    ACTION0,
    DEFENSE,
    DOUBLE_MOVE,
    DRAW_THREE,
    EMPTY,
    LOOK,
    METEOR,
    REACTIVATION,
    STAR,
    SWAP_OTHER,
    SWAP_OWN,
    THIEF,
)
from .frames import (
    CHECK_ONE,
    DRAWN,
    Check,
    Draw,
    DrawThree,
    Effect,
    Frame,
    Hit,
    Hold,
    KeepOfThree,
    Lines,
    LookChoice,
    LookHit,
    Meteor,
    MeteorHit,
    MeteorTarget,
    Next,
    Opening,
    OwnFirstPick,
    Placed,
    Refill,
    Replay,
    SetupReveal,
    StarChoice,
    Start,
    Steal,
    SwapHit,
    SwapPair,
    ToDiscard,
    Turn,
)

if TYPE_CHECKING:
    from .state import SkyjoActionState as State

# The steps an activated action card pushes, bottom first: a table so every card's effect
# reads in one place. Meteor shower is not here because its step lists the other seats,
# which depends on the game's player count.
EFFECT_STEPS: dict[int, Callable[[int], tuple[Frame, ...]]] = {
    SWAP_OTHER: lambda seat: (SwapPair(seat),),
    SWAP_OWN: lambda seat: (OwnFirstPick(seat),),
    DRAW_THREE: lambda seat: (DrawThree(seat, ()),),
    LOOK: lambda seat: (LookChoice(seat),),
    DOUBLE_MOVE: lambda seat: (Turn(seat, 1), Turn(seat, 1)),    # two extra turns
    DEFENSE: lambda seat: (Turn(seat, 1),),                      # played on one's own turn: an extra turn
    REACTIVATION: lambda seat: (Replay(seat),),
    THIEF: lambda seat: (Steal(seat),),
}


def opening(state: State, frame: Opening) -> None:
    """After the setup reveals: the first player, then the setup stars take action cards
    in turn order."""
    state.stack.pop()
    players = state.players
    first = frame.first
    if first < 0:
        revealed = [[c for p, c in enumerate(state.cards[seat]) if (state.up[seat] >> p) & 1]
                    for seat in range(players)]
        tied = rules.opening_candidates(revealed)
        first = tied[0] if len(tied) == 1 else tied[state.draw_below("first-player", len(tied))]
    state.current = first
    state.stack.append(Start(first))
    if state.config.row_mode:
        for i in reversed(range(players)):
            seat = (first + i) % players
            up = state.up[seat]
            for p, card in enumerate(state.cards[seat]):
                if card == STAR and (up >> p) & 1:
                    state.stack.append(StarChoice(seat, 1))


def start(state: State, frame: Start) -> None:
    state.stack.pop()
    state.begin_turn(frame.seat)


def next_turn(state: State, frame: Next) -> None:
    """Between two regular turns: the next player, the last turns, or the round's end."""
    state.stack.pop()
    if state.decisions - state.round_start >= state.config.max_round_decisions:
        state.end_round(True)
    elif state.ender >= 0:
        if state.finals:
            seat = state.finals[0]
            state.finals = state.finals[1:]
            state.begin_turn(seat)
        else:
            state.end_round(False)
    else:
        state.begin_turn((state.current + 1) % state.players)


def setup_reveal(state: State, frame: SetupReveal) -> None:
    seat, positions = frame
    if not positions:
        state.stack.pop()
        return
    state.stack[-1] = SetupReveal(seat, positions[1:])
    p = positions[0]
    state.up[seat] |= 1 << p
    card = state.cards[seat][p]
    if card >= ACTION0:
        _found_action_card(state, seat, p, card, 0)


def _found_action_card(state: State, seat: int, position: int, card: int, then_placed: int) -> None:
    """Single deck: an action card turned over in a grid is kept or discarded by its
    owner, and a new card from the main deck replaces it face up."""
    state.cards[seat][position] = EMPTY
    state.up[seat] &= ~(1 << position)
    state.stack.append(Refill(seat, position, then_placed))
    state.stack.append(Hold(seat, card - ACTION0))


def refill(state: State, frame: Refill) -> None:
    seat, p, then_placed = frame
    state.stack.pop()
    card = state.pop_main_deck()
    if card is None:
        return
    state.cards[seat][p] = card
    state.up[seat] |= 1 << p
    state.forget(seat, 1 << p)
    if then_placed:
        state.stack.append(Placed(seat, p))
    elif card >= ACTION0:
        _found_action_card(state, seat, p, card, 0)


def placed(state: State, frame: Placed) -> None:
    """After a card was placed or turned face up: action card found, round end, Skyjo
    lines, and a star lets its owner take an action card (star first, then lines)."""
    seat, p = frame
    state.stack.pop()
    card = state.cards[seat][p]
    if card >= ACTION0:
        _found_action_card(state, seat, p, card, 1)
        return
    state.trigger_round_end(seat)
    state.stack.append(CHECK_ONE[seat][p])
    if card == STAR and state.config.row_mode:
        state.stack.append(StarChoice(seat, 0))


def check(state: State, frame: Check) -> None:
    """Skyjo lines formed where ``mask`` changed: the owner decides, and the step carries
    the clearable lines' codes so the decision's moves and view need not find them again
    (nothing changes the area while that decision is pending)."""
    seat, mask = frame
    state.stack.pop()
    lines = rules.clearable_lines(state.cards[seat], state.up[seat], state.config.lines, mask, state.lock[seat])
    if lines:
        state.stack.append(Lines(seat, mask, tuple(line.code for line in lines)))


def draw(state: State, frame: Draw) -> None:
    seat = frame.seat
    card = state.pop_main_deck()
    if card is None:
        state.stack.pop()
    elif card >= ACTION0:
        state.stack.append(Hold(seat, card - ACTION0))   # then draw again: the replacement
    else:
        state.stack[-1] = DRAWN[seat][card]


def draw_three(state: State, frame: DrawThree) -> None:
    seat, got = frame
    if len(got) == 3:
        state.stack[-1] = KeepOfThree(seat, got)
        return
    card = state.pop_main_deck()
    if card is None:
        state.stack[-1] = KeepOfThree(seat, got)
    elif card >= ACTION0:
        state.stack.append(Hold(seat, card - ACTION0))
    else:
        state.stack[-1] = DrawThree(seat, got + (card,))


def to_discard(state: State, frame: ToDiscard) -> None:
    state.stack.pop()
    state.to_discard(frame.seat, list(frame.cards))


def effect(state: State, frame: Effect) -> None:
    """The effect of an activated action card (played, replayed or stolen)."""
    seat, card_type = frame
    stack = state.stack
    stack.pop()
    if card_type == METEOR:
        players = state.players
        stack.append(Meteor(seat, tuple((seat + i) % players for i in range(1, players))))
        return
    stack.extend(EFFECT_STEPS[card_type](seat))


def meteor(state: State, frame: Meteor) -> None:
    seat, queue = frame
    if not queue:
        state.stack.pop()
        return
    state.stack[-1] = Meteor(seat, queue[1:])
    state.stack.append(MeteorTarget(seat, queue[0]))


def hit(state: State, frame: Hit) -> None:
    """An effect on other players that no Defense stopped."""
    seat, payload = frame
    state.stack.pop()
    if isinstance(payload, SwapHit):
        a, pa, b, pb = payload
        state.swap_cards(a, pa, b, pb)
        state.trigger_round_end(a)
        state.trigger_round_end(b)
        state.stack.append(Check(b, 1 << pb))
        state.stack.append(Check(a, 1 << pa))
    elif isinstance(payload, LookHit):
        other, code = payload
        state.known[seat * state.players + other] |= (state.config.line_by_code[code].mask
                                                      & state.face_down_mask(other))
    elif isinstance(payload, MeteorHit):
        other, target = payload
        if target >= HELD:
            card_type = state.take_held(other, target - HELD)
            state.discard.insert(0, ACTION0 + card_type)       # under the main discard pile, not replaced
        else:
            state.discard.insert(0, state.cards[other][target])
            card = state.pop_main_deck()
            state.cards[other][target] = EMPTY if card is None else card   # replacements enter face down
            state.up[other] &= ~(1 << target)
            state.forget(other, 1 << target)
    else:
        other, slot = payload
        card_type = state.take_held(other, slot)
        state.action_discard.append(card_type)
        state.stack.append(Effect(seat, card_type))


AUTOMATIC: dict[type, Callable[[Any, Any], None]] = {
    Opening: opening, Start: start, Next: next_turn, SetupReveal: setup_reveal, Refill: refill, Placed: placed,
    Check: check, Draw: draw, DrawThree: draw_three, ToDiscard: to_discard, Effect: effect, Meteor: meteor,
    Hit: hit,
}
