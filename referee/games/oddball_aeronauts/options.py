"""Options: factions, deck lists, the rulings, the safety bound and ``setup``.

Every ruling of RULINGS.md (and each one this engine had to decide) is an option whose
default is the ruling, so a season can change it.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..core import OptionSpec
from ..core.setup_fields import SetupFields
from .cards import CARDS, FACTIONS
from .decks import DeckError, validate_deck

GAME = "oddball-aeronauts"
MAX_ROUNDS_LIMIT = 500
DEFAULT_MAX_ROUNDS = 200
# At most per round: 2 announcements, 1 joint Rig/limit choice, 2 card counts, 1 capture,
# 2 protects, and 5 Discard orders (a Step 1 Event's Discards; in Step 5 each seat's
# Played cards and the Win Effect's and tricks' Discards).
DECISIONS_PER_ROUND = 13

OPTIONS = (
    OptionSpec("factions", None,
               "The faction of each seat, e.g. [\"pirates\", \"pendragon\"]; null: Pendragon (seat 0) vs Pirates "
               "(seat 1), or the factions of the deck lists.", object),
    OptionSpec("decks", None,
               "A deck list per seat for Deck Crafting, e.g. [[card ids...], null]; null plays the core deck plus "
               "the faction's default Mercenary. Lists are checked against rules A-E.", object),
    OptionSpec("first_lead", "coin",
               "Ruling: the first Lead (Rock, Paper, Scissors) is a seeded coin flip; or always seat 0 / seat 1.",
               str, choices=("coin", "seat0", "seat1")),
    OptionSpec("simultaneous_counts", True,
               "Ruling: both seats choose their card count before either is revealed; false: the Lead shows first.",
               bool),
    OptionSpec("draw_keeps_lead", True, "Ruling: a drawn round keeps the Lead; false: the Lead passes.", bool),
    OptionSpec("events_only_is_out", True,
               "Ruling: a player whose face-up cards are only Events counts as having no cards.", bool),
    OptionSpec("defence_tie", "draw",
               "Ruling: a Defence Bonus that brings the loser level with the winner makes the round a draw; "
               "'lose': only passing the winner does.", str, choices=("draw", "lose")),
    OptionSpec("max_rounds", DEFAULT_MAX_ROUNDS,
               "Safety bound: after this many rounds the game ends and more face-up cards wins (equal: draw).",
               int, minimum=1, maximum=MAX_ROUNDS_LIMIT),
    OptionSpec("setup", None,
               "Fixes both decks card by card: {\"seats\": [{\"up\": [ids, Top Card first], \"down\": [ids, next to "
               "Recover first]}, {...}], \"lead\": 0 or 1, \"box\": [Event ids]} (see the README).", object),
)


# Reads ``setup`` and refuses contradictory options, in the same words.
FIELDS = SetupFields(f"{GAME}: {{}}")


def check_options(players: int, options: dict[str, Any]) -> None:
    """Reject bad or contradictory options with the fix in the message."""
    factions = options.get("factions")
    if factions is not None and (not isinstance(factions, (list, tuple)) or len(factions) != 2
            or not all(isinstance(f, str) and f in FACTIONS for f in factions)):
        raise FIELDS.error(f"option 'factions' must list one faction per seat, each one of "
                           f"{', '.join(sorted(FACTIONS))}, e.g. [\"pendragon\", \"pirates\"]; got {factions!r}.")
    decks = options.get("decks")
    setup = options.get("setup")
    if decks is not None:
        if not isinstance(decks, (list, tuple)) or len(decks) != 2:
            raise FIELDS.error("option 'decks' must hold one entry per seat: a deck list (card ids) or null, "
                               "e.g. [[\"pendragon/royal-cannoneer\", ...], null].")
        for seat, deck in enumerate(decks):
            if deck is None:
                continue
            try:
                faction = validate_deck(deck)
            except DeckError as exc:
                raise FIELDS.error(f"the deck list of seat {seat} is not a legal deck: {exc}.") from None
            if factions is not None and factions[seat] != faction:
                raise FIELDS.error(f"seat {seat}'s deck list is a {faction} deck but option 'factions' says "
                                   f"{factions[seat]!r}; set factions[{seat}] to {faction!r} or drop 'factions'.")
        if setup is not None:
            raise FIELDS.error("'setup' fixes both decks card by card, so 'decks' cannot be used with it; "
                               "drop one of them.")
    if setup is not None:
        check_setup(setup, options)


def check_setup(setup: Any, options: dict[str, Any]) -> None:
    if not isinstance(setup, dict):
        raise FIELDS.error("option 'setup' must be an object: {\"seats\": [{\"up\": [...], \"down\": [...]}, {...}], "
                           "\"lead\": 0}.")
    FIELDS.known_keys(setup, ("seats", "lead", "box"), "setup: ")
    seats = setup.get("seats")
    if not isinstance(seats, list) or len(seats) != 2 or not all(isinstance(s, dict) for s in seats):
        raise FIELDS.error("setup 'seats' must be a list of two objects, one per seat, each with 'up' and 'down' "
                           "card lists.")
    events: Counter[str] = Counter()
    for seat, entry in enumerate(seats):
        FIELDS.known_keys(entry, ("up", "down"), f"setup seat {seat}: ")
        for key in ("up", "down"):
            ids = entry.get(key, [])
            if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
                raise FIELDS.error(f"setup seat {seat} '{key}' must be a list of card ids.")
            for cid in ids:
                if cid not in CARDS:
                    raise FIELDS.error(f"setup seat {seat} '{key}': unknown card id {cid!r} (see the data files).")
                if CARDS[cid].is_event:
                    events[cid] += 1
        if not entry.get("up"):
            raise FIELDS.error(f"setup seat {seat} needs at least one face-up card in 'up'.")
    box = setup.get("box")
    if box is not None:
        if not isinstance(box, list) or not all(isinstance(b, str) and b in CARDS and CARDS[b].is_event for b in box):
            raise FIELDS.error("setup 'box' must be a list of Event card ids (the Events left in the box).")
        events.update(box)
    twice = [e for e, n in events.items() if n > 1]
    if twice:
        raise FIELDS.error(f"setup uses the Event {twice[0]!r} twice; each Event exists once.")
    lead = setup.get("lead")
    if lead is not None:
        if lead not in (0, 1) or isinstance(lead, bool):
            raise FIELDS.error("setup 'lead' must be 0 or 1 (the seat holding the Lead token).")
        rule = options["first_lead"]
        if rule != "coin" and rule != f"seat{lead}":
            raise FIELDS.error(f"setup says seat {lead} has the Lead but option first_lead is {rule!r}; "
                               "drop one of them.")
