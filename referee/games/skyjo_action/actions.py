"""Skyjo Action actions: one immutable value per decision, its notation, and the parser.

Every decision of a turn is its own action (draw, then keep/discard, then where), so each
legal list stays small. Notation, one action per line (seats are 0-based, positions are a
column letter and a row number, ``A1`` top-left; lines are ``row 1``..``row 3`` and
``col A``..``col D``; cards are ``-2``..``12`` and ``*`` for a star)::

    draw | take-discard <pos> | take-action | activate    the turn's choice: the rulebook's
                                  three options, the first split by pile (the top card of the
                                  discard pile is exchanged with the card at <pos> at once)
    take deck | take <type>       take-action: the top card of the action deck, or that card
                                  from the action row
    play <type> | drop <type>     activate: play a held action card, or discard it without effect
    keep | discard                after draw: keep the drawn card, or discard it
    place <pos>                   put the card in hand at <pos> (the card there is discarded)
    reveal <pos>                  turn a face-down card of your play area face up
    star <type> | star pass       a star was placed or revealed: take an action-row card or not
    clear row <n> | clear col <L> | clear none      a Skyjo line formed: clear it or keep it
    top <card>                    which of the cards going to the main discard pile ends on top
    keep <card> | keep none       Draw three: keep one of the three cards, or none
    hold | discard                an action card was drawn from the main deck: keep it or not
    look <seat> row <n> | look <seat> col <L>       Look at a row or column
    between <a> <b>               Swap with another player: the two players (a < b)
    pick <seat> <pos>             a card chosen for a swap
    remove <seat> <pos> | remove <seat> held <type> | remove <seat> held hidden   Meteor shower
    steal <seat> <type> | steal <seat> hidden        Thief
    replay <type>                 Reactivation: the card played from the action discard pile
    defend | allow                a targeted player answers with Defense, or lets it happen

Every action object is built once at import time: producing legal actions is a table
lookup, and ``parse_move`` is a dictionary lookup with a precise diagnosis on failure.
"""

from __future__ import annotations

from typing import NamedTuple

from ..core.errors import MalformedAction
from .data import STAR, TYPE_INDEX, TYPE_NAMES, card_text, line_text, pos_text

MAX_SEATS = 10
NONE = -100          # the argument of "deck", "pass", "none" and "hidden"
HELD = 100           # remove <seat> held <type>: arg = HELD + type
LINE_CODES = (0, 1, 2, 10, 11, 12, 13)
CARDS = tuple(range(-2, 13)) + (STAR,)


class Move(NamedTuple):
    """One decision. ``verb`` names it; ``seat`` is the targeted seat (or -1); ``arg`` is a
    position code, line code, card, action type or NONE; ``text`` is the canonical notation."""

    verb: str
    seat: int
    arg: int
    text: str

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Move({self.text!r})"


TEXT: dict[str, Move] = {}


def _mk(verb: str, seat: int, arg: int, text: str) -> Move:
    move = Move(verb, seat, arg, text)
    TEXT[text.lower()] = move
    return move


def _word(verb: str) -> Move:
    return _mk(verb, -1, NONE, verb)


DRAW = _word("draw")
TAKE_DISCARD = tuple(_mk("take-discard", -1, code, f"take-discard {pos_text(code)}") for code in range(12))
DISCARD = _word("discard")
HOLD = _word("hold")
DEFEND = _word("defend")
ALLOW = _word("allow")
TAKE_ACTION = _word("take-action")
ACTIVATE = _word("activate")
KEEP_DRAWN = _word("keep")
TAKE_DECK = _mk("take", -1, NONE, "take deck")
TAKE = tuple(_mk("take", -1, t, f"take {name}") for t, name in enumerate(TYPE_NAMES))
PLAY = tuple(_mk("play", -1, t, f"play {name}") for t, name in enumerate(TYPE_NAMES))
DROP = tuple(_mk("drop", -1, t, f"drop {name}") for t, name in enumerate(TYPE_NAMES))
REPLAY = tuple(_mk("replay", -1, t, f"replay {name}") for t, name in enumerate(TYPE_NAMES))
PLACE = tuple(_mk("place", -1, code, f"place {pos_text(code)}") for code in range(12))
REVEAL = tuple(_mk("reveal", -1, code, f"reveal {pos_text(code)}") for code in range(12))
STAR_PASS = _mk("star", -1, NONE, "star pass")
STAR_TAKE = tuple(_mk("star", -1, t, f"star {name}") for t, name in enumerate(TYPE_NAMES))
CLEAR_NONE = _mk("clear", -1, NONE, "clear none")
CLEAR = {code: _mk("clear", -1, code, f"clear {line_text(code)}") for code in LINE_CODES}
TOP = {card: _mk("top", -1, card, f"top {card_text(card)}") for card in CARDS}
KEEP_NONE = _mk("keep", -1, NONE, "keep none")
KEEP = {card: _mk("keep", -1, card, f"keep {card_text(card)}") for card in CARDS}
LOOK = tuple({code: _mk("look", s, code, f"look {s} {line_text(code)}") for code in LINE_CODES}
             for s in range(MAX_SEATS))
BETWEEN = {(a, b): _mk("between", a, b, f"between {a} {b}")
           for a in range(MAX_SEATS) for b in range(a + 1, MAX_SEATS)}
PICK = tuple(tuple(_mk("pick", s, code, f"pick {s} {pos_text(code)}") for code in range(12))
             for s in range(MAX_SEATS))
REMOVE = tuple(tuple(_mk("remove", s, code, f"remove {s} {pos_text(code)}") for code in range(12))
               for s in range(MAX_SEATS))
REMOVE_HELD = tuple(tuple(_mk("remove", s, HELD + t, f"remove {s} held {name}") for t, name in enumerate(TYPE_NAMES))
                    for s in range(MAX_SEATS))
REMOVE_HIDDEN = tuple(_mk("remove", s, NONE, f"remove {s} held hidden") for s in range(MAX_SEATS))
STEAL = tuple(tuple(_mk("steal", s, t, f"steal {s} {name}") for t, name in enumerate(TYPE_NAMES))
              for s in range(MAX_SEATS))
STEAL_HIDDEN = tuple(_mk("steal", s, NONE, f"steal {s} hidden") for s in range(MAX_SEATS))


# ----- parsing -------------------------------------------------------------------------
POS, SEAT, TYPE, CARD, LINE = "<pos>", "<seat>", "<type>", "<card>", "<line>"
GRAMMAR: dict[str, tuple[tuple[str, ...], ...]] = {
    "draw": ((),),
    "take-discard": ((POS,),),
    "take-action": ((),),
    "activate": ((),),
    "take": (("deck",), (TYPE,)),
    "play": ((TYPE,),),
    "drop": ((TYPE,),),
    "place": ((POS,),),
    "discard": ((),),
    "reveal": ((POS,),),
    "star": (("pass",), (TYPE,)),
    "clear": (("none",), (LINE,)),
    "top": ((CARD,),),
    "keep": ((), ("none",), (CARD,)),
    "hold": ((),),
    "look": ((SEAT, LINE),),
    "between": ((SEAT, SEAT),),
    "pick": ((SEAT, POS),),
    "remove": ((SEAT, POS), (SEAT, "held", TYPE), (SEAT, "held", "hidden")),
    "steal": ((SEAT, TYPE), (SEAT, "hidden")),
    "replay": ((TYPE,),),
    "defend": ((),),
    "allow": ((),),
}
_EXPLAIN = {
    POS: "a position: column A-D and row 1-3, like B2",
    SEAT: f"a seat number 0-{MAX_SEATS - 1}",
    TYPE: "an action card type (" + ", ".join(TYPE_NAMES) + ")",
    CARD: "a card: -2..12 or * for a star",
    LINE: "a line: 'row 1'..'row 3' or 'col A'..'col D'",
}


def usage(verb: str) -> str:
    """The accepted forms of a verb, for error messages and the README."""
    return " | ".join(" ".join((verb,) + form).replace(LINE, "row <n>|col <L>") for form in GRAMMAR[verb])


def _token_ok(kind: str, tokens: list[str], i: int) -> int:
    """How many tokens the grammar element ``kind`` consumes at ``i`` (0 = no match)."""
    if i >= len(tokens):
        return 0
    tok = tokens[i]
    if kind == POS:
        return 1 if len(tok) == 2 and tok[0] in "abcd" and tok[1] in "123" else 0
    if kind == SEAT:
        return 1 if tok.isdigit() and int(tok) < MAX_SEATS else 0
    if kind == TYPE:
        return 1 if tok in TYPE_INDEX else 0
    if kind == CARD:
        return 1 if tok == "*" or tok in {str(v) for v in range(-2, 13)} else 0
    if kind == LINE:
        if i + 1 < len(tokens) and ((tok == "row" and tokens[i + 1] in "123" and len(tokens[i + 1]) == 1)
                                    or (tok == "col" and tokens[i + 1] in "abcd" and len(tokens[i + 1]) == 1)):
            return 2
        return 0
    return 1 if tok == kind else 0


def parse_move(text: str) -> Move:
    """The action written ``text`` (case and spacing are forgiven), or MalformedAction
    saying what is wrong with it. Legality is the state's business, not this function's."""
    key = " ".join(text.split()).lower()
    move = TEXT.get(key)
    if move is not None:
        return move
    tokens = key.split()
    if not tokens:
        raise MalformedAction("skyjo-action: empty action; write e.g. 'draw', 'place B2' or 'play look'.")
    verb, rest = tokens[0], tokens[1:]
    if verb not in GRAMMAR:
        raise MalformedAction(
            f"skyjo-action: {text!r}: unknown verb {verb!r}; the verbs are " + ", ".join(GRAMMAR) + ".")
    # Each form of the verb fails at some token: report what the forms that got furthest
    # expected there.
    failures: list[tuple[int, str, str]] = []
    for form in GRAMMAR[verb]:
        i = 0
        for element in form:
            took = _token_ok(element, rest, i)
            if not took:
                got = " ".join(rest[i:i + 2]) if element == LINE else (rest[i] if i < len(rest) else "nothing")
                failures.append((i, _EXPLAIN.get(element, repr(element)), got))
                break
            i += took
        else:
            if i < len(rest):
                failures.append((i, "nothing more", " ".join(rest[i:])))
            else:
                failures.append((i + 1, "", ""))      # complete: only 'between' with bad seats gets here
    furthest = max(f[0] for f in failures)
    wanted = [f for f in failures if f[0] == furthest]
    if not wanted[0][1]:
        best = "list the lower seat first, and two different seats (e.g. 'between 0 2')"
    else:
        expected = " or ".join(dict.fromkeys(f[1] for f in wanted))
        best = f"expected {expected}, got {wanted[0][2]!r}"
    raise MalformedAction(f"skyjo-action: {text!r} is not valid notation: {best}. Form: {usage(verb)}.")
