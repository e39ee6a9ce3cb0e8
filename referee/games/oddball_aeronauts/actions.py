"""Actions and their text notation.

Four kinds of decision, each a small immutable value whose ``str()`` is the notation:

    announce := skill [" rig " old ("," old)+ | " limit"]     Step 2 (Lead first)
    skill    := "sailing" | "guns" | "boarding"
    play     := "play 0" | "play " cards [" trick " n]        Step 3 (both seats at once)
    cards    := "1" | "1+2" | "1+3" | "1+2+3"
    protect  := "protect " n                                 Step 5, a Protect trick
    capture  := "capture top" | "capture deck"               Step 5, a Capture trick

Tricks that act before Step 3 ride on the skill announcement: ``guns rig 3,1,2`` uses a
"Rig cards 1, 2 and 3" Top Card so that positions 1, 2, 3 now hold the cards that were at
3, 1, 2; ``boarding limit`` uses an "Opp. may Play only their Top Card" trick. In ``play``,
the numbers are deck positions (1 = Top Card) and ``trick n`` uses the trick of card n: 1
is the Top Card's trick, 2 or 3 a Magic trick of that (Played) card.

Actions are interned: the parser and the engine hand out the same objects, so the legal
lists are cheap to build and membership tests hit identity first.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ..core import IllegalAction
from .cards import SKILL_INDEX, SKILLS


class Announce(NamedTuple):
    """Step 2: the announced skill, with a Rig (new order of the rigged positions) or a limit."""

    skill: int
    rig: tuple[int, ...] = ()
    limit: bool = False

    def __str__(self) -> str:
        text = SKILLS[self.skill]
        if self.rig:
            text += " rig " + ",".join(str(p) for p in self.rig)
        if self.limit:
            text += " limit"
        return text


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


Action = Announce | Play | Protect | Capture

CARD_SETS: tuple[tuple[int, ...], ...] = ((1,), (1, 2), (1, 3), (1, 2, 3))
PLAY_ZERO = Play(())
_PLAYS: dict[tuple[tuple[int, ...], int], Play] = {((), 0): PLAY_ZERO}
for _cards in CARD_SETS:
    for _trick in (0, *_cards):
        _PLAYS[(_cards, _trick)] = Play(_cards, _trick)
PROTECTS = {p: Protect(p) for p in (1, 2, 3)}
CAPTURES = {p: Capture(p) for p in ("top", "deck")}
_ANNOUNCES: dict[tuple[int, tuple[int, ...], bool], Announce] = {}


def play(cards: tuple[int, ...], trick: int = 0) -> Play:
    return _PLAYS[(cards, trick)]


def announce(skill: int, rig: tuple[int, ...] = (), limit: bool = False) -> Announce:
    key = (skill, rig, limit)
    action = _ANNOUNCES.get(key)
    if action is None:
        action = _ANNOUNCES[key] = Announce(skill, rig, limit)
    return action


_SKILL_RE = re.compile(r"^(sailing|guns|boarding)(?: rig ([1-6](?:,[1-6])+)| (limit))?$")
_PLAY_RE = re.compile(r"^play (0|1(?:\+[23]){0,2})(?: trick ([123]))?$")


def parse(text: str) -> Action:
    """The action written ``text`` (whitespace and case are forgiven); IllegalAction saying
    what is malformed otherwise. Whether it is legal now is the state's business."""
    norm = " ".join(text.strip().lower().split())
    norm = re.sub(r"\s*([,+])\s*", r"\1", norm)
    m = _SKILL_RE.match(norm)
    if m:
        rig: tuple[int, ...] = ()
        if m.group(2):
            rig = tuple(int(p) for p in m.group(2).split(","))
            if len(set(rig)) != len(rig):
                raise IllegalAction(f"oddball-aeronauts: {text!r}: a rig lists each rigged position once "
                                    "(e.g. 'guns rig 3,1,2').")
        return announce(SKILL_INDEX[m.group(1)], rig, bool(m.group(3)))
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
        hint = "a skill may be followed by 'rig A,B[,C]' or 'limit' (e.g. 'guns', 'sailing rig 3,1,2')"
    elif first == "play":
        hint = "write 'play 0', 'play 1', 'play 1+2', 'play 1+3' or 'play 1+2+3', optionally ' trick N'"
    else:
        hint = ("actions are a skill ('sailing', 'guns', 'boarding'), 'play ...', 'protect N' or "
                "'capture top|deck'")
    raise IllegalAction(f"oddball-aeronauts: cannot read {text!r}: {hint}.")
