"""The pending steps of a Skyjo Action position, one named tuple per kind.

The state keeps a stack of these (see state.py). An automatic step runs as soon as it is on
top; a decision waits for its ``seat``. Each is immutable: a step that moves on replaces
itself on the stack. ``Hit`` carries what an effect on other players will do once no
Defense stopped it, as one of the ``*Hit`` payloads.

Every frame and payload is written in the state's snapshot as the plain tuple
``(name, *fields)`` of ``SNAPSHOT_NAMES`` (the form the stack had before it was named), so
the state hash, and with it every recorded replay and golden file, is unchanged.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .actions import CARDS, MAX_SEATS

# ----- automatic steps ----------------------------------------------------------------------


class Opening(NamedTuple):
    """After the setup reveals: find the first player (``first`` < 0: by the reveals), then
    the setup stars take action cards in turn order."""

    first: int


class Start(NamedTuple):
    """The first regular turn of the round, by ``seat``."""

    seat: int


class Next(NamedTuple):
    """Between two regular turns: the next player, the last turns, or the round's end."""


class SetupReveal(NamedTuple):
    """The setup reveals of one seat still to turn over, in order."""

    seat: int
    positions: tuple[int, ...]


class Refill(NamedTuple):
    """Single deck: an action card left ``position`` empty; the main deck refills it face up.
    ``then_placed`` (1) treats the new card as placed there (a turn's card), 0 as a reveal."""

    seat: int
    position: int
    then_placed: int


class Placed(NamedTuple):
    """A card was just placed or turned face up at ``position``."""

    seat: int
    position: int


class Check(NamedTuple):
    """Look for Skyjo lines where the bits of ``mask`` changed."""

    seat: int
    mask: int


class Draw(NamedTuple):
    """Draw from the main deck (an action card found there is kept or not, then draw again)."""

    seat: int


class DrawThree(NamedTuple):
    """Draw three: the cards drawn so far."""

    seat: int
    drawn: tuple[int, ...]


class ToDiscard(NamedTuple):
    """Cards going onto the main discard pile once the decision above it is taken."""

    seat: int
    cards: tuple[int, ...]


class Effect(NamedTuple):
    """The effect of an activated action card (played, replayed or stolen)."""

    seat: int
    card_type: int


class Meteor(NamedTuple):
    """Meteor shower: the other seats still to be targeted, in order."""

    seat: int
    queue: tuple[int, ...]


class Hit(NamedTuple):
    """An effect on other players, done when it reaches the top (no Defense stopped it)."""

    seat: int
    hit: AnyHit


# ----- decisions ---------------------------------------------------------------------------


class Turn(NamedTuple):
    """The turn's choice; ``extra`` (1) for an extra turn, which the round end cancels."""

    seat: int
    extra: int


class TakeAction(NamedTuple):
    """Take-action: the action deck or a card of the action row."""

    seat: int


class Activate(NamedTuple):
    """Activate: which held card to play or drop."""

    seat: int


class Drawn(NamedTuple):
    """After a draw: keep ``card`` or discard it."""

    seat: int
    card: int


class Place(NamedTuple):
    """Where to put ``card`` in the play area."""

    seat: int
    card: int


class Reveal(NamedTuple):
    """Which face-down card to turn over."""

    seat: int


class StarChoice(NamedTuple):
    """A star was placed or revealed: take an action-row card, or (unless ``must_take``, for
    the setup stars) pass."""

    seat: int
    must_take: int


class Lines(NamedTuple):
    """Skyjo lines formed where ``mask`` changed: clear one of ``codes`` or none."""

    seat: int
    mask: int
    codes: tuple[int, ...]


class Top(NamedTuple):
    """Which of ``cards`` ends on top of the main discard pile."""

    seat: int
    cards: tuple[int, ...]


class KeepOfThree(NamedTuple):
    """Draw three: keep one of ``cards`` or none."""

    seat: int
    cards: tuple[int, ...]


class Hold(NamedTuple):
    """An action card of ``card_type`` was found: hold it or discard it."""

    seat: int
    card_type: int


class LookChoice(NamedTuple):
    """Look: which row or column of which seat."""

    seat: int


class SwapPair(NamedTuple):
    """Swap with another player: the two players."""

    seat: int


class SwapFirstPick(NamedTuple):
    """Swap with another player: the card of ``first`` (``second`` is picked next)."""

    seat: int
    first: int
    second: int


class SwapSecondPick(NamedTuple):
    """Swap with another player: the card of ``second``, that of ``first`` being picked."""

    seat: int
    first: int
    first_position: int
    second: int


class OwnFirstPick(NamedTuple):
    """Swap your own cards: the first card."""

    seat: int


class OwnSecondPick(NamedTuple):
    """Swap your own cards: the second card, ``first_position`` being picked."""

    seat: int
    first_position: int


class MeteorTarget(NamedTuple):
    """Meteor shower: which card of ``target`` goes (a grid card or a held one)."""

    seat: int
    target: int


class Steal(NamedTuple):
    """Thief: whose held card, of which type."""

    seat: int


class Replay(NamedTuple):
    """Reactivation: which card of the action discard pile to play again."""

    seat: int


class Defend(NamedTuple):
    """The target ``seat`` of ``by``'s ``hit`` answers with Defense or lets it happen."""

    seat: int
    by: int
    hit: AnyHit


# ----- what an effect on other players does ------------------------------------------------


class SwapHit(NamedTuple):
    """Swap with another player: the two cards."""

    first: int
    first_position: int
    second: int
    second_position: int


class LookHit(NamedTuple):
    """Look: ``seat``'s line ``line_code``."""

    seat: int
    line_code: int


class MeteorHit(NamedTuple):
    """Meteor shower: ``target`` of ``seat`` (a grid position, or HELD + a held slot)."""

    seat: int
    target: int


class StealHit(NamedTuple):
    """Thief: ``seat``'s held card in ``slot``."""

    seat: int
    slot: int


AnyHit = SwapHit | LookHit | MeteorHit | StealHit
Frame = Any   # one of the frames above; the tables dispatch on its class

SNAPSHOT_NAMES: dict[type, str] = {
    Opening: "opening", Start: "start", Next: "next", SetupReveal: "sreveal", Refill: "refill",
    Placed: "placed", Check: "check", Draw: "draw", DrawThree: "three", ToDiscard: "todisc", Effect: "effect",
    Meteor: "meteor", Hit: "hit",
    Turn: "turn", TakeAction: "takeact", Activate: "activate", Drawn: "drawn", Place: "place", Reveal: "reveal",
    StarChoice: "star", Lines: "lines", Top: "top", KeepOfThree: "keep3", Hold: "hold", LookChoice: "look",
    SwapPair: "pair", SwapFirstPick: "pickA", SwapSecondPick: "pickB", OwnFirstPick: "own1",
    OwnSecondPick: "own2", MeteorTarget: "mtarget", Steal: "steal", Replay: "replay", Defend: "defend",
    SwapHit: "swap", LookHit: "look", MeteorHit: "meteor", StealHit: "steal",
}


# The frames every turn pushes, built once (as the actions are): a NamedTuple costs several
# times a plain tuple to construct, and a turn pushes half a dozen of them.
_SEATS = range(MAX_SEATS)
NEXT = Next()
REGULAR_TURN = tuple(Turn(seat, 0) for seat in _SEATS)
DRAW = tuple(Draw(seat) for seat in _SEATS)
REVEAL = tuple(Reveal(seat) for seat in _SEATS)
DRAWN = tuple({card: Drawn(seat, card) for card in CARDS} for seat in _SEATS)
PLACE = tuple({card: Place(seat, card) for card in CARDS} for seat in _SEATS)
PLACED = tuple(tuple(Placed(seat, p) for p in range(12)) for seat in _SEATS)
CHECK_ONE = tuple(tuple(Check(seat, 1 << p) for p in range(12)) for seat in _SEATS)


def _snapshot_repr(frame: Any) -> str:
    return repr((SNAPSHOT_NAMES[type(frame)], *frame))


for _kind in SNAPSHOT_NAMES:
    setattr(_kind, "__repr__", _snapshot_repr)   # noqa: B010 - a NamedTuple body cannot assign it
