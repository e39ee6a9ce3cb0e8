"""Card model and the card data loader.

The cards live in ``data/*.json`` (one file per faction, plus mercenaries and events) so
the decks can be rebalanced without touching the rules. This module turns each entry into
an immutable :class:`Card`, checks the schema with messages that name the file and card,
and derives each trick's printed text from its parameters so the text on a card can never
drift from what the engine does with it (a test compares the two).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

SKILLS = ("sailing", "guns", "boarding")
SAILING, GUNS, BOARDING = 0, 1, 2
SKILL_INDEX = {name: i for i, name in enumerate(SKILLS)}
SKILL_TITLES = ("Sailing", "Guns", "Boarding")
# The Win Effect of the winner's skill (rulebook, Step 5): (winner Recovers, loser Discards).
WIN_EFFECT: tuple[tuple[int, int], ...] = (
    (2, 0),  # Sailing: the winner Recovers 2 cards
    (0, 2),  # Guns: the loser Discards 2 cards
    (1, 1),  # Boarding: the winner Recovers 1 card and the loser Discards 1 card
)

CARD_TYPES = ("captain", "officer", "crew", "support", "figurehead", "mercenary", "event")
FACTION_TYPES = ("captain", "officer", "crew", "support", "figurehead")

# When each trick kind is applied: "prepare" tricks are carried out before the counts of
# Step 3 (cards that move, limits on the opponent's count), once both skills are known; "zero" is
# the "Play 0 cards" trick, used by showing 0 fingers; "play" tricks are chosen with the
# card count and applied in Steps 4 and 5.
TRICK_STAGE = {
    "extra_bonus": "play",
    "bonus_vs_skills": "play",
    "defence_bonus": "play",
    "bonus_vs_cards": "play",
    "support": "play",
    "opp_penalty": "play",
    "capture": "play",
    "protect": "play",
    "recover": "play",
    "opp_discard": "play",
    "rig": "prepare",
    "opp_limit": "prepare",
    "play_zero": "zero",
}
TRICK_KINDS = tuple(TRICK_STAGE)
# Kinds that may come into play in the next round (their effect is about a skill total or
# the opponent's count, which next round has too).
NEXT_ROUND_KINDS = ("extra_bonus", "bonus_vs_skills", "support", "opp_penalty", "opp_limit")
# Kinds that count in Step 4 (Skill Totals and the Defence Bonus), before the round is won
# or lost: so they cannot depend on Win or Lose unless they are Next Round tricks.
STEP4_KINDS = ("extra_bonus", "bonus_vs_skills", "defence_bonus", "bonus_vs_cards", "support", "opp_penalty")
# Kinds used before Step 3, when no card is Played yet and the round is undecided.
BEFORE_PLAY_KINDS = tuple(kind for kind, stage in TRICK_STAGE.items() if stage != "play")
CONDITIONS = (None, "win", "lose", "lead")

EVENT_EFFECTS = {"discard": ("now",), "recover": ("now",), "bonus": ("this_round", "next_round"),
                 "limit": ("this_round",)}
DATA_DIR = Path(__file__).resolve().parent / "data"


class CardDataError(ValueError):
    """The card data files break their schema; the message names the file and the card."""


@dataclass(frozen=True, slots=True)
class Trick:
    """A card's trick. Only the fields its ``kind`` uses are set."""

    kind: str
    text: str
    magic: bool = False
    when: str | None = None         # None, "win", "lose" or "lead"
    when_skill: int = -1            # "Win (Guns):" -> GUNS; -1 when any skill will do
    next_round: bool = False
    top_right: str = ""             # the top-right notation of a Next Round trick
    amount: int = 0                 # bonuses and penalties
    skills: tuple[int, ...] = ()    # extra_bonus: the skills that get it
    skill: int = -1                 # the skill the player must use (bonus_vs_*, defence, support)
    versus: tuple[int, ...] = ()    # the opponent's skills that trigger it
    cards: int = 0                  # bonus_vs_cards: opp's count; opp_limit: the most opp may play
    positions: tuple[int, ...] = ()  # rig: deck positions (1 = Top Card)
    count: int = 0                  # recover / opp_discard: how many cards
    support: tuple[int, ...] = ()   # support: skills whose bonuses back ``skill``

    @property
    def stage(self) -> str:
        """A Next Round trick is chosen like any other at Step 3: its effect waits a round."""
        return "play" if self.next_round else TRICK_STAGE[self.kind]


@dataclass(frozen=True, slots=True)
class EventEffect:
    """What an Event does: compare a skill on the Top Cards, then ``taker`` applies it."""

    compare: int            # skill compared on the Top Cards
    taker: str              # "highest" or "lowest"
    effect: str             # discard, recover, bonus, limit
    amount: int
    timing: str             # now, this_round, next_round


@dataclass(frozen=True, slots=True)
class Card:
    """One card design. Copies in a deck share the same Card."""

    id: str
    name: str
    type: str
    faction: str
    cls: str
    level: int
    core: bool
    copies: int                      # copies in the core deck (0 for non-core cards)
    levels: tuple[int, int, int]     # skill levels, (Sailing, Guns, Boarding)
    bonuses: tuple[int, int, int]    # skill bonuses, same order
    shadow: bool
    trick: Trick | None
    event: EventEffect | None
    text: str

    @property
    def is_event(self) -> bool:
        return self.event is not None


@dataclass(frozen=True, slots=True)
class Faction:
    """A faction: its cards and what its core deck holds."""

    name: str
    title: str
    primary: int
    secondary: int
    default_mercenary: str
    cards: tuple[str, ...]           # every card id of the faction, core and not
    core_deck: tuple[str, ...]       # the 26 card ids of the core deck, copies repeated


# ----- trick text -------------------------------------------------------------------------
def _or_list(skills: tuple[int, ...], joiner: str = "or") -> str:
    names = [SKILL_TITLES[s] for s in skills]
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + f" {joiner} " + names[-1]


def _cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def trick_text(t: Trick) -> str:
    """The printed text of a trick, derived from its parameters (the card data's ``text``)."""
    nr = t.next_round
    if t.kind == "extra_bonus":
        body = f"+{t.amount} to your Skill Total"
        if len(t.skills) < 3:
            body += f" if you use {_or_list(t.skills)}"
        body += "."
    elif t.kind == "bonus_vs_skills":
        body = (f"+{t.amount} to your Skill Total if you use {SKILL_TITLES[t.skill]} "
                f"and Opp. uses {_or_list(t.versus)}.")
    elif t.kind == "defence_bonus":
        body = (f"If you Lose having used {SKILL_TITLES[t.skill]} against Opp.'s {_or_list(t.versus)}, "
                f"+{t.amount} to your Skill Total; if it now reaches Opp.'s, the Round is a draw.")
    elif t.kind == "bonus_vs_cards":
        body = f"+{t.amount} to your Skill Total if you use {SKILL_TITLES[t.skill]} and Opp. plays {_cards(t.cards)}."
    elif t.kind == "support":
        if len(t.support) == 3:
            body = f"{SKILL_TITLES[t.skill]} supported by all Skills."
        else:
            body = f"{SKILL_TITLES[t.skill]} supported by {_or_list(t.support, 'and')}."
    elif t.kind == "opp_penalty":
        body = f"Opp. -{t.amount} to their Skill Total."
    elif t.kind == "rig":
        pos = [str(p) for p in t.positions]
        body = "Rig cards " + (", ".join(pos[:-1]) + " and " + pos[-1]) + "."
    elif t.kind == "opp_limit":
        what = "their Top Card" if t.cards == 1 else _cards(t.cards)
        body = f"Opp. may Play only {what}" + ("." if nr else " this round.")
    elif t.kind == "play_zero":
        body = "You may Play 0 cards this round."
    elif t.kind == "capture":
        body = "Capture Opp. Top Card."
    elif t.kind == "protect":
        body = "Protect 1 card."
    elif t.kind == "recover":
        body = f"Recover {_cards(t.count)}."
    elif t.kind == "opp_discard":
        body = f"Opp. Discards {t.count} extra {'card' if t.count == 1 else 'cards'}."
    else:  # pragma: no cover - the loader rejects unknown kinds first
        raise CardDataError(f"unknown trick kind {t.kind!r}")
    prefix = ""
    if t.magic:
        prefix += "MAGIC - "
    if t.when is not None:
        prefix += t.when.capitalize()
        if t.when_skill >= 0:
            prefix += f" ({SKILL_TITLES[t.when_skill]})"
        prefix += ": "
    if nr:
        prefix += "Next Round: "
    return prefix + body


def event_text(e: EventEffect) -> str:
    who = f"{e.taker.capitalize()} {SKILL_TITLES[e.compare]}"
    if e.effect == "discard":
        what = f"Discards {_cards(e.amount)}"
    elif e.effect == "recover":
        what = f"Recovers {_cards(e.amount)}"
    elif e.effect == "bonus":
        what = f"+{e.amount} to their Skill Total " + ("next round" if e.timing == "next_round" else "this round")
    else:
        what = "may Play only their Top Card this round"
    return f"{who}: {what}."


# ----- loading ----------------------------------------------------------------------------
def _fail(source: str, card_id: str, message: str) -> CardDataError:
    return CardDataError(f"{source}, card {card_id!r}: {message}")


def _skill(source: str, cid: str, value: Any, what: str) -> int:
    if value not in SKILL_INDEX:
        raise _fail(source, cid, f"{what} must be one of {', '.join(SKILLS)}, not {value!r}")
    return SKILL_INDEX[value]


def _skills(source: str, cid: str, values: Any, what: str) -> tuple[int, ...]:
    if not isinstance(values, list) or not values:
        raise _fail(source, cid, f"{what} must be a non-empty list of skills")
    return tuple(_skill(source, cid, v, what) for v in values)


def _trick(source: str, cid: str, raw: Any) -> Trick:
    if not isinstance(raw, dict) or raw.get("kind") not in TRICK_STAGE:
        raise _fail(source, cid, f"trick must be an object whose kind is one of {', '.join(TRICK_KINDS)}")
    kind = raw["kind"]
    when = raw.get("when")
    if when not in CONDITIONS:
        raise _fail(source, cid, f"trick 'when' must be null, win, lose or lead, not {when!r}")
    when_skill = -1
    if raw.get("when_skill") is not None:
        if when not in ("win", "lose"):
            raise _fail(source, cid, "'when_skill' only qualifies a win or lose condition")
        when_skill = _skill(source, cid, raw["when_skill"], "when_skill")
    nr = bool(raw.get("next_round", False))
    top_right = raw.get("top_right", "")
    if nr != bool(top_right):
        raise _fail(source, cid, "a Next Round trick needs its 'top_right' notation, and only it has one")
    if nr and kind not in NEXT_ROUND_KINDS:
        raise _fail(source, cid, f"a Next Round trick must be one of {', '.join(NEXT_ROUND_KINDS)}")
    fields: dict[str, Any] = {}
    if kind in ("extra_bonus", "bonus_vs_skills", "defence_bonus", "bonus_vs_cards", "opp_penalty"):
        amount = raw.get("amount")
        if not isinstance(amount, int) or amount <= 0:
            raise _fail(source, cid, f"{kind} needs a positive integer 'amount'")
        fields["amount"] = amount
    if kind == "extra_bonus":
        fields["skills"] = _skills(source, cid, raw.get("skills"), "skills")
    if kind in ("bonus_vs_skills", "defence_bonus", "bonus_vs_cards", "support"):
        fields["skill"] = _skill(source, cid, raw.get("skill"), "skill")
    if kind in ("bonus_vs_skills", "defence_bonus"):
        fields["versus"] = _skills(source, cid, raw.get("versus"), "versus")
    if kind == "support":
        support = _skills(source, cid, raw.get("with"), "with")
        if fields["skill"] not in support:
            raise _fail(source, cid, "a support trick's 'with' must include its own skill")
        fields["support"] = support
    if kind in ("bonus_vs_cards", "opp_limit"):
        cards = raw.get("cards")
        low = 0 if kind == "bonus_vs_cards" else 1
        if not isinstance(cards, int) or not low <= cards <= 3:
            raise _fail(source, cid, f"{kind} needs 'cards' from {low} to 3")
        fields["cards"] = cards
    if kind == "rig":
        positions = raw.get("positions")
        if (not isinstance(positions, list) or len(positions) < 2 or positions != sorted(set(positions))
                or not all(isinstance(p, int) and 1 <= p <= 6 for p in positions)):
            raise _fail(source, cid, "rig needs 'positions': at least 2 increasing deck positions from 1 to 6")
        fields["positions"] = tuple(positions)
    if kind in ("recover", "opp_discard"):
        count = raw.get("count")
        if not isinstance(count, int) or count <= 0:
            raise _fail(source, cid, f"{kind} needs a positive integer 'count'")
        fields["count"] = count
    if kind == "capture":
        if raw.get("target") != "top":
            raise _fail(source, cid, "capture needs 'target': 'top' (the opponent's Top Card)")
        if when != "win":
            raise _fail(source, cid, "capture replaces the Win Effect, so its trick needs 'when': 'win'")
    if kind in BEFORE_PLAY_KINDS and raw.get("magic"):
        raise _fail(source, cid, f"{kind} is used before Step 3, when no card is Played yet: it cannot be Magic")
    if kind in STEP4_KINDS and when in ("win", "lose") and not nr:
        raise _fail(source, cid, f"{kind} counts in Step 4, before the round is won or lost: it cannot depend on "
                                 "Win or Lose (make it a Next Round trick)")
    if kind in BEFORE_PLAY_KINDS and when in ("win", "lose") and not nr:
        raise _fail(source, cid, f"{kind} happens before the round is decided: it cannot depend on Win or Lose")
    known = {"kind", "text", "magic", "when", "when_skill", "next_round", "top_right", "amount", "skills", "skill",
             "versus", "cards", "positions", "count", "with", "target"}
    extra = sorted(set(raw) - known)
    if extra:
        raise _fail(source, cid, f"unknown trick field {extra[0]!r}")
    trick = Trick(kind=kind, text="", magic=bool(raw.get("magic", False)), when=when, when_skill=when_skill,
                  next_round=nr, top_right=top_right, **fields)
    text = trick_text(trick)
    if raw.get("text", text) != text:
        raise _fail(source, cid, f"trick text {raw.get('text')!r} does not say what it does: {text!r}")
    return replace(trick, text=text)


def _card(source: str, faction: str, raw: Any) -> Card:
    if not isinstance(raw, dict) or not isinstance(raw.get("id"), str):
        raise CardDataError(f"{source}: every card needs a string 'id'")
    cid = raw["id"]
    ctype = raw.get("type")
    if ctype not in CARD_TYPES:
        raise _fail(source, cid, f"type must be one of {', '.join(CARD_TYPES)}")
    for key, kind in (("name", str), ("class", str), ("level", int), ("core", bool)):
        if not isinstance(raw.get(key), kind):
            raise _fail(source, cid, f"{key!r} must be {kind.__name__}")
    core = raw["core"]
    copies = raw.get("copies", 0)
    if ctype == "event":
        e = raw.get("event")
        if not isinstance(e, dict):
            raise _fail(source, cid, "an event needs an 'event' object")
        effect = e.get("effect")
        if effect not in EVENT_EFFECTS or e.get("timing") not in EVENT_EFFECTS[effect]:
            raise _fail(source, cid, f"event effect/timing must be one of {EVENT_EFFECTS}")
        if e.get("taker") not in ("highest", "lowest"):
            raise _fail(source, cid, "event 'taker' must be highest or lowest")
        if not isinstance(e.get("amount"), int) or e["amount"] <= 0:
            raise _fail(source, cid, "event 'amount' must be a positive integer")
        event = EventEffect(_skill(source, cid, e.get("compare"), "compare"), e["taker"], effect, e["amount"],
                            e["timing"])
        text = event_text(event)
        if raw.get("text", text) != text:
            raise _fail(source, cid, f"event text {raw.get('text')!r} does not say what it does: {text!r}")
        return Card(cid, raw["name"], ctype, "event", raw["class"], raw["level"], core, 0, (0, 0, 0), (0, 0, 0),
                    False, None, event, text)
    if core and ctype != "mercenary" and (not isinstance(copies, int) or copies < 1):
        raise _fail(source, cid, "a core card needs 'copies' (how many the core deck holds), at least 1")
    if not core and "copies" in raw:
        raise _fail(source, cid, "only core cards are in the core deck: drop 'copies'")
    skills = raw.get("skills")
    if not isinstance(skills, dict) or set(skills) != set(SKILLS):
        raise _fail(source, cid, "'skills' must map sailing, guns and boarding to [level, bonus]")
    levels: list[int] = []
    bonuses: list[int] = []
    for name in SKILLS:
        pair = skills[name]
        if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(v, int) and v >= 0 for v in pair)):
            raise _fail(source, cid, f"skills.{name} must be [level, bonus], two non-negative integers")
        levels.append(pair[0])
        bonuses.append(pair[1])
    trick = _trick(source, cid, raw.get("trick"))
    return Card(cid, raw["name"], ctype, faction, raw["class"], raw["level"], core, copies,
                (levels[0], levels[1], levels[2]), (bonuses[0], bonuses[1], bonuses[2]),
                bool(raw.get("shadow", False)), trick, None, trick.text)


def load(data_dir: Path = DATA_DIR) -> tuple[dict[str, Card], dict[str, Faction]]:
    """Read every data file: (cards by id, factions by name)."""
    cards: dict[str, Card] = {}
    factions: dict[str, Faction] = {}

    def add(card: Card, source: str) -> None:
        if card.id in cards:
            raise CardDataError(f"{source}: card id {card.id!r} is used twice")
        cards[card.id] = card

    for path in sorted(data_dir.glob("*.json")):
        source = path.name
        raw = json.loads(path.read_text(encoding="utf-8"))
        if path.stem == "events":
            for entry in raw["cards"]:
                add(_card(source, "event", entry), source)
        elif path.stem == "mercenaries":
            for entry in raw["cards"]:
                card = _card(source, "mercenary", entry)
                if card.type != "mercenary":
                    raise _fail(source, card.id, "mercenaries.json holds only mercenary cards")
                add(card, source)
        else:
            name = raw.get("faction")
            if name != path.stem:
                raise CardDataError(f"{source}: 'faction' must be {path.stem!r} (the file name)")
            ids: list[str] = []
            core: list[str] = []
            for entry in raw["cards"]:
                card = _card(source, name, entry)
                if card.type not in FACTION_TYPES:
                    raise _fail(source, card.id, f"a faction card's type is one of {', '.join(FACTION_TYPES)}")
                add(card, source)
                ids.append(card.id)
                core.extend([card.id] * card.copies)
            factions[name] = Faction(name, raw["title"], SKILL_INDEX[raw["primary"]], SKILL_INDEX[raw["secondary"]],
                                     raw["default_mercenary"], tuple(ids), tuple(core))
    for faction in factions.values():
        merc = cards.get(faction.default_mercenary)
        if merc is None or merc.type != "mercenary":
            raise CardDataError(f"{faction.name}.json: default_mercenary {faction.default_mercenary!r} is not a "
                                "mercenary card")
    return cards, factions


CARDS, FACTIONS = load()
EVENTS: tuple[str, ...] = tuple(cid for cid, c in CARDS.items() if c.is_event)
MERCENARIES: tuple[str, ...] = tuple(cid for cid, c in CARDS.items() if c.type == "mercenary")
