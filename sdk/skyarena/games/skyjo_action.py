"""Skyjo Action for bot authors: the typed observation and the house bots.

Actions are strings in the game's notation (see referee/games/skyjo_action/README.md):
``"draw"``, ``"keep"``, ``"place B2"``, ``"take-discard C1"``, ``"reveal A3"``, ``"activate"``,
``"play meteor"``,
``"between 0 2"``, ``"pick 2 C1"``, ``"remove 1 held hidden"``, ``"defend"``...
Positions are a column letter and a row number (``A1`` top-left); ``Area.cards`` lists a
play area row by row, so position ``B2`` of a 4-column grid is ``cards[5]``
(:func:`index_of` converts).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.games.skyjo_action.data import ACTION0
from referee.games.skyjo_action.rules import area_points

from ..bot import Bot, RandomBot
from ..observation import Observation as BaseObservation
from ..search import BossBot as SearchBoss
from ..search import worth

Card = int | str | None


@dataclass(frozen=True)
class Area:
    """One player's play area and held action cards, as the observing seat sees them."""

    cards: list[Card] = field(default_factory=list)
    """Row by row: a number (-2..12), ``"*"`` for a star, an action card's name (single-deck
    variant, seen face down only), or ``None`` for a face-down card you have not seen or a
    cleared position (``face_up`` tells which)."""
    face_up: list[bool | None] = field(default_factory=list)
    """Per position: True face up, False face down, None cleared by a Skyjo line."""
    lock: str | None = None
    """``"rows"`` or ``"columns"`` once this area has cleared a line this round, else None."""
    held: list[str | None] = field(default_factory=list)
    """Held action cards: the type, or None for one you cannot see (taken face down by
    another player)."""
    total: int = 0
    """Points from the finished rounds."""


@dataclass(frozen=True)
class RoundRecord:
    """A scored round."""

    round: int = 0
    """Round number, from 1."""
    scores: list[int] = field(default_factory=list)
    """Each seat's points for the round (after doubling)."""
    ender: int | None = None
    """The seat that ended the round (None if the safety stop ended it)."""
    doubled: bool = False
    """Whether the ender's score was doubled."""
    forced: bool = False
    """Ended by the ``max_round_decisions`` safety stop."""


@dataclass(frozen=True)
class Observation(BaseObservation):
    """What one seat of Skyjo Action may know at a decision."""

    seat: int | None = None
    """Your seat (None in the spectators' view)."""
    players: int = 0
    """Number of seats."""
    rows: int = 3
    """Rows of every grid (3)."""
    cols: int = 4
    """Columns of every grid (4, or 3 in the large-group variant)."""
    round: int = 0
    """Round number, from 1."""
    current: int = 0
    """Whose turn it is (a targeted player may decide out of turn: see ``to_move``)."""
    to_move: list[int] = field(default_factory=list)
    """The seat that decides now (empty when the game is over)."""
    decision: str | None = None
    """What is decided: ``turn``, ``take-action``, ``activate``, ``drawn``, ``place``,
    ``reveal``, ``star``, ``lines``, ``top``, ``keep``, ``hold``, ``look``, ``pair``, ``pick``,
    ``meteor``, ``steal``, ``replay``, ``defend``."""
    pending: dict[str, Any] = field(default_factory=dict)
    """Details of the decision, by ``decision``:

    - ``turn``: ``{"extra": bool}`` (an extra turn, from Double move).
    - ``drawn``, ``place``: ``{"card": Card}``, the card in hand (drawn, or to place).
    - ``star``: ``{"optional": bool}``: whether ``star pass`` is allowed (not at setup).
    - ``top``, ``keep``: ``{"cards": [Card, ...]}``: the different cards going on the main
      discard pile, of which you choose the one on top (``top``), or the three cards of
      Draw three (``keep``).
    - ``hold``: ``{"card": type}``: the action card drawn from the main deck, to hold or
      discard.
    - ``lines``: ``{"lines": ["row 1", "col B", ...]}``: the Skyjo lines formed, to clear.
    - ``pair``, ``pick``: ``{"card": "swap-other" | "swap-own", "players": [seat, seat],
      "picked": [position, ...]}``: the swap being built (``players`` only for swap-other;
      ``picked`` the positions chosen so far).
    - ``look``, ``steal``, ``replay``: ``{"card": type}``: the action card being resolved.
    - ``meteor``: ``{"card": "meteor", "target": seat}``: whose card the Meteor shower hits.
    - ``defend``: ``{"by": seat, "card": type, ...}`` and what the card would do to you:
      ``"swap": [[seat, position], [seat, position]]``, ``"look": [seat, line]``,
      ``"remove": [seat, position or "held N"]`` or ``"steal": [seat, "held N"]``.
    - other kinds: ``{}``."""
    areas: list[Area] = field(default_factory=list)
    """Every seat's play area, by seat."""
    fresh: list[bool] = field(default_factory=list)
    """Per card of your own ``held``: taken during the current turn, so it cannot be
    activated yet."""
    deck: int = 0
    """Cards in the main deck."""
    discard: Card = None
    """Top card of the main discard pile."""
    discard_size: int = 0
    """Cards in the main discard pile."""
    action_deck: int = 0
    """Cards in the action deck."""
    action_row: list[str | None] = field(default_factory=list)
    """The four face-up action cards (None for an empty place)."""
    action_discard: list[str] = field(default_factory=list)
    """The action discard pile, bottom to top."""
    ender: int | None = None
    """The seat that triggered the round end, if it has been triggered."""
    last_turns: list[int] = field(default_factory=list)
    """Seats still to take their last turn of the round, in order."""
    rounds: list[RoundRecord] = field(default_factory=list)
    """The rounds scored so far."""

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Observation:
        """Built field by field (the generic converter inspects every list element's type,
        which costs more than a bot's whole decision here); lists are copied."""
        kwargs: dict[str, Any] = {name: data[name] for name in _SCALARS if name in data}
        kwargs.update({name: list(data[name]) for name in _LISTS if name in data})
        if "pending" in data:
            kwargs["pending"] = dict(data["pending"])
        kwargs["areas"] = [Area(list(a["cards"]), list(a["face_up"]), a["lock"], list(a["held"]), a["total"])
                           for a in data.get("areas", ())]
        kwargs["rounds"] = [RoundRecord(r["round"], list(r["scores"]), r["ender"], r["doubled"], r["forced"])
                            for r in data.get("rounds", ())]
        return cls(raw=dict(data), **kwargs)

    def index_of(self, position: str) -> int:
        """Index into ``Area.cards`` of a position such as ``"B2"``."""
        return index_of(position, self.cols)

    @property
    def me(self) -> Area:
        """Your own area."""
        return self.areas[self.seat or 0]


_SCALARS = ("seat", "players", "rows", "cols", "round", "current", "decision", "deck", "discard", "discard_size",
            "action_deck", "ender")
_LISTS = ("to_move", "fresh", "action_row", "action_discard", "last_turns")


def index_of(position: str, cols: int) -> int:
    return (int(position[1]) - 1) * cols + "ABCD".index(position[0].upper())


def position_of(index: int, cols: int) -> str:
    return "ABCD"[index % cols] + str(index // cols + 1)


# ----- the heuristic house bot ----------------------------------------------------------
UNKNOWN = 4.5          # mean points of an unseen card (published deck, stars as 0)
GOOD_SWAP = 4          # worth playing Swap with another player for
ACTION_PREFERENCE = ("swap-other", "draw-three", "meteor", "double-move", "defense", "thief",
                     "reactivation", "swap-own", "look")


def _value(card: Card) -> float:
    if card is None:
        return UNKNOWN
    if card == "*":
        return -1.0          # worth 0, and wild in lines
    return float(card) if isinstance(card, int) else UNKNOWN


def _estimate(area: Area) -> float:
    """Expected points of an area (cleared positions count nothing) plus held cards."""
    total = 0.0
    for card, up in zip(area.cards, area.face_up):
        if up is None:
            continue
        total += 0.0 if card == "*" else _value(card)
    return total + 10 * len(area.held)


class HeuristicBot(Bot):
    """Keeps low cards, replaces its highest ones, clears lines, uses action cards at
    once (a held card costs 10 points) and avoids ending a round it would not win."""

    name = "heuristic"

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        obs: Observation = observation
        legal = [str(a) for a in legal_actions]
        choice = self._choose(obs, legal)
        return choice if choice in legal else legal[0]

    # Each decision kind has its own small policy.
    def _choose(self, obs: Observation, legal: list[str]) -> str:
        handler = getattr(self, "_" + (obs.decision or "turn").replace("-", "_"), None)
        return handler(obs, legal) if handler else legal[0]

    def _face_down(self, area: Area) -> list[int]:
        return [i for i, up in enumerate(area.face_up) if up is False]

    def _should_not_end(self, obs: Observation) -> bool:
        """Going out is fine only when our estimated round score is clearly the lowest."""
        me = obs.seat or 0
        mine = _estimate(obs.areas[me])
        others = [_estimate(a) for s, a in enumerate(obs.areas) if s != me]
        return not others or mine >= min(others) - 2

    def _gain_at(self, obs: Observation, card: Card, index: int) -> float:
        """Points saved by putting ``card`` at ``index`` of our area (with a bonus for a
        column of equal cards and for turning a card over)."""
        area = obs.me
        old = area.cards[index]
        gain = _value(old) - _value(card)
        if not area.face_up[index]:
            gain += 0.5
        cols, rows = obs.cols, obs.rows
        col = index % cols
        others = [area.cards[r * cols + col] for r in range(rows) if r * cols + col != index]
        ups = [area.face_up[r * cols + col] for r in range(rows) if r * cols + col != index]
        if card != "*" and all(u for u in ups):
            same = sum(1 for c in others if c == card or c == "*")
            if same == len(others):
                gain += 3 * _value(card) + 6         # completes a column: it clears
        elif card != "*":
            same = sum(1 for c, u in zip(others, ups) if u and c == card)
            gain += 1.5 * same
        return gain

    def _best_place(self, obs: Observation, card: Card, allow_down: bool = True) -> tuple[float, int]:
        area = obs.me
        best = (-99.0, -1)
        last_down = len(self._face_down(area)) == 1
        for i, up in enumerate(area.face_up):
            if up is None or (not up and not allow_down):
                continue
            if not up and last_down and self._should_not_end(obs):
                continue
            gain = self._gain_at(obs, card, i)
            if gain > best[0]:
                best = (gain, i)
        return best

    # ----- decisions -----
    def _turn(self, obs: Observation, legal: list[str]) -> str:
        if "activate" in legal and self._playable(obs):
            return "activate"
        top = obs.discard
        if top is not None:
            gain, index = self._best_place(obs, top)
            take = f"take-discard {position_of(index, obs.cols)}" if index >= 0 else ""
            if take in legal and (gain >= 3 or (top == "*" and gain > 0) or "draw" not in legal):
                return take
        return "draw" if "draw" in legal else legal[0]

    def _playable(self, obs: Observation) -> bool:
        return any(not fresh for fresh in obs.fresh)

    def _take_action(self, obs: Observation, legal: list[str]) -> str:
        for name in ACTION_PREFERENCE:
            if f"take {name}" in legal:
                return f"take {name}"
        return legal[0]

    def _activate(self, obs: Observation, legal: list[str]) -> str:
        swap = self._best_swap(obs)
        for name in ACTION_PREFERENCE:
            if f"play {name}" not in legal:
                continue
            if name == "swap-other" and swap[0] < GOOD_SWAP:
                continue
            if name == "thief" and not any(t in ("swap-other", "draw-three") or t is None
                                           for s, a in enumerate(obs.areas) if s != obs.seat for t in a.held):
                continue
            if name == "reactivation" and not any(t in ("swap-other", "draw-three", "meteor", "double-move")
                                                  for t in obs.action_discard):
                continue
            return f"play {name}"
        drops = [a for a in legal if a.startswith("drop ")]
        return drops[0] if drops else legal[0]

    def _drawn(self, obs: Observation, legal: list[str]) -> str:
        card = obs.pending.get("card")
        gain, _ = self._best_place(obs, card)
        if gain >= 2 or "discard" not in legal:
            return "keep"
        if len(self._face_down(obs.me)) == 1 and self._should_not_end(obs) and gain > -4:
            return "keep"       # discarding would force us to turn the last card over
        return "discard"

    def _place(self, obs: Observation, legal: list[str]) -> str:
        card = obs.pending.get("card")
        _, index = self._best_place(obs, card)
        if index < 0:
            _, index = self._best_place(obs, card, allow_down=False)
        if index < 0:
            return legal[0]
        return "place " + position_of(index, obs.cols)

    def _reveal(self, obs: Observation, legal: list[str]) -> str:
        area = obs.me
        cols = obs.cols
        best, choice = -1, legal[0]
        for action in legal:
            i = index_of(action.split()[1], cols)
            col = [area.cards[r * cols + i % cols] for r in range(obs.rows)]
            score = sum(1 for c in col if c is not None)
            if score > best:
                best, choice = score, action
        return choice

    def _star(self, obs: Observation, legal: list[str]) -> str:
        if "star pass" in legal and obs.ender is not None:
            return "star pass"          # the round is ending: a held card would cost 10 points
        for name in ACTION_PREFERENCE[:3]:
            if f"star {name}" in legal:
                return f"star {name}"
        return "star pass" if "star pass" in legal else legal[0]

    def _lines(self, obs: Observation, legal: list[str]) -> str:
        area = obs.me
        best, choice = 0.0, "clear none"
        cols = obs.cols
        for action in legal:
            parts = action.split()
            if parts[1] == "none":
                continue
            if parts[1] == "row":
                r = int(parts[2]) - 1
                cards = area.cards[r * cols:(r + 1) * cols]
            else:
                c = "ABCD".index(parts[2])
                cards = [area.cards[r * cols + c] for r in range(obs.rows)]
            points = sum(0.0 if x == "*" else _value(x) for x in cards)
            if points > best:
                best, choice = points, action
        return choice

    def _top(self, obs: Observation, legal: list[str]) -> str:
        # Leave the least useful card for the next player: the highest number, never a star.
        def worth(action: str) -> float:
            text = action.split()[1]
            return -99.0 if text == "*" else float(text)
        return max(legal, key=worth)

    def _keep(self, obs: Observation, legal: list[str]) -> str:
        cards = [a for a in legal if a.startswith("keep ") and a != "keep none"]
        best = ("keep none" if "keep none" in legal else legal[0], 1.0)
        for action in cards:
            card: Card = action.split()[1]
            card = card if card == "*" else int(str(card))
            gain, _ = self._best_place(obs, card)
            if gain > best[1]:
                best = (action, gain)
        return best[0]

    def _hold(self, obs: Observation, legal: list[str]) -> str:
        card = obs.pending.get("card")
        if card in ("swap-other", "draw-three") and obs.ender is None:
            return "hold"
        return "discard"

    def _look(self, obs: Observation, legal: list[str]) -> str:
        mine = [a for a in legal if a.split()[1] == str(obs.seat)]
        return mine[0] if mine else legal[0]

    def _best_swap(self, obs: Observation) -> tuple[float, int, int, int]:
        """(gain, our index, their seat, their index): our worst card for their best."""
        me = obs.seat or 0
        area = obs.me
        best = (-99.0, -1, -1, -1)
        for i, (card, up) in enumerate(zip(area.cards, area.face_up)):
            if up is None:
                continue
            mine = _value(card) if up or card is not None else UNKNOWN
            for s, other in enumerate(obs.areas):
                if s == me:
                    continue
                for j, (theirs, their_up) in enumerate(zip(other.cards, other.face_up)):
                    if not their_up:
                        continue
                    gain = mine - _value(theirs)
                    if gain > best[0]:
                        best = (gain, i, s, j)
        return best

    def _pair(self, obs: Observation, legal: list[str]) -> str:
        _, _, s, _ = self._best_swap(obs)
        me = obs.seat or 0
        if s >= 0:
            text = f"between {min(me, s)} {max(me, s)}"
            if text in legal:
                return text
        return legal[0]

    def _pick(self, obs: Observation, legal: list[str]) -> str:
        if obs.pending.get("card") == "swap-own":
            return legal[0]
        _, i, s, j = self._best_swap(obs)
        players = obs.pending.get("players", [])
        picked = obs.pending.get("picked", [])
        target_seat = players[len(picked)] if len(picked) < len(players) else -1
        if target_seat == obs.seat and i >= 0:
            text = f"pick {target_seat} {position_of(i, obs.cols)}"
        elif target_seat == s and j >= 0:
            text = f"pick {target_seat} {position_of(j, obs.cols)}"
        else:
            text = ""
        return text if text in legal else legal[0]

    def _meteor(self, obs: Observation, legal: list[str]) -> str:
        target = obs.pending.get("target")
        if target is None:
            return legal[0]
        area = obs.areas[target]
        best, choice = -99.0, ""
        for action in legal:
            parts = action.split()
            if parts[2] == "held":
                continue
            i = index_of(parts[2], obs.cols)
            if not area.face_up[i]:
                continue
            gain = UNKNOWN - _value(area.cards[i])
            if gain > best:
                best, choice = gain, action
        if choice and best > 0:
            return choice
        downs = [a for a in legal if a.split()[2] != "held" and not area.face_up[index_of(a.split()[2], obs.cols)]]
        return downs[0] if downs else (choice or legal[0])

    def _steal(self, obs: Observation, legal: list[str]) -> str:
        for name in ACTION_PREFERENCE:
            for action in legal:
                if action.endswith(" " + name):
                    return action
        return legal[0]

    def _replay(self, obs: Observation, legal: list[str]) -> str:
        for name in ACTION_PREFERENCE:
            if f"replay {name}" in legal:
                return f"replay {name}"
        return legal[0]

    def _defend(self, obs: Observation, legal: list[str]) -> str:
        if "defend" not in legal or obs.pending.get("card") == "look":
            return "allow"
        return "defend"


def _points_now(state: Any, seat: int) -> float:
    """A seat's total if the round were scored now: its grid as drawn in the sample (face
    down cards included, an action card there counting its held-card penalty) and its
    held cards."""
    config = state.config
    row = [c if c < ACTION0 else 0 for c in state.cards[seat]]
    return (state.totals[seat] + area_points(row, config.lines, config.star_col, config.star_row)
            + config.penalty * (len(state.held[seat]) + sum(1 for c in state.cards[seat] if c >= ACTION0)))


class BossBot(SearchBoss):
    """The house boss: searches every decision with the forward model, the heuristic
    playing every seat of its playouts (skyarena.search); where the forward model refuses
    a position (deep in an action card's chain) it plays as the heuristic."""

    heuristic = HeuristicBot
    horizon = 60                     # a game is many rounds: play on this far, then count the points
    score_scale = 10.0

    def estimate(self, state: Any, seat: int) -> float:
        return worth([-_points_now(state, s) for s in range(state.players)], seat, self.score_scale)


HOUSE_BOTS: dict[str, type[Bot]] = {"random": RandomBot, "heuristic": HeuristicBot, "boss": BossBot}

__all__ = ["Area", "BossBot", "HOUSE_BOTS", "HeuristicBot", "Observation", "RoundRecord", "index_of", "position_of"]
