"""Skybirds for bot authors: the typed observation and the house bots.

Cards are numbers: 1 to 10, and 0 for Roland Garros. Actions are strings in the game's
notation (see referee/games/skybirds/README.md): ``"pass"``, ``"5 5"``, ``"G 2 2"``,
``"3 4 5 B2"``, ``"5 5 * A3 =5"`` then ``"wild 2"``, ``"take B1"``, ``"trade C1"``,
``"A2>1"``, ``"give 3"``. :func:`parse` turns a string (or an engine action) into the
engine's action value, whose fields (``size``, ``value``, ``medals``, ``tokens``...) a bot
can read instead of parsing text itself.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from referee.games.skybirds.actions import Play, PreUse, Take, Trade, Wild
from referee.games.skybirds.actions import parse as _parse_text
from referee.games.skybirds.data import AERODROME, INDEX, MEDALS

from ..bot import Bot, RandomBot
from ..observation import Observation as BaseObservation
from ..search import BossBot as SearchBoss
from ..search import share_ahead


def parse(action: Any) -> Any:
    """The engine action for an action value or its notation string."""
    return _parse_text(action) if isinstance(action, str) else action


@dataclass(frozen=True)
class Move:
    """One move of a dogfight: who, and its notation (``"pass"`` for a pass)."""

    seat: int = 0
    """The seat that moved."""
    action: str = ""
    """The move's notation: the squadron played, or ``"pass"``."""

    @property
    def passed(self) -> bool:
        return self.action == "pass"

    @property
    def play(self) -> Play | None:
        """The squadron as the engine's value (``size``, ``value``, ``medals``, ``tokens``,
        ``naturals``, ``wilds``), or None for a pass."""
        return None if self.action == "pass" else parse(self.action)


@dataclass(frozen=True)
class Squadron:
    """The squadron to beat."""

    seat: int = 0
    """Who played it."""
    action: str = ""
    """Its notation."""
    size: int = 0
    """Its number of cards."""
    value: int = 0
    """Its value (declared, or the lowest of a run)."""
    medallions: int = 0
    """Its medallions: printed on natural 9s and the 10, plus A1 (+1) and D1 (+2)."""


@dataclass(frozen=True)
class Dogfight:
    """The dogfight in progress."""

    leader: int = 0
    """The seat that led it (or leads it now)."""
    size: int = 0
    """Squadron size set by the lead; 0 while the lead is still to be played."""
    plays: list[Move] = field(default_factory=list)
    """Every play and pass so far, in order (as ``[seat, action]`` on the wire)."""
    to_beat: Squadron | None = None
    """The last squadron played (what a squadron must beat), or None."""
    passes: int = 0
    """Consecutive passes since that squadron."""


@dataclass(frozen=True)
class Aerodrome:
    """One player's tokens (public)."""

    reserve: dict[str, str] = field(default_factory=dict)
    """Progression tokens taken off the mat: name -> ``"up"`` or ``"flipped"`` (used once)."""
    plus1: int = 0
    """+1VP tokens in reserve."""
    fraction: float = 0.0
    """Fractional VP token held (0.75, 0.5, 0.25) or 0."""
    vp: float = 0.0
    """Victory points if the war ended now."""


@dataclass(frozen=True)
class TradeInfo:
    """A pre-campaign card trade being made."""

    token: str = ""
    """A2 (one card each) or C3 (two each)."""
    user: int = 0
    """The seat using the token."""
    target: int = 0
    """The opponent it trades with."""
    cards: int = 0
    """Cards each of the two hands over."""


@dataclass(frozen=True)
class Observation(BaseObservation):
    """What one Skybirds seat may know at a decision."""

    seat: int = 0
    """Your seat."""
    players: int = 0
    """Number of players (2-4)."""
    phase: str = ""
    """``play`` (a dogfight turn), ``wild`` (choose the cards behind the ``*`` just announced),
    ``take`` (take a token on finishing), ``trade-in`` (+1VP tokens for a token), ``pre-campaign``
    (use A2/C3 or pass), ``give`` (cards to hand over in a trade), ``over``."""
    to_move: list[int] = field(default_factory=list)
    """Seats that must act now (two in ``give``)."""
    campaign: int = 0
    """Campaign number, from 1."""
    campaign_limit: int = 0
    """The war ends on VP after this campaign if nobody took the Armistice."""
    short_war: bool = False
    """True when the Armistice needs only one of D1 and D2."""
    hand: list[int] = field(default_factory=list)
    """Your cards, ascending (0 = Roland Garros)."""
    hand_sizes: list[int] = field(default_factory=list)
    """Cards in each seat's hand."""
    box_size: int = 0
    """Cards dealt unseen into the box this campaign (8 with 2 players, 4 with 3)."""
    garros_dealt_to: int = 0
    """The seat dealt Roland Garros this campaign (it announces it)."""
    dogfight: Dogfight = field(default_factory=Dogfight)
    """The dogfight in progress."""
    previous_dogfight: list[Move] = field(default_factory=list)
    """The moves of the last finished dogfight of this campaign."""
    played: list[int] = field(default_factory=list)
    """Cards played so far this campaign, count per value (index 0 = Garros)."""
    finished: list[int] = field(default_factory=list)
    """Seats out of cards this campaign, in finishing order."""
    aerodromes: list[Aerodrome] = field(default_factory=list)
    """Every seat's tokens."""
    fractions_left: list[float] = field(default_factory=list)
    """Fractional VP tokens still free, largest first."""
    armistice: int | None = None
    """The seat that took its Armistice (the war ends after this dogfight), or None."""
    pending: str | None = None
    """In ``wild``: the squadron announced, whose ``*`` cards the mover chooses now."""
    trade: TradeInfo | None = None
    """In ``give``: the trade being made."""
    pre_campaign_used: list[list[str]] = field(default_factory=list)
    """Pre-campaign tokens each seat used before this campaign."""
    take_place: int | None = None
    """In ``take``: the finishing place the token is taken for (1 = first out)."""
    finishing_order: list[int] | None = None
    """Once over: the order in which fractional tokens were offered."""
    known_cards: list[list[int]] = field(default_factory=list)
    """Per seat, cards you know it holds (from trades; Garros with the seat dealt him)."""

    @property
    def my_aerodrome(self) -> Aerodrome:
        return self.aerodromes[self.seat]

    def counts(self) -> list[int]:
        """Your hand as counts per value (index 0 = Garros)."""
        out = [0] * 11
        for c in self.hand:
            out[c] += 1
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Observation:
        """Direct construction (bots call this every decision)."""
        kwargs: dict[str, Any] = {name: data[name] for name in _PLAIN if name in data}
        if "dogfight" in data:
            d = data["dogfight"]
            kwargs["dogfight"] = Dogfight(
                leader=d["leader"], size=d["size"], plays=[Move(*p) for p in d["plays"]],
                to_beat=Squadron(**d["to_beat"]) if d["to_beat"] else None, passes=d["passes"])
        if "previous_dogfight" in data:
            kwargs["previous_dogfight"] = [Move(*p) for p in data["previous_dogfight"]]
        if "aerodromes" in data:
            kwargs["aerodromes"] = [Aerodrome(**a) for a in data["aerodromes"]]
        if data.get("trade"):
            kwargs["trade"] = TradeInfo(**data["trade"])
        result = cls(**kwargs)
        object.__setattr__(result, "raw", dict(data))
        return result


_NESTED = {"raw", "dogfight", "previous_dogfight", "aerodromes", "trade"}
_PLAIN = tuple(f.name for f in fields(Observation) if f.name not in _NESTED)


# ----- the house heuristic ---------------------------------------------------------------
# How much a token is worth taking: progress toward the Armistice first, then VP.
TOKEN_RANK: dict[str, float] = {
    "AR": 100, "D1": 50, "D2": 50, "C1": 30, "C3": 30, "C2": 26, "B1": 20, "B2": 20,
    "A2": 13, "A1": 10, "A3": 11, "+1": 1,
}


class HeuristicBot(Bot):
    """Sheds low cards in sets, keeps medallion cards for the end, never wastes a token
    unless it takes the seat out, and climbs the Aerodrome toward the Armistice."""

    name = "heuristic"

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        obs = observation if isinstance(observation, Observation) else Observation.from_json(observation)
        actions = [parse(a) for a in legal_actions]
        phase = obs.phase
        if phase == "play":
            return self._dogfight(obs, actions)
        if phase == "wild":
            return self._wild(obs, actions)
        if phase in ("take", "trade-in"):
            return self._token(obs, actions)
        if phase == "give":
            return self._give(obs, actions)
        return next((i for i, a in enumerate(actions) if str(a) == "pass"), 0)  # keep pre-campaign VP

    # ----- dogfights --------------------------------------------------------------------
    def _dogfight(self, obs: Observation, actions: list[Any]) -> int:
        counts = obs.counts()
        left = len(obs.hand)
        plays = [(i, a) for i, a in enumerate(actions) if isinstance(a, Play)]
        # Going out ends the campaign for us in the best place we can get: always do it.
        out = [(i, a) for i, a in plays if a.size == left and not a.free]
        if out:
            return min(out, key=lambda ia: len(ia[1].tokens))[0]
        plain = [(i, a) for i, a in plays if not a.tokens]
        lead = obs.dogfight.to_beat is None
        if lead:
            return min(plain or plays, key=lambda ia: self._lead_cost(ia[1], counts))[0]
        pass_index = next(i for i, a in enumerate(actions) if str(a) == "pass")
        if not plain:
            # A token only to take the lead near the end, when the rest can go out after.
            if left <= 3 and plays:
                return min(plays, key=lambda ia: (len(ia[1].tokens), ia[1].value))[0]
            return pass_index
        i, best = min(plain, key=lambda ia: self._follow_cost(ia[1], counts))
        if self._follow_cost(best, counts) > self._patience(obs, left):
            return pass_index
        return i

    @staticmethod
    def _lead_cost(play: Play, counts: list[int]) -> float:
        """Lead low, whole sets (they are hard to follow), Garros with his set."""
        if play.naturals == (0,):
            return 5.0
        value = play.value
        broken = counts[value] - (play.size - (1 if 0 in play.naturals else 0))
        medal = 6 * sum(MEDALS[c] for c in play.naturals)
        return value + 3 * broken + medal - 0.5 * play.size

    @staticmethod
    def _follow_cost(play: Play, counts: list[int]) -> float:
        value = play.value
        broken = counts[value] - play.size
        return value + 2.5 * max(broken, 0) + 4 * play.medals

    @staticmethod
    def _patience(obs: Observation, left: int) -> float:
        """How expensive a follow may be: more with few cards left or a rival nearly out."""
        rival = min((n for s, n in enumerate(obs.hand_sizes) if s != obs.seat and n), default=10)
        return 8.5 + (4 if left <= 4 else 0) + (4 if rival <= 2 else 0)

    @staticmethod
    def _wild(obs: Observation, actions: list[Any]) -> int:
        """Spend the lowest cards that are not part of a set."""
        counts = obs.counts()

        def cost(a: Wild) -> float:
            return sum(v + 4 * (counts[v] > 1) for v in a.values)

        return min(range(len(actions)), key=lambda i: cost(actions[i]))

    # ----- tokens -----------------------------------------------------------------------
    @staticmethod
    def _token(obs: Observation, actions: list[Any]) -> int:
        mine = obs.my_aerodrome.reserve

        def rank(a: Any) -> float:
            if isinstance(a, (Take, Trade)):
                score = TOKEN_RANK[a.token]
                token = AERODROME[INDEX[a.token]] if a.token in INDEX else None
                if token is not None and a.token in ("D1", "D2"):
                    other = "D2" if a.token == "D1" else "D1"
                    score += 5 if other in mine else 0
                return score
            return 0.0  # pass: keep the +1VP tokens

        return max(range(len(actions)), key=lambda i: rank(actions[i]))

    @staticmethod
    def _give(obs: Observation, actions: list[Any]) -> int:
        """Hand over the lowest cards, never Garros."""
        def cost(i: int) -> float:
            return sum(100 if c == 0 else c for c in actions[i].cards)

        return min(range(len(actions)), key=cost)


def _war_estimate(state: Any, seat: int) -> float:
    """An unfinished war's worth to ``seat``: its place by victory points, fewer cards in
    hand breaking ties (the one who goes out first takes the best token)."""
    return share_ahead([state.vp(s) - 0.01 * state.sizes[s] for s in range(state.players)], seat)


class BossBot(SearchBoss):
    """The house boss: searches every decision with the forward model, the heuristic
    playing every seat of its playouts (skyarena.search)."""

    heuristic = HeuristicBot
    horizon = 80                     # a war is thousands of decisions: play on this far, then estimate

    def estimate(self, state: Any, seat: int) -> float:
        return _war_estimate(state, seat)



HOUSE_BOTS: dict[str, type[Bot]] = {"random": RandomBot, "heuristic": HeuristicBot, "boss": BossBot}

__all__ = ["BossBot", "Aerodrome", "Dogfight", "HOUSE_BOTS", "HeuristicBot", "Move", "Observation", "PreUse",
           "Squadron",
           "TradeInfo", "parse"]
