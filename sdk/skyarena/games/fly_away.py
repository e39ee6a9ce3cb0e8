"""Fly Away for bot authors: the typed observation and the house bots.

Cells of a formation are ``(row, col)`` on a brick lattice (see the engine's README):
card ``col`` of a row touches cards ``col`` and ``col + 1`` of the row below. Display
slots and the slots of a complete formation are named T1-T3, M1-M4, B1-B5.

The house bots import the engine's notation, geometry and scoring from
``referee.games.fly_away`` (installed with the SDK) rather than restating them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from referee.games.fly_away import actions as fa_actions
from referee.games.fly_away import data as fa_data
from referee.games.fly_away.actions import Action, Done, Flip, Keep, Swap, Take
from referee.games.fly_away.data import ABILITY_OF, SCORING, SCORING_INDEX, SPECIES, SPECIES_INDEX
from referee.games.fly_away.geometry import GROUPS, SLOT_COUNT, SLOT_INDEX, WEDGE, anchors_for
from referee.games.fly_away.rules import score

from ..bot import Bot, RandomBot
from ..observation import Observation as BaseObservation
from ..search import BossBot as SearchBoss


@dataclass(frozen=True)
class BirdCard:
    """A bird card."""

    id: int
    """Card id (1-65, see the engine's data/birds.json)."""
    species: str
    """One of swan, flamingo, goose, crane, pelican."""
    ability: str | None
    """"swap", "flip", "double" or None."""

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> BirdCard:
        return BirdCard(data["id"], data["species"], data.get("ability"))


@dataclass(frozen=True)
class PlacedBird:
    """A card in a formation."""

    row: int
    """Row of its cell in the owner's formation frame (the first card played is at 0,0)."""
    col: int
    """Column of its cell (brick lattice: (r, c) touches (r+1, c) and (r+1, c+1))."""
    slot: str | None
    """Its wedge slot (T1..B5) once the formation's place in the wedge is forced, else None."""
    card: BirdCard
    """The card."""
    flipped: bool
    """Turned face down by its flip ability: no species, scores nothing."""
    ability_used: bool
    """Its swap ability has been used."""

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> PlacedBird:
        return PlacedBird(data["row"], data["col"], data.get("slot"), BirdCard.from_json(data["card"]),
                          data["flipped"], data["ability_used"])


@dataclass(frozen=True)
class ScoringCard:
    """A scoring card: points per bird of each species in its area, and a bonus when the
    area holds no card of one species."""

    id: str
    """E.g. "outside-3"."""
    area: str
    """outside, center, top or bottom (slots in Observation.areas)."""
    points: dict[str, int]
    """Points per card of each species in the area."""
    no_card_species: str
    """The species whose absence from the area scores the bonus."""
    no_card_points: int
    """That bonus."""

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> ScoringCard:
        return ScoringCard(data["id"], data["area"], dict(data["points"]), data["no_card"]["species"],
                           data["no_card"]["points"])


@dataclass(frozen=True)
class SeatView:
    """What everyone may know about one seat (its kept scoring cards only when allowed)."""

    seat: int
    """The seat."""
    formation: tuple[PlacedBird, ...]
    """Its cards, sorted by cell."""
    anchors: tuple[tuple[int, int], ...] | None
    """Where the formation may still lie: for each, the cell of wedge slot T1 in the seat's
    frame (slot (r, c) sits at (r + row, c + col)). None while the formation is empty."""
    complete: bool
    """Its 12 cards are played."""
    penalties: tuple[int, ...]
    """Penalty card values taken."""
    kept_count: int | None
    """How many scoring cards it kept (None before the choice)."""
    kept: tuple[ScoringCard, ...] | None
    """Its kept scoring cards: yours, or everyone's at the end (None when hidden)."""
    ability_stage: str | None
    """At the end: "swaps", "flips" or "finished"; None before."""

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> SeatView:
        anchors = data.get("anchors")
        kept = data.get("kept")
        return SeatView(
            data["seat"],
            tuple(PlacedBird.from_json(p) for p in data["formation"]),
            None if anchors is None else tuple((a[0], a[1]) for a in anchors),
            data["complete"],
            tuple(data["penalties"]),
            data.get("kept_count"),
            None if kept is None else tuple(ScoringCard.from_json(k) for k in kept),
            data.get("ability_stage"),
        )


@dataclass(frozen=True)
class Observation(BaseObservation):
    """What one seat may know in Fly Away."""

    game: str = "fly-away"
    """Always "fly-away"."""
    seat: int | None = None
    """Your seat (None in the public view)."""
    players: int = 0
    """Number of players."""
    phase: str = ""
    """"keep" (choose scoring cards), "play", "abilities" or "over"."""
    to_move: tuple[int, ...] = ()
    """Seats that must act now."""
    current: int | None = None
    """Whose turn it is in the play phase."""
    lead: int = 0
    """The lead bird's holder (the first player): the normal turns end before its next turn
    once the end is triggered."""
    end_triggered: bool = False
    """Some formation is complete."""
    penalty_turns: bool = False
    """Normal turns are over: each late turn starts with a penalty card."""
    display: tuple[BirdCard | None, ...] = ()
    """The 12 display slots T1..T3, M1..M4, B1..B5 (None when empty)."""
    deck_size: int = 0
    """Bird cards left in the draw pile."""
    penalty_pile_size: int = 0
    """Penalty cards left."""
    dealt: tuple[ScoringCard, ...] | None = None
    """Your four dealt scoring cards."""
    seats: tuple[SeatView, ...] = ()
    """Every seat, by seat number."""
    areas: dict[str, list[str]] = field(default_factory=dict)
    """Scoring areas: name -> wedge slots."""
    result: dict[str, Any] | None = None
    """The result once the game is over (ranks, scores, reason, details)."""

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Observation:  # type: ignore[override]
        dealt = data.get("dealt")
        return cls(
            raw=dict(data),
            game=data["game"],
            seat=data.get("seat"),
            players=data["players"],
            phase=data["phase"],
            to_move=tuple(data["to_move"]),
            current=data.get("current"),
            lead=data["lead"],
            end_triggered=data["end_triggered"],
            penalty_turns=data["penalty_turns"],
            display=tuple(None if d is None else BirdCard.from_json(d) for d in data["display"]),
            deck_size=data["deck_size"],
            penalty_pile_size=data["penalty_pile_size"],
            dealt=None if dealt is None else tuple(ScoringCard.from_json(d) for d in dealt),
            seats=tuple(SeatView.from_json(s) for s in data["seats"]),
            areas={k: list(v) for k, v in data["areas"].items()},
            result=data.get("result"),
        )

    @property
    def me(self) -> SeatView:
        """Your own seat's view."""
        assert self.seat is not None, "the public view has no seat"
        return self.seats[self.seat]


# ----- house bots -------------------------------------------------------------------------

def _action(value: Any) -> Action:
    return value if isinstance(value, (Keep, Take, Swap, Flip, Done)) else fa_actions.parse(str(value))


SPECIES_COUNT = len(SPECIES)
# Average points a scoring card of each type earned in heuristic self-play (README's
# design note), per value set (option scoring_data): the prior of the keep decision.
TYPE_PRIORS = {
    "template": {"outside": 31.0, "center": 18.5, "top": 18.5, "bottom": 26.0},
    "balanced": {"outside": 19.0, "center": 19.0, "top": 19.0, "bottom": 19.0},
}
SET_WEIGHT = 2.0       # per card toward two of each species (the 20-point set bonus)
TEMPO = 1.0            # per card played: finishing first avoids penalty cards
ABILITY_VALUE = {"swap": 2.0, "flip": 1.0, "double": 0.0, None: 0.0}


def _table(obs: Observation) -> tuple[fa_data.ScoringCard, ...]:
    """The engine's scoring cards with the values this game uses, as the observation shows
    them (the dealt and kept cards; the others keep the template's values, unused)."""
    table = list(SCORING)
    for card in list(obs.dealt or ()) + list(obs.me.kept or () if obs.seat is not None else ()):
        table[SCORING_INDEX[card.id]] = fa_data.ScoringCard(
            card.id, card.area, fa_data.AREAS[card.area], tuple(card.points[s] for s in SPECIES),
            SPECIES_INDEX[card.no_card_species], card.no_card_points)
    return tuple(table)


class HeuristicBot(Bot):
    """Greedy and quick: keeps the scoring cards that pull together, plays the take that
    scores best on them now (averaged over where the formation may still lie), and uses
    its end-of-game abilities by exact scoring."""

    name = "heuristic"
    _cards: tuple[fa_data.ScoringCard, ...] = SCORING   # the scoring card values in force (set by act)

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        obs = observation if isinstance(observation, Observation) else Observation.from_json(observation)
        self._cards = _table(obs)
        legal = [_action(a) for a in legal_actions]
        if obs.phase == "keep":
            choice = self._keep(obs, legal)
        elif obs.phase == "play":
            choice = self._play(obs, legal)
        else:
            choice = self._ability(obs, legal)
        return legal.index(choice)   # an index suits every transport, whatever form the actions came in

    # keep: the prior of each card plus how well the cards agree where their areas overlap
    def _keep(self, obs: Observation, legal: list[Action]) -> Action:
        values = self.info.options.get("scoring_data") if self.info is not None else None
        prior = TYPE_PRIORS.get(values or "template", TYPE_PRIORS["template"])

        def value(action: Action) -> float:
            assert isinstance(action, Keep)
            cards = [self._cards[c] for c in action.cards]
            total = sum(prior[c.kind] for c in cards)
            for a, b in combinations(cards, 2):
                overlap = bin(a.area & b.area).count("1") / min(bin(a.area).count("1"), bin(b.area).count("1"))
                agree = sum(x * y for x, y in zip(a.points, b.points)) / 30.0
                total += 4.0 * overlap * agree
            return total + self.random.random() * 1e-6

        return max(legal, key=value)

    # play: score each take under every anchor that survives it
    def _play(self, obs: Observation, legal: list[Action]) -> Action:
        best: Action = legal[0]
        best_value = float("-inf")
        for action, value in zip(legal, self.play_values(obs, legal)):
            if value > best_value:
                best, best_value = action, value
        return best

    def play_values(self, obs: Observation, legal: Sequence[Action]) -> list[float]:
        """The score of each take of ``legal`` (the play phase): what ``_play`` maximises,
        and how the boss ranks its candidates. Call after ``act`` set the scoring values."""
        me = obs.me
        kept = [self._cards[SCORING_INDEX[k.id]] for k in me.kept or ()]
        # slot_value[s][sp]: points of one card of species sp at wedge slot s over the kept cards
        slot_value = [[sum(c.points[sp] for c in kept if c.area >> s & 1) for sp in range(SPECIES_COUNT)]
                      for s in range(SLOT_COUNT)]
        # area_bit[s][sp]: which kept cards' "no card" species sp at slot s spoils (bit per card)
        area_bit = [[sum(1 << i for i, c in enumerate(kept) if c.area >> s & 1 and c.no_card_species == sp)
                     for sp in range(SPECIES_COUNT)] for s in range(SLOT_COUNT)]
        cells = [((p.row, p.col), SPECIES_INDEX[p.card.species], p.card.ability) for p in me.formation]
        counts = [0] * SPECIES_COUNT
        for _, sp, _ in cells:
            counts[sp] += 1

        def base(anchor: tuple[int, int]) -> tuple[float, int]:
            total = 0.0
            spoiled = 0
            for (r, c), sp, ability in cells:
                s = SLOT_INDEX[(r - anchor[0], c - anchor[1])]
                total += slot_value[s][sp] * (2 if ability == "double" else 1)
                spoiled |= area_bit[s][sp]
            return total, spoiled

        anchors = {a: base(a) for a in me.anchors} if me.anchors is not None else None
        values: list[float] = []
        for action in legal:
            assert isinstance(action, Take)
            group = GROUPS[action.group]
            r0, c0 = WEDGE[group.slots[0]]
            new = []
            extra = 0.0
            new_counts = counts[:]
            for slot in group.slots:
                card = obs.display[slot]
                assert card is not None
                r, c = WEDGE[slot]
                sp = SPECIES_INDEX[card.species]
                new.append(((r - r0 + action.row, c - c0 + action.col), sp, card.ability))
                new_counts[sp] += 1
                extra += TEMPO + ABILITY_VALUE[card.ability]
            if anchors is None:
                options = {(a.row, a.col): (0.0, 0) for a in anchors_for([cell for cell, _, _ in new])}
            else:
                options = anchors
            total = 0.0
            fits = 0
            for (ar, ac), (points, spoiled) in options.items():
                for (r, c), sp, ability in new:
                    s = SLOT_INDEX.get((r - ar, c - ac))
                    if s is None:
                        break
                    points += slot_value[s][sp] * (2 if ability == "double" else 1)
                    spoiled |= area_bit[s][sp]
                else:
                    fits += 1
                    total += points + sum(c.no_card_points for i, c in enumerate(kept) if not spoiled >> i & 1)
            value = total / fits + extra + SET_WEIGHT * sum(min(n, 2) for n in new_counts)
            value += self.random.random() * 1e-6
            values.append(value)
        return values

    # abilities: exact scoring; swaps are judged with the best flips that would follow
    def _ability(self, obs: Observation, legal: list[Action]) -> Action:
        me = obs.me
        kept = [SCORING_INDEX[k.id] for k in me.kept or ()]
        board = [0] * SLOT_COUNT
        flipped = set()
        for p in me.formation:
            assert p.slot is not None
            board[fa_actions.SLOT_BY_NAME[p.slot]] = p.card.id
            if p.flipped:
                flipped.add(p.card.id)
        penalties = list(me.penalties)

        def value(cards: list[int], down: set[int]) -> int:
            return score(cards, down, kept, penalties, table=self._cards).total

        def with_best_flips(cards: list[int], down: set[int]) -> int:
            down = set(down)
            current = value(cards, down)
            for card in cards:
                if ABILITY_OF[card] == "flip" and card not in down:
                    trial = value(cards, down | {card})
                    if trial > current:
                        down.add(card)
                        current = trial
            return current

        flips_follow = me.ability_stage == "swaps" and not any(isinstance(a, Flip) for a in legal)
        current = with_best_flips(board, flipped) if flips_follow else value(board, flipped)
        best: Action = Done()
        for action in legal:
            if isinstance(action, Swap):
                trial = board[:]
                trial[action.source], trial[action.target] = trial[action.target], trial[action.source]
                v = with_best_flips(trial, flipped)
            elif isinstance(action, Flip):
                v = with_best_flips(board, flipped | {board[action.slot]})
            else:
                continue
            if v > current:
                best, current = action, v
        return best


class BossBot(SearchBoss):
    """The house boss: searches every decision with the forward model, the heuristic
    playing every seat of its playouts (skyarena.search); in the play phase its candidates
    are the takes the heuristic scores best."""

    heuristic = HeuristicBot
    score_scale = 10.0

    def ranked(self, observation: Any, legal: Sequence[Any], default: int) -> list[int]:
        obs = observation if isinstance(observation, Observation) else Observation.from_json(observation)
        if obs.phase != "play":
            return super().ranked(observation, legal, default)
        heuristic = self.playout.bots[obs.seat if obs.seat is not None else 0]
        assert isinstance(heuristic, HeuristicBot)
        values = heuristic.play_values(obs, [_action(a) for a in legal])
        return sorted(range(len(legal)), key=lambda i: -values[i])


HOUSE_BOTS: dict[str, type[Bot]] = {"random": RandomBot, "heuristic": HeuristicBot, "boss": BossBot}

__all__ = ["BossBot", "BirdCard", "HOUSE_BOTS", "HeuristicBot", "Observation", "PlacedBird", "ScoringCard", "SeatView"]
