"""Options: their declarations, the checks of contradictory combinations, the derived
per-game configuration, and the ``setup`` option that fixes the first round's deal."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ..core import OptionSpec
from ..core.setup_fields import SetupFields, is_integer
from . import actions
from .data import (
    ACTION0,
    COPIES_PER_ACTION,
    DEFENSE,
    EXTRA_TYPE_OPTIONS,
    LARGE,
    LINE_COL,
    LINE_ROW,
    ROW_SIZE,
    STANDARD,
    STAR,
    STARTER_TYPES,
    TYPE_INDEX,
    TYPE_NAMES,
    Layout,
    Line,
    number_deck,
    parse_pos,
)

GAME = "skyjo-action"
MAX_ROUNDS_LIMIT = 200
MAX_ROUND_DECISIONS_LIMIT = 20_000
# Decisions one regular turn can take at most, extra turns included (see README, "Bounds"):
# at most 27 held cards + 3 replays are activated per turn, each giving at most 2 extra turns.
TURN_DECISIONS_BOUND = 2_000
SETUP_DECISIONS_BOUND = 40
MAX_DECISIONS = MAX_ROUNDS_LIMIT * (MAX_ROUND_DECISIONS_LIMIT + TURN_DECISIONS_BOUND + SETUP_DECISIONS_BOUND)

OPTIONS = (
    OptionSpec("starter_actions", True, "Use the five starter action cards (swap-other, swap-own, draw-three, "
               "look, meteor), 3 of each.", bool),
    OptionSpec("double_move", False, "Add the 3 Double move action cards.", bool),
    OptionSpec("defense", False, "Add the 3 Defense action cards.", bool),
    OptionSpec("reactivation", False, "Add the 3 Reactivation action cards.", bool),
    OptionSpec("thief", False, "Add the 3 Thief action cards.", bool),
    OptionSpec("single_deck", 0, "Single-deck variant: 0 keeps two decks; 5 to 10 shuffles that many action "
               "cards (drawn at random from the enabled ones) into the main deck.", int, minimum=0, maximum=10),
    OptionSpec("large_group", None, "Large-group variant: 3x3 grids, one card revealed at setup, up to two "
               "more players. null (default) turns it on exactly when more players are seated than the game "
               "allows without it (9-10, or 7-8 in simple, 5-6 in even_simpler).", object,
               choices=(None, False, True)),
    OptionSpec("simple", False, "Simple variant: no action cards (at most 6 players, 8 with large_group).", bool),
    OptionSpec("even_simpler", False, "Even simpler variant: no action cards and no stars (at most 4 players, "
               "6 with large_group).", bool),
    OptionSpec("end_score", 100, "The game ends after the round in which someone reaches this total.", int,
               minimum=1, maximum=1000),
    OptionSpec("held_card_points", 10, "Ruling: points added per action card still held when a round is "
               "scored.", int, minimum=0, maximum=100),
    OptionSpec("double_ender", True, "Ruling: the round ender doubles a positive round score unless it is "
               "strictly the lowest.", bool),
    OptionSpec("star_column_points", -10, "Ruling: points of a full column of stars.", int, minimum=-100,
               maximum=100),
    OptionSpec("star_row_points", -15, "Ruling: points of a full row of stars.", int, minimum=-100, maximum=100),
    OptionSpec("open_hands", False, "Ruling: false keeps an action card taken from the face-down action deck "
               "hidden from the others until it is played; true shows every held card.", bool),
    OptionSpec("max_rounds", 50, "Safety stop: the game ends after this many rounds (result reason "
               "'round-limit').", int, minimum=1, maximum=MAX_ROUNDS_LIMIT),
    OptionSpec("max_round_decisions", 3000, "Safety stop: a round still running after this many decisions is "
               "scored at the end of the current turn, without doubling.", int, minimum=100,
               maximum=MAX_ROUND_DECISIONS_LIMIT),
    OptionSpec("setup", None, "Fixes the first round's deal (grids, reveals, decks, piles, held cards, totals, "
               "first player): see referee/games/skyjo_action/README.md."),
)


# Reads ``setup`` and refuses contradictory options, in the same words.
FIELDS = SetupFields(f"{GAME}: {{}}")


# The most players without the large-group variant (rulebook "Variants"): Skyjo Action
# seats 8; a variant without action cards lowers that, the strictest one that is on (listed
# first) deciding.
BASE_PLAYERS = 8
VARIANT_BASE_PLAYERS = {"even_simpler": 4, "simple": 6}
# The large-group variant seats "up to two more people" than that.
LARGE_GROUP_EXTRA_PLAYERS = 2


def base_players(options: dict[str, Any]) -> int:
    """The most players without the large-group variant."""
    return next((n for name, n in VARIANT_BASE_PLAYERS.items() if options[name]), BASE_PLAYERS)


def large_group(players: int, options: dict[str, Any]) -> bool:
    """The large-group variant in force: as set, or (null) on exactly when needed."""
    chosen = options["large_group"]
    return players > base_players(options) if chosen is None else bool(chosen)


def enabled_types(options: dict[str, Any]) -> tuple[int, ...]:
    if options["simple"] or options["even_simpler"]:
        return ()
    types = set(STARTER_TYPES) if options["starter_actions"] else set()
    types |= {t for name, t in EXTRA_TYPE_OPTIONS.items() if options[name]}
    return tuple(sorted(types))


def check_options(players: int, options: dict[str, Any]) -> None:
    """Reject combinations that contradict each other, naming the fix."""
    no_actions = options["simple"] or options["even_simpler"]
    variant = "even_simpler" if options["even_simpler"] else "simple"
    if no_actions:
        extras = [name for name in EXTRA_TYPE_OPTIONS if options[name]]
        if extras:
            FIELDS.fail(f"the {variant} variant plays without action cards, but {extras[0]}=true adds some; "
                        f"set {extras[0]}=false or {variant}=false.")
        if options["single_deck"]:
            FIELDS.fail(f"the {variant} variant plays without action cards, so single_deck={options['single_deck']} "
                        f"has none to shuffle in; set single_deck=0 or {variant}=false.")
    elif not enabled_types(options):
        FIELDS.fail("no action card is enabled (starter_actions=false and no extra card); enable starter_actions "
                    "or an extra card, or set simple=true to play without action cards.")
    single = options["single_deck"]
    if 0 < single < 5:
        FIELDS.fail(f"single_deck={single}: the single-deck variant shuffles 5 to 10 action cards into the main deck; "
                    "use 0 (two decks) or 5..10.")
    if single and single > COPIES_PER_ACTION * len(enabled_types(options)):
        FIELDS.fail(f"single_deck={single} needs that many action cards but only "
                    f"{COPIES_PER_ACTION * len(enabled_types(options))} are enabled; lower single_deck or enable "
                    "more action cards.")
    if 2 <= players <= 10:
        base = base_players(options)
        mode = f"the {variant} variant" if no_actions else "Skyjo Action"
        most = base + LARGE_GROUP_EXTRA_PLAYERS
        if players > most:
            FIELDS.fail(f"{mode} is for at most {most} players (with the large-group variant), not {players}; "
                        + ("drop the simple/even_simpler option or seat fewer players." if no_actions
                     else "seat fewer players."))
        if players > base and options["large_group"] is False:
            FIELDS.fail(f"{players} players need the large-group variant (3x3 grids), but large_group=false; set "
                        f"large_group=true or leave it unset ({mode} without it is for at most {base} players).")
        if options["setup"] is not None:
            Setup.parse(players, options)


# ----- derived configuration -----------------------------------------------------------
@dataclass(frozen=True)
class Config:
    """Everything fixed for a whole game, shared (read-only) by every clone."""

    layout: Layout
    types: tuple[int, ...]
    single: int
    stars: bool
    penalty: int
    end_score: int
    double: bool
    star_col: int
    star_row: int
    open_hands: bool
    max_rounds: int
    max_round_decisions: int
    size: int = 0
    full_mask: int = 0
    reveals: int = 0
    row_mode: bool = False
    defense: bool = False
    lines: tuple[Line, ...] = ()
    codes: tuple[int, ...] = ()
    index_of_code: dict[int, int] = field(default_factory=dict)
    place: tuple[actions.Move, ...] = ()
    take_discard: tuple[actions.Move, ...] = ()
    reveal: tuple[actions.Move, ...] = ()
    pick: tuple[tuple[actions.Move, ...], ...] = ()
    remove: tuple[tuple[actions.Move, ...], ...] = ()
    look: tuple[tuple[tuple[Line, actions.Move], ...], ...] = ()
    line_by_code: dict[int, Line] = field(default_factory=dict)

    @staticmethod
    def from_options(players: int, options: dict[str, Any]) -> Config:
        layout = LARGE if large_group(players, options) else STANDARD
        types = enabled_types(options)
        lines = layout.lines
        codes = layout.codes
        single = options["single_deck"]
        return Config(
            layout=layout, types=types, single=single, stars=not options["even_simpler"],
            penalty=options["held_card_points"], end_score=options["end_score"], double=options["double_ender"],
            star_col=options["star_column_points"], star_row=options["star_row_points"],
            open_hands=options["open_hands"], max_rounds=options["max_rounds"],
            max_round_decisions=options["max_round_decisions"],
            size=layout.size, full_mask=(1 << layout.size) - 1, reveals=layout.reveals,
            row_mode=bool(types) and not single, defense=DEFENSE in types, lines=lines, codes=codes,
            index_of_code={c: i for i, c in enumerate(codes)},
            place=tuple(actions.PLACE[c] for c in codes), take_discard=tuple(actions.TAKE_DISCARD[c] for c in codes),
            reveal=tuple(actions.REVEAL[c] for c in codes),
            pick=tuple(tuple(actions.PICK[s][c] for c in codes) for s in range(players)),
            remove=tuple(tuple(actions.REMOVE[s][c] for c in codes) for s in range(players)),
            look=tuple(tuple((line, actions.LOOK[s][line.code]) for line in lines) for s in range(players)),
            line_by_code={line.code: line for line in lines},
        )

    def action_cards(self) -> list[int]:
        return [t for t in self.types for _ in range(COPIES_PER_ACTION)]


# ----- the setup option ----------------------------------------------------------------
SETUP_KEYS = ("grids", "reveal", "deck", "discard", "action_deck", "action_row", "action_discard", "held",
              "totals", "first", "lock")


def _card(value: Any, where: str, stars: bool) -> int:
    if is_integer(value) and -2 <= value <= 12:
        return int(value)
    if value == "*":
        if not stars:
            FIELDS.fail(f"setup.{where}: the even_simpler variant has no stars; remove \"*\".")
        return STAR
    if isinstance(value, str) and value in TYPE_INDEX:
        return ACTION0 + TYPE_INDEX[value]
    FIELDS.fail(f"setup.{where}: {value!r} is not a card; cards are -2..12, \"*\" or an action card name "
                f"({', '.join(TYPE_NAMES)}).")


def _type(value: Any, where: str, types: tuple[int, ...]) -> int:
    if not isinstance(value, str) or value not in TYPE_INDEX:
        FIELDS.fail(f"setup.{where}: {value!r} is not an action card type; use one of {', '.join(TYPE_NAMES)}.")
    t = TYPE_INDEX[value]
    if t not in types:
        FIELDS.fail(f"setup.{where}: {value!r} is not enabled in this game; enable its option or remove it.")
    return t


def _list(value: Any, where: str, length: int | None = None) -> list[Any]:
    return FIELDS.listed(value, f"setup.{where}", length, "one per player")


@dataclass
class Setup:
    """The validated ``setup`` option. Lists of cards are kept in the option's order: decks
    top card first, piles bottom card first."""

    grids: list[list[int]] | None = None
    reveal: list[list[int]] | None = None
    deck: list[int] | None = None
    discard: list[int] | None = None
    action_deck: list[int] | None = None
    action_row: list[int] | None = None
    action_discard: list[int] | None = None
    held: list[list[int]] | None = None
    totals: list[int] | None = None
    first: int | None = None
    lock: list[int] | None = None

    @staticmethod
    def parse(players: int, options: dict[str, Any]) -> Setup:
        raw = options["setup"]
        if not isinstance(raw, dict):
            FIELDS.fail(f"setup must be an object with any of the keys {', '.join(SETUP_KEYS)}; got {raw!r}.")
        FIELDS.known_keys(raw, SETUP_KEYS, "setup: ")
        config = Config.from_options(players, options)      # the layout, stars and types the deal must fit
        layout, stars, types = config.layout, config.stars, config.types
        out = Setup()
        if "grids" in raw:
            grids = _list(raw["grids"], "grids", players)
            out.grids = []
            for s, grid in enumerate(grids):
                cells = _list(grid, f"grids[{s}]")
                if len(cells) != layout.size:
                    FIELDS.fail(f"setup.grids[{s}] must list {layout.size} cards (row by row, {layout.rows} rows of "
                                f"{layout.cols}), got {len(cells)}.")
                out.grids.append([_card(c, f"grids[{s}][{i}]", stars) for i, c in enumerate(cells)])
        if "reveal" in raw:
            out.reveal = []
            for s, cells in enumerate(_list(raw["reveal"], "reveal", players)):
                positions = []
                for p in _list(cells, f"reveal[{s}]"):
                    code = parse_pos(p) if isinstance(p, str) else -1
                    if code not in layout.codes:
                        FIELDS.fail(f"setup.reveal[{s}]: {p!r} is not a position of a {layout.rows}x{layout.cols} "
                                    f"grid; write positions like \"B2\" (columns A-{'ABCD'[layout.cols - 1]}, "
                                    "rows 1-3).")
                    positions.append(layout.codes.index(code))
                if len(set(positions)) != len(positions):
                    FIELDS.fail(f"setup.reveal[{s}] names a position twice.")
                out.reveal.append(positions)
        for key in ("deck", "discard"):
            if key in raw:
                setattr(out, key, [_card(c, f"{key}[{i}]", stars) for i, c in enumerate(_list(raw[key], key))])
        if out.discard is not None and not out.discard:
            FIELDS.fail("setup.discard must hold at least one card (its last entry is the top).")
        if out.discard and out.discard[-1] >= ACTION0:
            FIELDS.fail("setup.discard: the top card of the main discard pile must be a number or a star.")
        for key in ("action_deck", "action_row"):
            if key in raw and not config.row_mode:
                FIELDS.fail(f"setup.{key}: this game has no action deck/row (simple or single-deck variant); "
                            "remove it.")
        if "action_deck" in raw:
            out.action_deck = [_type(t, f"action_deck[{i}]", types) for i, t in enumerate(_list(raw["action_deck"],
                                                                                                  "action_deck"))]
        if "action_row" in raw:
            row = _list(raw["action_row"], "action_row")
            if len(row) > ROW_SIZE:
                FIELDS.fail(f"setup.action_row holds at most {ROW_SIZE} cards, got {len(row)}.")
            out.action_row = [-1 if t is None else _type(t, f"action_row[{i}]", types) for i, t in enumerate(row)]
            out.action_row += [-1] * (ROW_SIZE - len(out.action_row))
        for key in ("action_discard", "held"):
            if key in raw and not types:
                FIELDS.fail(f"setup.{key}: this game has no action cards; remove it.")
        if "action_discard" in raw:
            out.action_discard = [_type(t, f"action_discard[{i}]", types)
                                  for i, t in enumerate(_list(raw["action_discard"], "action_discard"))]
        if "held" in raw:
            out.held = [[_type(t, f"held[{s}][{i}]", types) for i, t in enumerate(_list(cards, f"held[{s}]"))]
                        for s, cards in enumerate(_list(raw["held"], "held", players))]
        if "totals" in raw:
            totals = _list(raw["totals"], "totals", players)
            if not all(is_integer(t) for t in totals):
                FIELDS.fail("setup.totals must be integers (each player's points before this round).")
            out.totals = list(totals)
        if "first" in raw:
            out.first = FIELDS.seat(raw["first"], "setup.first", players)
        if "lock" in raw:
            names = {None: 0, "row": LINE_ROW, "rows": LINE_ROW, "col": LINE_COL, "cols": LINE_COL,
                     "column": LINE_COL, "columns": LINE_COL}
            locks = _list(raw["lock"], "lock", players)
            for s, value in enumerate(locks):
                if value not in names:
                    FIELDS.fail(f"setup.lock[{s}] must be null, \"rows\" or \"columns\", got {value!r}.")
            out.lock = [names[v] for v in locks]
        out._check_counts(config)
        return out

    def _check_counts(self, config: Config) -> None:
        """Without an explicit deck, the given cards come out of the standard composition."""
        types = config.types
        if self.deck is None:
            used = Counter(c for grid in self.grids or [] for c in grid) + Counter(self.discard or [])
            available = Counter(number_deck(config.stars))
            for card, n in sorted(used.items()):
                if card >= ACTION0:
                    if not config.single:
                        FIELDS.fail(f"setup: action card {TYPE_NAMES[card - ACTION0]!r} in a grid or the discard pile "
                                    "needs single_deck>0 or an explicit setup.deck.")
                    if card - ACTION0 not in types:
                        FIELDS.fail(f"setup: action card {TYPE_NAMES[card - ACTION0]!r} is not enabled in this game.")
                elif n > available[card]:
                    shown = "*" if card == STAR else card
                    FIELDS.fail(f"setup uses {n} cards {shown!r} but the deck has only {available[card]}; fix the "
                                "grids/discard, or give setup.deck explicitly.")
            actions_used = sum(n for card, n in used.items() if card >= ACTION0)
            if actions_used > config.single:
                FIELDS.fail(f"setup places {actions_used} action cards in grids/discard but single_deck is "
                            f"{config.single}; raise single_deck or give setup.deck explicitly.")
        if self.action_deck is None and config.row_mode:
            used = (Counter(t for t in self.action_row or [] if t >= 0)
                    + Counter(t for cards in self.held or [] for t in cards) + Counter(self.action_discard or []))
            for t, n in used.items():
                if n > COPIES_PER_ACTION:
                    FIELDS.fail(f"setup uses {n} {TYPE_NAMES[t]!r} cards but there are only {COPIES_PER_ACTION}; "
                                "fix action_row/held/action_discard or give setup.action_deck explicitly.")
