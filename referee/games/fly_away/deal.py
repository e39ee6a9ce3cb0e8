"""The initial deal, at random or fixed by ``options["setup"]`` (format in README.md).

Everything the setup leaves out is dealt at random from what it leaves over, through the
state's recorded chance helpers, so a partial setup is still a fair, replayable game.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from ..core.setup_fields import SetupFields
from .data import PENALTIES, SCORING_INDEX, SCORING_PILES, SCORING_TYPES, TYPE_OF, deck_for
from .geometry import SLOT_COUNT, anchors_for, is_connected
from .rules import EMPTY, KEEP, SWAPS, begin_play, complete_formations, display_mask_of, refill_display

if TYPE_CHECKING:
    from .state import FlyAwayState

GAME = "fly-away"
SETUP_KEYS = ("deck", "display", "scoring", "kept", "penalties", "formations", "penalties_taken", "lead", "to_move")
FIELDS = SetupFields(f"{GAME}: option 'setup': {{}} (the format is in referee/games/fly_away/README.md).")


def keep_sizes(options: dict[str, Any]) -> tuple[int, ...]:
    """How many scoring cards a seat may keep under the ``scoring_cards`` option."""
    return {"keep-three": (3,), "first-game": (3, 2), "all-four": (4,)}[options["scoring_cards"]]


def _seat_lists(setup: dict[str, Any], key: str, players: int) -> list[list[Any]] | None:
    value = setup.get(key)
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != players or not all(isinstance(v, list) for v in value):
        raise FIELDS.error(f"'{key}' must be a list of {players} lists, one per seat")
    return value


def _seat(setup: dict[str, Any], key: str, players: int, default: int) -> int:
    return FIELDS.seat(setup[key], f"'{key}'", players) if key in setup else default


def deal(state: FlyAwayState) -> None:
    """Fill every field of a new state: the deal, then the first phase."""
    players = state.players
    options = state.options
    setup = options.get("setup")
    if setup is None:
        setup = {}
    elif not isinstance(setup, dict):  # [], 0, "" and false too: only null means "no setup"
        raise FIELDS.error(f"must be a JSON object (or null for a random deal), not {setup!r}")
    FIELDS.known_keys(setup, SETUP_KEYS)

    allowed = set(deck_for(players))
    seen: set[int] = set()

    def bird(value: Any, where: str) -> int:
        card = FIELDS.integer(value, f"a bird card in {where}")
        if card not in allowed:
            raise FIELDS.error(f"bird card {card} in {where} is not used with {players} players "
                         f"(cards without an icon or with an icon up to {players}; see data/birds.json)")
        if card in seen:
            raise FIELDS.error(f"bird card {card} appears twice")
        seen.add(card)
        return card

    # Formations already played.
    cells: list[dict[tuple[int, int], int]] = [{} for _ in range(players)]
    for seat, entries in enumerate(_seat_lists(setup, "formations", players) or []):
        for entry in entries:
            if not isinstance(entry, list) or len(entry) != 3:
                raise FIELDS.error(f"each card of seat {seat}'s formation must be [row, col, card id], not {entry!r}")
            cell = (FIELDS.integer(entry[0], "a row"), FIELDS.integer(entry[1], "a column"))
            if cell in cells[seat]:
                raise FIELDS.error(f"seat {seat}'s formation has two cards at {list(cell)}")
            cells[seat][cell] = bird(entry[2], f"seat {seat}'s formation")
        if cells[seat] and not is_connected(cells[seat]):
            raise FIELDS.error(f"seat {seat}'s formation is not connected; every card must touch the others")
        if cells[seat] and not anchors_for(list(cells[seat])):
            raise FIELDS.error(f"seat {seat}'s formation does not fit the 3/4/5 wedge")

    # Display and draw pile.
    display = [EMPTY] * SLOT_COUNT
    given_display = setup.get("display")
    if given_display is not None:
        if not isinstance(given_display, list) or len(given_display) != SLOT_COUNT:
            raise FIELDS.error(f"'display' must list {SLOT_COUNT} entries (card id or null), T1..T3, M1..M4, B1..B5")
        display = [EMPTY if v is None else bird(v, "the display") for v in given_display]
    if setup.get("deck") is not None:
        if not isinstance(setup["deck"], list):
            raise FIELDS.error("'deck' must be a list of bird card ids, top first")
        deck = [bird(v, "the deck") for v in setup["deck"]]
    else:
        rest = sorted(allowed - seen)
        deck = state.shuffle("birds", rest)
    state.deck = tuple(deck)
    state.deck_pos = 0
    state.display = display
    if given_display is None:
        refill_display(state)  # the first fill is the ordinary refill of an empty display
    else:
        state.display_mask = display_mask_of(display)  # a setup's gaps stay as given

    # Scoring cards.
    dealt, kept = _deal_scoring(state, setup)
    state.dealt = dealt
    state.kept = kept

    # Penalty cards.
    taken = _seat_lists(setup, "penalties_taken", players) or [[] for _ in range(players)]
    pile_given = setup.get("penalties")
    if pile_given is not None and not isinstance(pile_given, list):
        raise FIELDS.error("'penalties' must be a list of penalty values, top first, e.g. [-2, -4]")
    used = Counter(FIELDS.integer(v, "a penalty value") for v in [*(pile_given or []), *(v for t in taken for v in t)])
    supply = Counter(PENALTIES)
    for value, n in used.items():
        if n > supply[value]:
            raise FIELDS.error(f"there are only {supply[value]} penalty cards of {value} (the 11 cards are "
                         f"4 x -2, 4 x -3, 3 x -4), the setup uses {n}")
    if pile_given is not None:
        pile = list(pile_given)
    else:
        rest_pile = list((supply - Counter(v for t in taken for v in t)).elements())
        pile = state.shuffle("penalties", rest_pile)
    state.pen_pile = tuple(pile)
    state.pen_pos = 0
    state.penalties = [tuple(t) for t in taken]

    state.cells = cells
    state.anchors = [anchors_for(list(c)) if c else None for c in cells]
    state.spots = [None] * players
    state.lead = _seat(setup, "lead", players, 0)
    state.current = _seat(setup, "to_move", players, state.lead)
    state.end_triggered = False
    state.penalty_turns = False
    state.stage = [SWAPS] * players
    state.used = [frozenset()] * players
    state.flipped = [frozenset()] * players
    state.final = None
    complete = complete_formations(state)
    if complete[state.current] and not all(complete):
        raise FIELDS.error(f"seat {state.current} is to move but its formation is complete; "
                     "set 'to_move' to a seat still missing cards")
    state.first_turn = state.current
    if kept[0] is None:
        state.phase = KEEP
    else:
        begin_play(state)


def _deal_scoring(state: FlyAwayState, setup: dict[str, Any]) -> tuple[tuple[tuple[int, ...], ...],
                                                                        tuple[tuple[int, ...] | None, ...]]:
    players = state.players
    sizes = keep_sizes(state.options)
    given = _seat_lists(setup, "scoring", players)
    given_kept = _seat_lists(setup, "kept", players)
    taken: set[int] = set()

    def card(value: Any, where: str) -> int:
        index = SCORING_INDEX.get(value) if isinstance(value, str) else None
        if index is None:
            raise FIELDS.error(f"{value!r} in {where} is not a scoring card id (outside-1 .. bottom-5)")
        return index

    fixed: list[dict[int, int]] = [{} for _ in range(players)]  # seat -> type -> card
    for key, lists in (("scoring", given), ("kept", given_kept)):
        for seat, ids in enumerate(lists or []):
            listed: set[int] = set()
            for value in ids:
                index = card(value, f"seat {seat}'s '{key}'")
                if index in listed:
                    raise FIELDS.error(f"seat {seat}'s '{key}' names {value} twice; each scoring card is one card, "
                                 "listed once")
                listed.add(index)
                kind = TYPE_OF[index]
                if fixed[seat].get(kind, index) != index:
                    raise FIELDS.error(f"seat {seat} gets two {SCORING_TYPES[kind]} scoring cards; "
                                 "a seat is dealt one card of each type")
                if index in taken and fixed[seat].get(kind) != index:
                    raise FIELDS.error(f"scoring card {value} is dealt twice")
                fixed[seat][kind] = index
                taken.add(index)
            if key == "scoring" and len(ids) != len(SCORING_TYPES):
                raise FIELDS.error(f"seat {seat} must be dealt {len(SCORING_TYPES)} scoring cards, one of each type")
    dealt_by_type: list[list[int]] = []
    for kind, pile in enumerate(SCORING_PILES):
        rest = [c for c in pile if c not in taken]
        missing = sum(1 for seat in range(players) if kind not in fixed[seat])
        shuffled = state.shuffle(f"scoring-{SCORING_TYPES[kind]}", rest) if missing else []
        column = []
        for seat in range(players):
            column.append(fixed[seat][kind] if kind in fixed[seat] else shuffled.pop(0))
        dealt_by_type.append(column)
    dealt = tuple(tuple(dealt_by_type[kind][seat] for kind in range(len(SCORING_TYPES))) for seat in range(players))
    kept: list[tuple[int, ...] | None] = [None] * players
    if sizes == (len(SCORING_TYPES),):
        # A 'kept' that is not all four cards never gets here: the option check rejects it.
        kept = list(dealt)
    elif given_kept is not None:
        for seat, ids in enumerate(given_kept):
            if len(ids) not in sizes:
                raise FIELDS.error(f"seat {seat} keeps {len(ids)} scoring cards; with scoring_cards "
                             f"{state.options['scoring_cards']!r} a seat keeps "
                             + " or ".join(str(n) for n in sizes))
            kept[seat] = tuple(sorted((card(v, "'kept'") for v in ids), key=lambda c: TYPE_OF[c]))
    return dealt, tuple(kept)
