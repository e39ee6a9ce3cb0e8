"""The views of a stored replay, step by step, re-created by re-playing its moves.

A replay stores only the game's header, its moves and its chance outcomes, so every
picture of the table is re-made by the engine: step 0 is the position after setup, step n
the position after the n-th move. Opening a replay only indexes its records; a step is
computed when asked for, from the closest position already computed: the position last
shown (so next/previous and autoplay cost one move or a short re-play) or one of the
checkpoints kept every ``checkpoint_every`` steps on the way (so a jump re-plays fewer
than that many moves once the replay has been walked).

Chance is re-drawn by the engine from the header's seed. At every checkpoint the outcomes
drawn so far are compared with the recorded ones, so a replay made by another engine
version fails with a clear ``ReplayError`` instead of showing a different game. A replay
whose chance records were grouped apart from the moves (``chance_in_order=False``) is
checked the same way against the outcomes' own order.

A step's text follows the visibility of the view it is shown with, exactly as the Arena's
public replay does (`referee.match.public_steps`): the spectator reads each move as the
game's rules make it public and the faults without their reasons; a seat's view adds that
seat's own moves and fault reasons. Every view's text gives the time each decider was charged
(its clock, wall or CPU, as the match record keeps it). No view's text names the seed or a chance outcome (a
die rolled behind a screen, a card dealt): the picture beside it would show it as ``?``.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.games import GAMES, ReplayError, State, make
from referee.games.core import replay as replay_io
from referee.games.core import visibility
from referee.games.core.views import private_copy
from referee.match.public_steps import charges_text, fault_text, moves_text, public_charges, public_fault, told_moves

CHECKPOINT_EVERY = 64


@dataclass(frozen=True)
class Step:
    """One position of the replay and what led to it."""

    index: int                          # 0: after setup; n: after the n-th move
    public: dict[str, Any]              # public_view(): the spectator's view
    seats: list[dict[str, Any]]         # observation(seat) for every seat
    actions: dict[int, str]             # the joint action that led here ({} at step 0)
    public_text: str                    # the move and its faults as a spectator is told them
    seat_texts: list[str]               # ... as each seat knows them (its own moves in full)
    over: bool = False
    result: dict[str, Any] | None = field(default=None)  # the recorded result, at the last step

    def text(self, seat: int | None = None) -> str:
        """The text that goes with ``view(seat)``: it tells no more than that view shows."""
        return self.public_text if seat is None else self.seat_texts[seat]

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """The spectator's view (``None``) or that seat's: what ``board_svg`` draws."""
        if seat is None:
            return self.public
        if not 0 <= seat < len(self.seats):
            raise IndexError(f"seat {seat} is not in this match; its seats are 0..{len(self.seats) - 1}")
        return self.seats[seat]


@dataclass
class _Position:
    index: int
    state: State


class ReplayViews:
    """Steps of one replay, made on demand: ``views[i]``, ``len(views)``, iteration."""

    def __init__(self, records: Sequence[Mapping[str, Any]], checkpoint_every: int = CHECKPOINT_EVERY,
                 chance_in_order: bool = True) -> None:
        if not records or records[0].get("type") != "header":
            raise ReplayError("a replay starts with its header record (type 'header'); is this a Skyarena replay?")
        if checkpoint_every < 1:
            raise ValueError("checkpoint_every must be at least 1")
        self.header: dict[str, Any] = dict(records[0])
        self.game: str = self.header["game"]
        self.players: int = self.header["players"]
        self._every = checkpoint_every
        self._moves: list[dict[int, str]] = []
        # _chance[n]: the outcomes recorded after move n (index 0: those of the setup).
        self._chance: list[list[tuple[str, Any]]] = [[]]
        self._faults: dict[int, list[dict[str, Any]]] = {}
        self._charges: dict[int, list[dict[str, Any]]] = {}  # step -> the time its deciders were charged
        self._chance_in_order = chance_in_order
        self._unplaced_chance: list[tuple[str, Any]] = []  # chance_in_order=False: the outcomes, in their order
        self.result: dict[str, Any] | None = None
        for record in records[1:]:
            kind = record.get("type")
            if kind == "move":
                self._moves.append({int(seat): text for seat, text in record["actions"].items()})
                self._chance.append([])
            elif kind == "chance":
                (self._chance[-1] if chance_in_order else self._unplaced_chance).append(
                    (record["label"], record["value"]))
            elif kind == "end":
                self.result = record.get("result")
            elif kind == "match":
                for fault in record.get("faults") or []:
                    self._faults.setdefault(int(fault["turn"]), []).append(fault)
                for charge in record.get("charges") or []:
                    self._charges.setdefault(int(charge["turn"]), []).append(charge)
        spec = GAMES.get(self.game)
        self.version_note = ""
        if spec is not None and self.header.get("version") not in (None, spec.version):
            self.version_note = (f"recorded with {self.game} engine v{self.header.get('version')}, "
                                 f"re-played with v{spec.version}")
        start = make(self.game, self.players, self.header["seed"], self.header.get("options") or {})
        self._checkpoints: dict[int, State] = {0: start}
        self._visible = visibility.policy(start)
        self._told: dict[int, list[dict[str, Any]]] = {0: []}  # step -> its moves as spectators are told them
        self._cursor = _Position(0, start.clone())
        self.moves_replayed = 0  # moves applied since opening: what the laziness saves, counted
        # One object may serve several viewers at once (a Streamlit resource cache shares it
        # between sessions' threads): moving the cursor and reading its views is one step.
        self._lock = threading.Lock()

    @property
    def checkpoints(self) -> tuple[int, ...]:
        """The steps whose positions are kept (0, then every ``checkpoint_every`` reached)."""
        return tuple(sorted(self._checkpoints))

    @classmethod
    def from_text(cls, text: str, source: str = "replay") -> ReplayViews:
        """From the JSON-lines text of a replay file (``skyarena play --replay-dir``)."""
        return cls(replay_io.loads(text, source))

    def __len__(self) -> int:
        return len(self._moves) + 1

    def __iter__(self) -> Iterator[Step]:
        return (self[i] for i in range(len(self)))

    def __getitem__(self, index: int) -> Step:
        if not isinstance(index, int):
            raise TypeError(f"a replay step is an integer, not {type(index).__name__}")
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(f"step {index} is outside this replay's 0..{len(self) - 1}")
        with self._lock:
            state = self._state_at(index)
            public = private_copy(state.public_view())
            seats = [private_copy(state.observation(seat)) for seat in range(self.players)]
            over = state.is_over()
            told = self._told[index]
        return Step(
            index=index,
            public=public,
            seats=seats,
            actions=dict(self._moves[index - 1]) if index else {},
            public_text=self._text(index, told, None),
            seat_texts=[self._text(index, told, seat) for seat in range(self.players)],
            over=over,
            result=self.result if index == len(self) - 1 else None,
        )

    def _text(self, index: int, told: list[dict[str, Any]], seat: int | None) -> str:
        """What happened at a step, as ``seat`` knows it (None: a spectator): the move, any faults."""
        if index == 0:
            lines = [f"setup: {self.players} players"]
        else:
            own = self._moves[index - 1]
            moves = [{"seat": seat, "action": own[seat]} if move["seat"] == seat and seat in own else move
                     for move in told]
            lines = [f"move {index}: {moves_text(moves)}"]
            timing = charges_text(public_charges(self._charges.get(index, [])))
            if timing:
                lines.append(timing)
        for fault in self._faults.get(index, []):
            mine = seat is not None and int(fault["seat"]) == seat
            lines.append(fault_text(public_fault(fault)) + (f" — {fault['reason']}" if mine else ""))
        return "\n".join(lines)

    # ----- re-playing -------------------------------------------------------------------
    def _state_at(self, index: int) -> State:
        base = max(i for i in self._checkpoints if i <= index)
        if not base <= self._cursor.index <= index:  # the cursor is behind a closer checkpoint, or past
            self._cursor = _Position(base, self._checkpoints[base].clone())
        cursor = self._cursor
        while cursor.index < index:
            self._advance(cursor)
        return cursor.state

    def _advance(self, cursor: _Position) -> None:
        move = self._moves[cursor.index]
        try:
            actions = {seat: cursor.state.parse_action(seat, text) for seat, text in move.items()}
            cursor.state.apply(actions)
        except Exception as exc:
            raise ReplayError(f"move {cursor.index + 1} of this replay cannot be re-played: {exc}"
                              + (f" ({self.version_note})" if self.version_note else "")) from None
        cursor.index += 1
        self._told.setdefault(cursor.index, told_moves(self._visible, actions))
        self.moves_replayed += 1
        if cursor.index % self._every == 0 and cursor.index not in self._checkpoints:
            self._check_chance(cursor.state, cursor.index)
            self._checkpoints[cursor.index] = cursor.state.clone()

    def _check_chance(self, state: State, index: int) -> None:
        produced = [(entry[1], entry[2]) for entry in state.history() if entry[0] == "c"]
        if not self._chance_in_order:
            recorded = self._unplaced_chance[: len(produced)]
        else:
            recorded = [outcome for outcomes in self._chance[: index + 1] for outcome in outcomes]
        for number, (mine, theirs) in enumerate(zip(produced, recorded), 1):
            if mine[0] != theirs[0] or json.loads(json.dumps(mine[1])) != theirs[1]:
                raise ReplayError(f"chance outcome {number} ({theirs[0]}) re-drawn by this engine differs from the "
                                  f"recorded one by step {index}: the replay was made by another engine version"
                                  + (f" ({self.version_note})" if self.version_note else ""))
        if len(produced) != len(recorded):
            raise ReplayError(f"by step {index} the re-play drew {len(produced)} chance outcomes and the replay "
                              f"recorded {len(recorded)}: it was made by another engine version or edited")
