"""The shared State API every game implements (the OpenSpiel-style contract of DESIGN.md).

A game subclasses :class:`State` and supplies the rules; this base owns what must be
identical across games: checking every argument of the public API (a wrong seat or type is
refused here, before any game code runs), validating ``apply`` (illegal input leaves the
state untouched), recording moves and chance outcomes for the replay, the state hash, and
cheap cloning of the shared fields. History is a persistent linked list so clones share it
for free.

The seat-taking calls are template methods: the public ``legal_actions``, ``is_legal``,
``parse_action`` and ``observation`` check their arguments and call the game's
``_legal_actions``, ``_is_legal``, ``_parse_action`` and ``_observation``, which may
assume a valid seat.
"""

from __future__ import annotations

import hashlib
import json
import operator
from abc import ABC, abstractmethod
from collections.abc import Hashable, Iterator, Mapping, Sequence
from typing import Any, ClassVar, TypeVar

from .errors import ArgumentError, IllegalAction, SeatError
from .result import Result
from .rng import CounterRng

T = TypeVar("T")

# An action is any immutable, hashable value whose str() is its canonical notation.
Action = Hashable

# History node: (previous node, entry). Entries are ("m", ((seat, action), ...)) for moves
# and ("c", label, value) for chance outcomes.
HistoryNode = tuple[Any, tuple[Any, ...]] | None


class State(ABC):
    """One position of one game. See DESIGN.md, "Engine contract"."""

    game: ClassVar[str] = ""

    __slots__ = ("players", "seed", "options", "_rng", "_history", "_decisions")

    def __init__(self, players: int, seed: int, options: Mapping[str, Any]) -> None:
        self.players = players
        self.seed = seed
        # Treated as read-only and shared between clones.
        self.options: dict[str, Any] = dict(options)
        self._rng = CounterRng(seed)
        self._history: HistoryNode = None
        self._decisions = 0

    # ----- the rules: supplied by each game -------------------------------------------
    @abstractmethod
    def to_move(self) -> tuple[int, ...]:
        """Seats that must act now; () when the game is over; several for simultaneous choices."""

    @abstractmethod
    def _legal_actions(self, seat: int) -> list[Any]:
        """Legal actions of that (valid) seat in canonical order; [] if it is not to move."""

    @abstractmethod
    def _apply(self, actions: dict[int, Any]) -> None:
        """Apply already-validated actions of every seat in to_move()."""

    @abstractmethod
    def _observation(self, seat: int) -> dict[str, Any]:
        """Everything that (valid) seat may know, as JSON-ready data, and nothing more."""

    @abstractmethod
    def public_view(self) -> dict[str, Any]:
        """What a spectator may know."""

    @abstractmethod
    def result(self) -> Result | None:
        """The result once the game is over, else None."""

    @abstractmethod
    def _copy_into(self, twin: State) -> None:
        """Copy the game's own fields into a fresh instance (no deepcopy)."""

    @abstractmethod
    def snapshot(self) -> dict[str, Any]:
        """The complete game state as JSON-ready data (hidden parts included); hashed."""

    @abstractmethod
    def resample_hidden(self, seat: int, rng: CounterRng) -> State:
        """A clone in which everything ``seat`` cannot see is redrawn at random, consistent
        with what it has seen. The no-leak invariant checks that its observation and legal
        actions do not change."""

    # ----- shared machinery ------------------------------------------------------------
    def public_options(self) -> dict[str, Any]:
        """The options a bot may be told: all but ``setup``, which would reveal the deal."""
        return {k: v for k, v in self.options.items() if k != "setup"}

    def with_fresh_chance(self, seat: int, seed: int) -> State:
        """A clone that goes on with fresh chance from here: whatever ``seat`` cannot see is redrawn
        (``resample_hidden``, consistent with all it has seen) and the dice re-keyed by ``seed``.
        Forks of a recorded match (``skyarena reproduce --fork-at --games N``) play on from it."""
        self._check_seat(seat, "with_fresh_chance")
        twin = self.resample_hidden(seat, CounterRng(seed))
        twin._rng = CounterRng(seed, counter=1 << 32)  # a stream apart from the one the redraw used
        return twin

    def is_over(self) -> bool:
        return not self.to_move()

    def legal_actions(self, seat: int) -> list[Any]:
        """Legal actions of that seat in canonical order; [] if it is not to move."""
        self._check_seat(seat, "legal_actions")
        return self._legal_actions(seat)

    def observation(self, seat: int) -> dict[str, Any]:
        """Everything that seat may know, as JSON-ready data, and nothing more."""
        self._check_seat(seat, "observation")
        return self._observation(seat)

    def parse_action(self, seat: int, text: str) -> Any:
        """The legal action of ``seat`` whose canonical string is ``text``."""
        self._check_seat(seat, "parse_action")
        if not isinstance(text, str):
            raise ArgumentError(
                f"{self.game}: parse_action: text must be a string in the game's action notation "
                f"(str() of a legal action), got {type(text).__name__} {text!r}."
            )
        return self._parsed_legal(seat, text)

    def is_legal(self, seat: int, action: Any) -> bool:
        """Whether ``action`` (an action value, not its notation) is legal for ``seat`` now."""
        self._check_seat(seat, "is_legal")
        return _is_action_value(action) and self._is_legal(seat, action) and self._same_class(seat, action)

    def _check_seat(self, seat: Any, call: str) -> None:
        # type() rather than isinstance: True is an int to Python but never a seat.
        if type(seat) is not int or not 0 <= seat < self.players:
            raise SeatError(
                f"{self.game}: {call}: seat must be an integer from 0 to {self.players - 1} "
                f"(this game has {self.players} players), got {seat!r}."
            )

    def _parsed_legal(self, seat: int, text: str) -> Any:
        """The game's parse of ``text``, refused unless a legal action of its very class
        equals it. Games parse text into a value and test it with ``_is_legal``, which
        compares by value: tuple actions of different kinds compare equal when their fields
        do (Oddball's ``protect 1`` equals ``Announce(1)``, its ``ready`` equals ``play 0``),
        and text naming one kind of decision would pass as another and crash ``_apply``
        half-way. The class check here holds for every game's parser, present or future."""
        action = self._parse_action(seat, text)
        if not self._same_class(seat, action):
            raise IllegalAction(self._illegal_message(seat, str(action)))
        return action

    def _parse_action(self, seat: int, text: str) -> Any:
        """Games with a parser override this to parse once and say why a well-formed action
        is illegal; this default compares ``text`` with every legal action's notation."""
        text = text.strip()
        for action in self._legal_actions(seat):
            if str(action) == text:
                return action
        raise IllegalAction(self._illegal_message(seat, text))

    def _illegal_message(self, seat: int, text: str) -> str:
        legal = [str(a) for a in self._legal_actions(seat)]
        if not legal:
            return f"{self.game}: seat {seat} is not to move now (to move: {list(self.to_move())})."
        return f"{self.game}: {text!r} is not a legal action for seat {seat} now; legal: {_listed(legal)}."

    def _is_legal(self, seat: int, action: Any) -> bool:
        """Games may override with a faster test; must agree with _legal_actions()."""
        return action in self._legal_actions(seat)

    def apply(self, actions: Mapping[int, Any]) -> None:
        """Apply one action per seat in to_move(); strings are parsed. Illegal -> IllegalAction,
        a wrong argument type -> ArgumentError, and either way the state is exactly as before."""
        if not isinstance(actions, Mapping):
            raise ArgumentError(
                f"{self.game}: apply takes a mapping of seat to action, such as {{0: 'pass'}}, "
                f"got {type(actions).__name__} {actions!r}."
            )
        movers = self.to_move()
        if not movers:
            raise IllegalAction(f"{self.game}: the game is over; no more actions.")
        if len(actions) != len(movers) or set(actions) != set(movers):
            raise IllegalAction(
                f"{self.game}: expected one action for each of seats {list(movers)}, "
                f"got seats {sorted(actions, key=repr)}."
            )
        checked: dict[int, Any] = {}
        for seat in movers:
            action = actions[seat]
            if isinstance(action, str):
                action = self._parsed_legal(seat, action)
            elif not _is_action_value(action) or not self._is_legal(seat, action) \
                    or not self._same_class(seat, action):
                raise IllegalAction(self._not_an_action_message(seat, action))
            checked[seat] = action
        self.apply_legal(checked)

    def _same_class(self, seat: int, action: Any) -> bool:
        """A legal action equal to ``action`` is also of its class. The games' ``_is_legal``
        compare by value, and tuples of different classes are equal when their fields are
        (Oddball's ``Announce(2) == Protect(2)``): without this a NamedTuple of the wrong
        kind would pass as legal and be applied as what it is not. Dataclass actions already
        compare their class."""
        if not isinstance(action, tuple):
            return True
        kind, legal = type(action), self._legal_actions(seat)
        try:  # the first equal legal action, found in C: nearly always the very object passed
            if type(legal[operator.indexOf(legal, action)]) is kind:
                return True
        except ValueError:
            return False
        return any(type(other) is kind and other == action for other in legal)

    def _not_an_action_message(self, seat: int, action: Any) -> str:
        """Why a value that is not notation was refused. An integer is most likely an index
        into legal_actions (which bots may answer with): say who resolves those."""
        if type(action) is not int:
            return self._illegal_message(seat, str(action))
        legal = self._legal_actions(seat)
        meant = f"; index {action} would be {str(legal[action])!r}" if 0 <= action < len(legal) else ""
        return (
            f"{self.game}: seat {seat} sent the integer {action}: apply takes an action from "
            f"legal_actions({seat}) or its notation string; indexes into legal_actions are resolved "
            f"by the match runner, not the engine{meant}."
        )

    def apply_legal(self, checked: dict[int, Any]) -> None:
        """Apply a joint action whose every action was already found legal in this very state,
        keyed by the seats of ``to_move()`` in order. The match runner resolves each answer
        against the legal actions it handed out, so checking again in ``apply`` would only
        repeat the engine's slowest call on the referee's hot path."""
        self._history = (self._history, ("m", tuple(checked.items())))
        self._decisions += 1
        self._apply(checked)

    def clone(self) -> State:
        cls = self.__class__
        twin = cls.__new__(cls)
        twin.players = self.players
        twin.seed = self.seed
        twin.options = self.options
        twin._rng = self._rng.copy()
        twin._history = self._history
        twin._decisions = self._decisions
        self._copy_into(twin)
        return twin

    @property
    def decisions(self) -> int:
        """Number of apply() calls so far."""
        return self._decisions

    # ----- chance: every outcome is drawn here and recorded ------------------------------
    def _chance(self, label: str, value: Any) -> None:
        self._history = (self._history, ("c", label, value))

    def roll_dice(self, label: str, count: int, sides: int = 6) -> list[int]:
        rng = self._rng
        values = [rng.below(sides) + 1 for _ in range(count)]
        self._chance(label, values)
        return values

    def draw_below(self, label: str, n: int) -> int:
        value = self._rng.below(n)
        self._chance(label, value)
        return value

    def shuffle(self, label: str, items: Sequence[T]) -> list[T]:
        """A shuffled copy; the replay records the permutation (indices into ``items``)."""
        order = self._rng.shuffled(range(len(items)))
        self._chance(label, order)
        return [items[i] for i in order]

    # ----- replay and hashing ----------------------------------------------------------
    def history(self) -> list[tuple[Any, ...]]:
        entries: list[tuple[Any, ...]] = []
        node = self._history
        while node is not None:
            node, entry = node
            entries.append(entry)
        entries.reverse()
        return entries

    def iter_moves(self) -> Iterator[dict[int, Any]]:
        for entry in self.history():
            if entry[0] == "m":
                yield dict(entry[1])

    def recent_moves(self, count: int) -> list[dict[int, Any]]:
        """The last ``count`` joint moves, oldest first, walking the history back only as far
        as needed (the referee asks after every step; ``history()`` would copy the whole game)."""
        moves: list[dict[int, Any]] = []
        node = self._history
        while node is not None and len(moves) < count:
            node, entry = node
            if entry[0] == "m":
                moves.append(dict(entry[1]))
        moves.reverse()
        return moves

    def state_hash(self) -> str:
        payload = {"game": self.snapshot(), "rng": self._rng.counter, "decisions": self._decisions}
        text = json.dumps(payload, sort_keys=True, separators=(",", ":"), default=str)
        return hashlib.sha256(text.encode()).hexdigest()[:32]

    def replay(self) -> list[dict[str, Any]]:
        """The replay as a list of JSON-ready records (one per line in a .jsonl file)."""
        from .registry import spec as game_spec

        records: list[dict[str, Any]] = [
            {
                "type": "header",
                "format": 1,
                "game": self.game,
                "version": game_spec(self.game).version,
                "players": self.players,
                "seed": self.seed,
                "options": self.options,
            }
        ]
        n = 0
        for entry in self.history():
            if entry[0] == "m":
                n += 1
                records.append({"type": "move", "n": n, "actions": {str(s): str(a) for s, a in entry[1]}})
            else:
                records.append({"type": "chance", "label": entry[1], "value": entry[2]})
        result = self.result()
        end: dict[str, Any] = {"type": "end", "decisions": self._decisions, "hash": self.state_hash()}
        if result is not None:
            end["result"] = result.to_json()
        records.append(end)
        return records


def _is_action_value(value: Any) -> bool:
    """Actions are hashable non-integer values; an int (or bool) is never one, and an
    unhashable value would break a game's set lookup instead of being refused."""
    if isinstance(value, int):
        return False
    try:
        hash(value)
    except TypeError:
        return False
    return True


def _listed(texts: list[str], shown: int = 8) -> str:
    """The first few of a long list of notations, and how many there are in all."""
    return ", ".join(texts[:shown]) + (f", ... ({len(texts)} in all)" if len(texts) > shown else "")
