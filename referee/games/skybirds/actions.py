"""Skybirds actions: small immutable values whose ``str()`` is the documented notation.

Every action is a NamedTuple whose last field is a constant ``kind`` tag, so two actions of
different types never compare equal even when their payloads match (``take B1`` is not
``trade B1``), while equality and hashing stay C-speed tuples.

Notation (README.md has the full grammar):

- ``pass``: pass in a dogfight; also "done" in the trade-in and pre-campaign rounds.
- a squadron: its cards, then its tokens, then ``=V`` when a card is wild:
  ``5 5`` (a pair of 5s), ``G 2 2`` (Garros with two 2s), ``9`` (a medallion singleton),
  ``3 4 5 B2`` (a run), ``5 5 * A3 =5`` (a triple of 5s, one card wild, chosen next),
  ``6 6 A1`` (+1 medallion), ``8 8 B1``; once the wild card is chosen the squadron reads
  ``5 5 *7 A3 =5`` (the 7 played as a 5).
- ``wild 3`` / ``wild 2 4``: the cards that serve as the ``*`` of the squadron just announced.
- ``take B1`` / ``take +1`` / ``take AR``: the token taken on finishing a campaign.
- ``trade C1``: trade +1VP tokens in for a progression token between campaigns.
- ``A2>3`` / ``C3>1``: use a pre-campaign token to trade cards with seat 3 / seat 1.
- ``give 7`` / ``give G 4``: the card(s) handed over in such a trade.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from referee.games.core.errors import IllegalAction

from .data import AERODROME, DOGFIGHT_TOKENS, INDEX, MEDAL_BONUS, MEDALS, PRE_CAMPAIGN_TOKENS, TOKEN_NAMES

_ORDER = {name: i for i, name in enumerate(TOKEN_NAMES)}
_BONUS = {t.name: MEDAL_BONUS.get(t.effect, 0) for t in AERODROME}


def card_text(value: int) -> str:
    return "G" if value == 0 else str(value)


def canonical_tokens(names: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """Tokens in the Aerodrome's order: the one order a squadron's notation lists them in."""
    return tuple(sorted(names, key=_ORDER.__getitem__))


# Notation is asked for far more often than plays are created (every legal action of every
# position is listed by its string), and plays repeat: memoise both directions.
_MEMO_LIMIT = 100_000
_PLAY_TEXT: dict[Play, str] = {}
_PARSED: dict[str, Action] = {}


class Pass(NamedTuple):
    kind: str = "pass"

    def __str__(self) -> str:
        return "pass"


PASS = Pass()


class Play(NamedTuple):
    """A squadron. ``naturals`` are cards played at their printed value (0 = Garros),
    ``wilds`` the printed values of the cards played as wild once chosen, ``free`` the wild
    cards still to be chosen (a ``wild`` decision follows the announcement), ``hole`` the
    position a wild card fills in a run (0 otherwise). ``size``, ``value`` and ``medals`` are
    the squadron's size, value and medallions (wild cards bring none, so they are final)."""

    naturals: tuple[int, ...]
    wilds: tuple[int, ...]
    free: int
    tokens: tuple[str, ...]
    value: int
    hole: int
    size: int
    medals: int
    kind: str = "play"

    def __str__(self) -> str:
        text = _PLAY_TEXT.get(self)
        if text is None:
            if len(_PLAY_TEXT) > _MEMO_LIMIT:
                _PLAY_TEXT.clear()
            text = _PLAY_TEXT[self] = self._notation()
        return text

    def _notation(self) -> str:
        parts: list[str] = []
        wild = bool(self.wilds or self.free)
        if "B2" in self.tokens:
            for p in range(self.value, self.value + self.size):
                if p == self.hole:
                    parts.append("*" + str(self.wilds[0]) if self.wilds else "*")
                else:
                    parts.append(str(p))
        else:
            parts.extend(card_text(v) for v in self.naturals)
            parts.extend("*" + str(v) for v in self.wilds)
            parts.extend("*" for _ in range(self.free))
        parts.extend(self.tokens)
        if wild:
            parts.append("=" + str(self.value))
        return " ".join(parts)


class Wild(NamedTuple):
    """The cards (printed values, ascending) that fill the ``*`` slots of the pending squadron."""

    values: tuple[int, ...]
    kind: str = "wild"

    def __str__(self) -> str:
        return "wild " + " ".join(str(v) for v in self.values)


class Take(NamedTuple):
    """The token taken from one's Aerodrome on finishing; ``+1`` is a +1VP token."""

    token: str
    kind: str = "take"

    def __str__(self) -> str:
        return "take " + self.token


class Trade(NamedTuple):
    """Trade +1VP tokens in for a progression token (between campaigns)."""

    token: str
    kind: str = "trade"

    def __str__(self) -> str:
        return "trade " + self.token


class PreUse(NamedTuple):
    """Use a pre-campaign token (A2 or C3) to trade cards with seat ``target``."""

    token: str
    target: int
    kind: str = "use"

    def __str__(self) -> str:
        return f"{self.token}>{self.target}"


class Give(NamedTuple):
    """The cards (printed values, ascending, 0 = Garros) handed over in a pre-campaign trade."""

    cards: tuple[int, ...]
    kind: str = "give"

    def __str__(self) -> str:
        return "give " + " ".join(card_text(v) for v in self.cards)


Action = Pass | Play | Wild | Take | Trade | PreUse | Give

PLUS_ONE = "+1"
_CARD = re.compile(r"^(G|10|[1-9])$")
_WILD = re.compile(r"^\*(10|[1-9])?$")
_DECLARE = re.compile(r"^=(10|[1-9])$")
_PREUSE = re.compile(r"^([A-Z][0-9])>([0-9]+)$")
_GRAMMAR = (
    "expected 'pass', a squadron such as '5 5', 'G 2 2', '3 4 5 B2' or '5 5 * A3 =5', "
    "'wild 3', 'take B1', 'take +1', 'trade C1', 'A2>1' or 'give 7'"
)


def _bad(text: str, why: str) -> IllegalAction:
    return IllegalAction(f"skybirds: cannot read {text!r}: {why}; {_GRAMMAR} (see the skybirds README).")


def _card(text: str, word: str) -> int:
    if not _CARD.match(word):
        raise _bad(text, f"{word!r} is not a card (1 to 10, or G for Roland Garros)")
    return 0 if word == "G" else int(word)


def parse(text: str) -> Action:
    """The action written ``text``; memoised wrapper of :func:`parse_text`."""
    action = _PARSED.get(text)
    if action is None:
        action = parse_text(text)
        if len(_PARSED) > _MEMO_LIMIT:
            _PARSED.clear()
        _PARSED[text] = action
    return action


def parse_text(text: str) -> Action:
    """The action written ``text`` (syntax only: whether it is legal now is the state's call).

    Squadron tokens may be written in any order and set cards in any order; the result is
    the canonical action, so ``str(parse(t))`` is the canonical spelling of ``t``."""
    words = text.split()
    if not words:
        raise _bad(text, "it is empty")
    head = words[0]
    if head == "pass":
        if len(words) != 1:
            raise _bad(text, "'pass' takes nothing after it")
        return PASS
    if head in ("take", "trade"):
        if len(words) != 2:
            raise _bad(text, f"'{head}' needs exactly one token name")
        name = words[1]
        if name not in INDEX and not (head == "take" and name == PLUS_ONE):
            allowed = ", ".join(TOKEN_NAMES) + (", +1" if head == "take" else "")
            raise _bad(text, f"{name!r} is not a token (one of {allowed})")
        return Take(name) if head == "take" else Trade(name)
    if head in ("wild", "give"):
        if len(words) < 2:
            raise _bad(text, f"'{head}' needs at least one card")
        cards = tuple(sorted(_card(text, w) for w in words[1:]))
        if head == "wild":
            if 0 in cards:
                raise _bad(text, "Roland Garros is never a wild card")
            return Wild(cards)
        return Give(cards)
    match = _PREUSE.match(head)
    if match:
        if len(words) != 1:
            raise _bad(text, "a pre-campaign token use is written like 'A2>1' alone")
        if match.group(1) not in PRE_CAMPAIGN_TOKENS:
            raise _bad(text, f"{match.group(1)} is not a pre-campaign token ({', '.join(PRE_CAMPAIGN_TOKENS)})")
        return PreUse(match.group(1), int(match.group(2)))
    return _parse_squadron(text, words)


def _parse_squadron(text: str, words: list[str]) -> Play:
    items: list[tuple[str, int]] = []  # ("n", value) natural, ("w", value) named wild, ("f", 0) free wild
    tokens: list[str] = []
    declared = 0
    for word in words:
        if _CARD.match(word):
            items.append(("n", 0 if word == "G" else int(word)))
        elif _WILD.match(word):
            items.append(("w", int(word[1:])) if len(word) > 1 else ("f", 0))
        elif word in DOGFIGHT_TOKENS:
            if word in tokens:
                raise _bad(text, f"token {word} is listed twice (a token is used at most once per turn)")
            tokens.append(word)
        elif word in INDEX:
            raise _bad(text, f"token {word} is not a dogfight token")
        elif _DECLARE.match(word):
            if declared:
                raise _bad(text, "the value is declared twice")
            declared = int(word[1:])
        else:
            raise _bad(text, f"{word!r} is neither a card, a wild card ('*', '*9'), a token nor '=V'")
    if not items:
        raise _bad(text, "a squadron needs at least one card")
    canon = canonical_tokens(tokens)
    bonus = sum(_BONUS[t] for t in canon)
    wilds = tuple(sorted(v for k, v in items if k == "w"))
    free = sum(1 for k, _ in items if k == "f")
    naturals = tuple(sorted(v for k, v in items if k == "n"))
    if (wilds or free) and not declared:
        raise _bad(text, "a squadron with a wild card must declare its value ('=V')")
    if not (wilds or free) and declared:
        raise _bad(text, "'=V' is only written when a card is wild")
    medals = sum(MEDALS[v] for v in naturals) + bonus  # a wild card brings no medallion
    if "B2" in canon:
        if 0 in naturals:
            raise _bad(text, "Roland Garros never joins a run")
        if len(items) not in (2, 3):
            raise _bad(text, "a run has 2 or 3 cards")
        first = next((i for i, (k, _) in enumerate(items) if k == "n"), None)
        if first is None:
            raise _bad(text, "a run needs natural cards")
        start = items[first][1] - first
        hole = 0
        for i, (kind, value) in enumerate(items):
            if kind == "n" and value != start + i:
                raise _bad(text, "the cards of a run are written in order, consecutive values (e.g. '3 4 5 B2')")
            if kind != "n":
                if hole:
                    raise _bad(text, "a run has at most one wild card")
                hole = start + i
        if start < 1 or start + len(items) - 1 > 10:
            raise _bad(text, "a run's values stay within 1 to 10")
        if declared and declared != start:
            raise _bad(text, f"a run counts as its lowest value, {start}, so declare '={start}'")
        return Play(naturals, wilds, free, canon, start, hole, len(items), medals)
    printed = {v for v in naturals if v != 0}
    if len(printed) > 1:
        raise _bad(text, "the cards of a squadron share one value (a run needs the B2 token)")
    value = printed.pop() if printed else declared
    if declared and declared != value:
        raise _bad(text, f"the natural cards are {value}s, so the declared value must be ={value}")
    if not value and naturals != (0,):
        raise _bad(text, "Roland Garros needs another card of the squadron's value")
    return Play(naturals, wilds, free, canon, value, 0, len(items), medals)
