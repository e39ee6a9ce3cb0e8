"""Actions and their text notation.

Six kinds of decision, each a small immutable value whose ``str()`` is the notation:

    announce := "sailing" | "guns" | "boarding"              Step 2 (Lead first)
    prepare  := "ready" | "rig " old ("," old)+ | "limit"    start of Step 3 (both at once)
    play     := "play 0" | "play " cards [" trick " n]        Step 3 (both seats at once)
    cards    := "1" | "1+2" | "1+3" | "1+2+3"
    protect  := "protect " n                                 Step 5, a Protect trick
    capture  := "capture top" | "capture deck"               Step 5, a Capture trick
    discard  := "discard " k ("," k)+                        several cards go down together

Tricks that act before the counts are chosen once both skills are known: ``rig 3,1,2``
uses a "Rig cards 1, 2 and 3" Top Card so that positions 1, 2, 3 now hold the cards that
were at 3, 1, 2; ``limit`` announces an "Opp. may Play only their Top Card" trick;
``ready`` uses neither. In ``play``, the numbers are deck positions (1 = Top Card) and
``trick n`` uses the trick of card n: 1 is the Top Card's trick, 2 or 3 a Magic trick of
that (Played) card. In ``discard``, the cards going down together are numbered in deck
order (1 = the topmost of them) and listed in the order they go down: the first listed is
the first of them a later Recover brings back.

Actions are interned: the parser and the engine hand out the same objects, so the legal
lists are cheap to build and membership tests hit identity first.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ..core import IllegalAction
from .cards import SKILL_INDEX, SKILLS


class Announce(NamedTuple):
    """Step 2: the announced skill."""

    skill: int

    def __str__(self) -> str:
        return SKILLS[self.skill]


class Prepare(NamedTuple):
    """The start of Step 3, both skills known: a Rig (new order of the rigged positions), an
    Opp. limit, or neither (``ready``)."""

    rig: tuple[int, ...] = ()
    limit: bool = False

    def __str__(self) -> str:
        if self.rig:
            return "rig " + ",".join(str(p) for p in self.rig)
        return "limit" if self.limit else "ready"


class Play(NamedTuple):
    """Step 3: the deck positions Played (() = 0 cards) and whose trick is used (0 = none)."""

    cards: tuple[int, ...]
    trick: int = 0

    def __str__(self) -> str:
        if not self.cards:
            return "play 0"
        text = "play " + "+".join(str(p) for p in self.cards)
        if self.trick:
            text += f" trick {self.trick}"
        return text


class Protect(NamedTuple):
    """Step 5: which Played card (by its position this round) becomes next round's Top Card."""

    position: int

    def __str__(self) -> str:
        return f"protect {self.position}"


class Capture(NamedTuple):
    """Step 5: where the captured card goes: ``top`` (next round's Top Card) or ``deck``
    (as if just Recovered)."""

    place: str

    def __str__(self) -> str:
        return f"capture {self.place}"


class Discard(NamedTuple):
    """Several cards go down together: their positions among them (1 = the topmost, in deck
    order), in the order they go down (the first listed is Recovered first)."""

    order: tuple[int, ...]

    def __str__(self) -> str:
        return "discard " + ",".join(str(k) for k in self.order)


Action = Announce | Prepare | Play | Protect | Capture | Discard

CARD_SETS: tuple[tuple[int, ...], ...] = ((1,), (1, 2), (1, 3), (1, 2, 3))
PLAY_ZERO = Play(())
_PLAYS: dict[tuple[tuple[int, ...], int], Play] = {((), 0): PLAY_ZERO}
for _cards in CARD_SETS:
    for _trick in (0, *_cards):
        _PLAYS[(_cards, _trick)] = Play(_cards, _trick)
PROTECTS = {p: Protect(p) for p in (1, 2, 3)}
CAPTURES = {p: Capture(p) for p in ("top", "deck")}
ANNOUNCES = tuple(Announce(skill) for skill in range(len(SKILLS)))
READY = Prepare()
LIMIT = Prepare((), True)
_RIGS: dict[tuple[int, ...], Prepare] = {}
_DISCARDS: dict[tuple[int, ...], Discard] = {}


def play(cards: tuple[int, ...], trick: int = 0) -> Play:
    return _PLAYS[(cards, trick)]


def rig(order: tuple[int, ...]) -> Prepare:
    action = _RIGS.get(order)
    if action is None:
        action = _RIGS[order] = Prepare(order)
    return action


def discard(order: tuple[int, ...]) -> Discard:
    action = _DISCARDS.get(order)
    if action is None:
        action = _DISCARDS[order] = Discard(order)
    return action


_RIG_RE = re.compile(r"^rig ([1-6](?:,[1-6])+)$")
_DISCARD_RE = re.compile(r"^discard ([1-9](?:,[1-9])+)$")
_PLAY_RE = re.compile(r"^play (0|1(?:\+[23]){0,2})(?: trick ([123]))?$")


def parse(text: str) -> Action:
    """The action written ``text`` (whitespace and case are forgiven); IllegalAction saying
    what is malformed otherwise. Whether it is legal now is the state's business."""
    norm = " ".join(text.strip().lower().split())
    norm = re.sub(r"\s*([,+])\s*", r"\1", norm)
    if norm in SKILL_INDEX:
        return ANNOUNCES[SKILL_INDEX[norm]]
    if norm == "ready":
        return READY
    if norm == "limit":
        return LIMIT
    m = _RIG_RE.match(norm)
    if m:
        order = tuple(int(p) for p in m.group(1).split(","))
        if len(set(order)) != len(order):
            raise IllegalAction(f"oddball-aeronauts: {text!r}: a rig lists each rigged position once "
                                "(e.g. 'rig 3,1,2').")
        return rig(order)
    m = _DISCARD_RE.match(norm)
    if m:
        order = tuple(int(p) for p in m.group(1).split(","))
        if sorted(order) != list(range(1, len(order) + 1)):
            raise IllegalAction(f"oddball-aeronauts: {text!r}: list each card going down once, numbered 1 "
                                f"to {len(order)} (e.g. 'discard 2,1').")
        return discard(order)
    m = _PLAY_RE.match(norm)
    if m:
        cards = () if m.group(1) == "0" else tuple(int(p) for p in m.group(1).split("+"))
        trick = int(m.group(2) or 0)
        if cards and (list(cards) != sorted(set(cards))):
            raise IllegalAction(f"oddball-aeronauts: {text!r}: list Played positions once, in order "
                                "(1, 1+2, 1+3 or 1+2+3).")
        if not cards and trick:
            raise IllegalAction(f"oddball-aeronauts: {text!r}: 'play 0' uses its own trick; write just 'play 0'.")
        if trick and trick not in cards:
            raise IllegalAction(f"oddball-aeronauts: {text!r}: a Magic trick is used only on a Played card; "
                                f"play card {trick} too (e.g. 'play 1+{trick} trick {trick}').")
        return _PLAYS[(cards, trick)]
    if norm.startswith("protect "):
        rest = norm[len("protect "):]
        if rest in ("1", "2", "3"):
            return PROTECTS[int(rest)]
        raise IllegalAction(f"oddball-aeronauts: {text!r}: write 'protect N' with N the Played card's position 1-3.")
    if norm.startswith("capture"):
        place = norm[len("capture"):].strip()
        if place in CAPTURES:
            return CAPTURES[place]
        raise IllegalAction(f"oddball-aeronauts: {text!r}: write 'capture top' or 'capture deck'.")
    first = norm.split(" ")[0] if norm else ""
    if first in SKILLS:
        hint = ("a skill is announced alone ('guns'); a Rig or a limit comes once both skills are known: "
                "'rig 3,1,2', 'limit' or 'ready'")
    elif first == "rig":
        hint = "write 'rig A,B[,C]': the positions that now hold the rigged cards' old positions"
    elif first == "discard":
        hint = "write 'discard 2,1' (the cards going down, numbered in deck order, in the order they go down)"
    elif first == "play":
        hint = "write 'play 0', 'play 1', 'play 1+2', 'play 1+3' or 'play 1+2+3', optionally ' trick N'"
    else:
        hint = ("actions are a skill ('sailing', 'guns', 'boarding'), 'ready', 'rig ...', 'limit', "
                "'play ...', 'protect N', 'capture top|deck' or 'discard ...'")
    raise IllegalAction(f"oddball-aeronauts: cannot read {text!r}: {hint}.")
