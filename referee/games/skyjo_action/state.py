"""The Skyjo Action state: a stack of pending steps driven by the seats' decisions.

Why a stack: a turn is a chain of small decisions (draw, then keep or discard, then where)
and action cards nest (Thief plays a stolen Double move whose extra turn plays a Meteor
shower that a Defense may cancel). Each pending step is an immutable named tuple of
frames.py on ``stack``; the top one is either automatic (dealing, drawing, checking lines,
applying an effect: steps.py) and runs at once, or a decision of its ``seat`` (decisions.py),
which is then the only seat in ``to_move()``. Its legal actions are computed once and cached
until the next move. What each seat sees is built by views.py.

Grids are lists of card ints per seat (row-major, see data.py); ``up[s]`` is a bit mask of
the face-up positions of seat s and ``known[o * players + s]`` the face-down positions of
seat s that seat o has looked at. Held action cards are tuples ``(type, public, turn)``:
``public`` says whether the other seats know its type, ``turn`` when it was taken (a card
cannot be activated in the turn it was taken).
"""

from __future__ import annotations

from array import array
from typing import Any

from ..core import CounterRng, IllegalAction, OptionError, Result, State
from . import rules, views
from .actions import NONE, Move, parse_move
from .config import Config, Setup
from .data import ACTION0, CARD_JSON, DEFENSE, EMPTY, POSITIONS_OF_MASK, ROW_SIZE, Line, number_deck
from .decisions import DECISIONS, LEGAL_MOVES
from .frames import (
    NEXT,
    PLACED,
    REGULAR_TURN,
    AnyHit,
    Defend,
    Frame,
    Hit,
    Hold,
    Opening,
    SetupReveal,
    Top,
    Turn,
)
from .steps import AUTOMATIC


def _swap_bits(masks: list[int], ia: int, pa: int, ib: int, pb: int) -> None:
    """Exchange bit pa of masks[ia] with bit pb of masks[ib] (ia may equal ib)."""
    if ((masks[ia] >> pa) ^ (masks[ib] >> pb)) & 1:
        masks[ia] ^= 1 << pa
        masks[ib] ^= 1 << pb


class SkyjoActionState(State):
    """One position of a Skyjo Action game."""

    game = "skyjo-action"
    __slots__ = (
        "config", "round_no", "current", "turn_no", "round_start", "cards", "up", "known", "lock", "held", "deck",
        "discard", "action_deck", "action_row", "action_discard", "ender", "finals", "stack", "totals", "rounds",
        "last_grids", "over", "box", "_history_text", "_legal", "_observations", "public_areas",
    )

    def __init__(self, players: int, seed: int, options: dict[str, Any]) -> None:
        super().__init__(players, seed, options)
        self.config = Config.from_options(players, self.options)
        self.round_no = 0
        self.current = 0
        self.turn_no = 0
        self.round_start = 0
        self.cards: list[list[int]] = [[] for _ in range(players)]
        self.up = [0] * players
        self.known = [0] * (players * players)
        self.lock = [0] * players
        self.held: list[tuple[tuple[int, bool, int], ...]] = [()] * players
        self.deck: list[int] = []
        self.discard: list[int] = []
        self.action_deck: list[int] = []
        self.action_row = [-1] * ROW_SIZE
        self.action_discard: list[int] = []
        self.ender = -1
        self.finals: tuple[int, ...] = ()
        self.stack: list[Frame] = []
        self.totals = [0] * players
        self.rounds: tuple[tuple[Any, ...], ...] = ()
        self.last_grids: tuple[tuple[int | str | None, ...], ...] = ()
        self.over = ""
        self.box: tuple[int, ...] = ()
        self._history_text = "((), ())"
        self._legal: tuple[Move, ...] = ()
        self._observations: dict[int, dict[str, Any]] = {}
        self.public_areas: list[dict[str, Any]] | None = None
        setup = Setup.parse(players, self.options) if self.options.get("setup") is not None else Setup()
        if setup.totals is not None:
            self.totals = list(setup.totals)
        self._deal(setup, -1 if setup.first is None else setup.first)
        self._run()

    # ----- the contract -----------------------------------------------------------------
    def to_move(self) -> tuple[int, ...]:
        stack = self.stack
        return (stack[-1].seat,) if stack else ()

    def _legal_actions(self, seat: int) -> list[Any]:
        stack = self.stack
        if stack and stack[-1].seat == seat:
            return list(self._legal)
        return []

    def _is_legal(self, seat: int, action: Any) -> bool:
        stack = self.stack
        return bool(stack) and stack[-1].seat == seat and action in self._legal

    def _parse_action(self, seat: int, text: str) -> Any:
        move = parse_move(text)
        if self._is_legal(seat, move):
            return move
        raise IllegalAction(self._illegal_message(seat, text.strip()))

    def _apply(self, actions: dict[int, Any]) -> None:
        ((_, move),) = actions.items()
        legal = self._legal
        move = legal[legal.index(move)]          # the canonical instance
        frame = self.stack[-1]
        DECISIONS[type(frame)].apply(self, frame, move)
        self._run()

    def result(self) -> Result | None:
        if not self.over:
            return None
        details = {
            "rounds": self.round_no,
            "round_scores": [list(r[1]) for r in self.rounds],
            "enders": [None if r[2] < 0 else r[2] for r in self.rounds],
            "end_score": self.config.end_score,
        }
        if self.over == "round-limit":
            details["why"] = f"no one reached {self.config.end_score} points within max_rounds={self.config.max_rounds}"
        return Result.from_scores(list(self.totals), self.over, lower_is_better=True, details=details)

    def _copy_into(self, twin: State) -> None:
        assert isinstance(twin, SkyjoActionState)
        twin.config = self.config
        twin.round_no = self.round_no
        twin.current = self.current
        twin.turn_no = self.turn_no
        twin.round_start = self.round_start
        twin.cards = [row[:] for row in self.cards]
        twin.up = self.up[:]
        twin.known = self.known[:]
        twin.lock = self.lock[:]
        twin.held = self.held[:]
        twin.deck = self.deck[:]
        twin.discard = self.discard[:]
        twin.action_deck = self.action_deck[:]
        twin.action_row = self.action_row[:]
        twin.action_discard = self.action_discard[:]
        twin.ender = self.ender
        twin.finals = self.finals
        twin.stack = self.stack[:]
        twin.totals = self.totals[:]
        twin.rounds = self.rounds
        twin.last_grids = self.last_grids
        twin.over = self.over
        twin.box = self.box
        twin._history_text = self._history_text
        twin._legal = self._legal
        twin._observations = {}
        twin.public_areas = None

    def snapshot(self) -> dict[str, Any]:
        """The whole state in three strings, because it is hashed after every checked step
        and a few strings encode far faster than many small lists:

        - ``cards``: hex of 16-bit signed ints: for each of the seats' grids, the main deck
          (top last), the main discard pile (top last), the action deck, the action row, the
          action discard pile, the locks, the last-turn queue and the box, its length then
          its card codes (see data.py);
        - ``ints``: hex of 64-bit ints: round, current seat, turn, round start decision,
          ender, totals, face-up masks, ``known``, then each seat's held cards (count, then
          type, public, turn per card);
        - ``rest``: the repr of the end reason, the pending steps, the scored rounds and the
          last round's grids.
        """
        cards = array("h")
        for seq in (*self.cards, self.deck, self.discard, self.action_deck, self.action_row, self.action_discard,
                    self.lock, self.finals, self.box):
            cards.append(len(seq))
            cards.extend(seq)
        ints = array("q", (self.round_no, self.current, self.turn_no, self.round_start, self.ender))
        ints.extend(self.totals)
        ints.extend(self.up)
        ints.extend(self.known)
        for hand in self.held:
            ints.append(len(hand))
            for slot in hand:
                ints.extend(slot)
        return {"cards": cards.tobytes().hex(), "ints": ints.tobytes().hex(),
                "rest": repr((self.over, self.stack)) + self._history_text}

    def resample_hidden(self, seat: int, rng: CounterRng) -> State:
        """Redraw what ``seat`` cannot see: the main deck together with every face-down card
        it has not looked at (its own included), and the action deck together with the
        other seats' hidden held cards. Counts, positions and public cards stay."""
        twin = self.clone()
        assert isinstance(twin, SkyjoActionState)
        players = self.players
        full = self.config.full_mask
        rows: list[tuple[list[int], tuple[int, ...]]] = []
        values: list[int] = []
        base = seat * players
        for other in range(players):
            row = twin.cards[other]
            positions = POSITIONS_OF_MASK[~(twin.up[other] | twin.known[base + other]) & full]
            if EMPTY in row:
                positions = tuple(p for p in positions if row[p] != EMPTY)
            if positions:
                rows.append((row, positions))
                values += [row[p] for p in positions]
        hidden = len(values)
        values += twin.deck
        if twin.box:
            # Single deck: which action cards went into the main deck is unknown too.
            found = [i for i, card in enumerate(values) if card >= ACTION0]
            types = rng.shuffled([values[i] - ACTION0 for i in found] + list(twin.box))
            for k, i in enumerate(found):
                values[i] = ACTION0 + types[k]
            twin.box = tuple(types[len(found):])
        pool = rng.shuffled(values)
        k = 0
        for row, positions in rows:
            for p in positions:
                row[p] = pool[k]
                k += 1
        twin.deck = pool[hidden:]
        held_slots = [(other, i) for other in range(players) if other != seat for i, slot in enumerate(twin.held[other])
                      if not slot[1]]
        if not held_slots:
            twin.action_deck = rng.shuffled(twin.action_deck) if len(twin.action_deck) > 1 else twin.action_deck
            return twin._after_resample()
        apool = rng.shuffled([twin.held[other][i][0] for other, i in held_slots] + twin.action_deck)
        for k, (other, i) in enumerate(held_slots):
            hand = list(twin.held[other])
            _, public, taken = hand[i]
            hand[i] = (apool[k], public, taken)
            twin.held[other] = tuple(hand)
        twin.action_deck = apool[len(held_slots):]
        return twin._after_resample()

    def _after_resample(self) -> State:
        if self.stack:
            frame = self.stack[-1]
            self._legal = tuple(DECISIONS[type(frame)].legal(self, frame))
        return self

    # ----- views: built by views.py -------------------------------------------------------
    def _observation(self, seat: int) -> dict[str, Any]:
        """Built once per position and seat (the referee, the bots and the checks ask
        repeatedly); each call gets its own top-level dict."""
        view = self._observations.get(seat)
        if view is None:
            view = self._observations[seat] = views.view(self, seat)
        return dict(view)

    def public_view(self) -> dict[str, Any]:
        view = views.view(self, -1)
        view["previous_grids"] = [list(g) for g in self.last_grids]
        return view

    # ----- the driver ----------------------------------------------------------------------
    def _run(self) -> None:
        """Run automatic steps until a decision (with at least one legal action) is on top.
        A decision with no legal action cannot be taken and is skipped (e.g. a star taken
        when the action row is empty, an extra turn cancelled by the round end)."""
        self._observations = {}                  # the position changes: cached views are stale
        self.public_areas = None
        stack = self.stack
        while stack:
            frame = stack[-1]
            kind = type(frame)
            auto = AUTOMATIC.get(kind)
            if auto is not None:
                auto(self, frame)
                continue
            legal = LEGAL_MOVES[kind](self, frame)
            if legal:
                self._legal = tuple(legal)
                return
            stack.pop()
        self._legal = ()

    # ----- dealing ---------------------------------------------------------------------------
    def _deal(self, setup: Setup, first: int) -> None:
        """Setup of a round: decks, grids, the first discard, the action row, the random reveals.
        ``setup`` fixes parts of the first round's deal; an empty ``Setup()`` (every later
        round, or no setup option) fixes nothing, so every part is dealt at random."""
        config = self.config
        players = self.players
        size = config.size
        self.round_no += 1
        self.round_start = self._decisions
        self.box = ()
        self.ender = -1
        self.finals = ()
        self.lock = list(setup.lock) if setup.lock is not None else [0] * players
        self.known = [0] * (players * players)
        self.held = [()] * players
        self.action_discard = []
        self.action_row = [-1] * ROW_SIZE
        self.action_deck = []
        given_grids = setup.grids
        given_discard = setup.discard
        if setup.deck is not None:
            deck = list(reversed(setup.deck))
            need = (0 if given_grids else players * size) + (0 if given_discard else 1)
            if len(deck) < need:
                raise OptionError(f"skyjo-action: setup.deck has {len(deck)} cards but dealing needs at least "
                                  f"{need}; give more cards or give setup.grids/discard.")
        else:
            pool = number_deck(config.stars)
            given = [c for grid in given_grids or [] for c in grid] + list(given_discard or [])
            for card in given:
                if card < ACTION0:
                    pool.remove(card)
            if config.single:
                rest = config.action_cards()
                placed = [c - ACTION0 for c in given if c >= ACTION0]
                for card_type in placed:
                    rest.remove(card_type)
                mixed = self.shuffle("single-deck", rest)
                chosen = config.single - len(placed)
                pool += [ACTION0 + card_type for card_type in mixed[:chosen]]
                self.box = tuple(mixed[chosen:])     # the action cards left in the box
            deck = self.shuffle("deck", pool)
        self.deck = deck
        if given_grids:
            self.cards = [list(grid) for grid in given_grids]
        else:
            self.cards = [[deck.pop() for _ in range(size)] for _ in range(players)]
        self.up = [0] * players
        if given_discard is not None:
            self.discard = list(given_discard)
        else:
            card = deck.pop()
            while card >= ACTION0:          # single deck: an action card never opens the discard pile
                self.action_discard.append(card - ACTION0)
                if not deck:
                    raise OptionError("skyjo-action: setup.deck ran out while turning the first discard over.")
                card = deck.pop()
            self.discard = [card]
        if config.row_mode:
            if setup.action_deck is not None:
                self.action_deck = list(reversed(setup.action_deck))
            else:
                pool = config.action_cards()
                used = [card_type for card_type in setup.action_row or [] if card_type >= 0]
                used += [card_type for hand in setup.held or [] for card_type in hand]
                used += setup.action_discard or []
                for card_type in used:
                    pool.remove(card_type)
                self.action_deck = self.shuffle("action-deck", pool)
            if setup.action_row is not None:
                self.action_row = list(setup.action_row)
            else:
                self.action_row = [self.action_deck.pop() if self.action_deck else -1 for _ in range(ROW_SIZE)]
        if setup.held is not None:
            self.held = [tuple((card_type, True, self.turn_no) for card_type in hand) for hand in setup.held]
        self.action_discard += list(setup.action_discard or [])
        reveals: list[tuple[int, ...]] = []
        for seat in range(players):
            if setup.reveal is not None:
                reveals.append(tuple(setup.reveal[seat]))
                continue
            a = self.draw_below("reveal", size)
            if config.reveals == 1:
                reveals.append((a,))
            else:
                b = self.draw_below("reveal", size - 1)
                reveals.append((a, b if b < a else b + 1))
        self.stack.append(Opening(first))
        for seat in reversed(range(players)):
            self.stack.append(SetupReveal(seat, reveals[seat]))

    # ----- helpers used by the steps --------------------------------------------------------
    def pop_main_deck(self) -> int | None:
        """Top card of the main deck; an empty deck is replaced by the discard pile but its top
        card, shuffled. None only if both are exhausted (cannot happen with the published deck)."""
        if not self.deck:
            if len(self.discard) <= 1:
                return None
            top = self.discard[-1]
            self.deck = self.shuffle("reshuffle", self.discard[:-1])
            self.discard = [top]
        return self.deck.pop()

    def pop_action_deck(self) -> int:
        """Top card of the action deck (the action discard pile is shuffled in when it is
        empty, RULINGS.md), or -1 when there is none."""
        if not self.action_deck:
            if not self.action_discard:
                return -1
            self.action_deck = self.shuffle("action-reshuffle", self.action_discard)
            self.action_discard = []
        return self.action_deck.pop()

    def take_from_row(self, card_type: int) -> None:
        """Take the leftmost card of that type from the action row and restock its place."""
        i = self.action_row.index(card_type)
        self.action_row[i] = self.pop_action_deck()

    def give_action_card(self, seat: int, card_type: int, public: bool) -> None:
        self.held[seat] = self.held[seat] + ((card_type, public or self.config.open_hands, self.turn_no),)

    def take_held(self, seat: int, i: int) -> int:
        hand = self.held[seat]
        self.held[seat] = hand[:i] + hand[i + 1:]
        return hand[i][0]

    def use_held(self, seat: int, card_type: int) -> None:
        """Remove the first card of that type that may be activated now (not taken this turn)."""
        turn = self.turn_no
        for i, (kind, _, taken) in enumerate(self.held[seat]):
            if kind == card_type and taken != turn:
                self.take_held(seat, i)
                return
        raise AssertionError("no usable card of that type")

    def pick_held_slot(self, other: int, card_type: int) -> int:
        """The held slot a ``remove``/``steal`` names: the first public card of that type, or
        for ``hidden`` a uniformly random one of the cards the chooser cannot see."""
        hand = self.held[other]
        if card_type != NONE:
            return next(i for i, (kind, public, _) in enumerate(hand) if kind == card_type and public)
        hidden = [i for i, slot in enumerate(hand) if not slot[1]]
        return hidden[0] if len(hidden) == 1 else hidden[self.draw_below("hidden-card", len(hidden))]

    def forget(self, seat: int, bit: int) -> None:
        """A new card lies at that position of that seat: nobody has looked at it."""
        players = self.players
        known = self.known
        for i in range(seat, players * players, players):
            known[i] &= ~bit

    def present_mask(self, seat: int) -> int:
        """The mask of the positions that hold a card (a cleared line leaves its positions empty)."""
        row = self.cards[seat]
        if EMPTY not in row:
            return self.config.full_mask
        return sum(1 << p for p, c in enumerate(row) if c != EMPTY)

    def face_down_mask(self, seat: int) -> int:
        return self.present_mask(seat) & ~self.up[seat]

    def place_card(self, seat: int, p: int, card: int) -> None:
        """Put a card face up at p; the card it replaces goes on the main discard pile (a
        face-down action card found there is kept or discarded by its owner instead)."""
        row = self.cards[seat]
        old = row[p]
        row[p] = card
        bit = 1 << p
        self.up[seat] |= bit
        self.forget(seat, bit)
        self.stack.append(PLACED[seat][p])
        if old >= ACTION0:
            self.stack.append(Hold(seat, old - ACTION0))
        else:
            self.discard.append(old)

    def to_discard(self, seat: int, cards: list[int]) -> None:
        """Cards going onto the main discard pile "in the order of your choice": only the top
        one can ever matter, so the owner chooses it when they differ."""
        if len(set(cards)) <= 1:
            self.discard.extend(cards)
        else:
            self.stack.append(Top(seat, tuple(sorted(cards))))

    def clear_line(self, seat: int, line: Line) -> list[int]:
        row = self.cards[seat]
        removed = [row[p] for p in line.positions]
        for p in line.positions:
            row[p] = EMPTY
        self.up[seat] &= ~line.mask
        self.forget(seat, line.mask)
        self.lock[seat] = line.kind
        return removed

    def swap_cards(self, a: int, pa: int, b: int, pb: int) -> None:
        """Exchange two cards; each keeps its face, and whoever had seen it still knows it."""
        ra, rb = self.cards[a], self.cards[b]
        ra[pa], rb[pb] = rb[pb], ra[pa]
        _swap_bits(self.up, a, pa, b, pb)
        players = self.players
        for other in range(0, players * players, players):
            _swap_bits(self.known, other + a, pa, other + b, pb)

    def trigger_round_end(self, seat: int) -> None:
        """Round end (RULINGS.md): the first area with every remaining card face up ends the
        round; each other player then takes exactly one more turn, in order from the current
        player's left, and the current turn's pending extra turns are cancelled."""
        if self.ender >= 0 or not rules.all_face_up(self.cards[seat], self.up[seat]):
            return
        self.ender = seat
        players = self.players
        current = self.current
        self.finals = tuple(x for x in ((current + 1 + i) % players for i in range(players)) if x != seat)
        self.stack[:] = [f for f in self.stack if not (type(f) is Turn and f.extra)]

    def may_defend(self, target: int) -> bool:
        """Whether the target is asked: it holds a public Defense or any card the others
        cannot see (asking only real holders would tell everyone who holds one)."""
        return self.config.defense and any(card_type == DEFENSE or not public
                                           for card_type, public, _ in self.held[target])

    def strike(self, seat: int, hit: AnyHit, targets: list[int]) -> None:
        """An effect on other players: each target may answer with Defense first."""
        self.stack.append(Hit(seat, hit))
        for target in reversed(targets):
            if self.may_defend(target):
                self.stack.append(Defend(target, seat, hit))

    def end_round(self, forced: bool) -> None:
        """Reveal and score (RULINGS.md), then start the next round or end the game."""
        config = self.config
        players = self.players
        for seat in range(players):
            row = self.cards[seat]
            up = self.up[seat]
            revealed = 0
            for p in range(config.size):
                card = row[p]
                if card == EMPTY or (up >> p) & 1:
                    continue
                while card >= ACTION0:        # single deck: discarded (keeping only costs points), replaced
                    self.action_discard.append(card - ACTION0)
                    drawn = self.pop_main_deck()
                    card = EMPTY if drawn is None else drawn
                row[p] = card
                if card != EMPTY:
                    up |= 1 << p
                    revealed |= 1 << p
            self.up[seat] = up
            self._final_clears(seat, revealed)
        self.known = [0] * (players * players)
        scores = [rules.area_points(self.cards[seat], config.lines, config.star_col, config.star_row)
                  + config.penalty * len(self.held[seat]) for seat in range(players)]
        ender = -1 if forced else self.ender
        doubled = False
        if ender >= 0 and config.double:
            scores, doubled = rules.doubled_scores(scores, ender)
        self.totals = [card_type + x for card_type, x in zip(self.totals, scores)]
        self.rounds += ((self.round_no, tuple(scores), ender, doubled, forced),)
        self.last_grids = tuple(tuple(CARD_JSON[c] for c in row) for row in self.cards)
        self._history_text = repr((self.rounds, self.last_grids))     # for snapshot(); changes once a round
        self.stack.clear()
        if rules.game_over(self.totals, config.end_score):
            self.over = "score"
        elif self.round_no >= config.max_rounds:
            self.over = "round-limit"
        else:
            self._deal(Setup(), ender if ender >= 0 else (self.current + 1) % players)

    def _final_clears(self, seat: int, revealed: int) -> None:
        """Lines completed by the final reveal clear when that lowers the owner's score, within
        the owner's lock, columns first when unlocked (RULINGS.md)."""
        config = self.config
        while True:
            row = self.cards[seat]
            before = rules.area_points(row, config.lines, config.star_col, config.star_row)
            for line in rules.clearable_lines(row, self.up[seat], config.lines, revealed, self.lock[seat]):
                after = list(row)
                for p in line.positions:
                    after[p] = EMPTY
                if rules.area_points(after, config.lines, config.star_col, config.star_row) < before:
                    self.discard.extend(sorted(self.clear_line(seat, line)))
                    break
            else:
                return

    def begin_turn(self, seat: int) -> None:
        self.current = seat
        self.turn_no += 1
        self.stack.append(NEXT)
        self.stack.append(REGULAR_TURN[seat])
