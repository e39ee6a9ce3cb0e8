"""The Skyjo Action state: a stack of pending steps driven by the seats' decisions.

Why a stack: a turn is a chain of small decisions (draw, then keep or discard, then where)
and action cards nest (Thief plays a stolen Double move whose extra turn plays a Meteor
shower that a Defense may cancel). Each pending step is an immutable tuple ``(kind, seat,
...)`` on ``stack``; the top one is either automatic (dealing, drawing, checking lines,
applying an effect) and runs at once, or a decision of ``seat``, which is then the only
seat in ``to_move()``. Its legal actions are computed once and cached until the next move.

Grids are lists of card ints per seat (row-major, see data.py); ``up[s]`` is a bit mask of
the face-up positions of seat s and ``known[o * players + s]`` the face-down positions of
seat s that seat o has looked at. Held action cards are tuples ``(type, public, turn)``:
``public`` says whether the other seats know its type, ``turn`` when it was taken (a card
cannot be activated in the turn it was taken).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
from typing import Any

from ..core import CounterRng, IllegalAction, OptionError, Result, State
from . import actions as A
from . import rules as R
from .config import Config, Setup
from .data import (
    ACTION0,
    CARD_JSON,
    DEFENSE,
    DOUBLE_MOVE,
    DRAW_THREE,
    EMPTY,
    LINE_COL,
    LINE_ROW,
    LOOK,
    METEOR,
    REACTIVATION,
    ROW_SIZE,
    STAR,
    SWAP_OTHER,
    SWAP_OWN,
    THIEF,
    TYPE_NAMES,
    Line,
    card_json,
    line_text,
    number_deck,
    pos_text,
)

Frame = tuple[Any, ...]
LOCK_NAMES = {0: None, LINE_ROW: "rows", LINE_COL: "columns"}
# Public names of the decision kinds (observation "decision").
DECISION_NAMES = {
    "turn": "turn", "takeact": "take-action", "activate": "activate", "drawn": "drawn", "place": "place",
    "reveal": "reveal", "star": "star", "lines": "lines",
    "top": "top", "keep3": "keep", "hold": "hold", "look": "look", "pair": "pair", "pickA": "pick",
    "pickB": "pick", "own1": "pick", "own2": "pick", "mtarget": "meteor", "steal": "steal", "replay": "replay",
    "defend": "defend",
}
# The action card behind each decision of an effect and each effect on other players
# (observation "pending" "card"), so a view names it from the table, not from spelled-out text.
DECISION_CARD = {
    "pair": SWAP_OTHER, "pickA": SWAP_OTHER, "pickB": SWAP_OTHER, "own1": SWAP_OWN, "own2": SWAP_OWN,
    "look": LOOK, "mtarget": METEOR, "steal": THIEF, "replay": REACTIVATION,
}
HIT_CARD = {"swap": SWAP_OTHER, "look": LOOK, "meteor": METEOR, "steal": THIEF}
# The steps an activated action card pushes, bottom first, each ``(kind, *args)`` after the
# player's seat: a table so every card's effect reads in one place. Meteor shower is not here
# because its step lists the other seats, which depends on the game's player count.
EFFECT_STEPS: dict[int, tuple[tuple[Any, ...], ...]] = {
    SWAP_OTHER: (("pair",),),
    SWAP_OWN: (("own1",),),
    DRAW_THREE: (("three", ()),),
    LOOK: (("look",),),
    DOUBLE_MOVE: (("turn", 1), ("turn", 1)),     # two extra turns
    DEFENSE: (("turn", 1),),                     # played on one's own turn: an extra turn
    REACTIVATION: (("replay",),),
    THIEF: (("steal",),),
}


# The positions whose bit is set, and the face-up flags, for every 12-bit mask.
_POSITIONS = tuple(tuple(p for p in range(12) if (mask >> p) & 1) for mask in range(1 << 12))
_FACE_UP = tuple(tuple((mask >> p) & 1 == 1 for p in range(12)) for mask in range(1 << 12))


def _swap_bits(masks: list[int], ia: int, pa: int, ib: int, pb: int) -> None:
    """Exchange bit pa of masks[ia] with bit pb of masks[ib] (ia may equal ib)."""
    if ((masks[ia] >> pa) ^ (masks[ib] >> pb)) & 1:
        masks[ia] ^= 1 << pa
        masks[ib] ^= 1 << pb


class SkyjoActionState(State):
    """One position of a Skyjo Action game."""

    game = "skyjo-action"
    __slots__ = (
        "cfg", "round_no", "cur", "turn_no", "round_start", "cards", "up", "known", "lock", "held", "deck",
        "discard", "adeck", "arow", "adiscard", "ender", "finals", "stack", "totals", "rounds", "last_grids",
        "over", "box", "_history_text", "_legal", "_obs", "_pub",
    )

    def __init__(self, players: int, seed: int, options: dict[str, Any]) -> None:
        super().__init__(players, seed, options)
        self.cfg = Config.from_options(players, self.options)
        self.round_no = 0
        self.cur = 0
        self.turn_no = 0
        self.round_start = 0
        self.cards: list[list[int]] = [[] for _ in range(players)]
        self.up = [0] * players
        self.known = [0] * (players * players)
        self.lock = [0] * players
        self.held: list[tuple[tuple[int, bool, int], ...]] = [()] * players
        self.deck: list[int] = []
        self.discard: list[int] = []
        self.adeck: list[int] = []
        self.arow = [-1] * ROW_SIZE
        self.adiscard: list[int] = []
        self.ender = -1
        self.finals: tuple[int, ...] = ()
        self.stack: list[Frame] = []
        self.totals = [0] * players
        self.rounds: tuple[tuple[Any, ...], ...] = ()
        self.last_grids: tuple[tuple[int | str | None, ...], ...] = ()
        self.over = ""
        self.box: tuple[int, ...] = ()
        self._history_text = "((), ())"
        self._legal: tuple[A.Move, ...] = ()
        self._obs: dict[int, dict[str, Any]] = {}
        self._pub: list[dict[str, Any]] | None = None
        setup = Setup.parse(players, self.options) if self.options.get("setup") is not None else Setup()
        if setup.totals is not None:
            self.totals = list(setup.totals)
        self._deal(setup, -1 if setup.first is None else setup.first)
        self._run()

    # ----- the contract -----------------------------------------------------------------
    def to_move(self) -> tuple[int, ...]:
        stack = self.stack
        return (stack[-1][1],) if stack else ()

    def _legal_actions(self, seat: int) -> list[Any]:
        stack = self.stack
        if stack and stack[-1][1] == seat:
            return list(self._legal)
        return []

    def _is_legal(self, seat: int, action: Any) -> bool:
        stack = self.stack
        return bool(stack) and stack[-1][1] == seat and action in self._legal

    def _parse_action(self, seat: int, text: str) -> Any:
        move = A.parse_move(text)
        if self._is_legal(seat, move):
            return move
        raise IllegalAction(self._illegal_message(seat, text.strip()))

    def _apply(self, actions: dict[int, Any]) -> None:
        ((_, move),) = actions.items()
        legal = self._legal
        move = legal[legal.index(move)]          # the canonical instance
        frame = self.stack[-1]
        _APPLY[frame[0]](self, frame, move)
        self._run()

    def result(self) -> Result | None:
        if not self.over:
            return None
        details = {
            "rounds": self.round_no,
            "round_scores": [list(r[1]) for r in self.rounds],
            "enders": [None if r[2] < 0 else r[2] for r in self.rounds],
            "end_score": self.cfg.end_score,
        }
        if self.over == "round-limit":
            details["why"] = f"no one reached {self.cfg.end_score} points within max_rounds={self.cfg.max_rounds}"
        return Result.from_scores(list(self.totals), self.over, lower_is_better=True, details=details)

    def _copy_into(self, twin: State) -> None:
        assert isinstance(twin, SkyjoActionState)
        twin.cfg = self.cfg
        twin.round_no = self.round_no
        twin.cur = self.cur
        twin.turn_no = self.turn_no
        twin.round_start = self.round_start
        twin.cards = [row[:] for row in self.cards]
        twin.up = self.up[:]
        twin.known = self.known[:]
        twin.lock = self.lock[:]
        twin.held = self.held[:]
        twin.deck = self.deck[:]
        twin.discard = self.discard[:]
        twin.adeck = self.adeck[:]
        twin.arow = self.arow[:]
        twin.adiscard = self.adiscard[:]
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
        twin._obs = {}
        twin._pub = None

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
        for seq in (*self.cards, self.deck, self.discard, self.adeck, self.arow, self.adiscard, self.lock,
                    self.finals, self.box):
            cards.append(len(seq))
            cards.extend(seq)
        ints = array("q", (self.round_no, self.cur, self.turn_no, self.round_start, self.ender))
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
        full = self.cfg.full_mask
        rows: list[tuple[list[int], tuple[int, ...]]] = []
        values: list[int] = []
        base = seat * players
        for o in range(players):
            row = twin.cards[o]
            positions = _POSITIONS[~(twin.up[o] | twin.known[base + o]) & full]
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
        held_slots = [(o, i) for o in range(players) if o != seat for i, slot in enumerate(twin.held[o])
                      if not slot[1]]
        if not held_slots:
            twin.adeck = rng.shuffled(twin.adeck) if len(twin.adeck) > 1 else twin.adeck
            return twin._after_resample()
        apool = rng.shuffled([twin.held[o][i][0] for o, i in held_slots] + twin.adeck)
        for k, (o, i) in enumerate(held_slots):
            hand = list(twin.held[o])
            _, public, taken = hand[i]
            hand[i] = (apool[k], public, taken)
            twin.held[o] = tuple(hand)
        twin.adeck = apool[len(held_slots):]
        return twin._after_resample()

    def _after_resample(self) -> State:
        if self.stack:
            frame = self.stack[-1]
            self._legal = tuple(_LEGAL[frame[0]](self, frame))
        return self

    # ----- views --------------------------------------------------------------------------
    def _observation(self, seat: int) -> dict[str, Any]:
        """Built once per position and seat (the referee, the bots and the checks ask
        repeatedly); each call gets its own top-level dict."""
        view = self._obs.get(seat)
        if view is None:
            view = self._obs[seat] = self._view(seat)
        return dict(view)

    def public_view(self) -> dict[str, Any]:
        view = self._view(-1)
        view["previous_grids"] = [list(g) for g in self.last_grids]
        return view

    def _view(self, viewer: int) -> dict[str, Any]:
        cfg = self.cfg
        stack = self.stack
        top = stack[-1] if stack else None
        return {
            "seat": viewer if viewer >= 0 else None,
            "players": self.players,
            "rows": cfg.layout.rows,
            "cols": cfg.layout.cols,
            "round": self.round_no,
            "current": self.cur,
            "to_move": list(self.to_move()),
            "decision": DECISION_NAMES[top[0]] if top else None,
            "pending": self._pending(top) if top else {},
            "areas": self._areas(viewer),
            "fresh": [taken == self.turn_no for _, _, taken in self.held[viewer]] if viewer >= 0 else [],
            "deck": len(self.deck),
            "discard": card_json(self.discard[-1]) if self.discard else None,
            "discard_size": len(self.discard),
            "action_deck": len(self.adeck),
            "action_row": [TYPE_NAMES[t] if t >= 0 else None for t in self.arow],
            "action_discard": [TYPE_NAMES[t] for t in self.adiscard],
            "ender": self.ender if self.ender >= 0 else None,
            "last_turns": list(self.finals),
            "rounds": [{"round": r[0], "scores": list(r[1]), "ender": r[2] if r[2] >= 0 else None,
                        "doubled": r[3], "forced": r[4]} for r in self.rounds],
        }

    def _areas(self, viewer: int) -> list[dict[str, Any]]:
        """Every play area as ``viewer`` sees it. The public form of each area is built once
        per position and shared by the seats' observations (treat observations as
        read-only); only the viewer's own area and areas where it has looked at face-down
        cards are built for it."""
        public = self._pub
        if public is None:
            public = self._pub = [self._area(o, -1) for o in range(self.players)]
        if viewer < 0:
            return list(public)
        players = self.players
        known = self.known
        up = self.up
        out = list(public)
        base = viewer * players
        for o in range(players):
            if o == viewer or known[base + o] & ~up[o]:
                out[o] = self._area(o, viewer)
        return out

    def _area(self, o: int, viewer: int) -> dict[str, Any]:
        row = self.cards[o]
        up = self.up[o]
        visible = up | self.known[viewer * self.players + o] if viewer >= 0 else up
        size = len(row)
        cards = list(map(CARD_JSON.__getitem__, row))        # EMPTY is None already
        for p in _POSITIONS[~visible & ((1 << size) - 1)]:
            cards[p] = None
        face: list[bool | None] = list(_FACE_UP[up][:size])
        if EMPTY in row:
            for p, c in enumerate(row):
                if c == EMPTY:
                    face[p] = None
        return {
            "cards": cards,
            "face_up": face,
            "lock": LOCK_NAMES[self.lock[o]],
            "held": [TYPE_NAMES[t] if public or o == viewer else None for t, public, _ in self.held[o]],
            "total": self.totals[o],
        }

    def _pending(self, f: Frame) -> dict[str, Any]:
        kind = f[0]
        codes = self.cfg.codes
        if kind == "turn":
            return {"extra": bool(f[2])}
        if kind in ("drawn", "place"):
            return {"card": card_json(f[2])}
        if kind == "star":
            return {"optional": not f[2]}
        if kind in ("top", "keep3"):
            return {"cards": [card_json(c) for c in f[2]]}
        if kind == "hold":
            return {"card": TYPE_NAMES[f[2]]}
        if kind == "lines":
            return {"lines": [line_text(code) for code in f[3]]}
        if kind == "defend":
            return {"by": f[2], **self._hit_view(f[3])}
        card = DECISION_CARD.get(kind)
        if card is None:
            return {}
        view: dict[str, Any] = {"card": TYPE_NAMES[card]}
        if kind == "pickA":
            view.update(players=[f[2], f[3]], picked=[])
        elif kind == "pickB":
            view.update(players=[f[2], f[4]], picked=[pos_text(codes[f[3]])])
        elif kind == "own1":
            view.update(picked=[])
        elif kind == "own2":
            view.update(picked=[pos_text(codes[f[2]])])
        elif kind == "mtarget":
            view.update(target=f[2])
        return view

    def _hit_view(self, hit: tuple[Any, ...]) -> dict[str, Any]:
        """What a Defense holder is asked about: the card and what it would do to whom."""
        codes = self.cfg.codes
        kind = hit[0]
        view: dict[str, Any] = {"card": TYPE_NAMES[HIT_CARD[kind]]}
        if kind == "swap":
            view["swap"] = [[hit[1], pos_text(codes[hit[2]])], [hit[3], pos_text(codes[hit[4]])]]
        elif kind == "look":
            view["look"] = [hit[1], line_text(hit[2])]
        elif kind == "meteor":
            target = hit[2]
            view["remove"] = [hit[1], f"held {target - A.HELD}" if target >= A.HELD else pos_text(codes[target])]
        else:
            view["steal"] = [hit[1], f"held {hit[2]}"]
        return view

    # ----- the driver ----------------------------------------------------------------------
    def _run(self) -> None:
        """Run automatic steps until a decision (with at least one legal action) is on top.
        A decision with no legal action cannot be taken and is skipped (e.g. a star taken
        when the action row is empty, an extra turn cancelled by the round end)."""
        self._obs = {}                  # the position changes: cached views are stale
        self._pub = None
        stack = self.stack
        while stack:
            frame = stack[-1]
            auto = _AUTO.get(frame[0])
            if auto is not None:
                auto(self, frame)
                continue
            legal = _LEGAL[frame[0]](self, frame)
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
        cfg = self.cfg
        players = self.players
        size = cfg.size
        self.round_no += 1
        self.round_start = self._decisions
        self.box = ()
        self.ender = -1
        self.finals = ()
        self.lock = list(setup.lock) if setup.lock is not None else [0] * players
        self.known = [0] * (players * players)
        self.held = [()] * players
        self.adiscard = []
        self.arow = [-1] * ROW_SIZE
        self.adeck = []
        given_grids = setup.grids
        given_discard = setup.discard
        if setup.deck is not None:
            deck = list(reversed(setup.deck))
            need = (0 if given_grids else players * size) + (0 if given_discard else 1)
            if len(deck) < need:
                raise OptionError(f"skyjo-action: setup.deck has {len(deck)} cards but dealing needs at least "
                                  f"{need}; give more cards or give setup.grids/discard.")
        else:
            pool = number_deck(cfg.stars)
            given = [c for grid in given_grids or [] for c in grid] + list(given_discard or [])
            for card in given:
                if card < ACTION0:
                    pool.remove(card)
            if cfg.single:
                rest = cfg.action_cards()
                placed = [c - ACTION0 for c in given if c >= ACTION0]
                for t in placed:
                    rest.remove(t)
                mixed = self.shuffle("single-deck", rest)
                chosen = cfg.single - len(placed)
                pool += [ACTION0 + t for t in mixed[:chosen]]
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
                self.adiscard.append(card - ACTION0)
                if not deck:
                    raise OptionError("skyjo-action: setup.deck ran out while turning the first discard over.")
                card = deck.pop()
            self.discard = [card]
        if cfg.row_mode:
            if setup.action_deck is not None:
                self.adeck = list(reversed(setup.action_deck))
            else:
                pool = cfg.action_cards()
                used = [t for t in setup.action_row or [] if t >= 0]
                used += [t for hand in setup.held or [] for t in hand] + list(setup.action_discard or [])
                for t in used:
                    pool.remove(t)
                self.adeck = self.shuffle("action-deck", pool)
            if setup.action_row is not None:
                self.arow = list(setup.action_row)
            else:
                self.arow = [self.adeck.pop() if self.adeck else -1 for _ in range(ROW_SIZE)]
        if setup.held is not None:
            self.held = [tuple((t, True, self.turn_no) for t in hand) for hand in setup.held]
        self.adiscard += list(setup.action_discard or [])
        reveals: list[tuple[int, ...]] = []
        for s in range(players):
            if setup.reveal is not None:
                reveals.append(tuple(setup.reveal[s]))
                continue
            a = self.draw_below("reveal", size)
            if cfg.reveals == 1:
                reveals.append((a,))
            else:
                b = self.draw_below("reveal", size - 1)
                reveals.append((a, b if b < a else b + 1))
        self.stack.append(("opening", first))
        for s in reversed(range(players)):
            self.stack.append(("sreveal", s, reveals[s]))

    # ----- helpers used by the steps --------------------------------------------------------
    def _pop_main(self) -> int | None:
        """Top card of the main deck; an empty deck is replaced by the discard pile but its top
        card, shuffled. None only if both are exhausted (cannot happen with the published deck)."""
        if not self.deck:
            if len(self.discard) <= 1:
                return None
            top = self.discard[-1]
            self.deck = self.shuffle("reshuffle", self.discard[:-1])
            self.discard = [top]
        return self.deck.pop()

    def _pop_action(self) -> int:
        """Top card of the action deck (the action discard pile is shuffled in when it is
        empty, RULINGS.md), or -1 when there is none."""
        if not self.adeck:
            if not self.adiscard:
                return -1
            self.adeck = self.shuffle("action-reshuffle", self.adiscard)
            self.adiscard = []
        return self.adeck.pop()

    def _row_take(self, t: int) -> None:
        """Take the leftmost card of type t from the action row and restock its place."""
        i = self.arow.index(t)
        self.arow[i] = self._pop_action()

    def _give(self, s: int, t: int, public: bool) -> None:
        self.held[s] = self.held[s] + ((t, public or self.cfg.open_hands, self.turn_no),)

    def _take_slot(self, s: int, i: int) -> int:
        hand = self.held[s]
        self.held[s] = hand[:i] + hand[i + 1:]
        return hand[i][0]

    def _use(self, s: int, t: int) -> None:
        """Remove the first card of type t that may be activated now (not taken this turn)."""
        turn = self.turn_no
        for i, (kind, _, taken) in enumerate(self.held[s]):
            if kind == t and taken != turn:
                self._take_slot(s, i)
                return
        raise AssertionError("no usable card of that type")

    def _pick_slot(self, o: int, t: int) -> int:
        """The held slot a ``remove``/``steal`` names: the first public card of that type, or
        for ``hidden`` a uniformly random one of the cards the chooser cannot see."""
        hand = self.held[o]
        if t != A.NONE:
            return next(i for i, (kind, public, _) in enumerate(hand) if kind == t and public)
        hidden = [i for i, slot in enumerate(hand) if not slot[1]]
        return hidden[0] if len(hidden) == 1 else hidden[self.draw_below("hidden-card", len(hidden))]

    def _forget(self, s: int, bit: int) -> None:
        """A new card lies at that position of seat s: nobody has looked at it."""
        players = self.players
        known = self.known
        for i in range(s, players * players, players):
            known[i] &= ~bit

    def _present(self, s: int) -> int:
        """The mask of the positions that hold a card (a cleared line leaves its positions empty)."""
        row = self.cards[s]
        if EMPTY not in row:
            return self.cfg.full_mask
        return sum(1 << p for p, c in enumerate(row) if c != EMPTY)

    def _face_down(self, s: int) -> int:
        return self._present(s) & ~self.up[s]

    def _place(self, s: int, p: int, card: int) -> None:
        """Put a card face up at p; the card it replaces goes on the main discard pile (a
        face-down action card found there is kept or discarded by its owner instead)."""
        row = self.cards[s]
        old = row[p]
        row[p] = card
        bit = 1 << p
        self.up[s] |= bit
        self._forget(s, bit)
        self.stack.append(("placed", s, p))
        if old >= ACTION0:
            self.stack.append(("hold", s, old - ACTION0))
        else:
            self.discard.append(old)

    def _to_discard(self, s: int, cards: list[int]) -> None:
        """Cards going onto the main discard pile "in the order of your choice": only the top
        one can ever matter, so the owner chooses it when they differ."""
        if len(set(cards)) <= 1:
            self.discard.extend(cards)
        else:
            self.stack.append(("top", s, tuple(sorted(cards))))

    def _clear_line(self, s: int, line: Line) -> list[int]:
        row = self.cards[s]
        removed = [row[p] for p in line.positions]
        for p in line.positions:
            row[p] = EMPTY
        self.up[s] &= ~line.mask
        self._forget(s, line.mask)
        self.lock[s] = line.kind
        return removed

    def _swap(self, a: int, pa: int, b: int, pb: int) -> None:
        """Exchange two cards; each keeps its face, and whoever had seen it still knows it."""
        ra, rb = self.cards[a], self.cards[b]
        ra[pa], rb[pb] = rb[pb], ra[pa]
        _swap_bits(self.up, a, pa, b, pb)
        players = self.players
        for o in range(0, players * players, players):
            _swap_bits(self.known, o + a, pa, o + b, pb)

    def _trigger(self, s: int) -> None:
        """Round end (RULINGS.md): the first area with every remaining card face up ends the
        round; each other player then takes exactly one more turn, in order from the current
        player's left, and the current turn's pending extra turns are cancelled."""
        if self.ender >= 0 or not R.all_face_up(self.cards[s], self.up[s]):
            return
        self.ender = s
        players = self.players
        cur = self.cur
        self.finals = tuple(x for x in ((cur + 1 + i) % players for i in range(players)) if x != s)
        self.stack[:] = [f for f in self.stack if not (f[0] == "turn" and f[2])]

    def _may_defend(self, target: int) -> bool:
        """Whether the target is asked: it holds a public Defense or any card the others
        cannot see (asking only real holders would tell everyone who holds one)."""
        return self.cfg.defense and any(t == DEFENSE or not public for t, public, _ in self.held[target])

    def _strike(self, s: int, hit: tuple[Any, ...], targets: list[int]) -> None:
        """An effect on other players: each target may answer with Defense first."""
        self.stack.append(("hit", s, hit))
        for target in reversed(targets):
            if self._may_defend(target):
                self.stack.append(("defend", target, s, hit))

    def _end_round(self, forced: bool) -> None:
        """Reveal and score (RULINGS.md), then start the next round or end the game."""
        cfg = self.cfg
        players = self.players
        for s in range(players):
            row = self.cards[s]
            up = self.up[s]
            revealed = 0
            for p in range(cfg.size):
                card = row[p]
                if card == EMPTY or (up >> p) & 1:
                    continue
                while card >= ACTION0:        # single deck: discarded (keeping only costs points), replaced
                    self.adiscard.append(card - ACTION0)
                    drawn = self._pop_main()
                    card = EMPTY if drawn is None else drawn
                row[p] = card
                if card != EMPTY:
                    up |= 1 << p
                    revealed |= 1 << p
            self.up[s] = up
            self._final_clears(s, revealed)
        self.known = [0] * (players * players)
        scores = [R.area_points(self.cards[s], cfg.lines, cfg.star_col, cfg.star_row) + cfg.penalty * len(self.held[s])
                  for s in range(players)]
        ender = -1 if forced else self.ender
        doubled = False
        if ender >= 0 and cfg.double:
            scores, doubled = R.doubled_scores(scores, ender)
        self.totals = [t + x for t, x in zip(self.totals, scores)]
        self.rounds += ((self.round_no, tuple(scores), ender, doubled, forced),)
        self.last_grids = tuple(tuple(CARD_JSON[c] for c in row) for row in self.cards)
        self._history_text = repr((self.rounds, self.last_grids))     # for snapshot(); changes once a round
        self.stack.clear()
        if R.game_over(self.totals, cfg.end_score):
            self.over = "score"
        elif self.round_no >= cfg.max_rounds:
            self.over = "round-limit"
        else:
            self._deal(Setup(), ender if ender >= 0 else (self.cur + 1) % players)

    def _final_clears(self, s: int, revealed: int) -> None:
        """Lines completed by the final reveal clear when that lowers the owner's score, within
        the owner's lock, columns first when unlocked (RULINGS.md)."""
        cfg = self.cfg
        while True:
            row = self.cards[s]
            before = R.area_points(row, cfg.lines, cfg.star_col, cfg.star_row)
            for line in R.clearable_lines(row, self.up[s], cfg.lines, revealed, self.lock[s]):
                after = list(row)
                for p in line.positions:
                    after[p] = EMPTY
                if R.area_points(after, cfg.lines, cfg.star_col, cfg.star_row) < before:
                    self.discard.extend(sorted(self._clear_line(s, line)))
                    break
            else:
                return

    def _begin_turn(self, s: int) -> None:
        self.cur = s
        self.turn_no += 1
        self.stack.append(("next",))
        self.stack.append(("turn", s, 0))

    # ----- automatic steps ------------------------------------------------------------------
    def _x_opening(self, f: Frame) -> None:
        """After the setup reveals: the first player, then the setup stars take action cards
        in turn order."""
        self.stack.pop()
        players = self.players
        first = f[1]
        if first < 0:
            revealed = [[c for p, c in enumerate(self.cards[s]) if (self.up[s] >> p) & 1] for s in range(players)]
            tied = R.opening_candidates(revealed)
            first = tied[0] if len(tied) == 1 else tied[self.draw_below("first-player", len(tied))]
        self.cur = first
        self.stack.append(("start", first))
        if self.cfg.row_mode:
            for i in reversed(range(players)):
                s = (first + i) % players
                up = self.up[s]
                for p, card in enumerate(self.cards[s]):
                    if card == STAR and (up >> p) & 1:
                        self.stack.append(("star", s, 1))

    def _x_start(self, f: Frame) -> None:
        self.stack.pop()
        self._begin_turn(f[1])

    def _x_next(self, f: Frame) -> None:
        """Between two regular turns: the next player, the last turns, or the round's end."""
        self.stack.pop()
        if self._decisions - self.round_start >= self.cfg.max_round_decisions:
            self._end_round(True)
        elif self.ender >= 0:
            if self.finals:
                s = self.finals[0]
                self.finals = self.finals[1:]
                self._begin_turn(s)
            else:
                self._end_round(False)
        else:
            self._begin_turn((self.cur + 1) % self.players)

    def _x_sreveal(self, f: Frame) -> None:
        _, s, positions = f
        if not positions:
            self.stack.pop()
            return
        self.stack[-1] = ("sreveal", s, positions[1:])
        p = positions[0]
        self.up[s] |= 1 << p
        card = self.cards[s][p]
        if card >= ACTION0:
            self._found_action(s, p, card, 0)

    def _found_action(self, s: int, p: int, card: int, mode: int) -> None:
        """Single deck: an action card turned over in a grid is kept or discarded by its
        owner, and a new card from the main deck replaces it face up."""
        self.cards[s][p] = EMPTY
        self.up[s] &= ~(1 << p)
        self.stack.append(("refill", s, p, mode))
        self.stack.append(("hold", s, card - ACTION0))

    def _x_refill(self, f: Frame) -> None:
        _, s, p, mode = f
        self.stack.pop()
        card = self._pop_main()
        if card is None:
            return
        self.cards[s][p] = card
        self.up[s] |= 1 << p
        self._forget(s, 1 << p)
        if mode:
            self.stack.append(("placed", s, p))
        elif card >= ACTION0:
            self._found_action(s, p, card, 0)

    def _x_placed(self, f: Frame) -> None:
        """After a card was placed or turned face up: action card found, round end, Skyjo
        lines, and a star lets its owner take an action card (star first, then lines)."""
        _, s, p = f
        self.stack.pop()
        card = self.cards[s][p]
        if card >= ACTION0:
            self._found_action(s, p, card, 1)
            return
        self._trigger(s)
        self.stack.append(("check", s, 1 << p))
        if card == STAR and self.cfg.row_mode:
            self.stack.append(("star", s, 0))

    def _x_check(self, f: Frame) -> None:
        """Skyjo lines formed where ``mask`` changed: the owner decides, and the step carries
        the clearable lines' codes so the decision's moves and view need not find them again
        (nothing changes the area while that decision is pending)."""
        _, s, mask = f
        self.stack.pop()
        lines = R.clearable_lines(self.cards[s], self.up[s], self.cfg.lines, mask, self.lock[s])
        if lines:
            self.stack.append(("lines", s, mask, tuple(line.code for line in lines)))

    def _x_draw(self, f: Frame) -> None:
        s = f[1]
        card = self._pop_main()
        if card is None:
            self.stack.pop()
        elif card >= ACTION0:
            self.stack.append(("hold", s, card - ACTION0))   # then draw again: the replacement
        else:
            self.stack[-1] = ("drawn", s, card)

    def _x_three(self, f: Frame) -> None:
        _, s, got = f
        if len(got) == 3:
            self.stack[-1] = ("keep3", s, got)
            return
        card = self._pop_main()
        if card is None:
            self.stack[-1] = ("keep3", s, got)
        elif card >= ACTION0:
            self.stack.append(("hold", s, card - ACTION0))
        else:
            self.stack[-1] = ("three", s, got + (card,))

    def _x_todisc(self, f: Frame) -> None:
        self.stack.pop()
        self._to_discard(f[1], list(f[2]))

    def _x_effect(self, f: Frame) -> None:
        """The effect of an activated action card (played, replayed or stolen)."""
        _, s, t = f
        stack = self.stack
        stack.pop()
        if t == METEOR:
            players = self.players
            stack.append(("meteor", s, tuple((s + i) % players for i in range(1, players))))
            return
        stack.extend((kind, s, *args) for kind, *args in EFFECT_STEPS[t])

    def _x_meteor(self, f: Frame) -> None:
        _, s, queue = f
        if not queue:
            self.stack.pop()
            return
        self.stack[-1] = ("meteor", s, queue[1:])
        self.stack.append(("mtarget", s, queue[0]))

    def _x_hit(self, f: Frame) -> None:
        """An effect on other players that no Defense stopped."""
        _, s, hit = f
        self.stack.pop()
        kind = hit[0]
        if kind == "swap":
            _, a, pa, b, pb = hit
            self._swap(a, pa, b, pb)
            self._trigger(a)
            self._trigger(b)
            self.stack.append(("check", b, 1 << pb))
            self.stack.append(("check", a, 1 << pa))
        elif kind == "look":
            _, o, code = hit
            self.known[s * self.players + o] |= self.cfg.line_by_code[code].mask & self._face_down(o)
        elif kind == "meteor":
            _, o, target = hit
            if target >= A.HELD:
                t = self._take_slot(o, target - A.HELD)
                self.discard.insert(0, ACTION0 + t)       # under the main discard pile, not replaced
            else:
                self.discard.insert(0, self.cards[o][target])
                card = self._pop_main()
                self.cards[o][target] = EMPTY if card is None else card   # replacements enter face down
                self.up[o] &= ~(1 << target)
                self._forget(o, 1 << target)
        else:
            _, o, i = hit
            t = self._take_slot(o, i)
            self.adiscard.append(t)
            self.stack.append(("effect", s, t))

    # ----- decisions: legal actions ------------------------------------------------------------
    def _moves_at_cards(self, s: int, moves: tuple[A.Move, ...], skip: int = -1) -> list[A.Move]:
        """The move for each position of seat s that still holds a card, but ``skip``: an empty
        position (a cleared Skyjo line) has no card to replace, swap or remove. ``moves`` lists
        one move per position, in grid order."""
        row = self.cards[s]
        if skip < 0 and EMPTY not in row:
            return list(moves)
        return [moves[p] for p, c in enumerate(row) if c != EMPTY and p != skip]

    def _l_turn(self, f: Frame) -> list[A.Move]:
        s = f[1]
        if f[2] and self.ender >= 0:
            return []
        out = []
        if self.deck or len(self.discard) > 1:
            out.append(A.DRAW)
        # Rule 1b takes a Number/Star card: an action card on top (Meteor shower puts them under
        # the pile, which the pile can run down to) stays there until a discard covers it.
        if self.discard and self.discard[-1] < ACTION0:
            out += self._moves_at_cards(s, self.cfg.take_discard)
        if self.cfg.row_mode and (self.adeck or self.adiscard or max(self.arow) >= 0):
            out.append(A.TAKE_ACTION)
        if self.ender < 0:
            turn = self.turn_no
            if any(taken != turn for _, _, taken in self.held[s]):
                out.append(A.ACTIVATE)
        return out

    def _l_takeact(self, f: Frame) -> list[A.Move]:
        out = [A.TAKE_DECK] if self.adeck or self.adiscard else []
        return out + [A.TAKE[t] for t in sorted(set(self.arow)) if t >= 0]

    def _l_activate(self, f: Frame) -> list[A.Move]:
        turn = self.turn_no
        usable = sorted({t for t, _, taken in self.held[f[1]] if taken != turn})
        return [A.PLAY[t] for t in usable] + [A.DROP[t] for t in usable]

    def _l_drawn(self, f: Frame) -> list[A.Move]:
        s = f[1]
        return [A.DISCARD, A.KEEP_DRAWN] if self._face_down(s) else [A.KEEP_DRAWN]

    def _l_place(self, f: Frame) -> list[A.Move]:
        return self._moves_at_cards(f[1], self.cfg.place)

    def _l_reveal(self, f: Frame) -> list[A.Move]:
        down = self._face_down(f[1])
        reveal = self.cfg.reveal
        return [reveal[p] for p in range(self.cfg.size) if (down >> p) & 1]

    def _l_star(self, f: Frame) -> list[A.Move]:
        types = sorted({t for t in self.arow if t >= 0})
        if not types:
            return []
        return ([] if f[2] else [A.STAR_PASS]) + [A.STAR_TAKE[t] for t in types]

    def _l_lines(self, f: Frame) -> list[A.Move]:
        return [A.CLEAR[code] for code in f[3]] + [A.CLEAR_NONE]

    def _l_top(self, f: Frame) -> list[A.Move]:
        return [A.TOP[c] for c in sorted(set(f[2]))]

    def _l_keep3(self, f: Frame) -> list[A.Move]:
        out = [A.KEEP_NONE] if self._face_down(f[1]) or not f[2] else []
        return out + [A.KEEP[c] for c in sorted(set(f[2]))]

    def _l_hold(self, f: Frame) -> list[A.Move]:
        return [A.DISCARD, A.HOLD]

    def _l_pair(self, f: Frame) -> list[A.Move]:
        holders = [o for o in range(self.players) if self._present(o)]
        return [A.BETWEEN[(a, b)] for i, a in enumerate(holders) for b in holders[i + 1:]]

    def _l_pick(self, s: int, skip: int = -1) -> list[A.Move]:
        return self._moves_at_cards(s, self.cfg.pick[s], skip)

    def _l_pickA(self, f: Frame) -> list[A.Move]:
        return self._l_pick(f[2])

    def _l_pickB(self, f: Frame) -> list[A.Move]:
        return self._l_pick(f[4])

    def _l_own1(self, f: Frame) -> list[A.Move]:
        moves = self._l_pick(f[1])
        return moves if len(moves) > 1 else []

    def _l_own2(self, f: Frame) -> list[A.Move]:
        return self._l_pick(f[1], f[2])

    def _l_look(self, f: Frame) -> list[A.Move]:
        out = []
        for o in range(self.players):
            down = self._face_down(o)
            if down:
                out += [move for line, move in self.cfg.look[o] if line.mask & down]
        return out

    def _held_targets(self, o: int, public_moves: tuple[A.Move, ...], hidden_move: A.Move) -> list[A.Move]:
        hand = self.held[o]
        out = [public_moves[t] for t in sorted({t for t, public, _ in hand if public})]
        if any(not public for _, public, _ in hand):
            out.append(hidden_move)
        return out

    def _l_mtarget(self, f: Frame) -> list[A.Move]:
        o = f[2]
        return self._moves_at_cards(o, self.cfg.remove[o]) + self._held_targets(o, A.REMOVE_HELD[o], A.REMOVE_HIDDEN[o])

    def _l_steal(self, f: Frame) -> list[A.Move]:
        s = f[1]
        out: list[A.Move] = []
        for o in range(self.players):
            if o != s:
                out += self._held_targets(o, A.STEAL[o], A.STEAL_HIDDEN[o])
        return out

    def _l_replay(self, f: Frame) -> list[A.Move]:
        return [A.REPLAY[t] for t in sorted(set(self.adiscard)) if t != REACTIVATION]

    def _l_defend(self, f: Frame) -> list[A.Move]:
        if any(t == DEFENSE for t, _, _ in self.held[f[1]]):
            return [A.ALLOW, A.DEFEND]
        return [A.ALLOW]

    # ----- decisions: effects -------------------------------------------------------------------
    def _a_turn(self, f: Frame, m: A.Move) -> None:
        s = f[1]
        if m is A.DRAW:
            self.stack[-1] = ("draw", s)
        elif m.verb == "take-discard":
            self.stack.pop()
            self._place(s, self.cfg.index_of_code[m.arg], self.discard.pop())
        elif m is A.TAKE_ACTION:
            self.stack[-1] = ("takeact", s)
        else:
            self.stack[-1] = ("activate", s)

    def _a_takeact(self, f: Frame, m: A.Move) -> None:
        s = f[1]
        self.stack.pop()
        if m.arg == A.NONE:
            self._give(s, self._pop_action(), False)
        else:
            self._row_take(m.arg)
            self._give(s, m.arg, True)

    def _a_activate(self, f: Frame, m: A.Move) -> None:
        """Play or drop: the card goes onto the action discard pile either way."""
        s = f[1]
        self.stack.pop()
        self._use(s, m.arg)
        self.adiscard.append(m.arg)
        if m.verb == "play":
            self.stack.append(("effect", s, m.arg))

    def _a_drawn(self, f: Frame, m: A.Move) -> None:
        _, s, card = f
        if m is A.DISCARD:
            self.discard.append(card)
            self.stack[-1] = ("reveal", s)
        else:
            self.stack[-1] = ("place", s, card)

    def _a_place(self, f: Frame, m: A.Move) -> None:
        self.stack.pop()
        self._place(f[1], self.cfg.index_of_code[m.arg], f[2])

    def _a_reveal(self, f: Frame, m: A.Move) -> None:
        s = f[1]
        p = self.cfg.index_of_code[m.arg]
        self.stack.pop()
        self.up[s] |= 1 << p
        self._forget(s, 1 << p)
        self.stack.append(("placed", s, p))

    def _a_star(self, f: Frame, m: A.Move) -> None:
        self.stack.pop()
        if m.arg != A.NONE:
            self._row_take(m.arg)
            self._give(f[1], m.arg, True)

    def _a_lines(self, f: Frame, m: A.Move) -> None:
        _, s, mask, _ = f
        self.stack.pop()
        if m.arg == A.NONE:
            return
        line = self.cfg.line_by_code[m.arg]
        removed = self._clear_line(s, line)
        self.stack.append(("check", s, mask & ~line.mask))
        self._to_discard(s, removed)

    def _a_top(self, f: Frame, m: A.Move) -> None:
        self.stack.pop()
        rest = list(f[2])
        rest.remove(m.arg)
        self.discard.extend(rest)
        self.discard.append(m.arg)

    def _a_keep3(self, f: Frame, m: A.Move) -> None:
        _, s, cards = f
        self.stack.pop()
        if m.arg == A.NONE:
            self.stack.append(("reveal", s))
            self._to_discard(s, list(cards))
        else:
            rest = list(cards)
            rest.remove(m.arg)
            self.stack.append(("todisc", s, tuple(rest)))
            self.stack.append(("place", s, m.arg))

    def _a_hold(self, f: Frame, m: A.Move) -> None:
        self.stack.pop()
        if m is A.HOLD:
            self._give(f[1], f[2], True)
        else:
            self.adiscard.append(f[2])

    def _a_pair(self, f: Frame, m: A.Move) -> None:
        self.stack[-1] = ("pickA", f[1], m.seat, m.arg)

    def _a_pickA(self, f: Frame, m: A.Move) -> None:
        self.stack[-1] = ("pickB", f[1], f[2], self.cfg.index_of_code[m.arg], f[3])

    def _a_pickB(self, f: Frame, m: A.Move) -> None:
        _, s, a, pa, b = f
        self.stack.pop()
        self._strike(s, ("swap", a, pa, b, self.cfg.index_of_code[m.arg]), [x for x in (a, b) if x != s])

    def _a_own1(self, f: Frame, m: A.Move) -> None:
        self.stack[-1] = ("own2", f[1], self.cfg.index_of_code[m.arg])

    def _a_own2(self, f: Frame, m: A.Move) -> None:
        _, s, p = f
        q = self.cfg.index_of_code[m.arg]
        self.stack.pop()
        self._swap(s, p, s, q)
        self.stack.append(("check", s, (1 << p) | (1 << q)))

    def _a_look(self, f: Frame, m: A.Move) -> None:
        s = f[1]
        self.stack.pop()
        hit = ("look", m.seat, m.arg)
        if m.seat == s:
            self.stack.append(("hit", s, hit))
        else:
            self._strike(s, hit, [m.seat])

    def _a_mtarget(self, f: Frame, m: A.Move) -> None:
        _, s, o = f
        self.stack.pop()
        if m.arg == A.NONE:
            target = A.HELD + self._pick_slot(o, A.NONE)
        elif m.arg >= A.HELD:
            target = A.HELD + self._pick_slot(o, m.arg - A.HELD)
        else:
            target = self.cfg.index_of_code[m.arg]
        self._strike(s, ("meteor", o, target), [o])

    def _a_steal(self, f: Frame, m: A.Move) -> None:
        s = f[1]
        self.stack.pop()
        self._strike(s, ("steal", m.seat, self._pick_slot(m.seat, m.arg)), [m.seat])

    def _a_replay(self, f: Frame, m: A.Move) -> None:
        self.stack.pop()
        pile = self.adiscard
        i = len(pile) - 1 - pile[::-1].index(m.arg)
        del pile[i]
        pile.append(m.arg)                     # played, then back on top of the pile
        self.stack.append(("effect", f[1], m.arg))

    def _a_defend(self, f: Frame, m: A.Move) -> None:
        if m is A.ALLOW:
            self.stack.pop()
            return
        target = f[1]
        i = next(i for i, slot in enumerate(self.held[target]) if slot[0] == DEFENSE)
        self._take_slot(target, i)
        self.adiscard.append(DEFENSE)
        while self.stack.pop()[0] != "hit":    # the effect and the other targets' questions go
            pass


S = SkyjoActionState
_AUTO: dict[str, Callable[[S, Frame], None]] = {
    "opening": S._x_opening, "start": S._x_start, "next": S._x_next, "sreveal": S._x_sreveal,
    "refill": S._x_refill, "placed": S._x_placed, "check": S._x_check, "draw": S._x_draw, "three": S._x_three,
    "todisc": S._x_todisc, "effect": S._x_effect, "meteor": S._x_meteor, "hit": S._x_hit,
}
_LEGAL: dict[str, Callable[[S, Frame], list[A.Move]]] = {
    "turn": S._l_turn, "takeact": S._l_takeact, "activate": S._l_activate, "drawn": S._l_drawn,
    "place": S._l_place, "reveal": S._l_reveal, "star": S._l_star,
    "lines": S._l_lines, "top": S._l_top, "keep3": S._l_keep3, "hold": S._l_hold, "pair": S._l_pair,
    "pickA": S._l_pickA, "pickB": S._l_pickB, "own1": S._l_own1, "own2": S._l_own2, "look": S._l_look,
    "mtarget": S._l_mtarget, "steal": S._l_steal, "replay": S._l_replay, "defend": S._l_defend,
}
_APPLY: dict[str, Callable[[S, Frame, A.Move], None]] = {
    "turn": S._a_turn, "takeact": S._a_takeact, "activate": S._a_activate, "drawn": S._a_drawn,
    "place": S._a_place, "reveal": S._a_reveal, "star": S._a_star,
    "lines": S._a_lines, "top": S._a_top, "keep3": S._a_keep3, "hold": S._a_hold, "pair": S._a_pair,
    "pickA": S._a_pickA, "pickB": S._a_pickB, "own1": S._a_own1, "own2": S._a_own2, "look": S._a_look,
    "mtarget": S._a_mtarget, "steal": S._a_steal, "replay": S._a_replay, "defend": S._a_defend,
}
