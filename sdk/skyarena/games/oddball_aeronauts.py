"""Oddball Äeronauts for bot authors: the typed observation, card look-up and house bots.

Cards appear in observations by id (``"pirates/topsail-rigger"``); :func:`card` returns
the card's stats and trick (the same data the referee uses). Actions are strings in the
game's notation (see the engine README): ``"guns"``, ``"ready"``, ``"rig 3,1,2"``, ``"limit"``,
``"play 1+3"``, ``"play 1+2 trick 2"``, ``"protect 2"``, ``"capture top"``, ``"discard 2,1"``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import permutations
from typing import Any

from referee.games.oddball_aeronauts.cards import CARDS, FACTIONS, SKILL_INDEX, SKILLS, Card
from referee.games.oddball_aeronauts.decks import default_deck

from ..bot import Bot, MatchInfo, RandomBot
from ..observation import Observation as BaseObservation
from ..search import BossBot as SearchBoss


def card(card_id: str) -> Card:
    """The card with this id: ``levels``/``bonuses`` (Sailing, Guns, Boarding), ``trick``..."""
    return CARDS[card_id]


@dataclass(frozen=True)
class Hand:
    """Your own deck as you hold it."""

    up: list[str] = field(default_factory=list)
    """Your face-up cards, Top Card first (only the first three can be Played)."""
    down: list[str | None] = field(default_factory=list)
    """Your Discarded (face-down) cards, the next to be Recovered first; ``None`` for a card
    you have never seen (the three turned face down at Make Ready)."""


@dataclass(frozen=True)
class DeckView:
    """What everyone knows about one seat's deck."""

    face_up: int = 0
    """Number of face-up cards (Events included)."""
    face_down: int = 0
    """Number of Discarded cards."""
    held: list[dict[str, Any]] = field(default_factory=list)
    """Events this seat took and holds until used: ``{"event": id, "round": when it applies}``."""
    next_round: list[dict[str, Any]] = field(default_factory=list)
    """Next Round tricks in play for this seat this round: ``{"card": id, "top_right": notation}``."""
    revealed: list[str] = field(default_factory=list)
    """The cards in this deck both seats have seen (Played, shown in Step 1, captured), sorted
    by id; where they lie in the deck is not told."""


@dataclass(frozen=True)
class Observation(BaseObservation):
    """What one seat of Oddball Äeronauts may know at a decision."""

    seat: int = 0
    """Your seat (0 or 1)."""
    round: int = 0
    """Round number, from 1."""
    phase: str = ""
    """``announce`` (Step 2: a skill), ``prepare`` (both skills known: a Rig, an Opp. limit or
    ``ready``), ``play`` (Step 3: cards and trick), ``capture`` or ``protect`` (Step 5 choices
    of a trick), ``discard`` (the order of cards going down together), ``over``."""
    lead: int = 0
    """The seat holding the Lead token (it announces first)."""
    to_move: list[int] = field(default_factory=list)
    """Seats that must act now (both in ``play``: the counts are chosen at once)."""
    factions: list[str] = field(default_factory=list)
    """Each seat's faction (``pendragon``, ``pirates``)."""
    skills: list[str | None] = field(default_factory=list)
    """Skills announced this round so far, per seat."""
    announced: list[str | None] = field(default_factory=list)
    """Per seat, the text of a trick announced before the counts (Rig, Opp. limit), if any."""
    limits: list[int | None] = field(default_factory=list)
    """Per seat, the most cards it may Play this round (known from Step 3)."""
    counts: list[int | None] = field(default_factory=list)
    """Card counts already shown this round (only the Lead's, and only when the
    ``simultaneous_counts`` ruling is off)."""
    events: list[dict[str, Any]] = field(default_factory=list)
    """What Step 1 did this round: Events discarded, resolved (compared values, taker) or tied."""
    reveal: dict[str, Any] | None = None
    """During Step 5 choices: this round's Played cards, skills, tricks, totals and winner, and
    the Step 5 decisions made so far (``discarded``, ``capture_place``, ``protected``)."""
    last_round: dict[str, Any] | None = None
    """The previous round in full: skills, counts, Played cards, tricks, totals, winner,
    Discards/Recovers of the Win Effect, captured and protected cards, its Events."""
    decks: list[DeckView] = field(default_factory=list)
    """Public facts about both decks, indexed by seat."""
    result: dict[str, Any] | None = None
    """The result once the game is over."""
    box: int = 0
    """Events left in the box (unseen by both)."""
    hand: Hand = field(default_factory=Hand)
    """Your own deck."""
    discarding: dict[str, Any] | None = None
    """In ``discard``: ``{"seat": s, "cards": [...], "start": i, "later": [[seat, start, count], ...]}``,
    the cards going down together in deck order (``discard 2,1`` lists them by these positions,
    first down first), ``None`` for a card you have not seen; ``start`` is where the first lies
    among the seat's Discarded cards, ``later`` the groups still to be ordered after this one."""

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Observation:
        """Built field by field (the generic builder resolves type hints on every call,
        which costs more than a whole engine decision)."""
        hand = data.get("hand") or {}
        return cls(
            raw=dict(data),
            seat=data.get("seat", 0),
            round=data["round"],
            phase=data["phase"],
            lead=data["lead"],
            to_move=list(data["to_move"]),
            factions=list(data["factions"]),
            skills=list(data["skills"]),
            announced=list(data["announced"]),
            limits=list(data["limits"]),
            counts=list(data["counts"]),
            events=list(data["events"]),
            reveal=data["reveal"],
            last_round=data["last_round"],
            decks=[DeckView(d["face_up"], d["face_down"], list(d["held"]), list(d["next_round"]), list(d["revealed"]))
                   for d in data["decks"]],
            result=data["result"],
            box=data["box"],
            hand=Hand(list(hand.get("up", [])), list(hand.get("down", []))),
            discarding=data.get("discarding"),
        )


# ----- house bots --------------------------------------------------------------------------------
def _opponent_model(faction: str) -> list[tuple[float, float]]:
    """Per skill, (mean Top Card level, mean bonus) of a faction's default deck."""
    deck = [CARDS[c] for c in default_deck(faction)]
    return [(sum(c.levels[k] for c in deck) / len(deck), sum(c.bonuses[k] for c in deck) / len(deck))
            for k in range(3)]


class HeuristicBot(Bot):
    """One-ply expected value: for each legal action, its Skill Total against a model of the
    opponent's total (logistic around the faction's average), weighed by the cards it costs
    and what the Win Effects and tricks would gain or lose."""

    name = "heuristic"
    SPREAD = 2.5

    def __init__(self) -> None:
        super().__init__()
        self._models = {0: _opponent_model("pendragon"), 1: _opponent_model("pirates")}

    def on_match_start(self, info: MatchInfo) -> None:
        factions = info.options.get("factions") or ["pendragon", "pirates"]
        self._models = {seat: _opponent_model(factions[seat] if factions[seat] in FACTIONS else "pendragon")
                        for seat in (0, 1)}

    # -- the opponent ---------------------------------------------------------------------------
    def _opp_expect(self, obs: Observation, opp_skill: int | None) -> float:
        """The opponent's likely total: its faction's average card, a little better since it
        chose the skill knowing its Top Card."""
        model = self._models
        opp = 1 - obs.seat
        if opp_skill is None:
            return max(level + 1.2 * bonus for level, bonus in model[opp]) + 1.5
        level, bonus = model[opp][opp_skill]
        return level + 1.0 + 1.2 * bonus + 1.0

    def _p_win(self, total: float, expect: float) -> tuple[float, float]:
        """(P(win), P(lose)) with ties folded as a draw band of one point."""
        if total <= 0:
            return 0.0, 1.0
        win = 1.0 / (1.0 + math.exp(-(total - expect - 0.5) / self.SPREAD * 1.7))
        lose = 1.0 / (1.0 + math.exp((total - expect + 0.5) / self.SPREAD * 1.7))
        return win, lose

    # -- my total ---------------------------------------------------------------------------------
    def _total(self, obs: Observation, cards: Sequence[Card], skill: int, trick: Card | None,
               opp_skill: int | None) -> int:
        if not cards:
            return 0
        t = trick.trick if trick is not None else None
        support = {skill}
        if t is not None and t.kind == "support" and t.skill == skill and not t.next_round and \
                (t.when != "lead" or obs.lead == obs.seat):
            support |= set(t.support)
        total = cards[0].levels[skill] + sum(max(c.bonuses[k] for k in support) for c in cards[1:])
        if t is not None and not t.next_round and (t.when is None or (t.when == "lead" and obs.lead == obs.seat)):
            if t.kind == "extra_bonus" and skill in t.skills:
                total += t.amount
            elif t.kind == "bonus_vs_skills" and skill == t.skill and (opp_skill in t.versus if opp_skill is not None
                                                                         else True):
                total += t.amount if opp_skill is not None else t.amount // 2
            elif t.kind == "bonus_vs_cards" and skill == t.skill:
                total += 1
        mine = obs.decks[obs.seat] if obs.decks else None
        if mine is not None:
            for held in mine.held:
                ev = CARDS[held["event"]].event
                if ev is not None and ev.effect == "bonus" and held["round"] == obs.round:
                    total += ev.amount
            for nr in mine.next_round:
                tr = CARDS[nr["card"]].trick
                if tr is not None and tr.kind == "extra_bonus" and skill in tr.skills:
                    total += tr.amount
        return total

    def _win_value(self, obs: Observation, skill: int) -> float:
        down = sum(1 for _ in obs.hand.down)
        if skill == SKILL_INDEX["sailing"]:
            return min(2, down) + 0.3
        if skill == SKILL_INDEX["guns"]:
            return 2.2
        return 1 + min(1, down) + 0.1

    def _play_value(self, obs: Observation, text: str, skill: int, opp_skill: int | None) -> float:
        up = [CARDS[c] for c in obs.hand.up]
        parts = text.split()
        if parts[1] == "0":
            chosen: list[Card] = []
            trick_card = None
        else:
            positions = [int(p) for p in parts[1].split("+")]
            chosen = [up[p - 1] for p in positions]
            trick_card = up[int(parts[3]) - 1] if len(parts) == 4 else None
        total = self._total(obs, chosen, skill, trick_card, opp_skill)
        expect = self._opp_expect(obs, opp_skill)
        win, lose = self._p_win(total, expect)
        gain = self._win_value(obs, skill)
        loss = self._win_value(obs, opp_skill) if opp_skill is not None else 2.0
        value = win * gain - lose * loss - len(chosen)
        t = trick_card.trick if trick_card is not None else None
        if t is not None:
            cond = {None: 1.0, "win": win, "lose": lose, "lead": 1.0 if obs.lead == obs.seat else 0.0}[t.when]
            if t.kind in ("recover", "opp_discard"):
                value += cond * t.count
            elif t.kind == "protect" and len(chosen) >= 2:
                value += cond * 0.9
            elif t.kind == "capture":
                value += win * (1.2 - gain)
            elif t.kind == "opp_penalty":
                value += 0.5 * (win + lose) * 0.6
            elif t.kind == "defence_bonus" and opp_skill in t.versus and skill == t.skill:
                value += lose * loss * 0.5
            elif t.next_round:
                value += 0.8
        if not chosen:
            value += 0.3   # keeps the Top Card for next round
        return value

    # -- decisions ----------------------------------------------------------------------------------
    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        obs: Observation = observation
        texts = [str(a) for a in legal_actions]
        if obs.phase == "announce":
            return self._announce(obs, texts)
        if obs.phase == "prepare":
            return self._prepare(obs, texts)
        if obs.phase == "discard":
            return self._discard_order(obs, texts)
        if obs.phase == "play":
            skill = SKILL_INDEX[obs.skills[obs.seat] or "guns"]
            opp = obs.skills[1 - obs.seat]
            opp_skill = SKILL_INDEX[opp] if opp else None
            scores = [self._play_value(obs, t, skill, opp_skill) for t in texts]
            return scores.index(max(scores))
        if obs.phase == "protect":
            reveal = obs.reveal or {}
            played = reveal.get("played", [[], []])[obs.seat]
            positions = reveal.get("positions", [[], []])[obs.seat]
            return max(range(len(texts)), key=lambda i: self._card_strength(played, positions, texts[i]))
        if obs.phase == "capture":
            return texts.index("capture top") if "capture top" in texts else 0
        return self.random.randrange(len(texts))

    def _card_strength(self, played: list[str], positions: list[int], text: str) -> float:
        return _strength(played[positions.index(int(text.split()[1]))])

    def _announce(self, obs: Observation, texts: list[str]) -> int:
        """The skill whose best play from the top three (after the best Rig, if the Top Card
        can Rig) is worth most."""
        opp = obs.skills[1 - obs.seat]
        opp_skill = SKILL_INDEX[opp] if opp else None
        up = [CARDS[c] for c in obs.hand.up]
        scores = [max(self._best_total_value(obs, cards, SKILL_INDEX[text], opp_skill)
                      for cards in self._rig_options(up)) for text in texts]
        return scores.index(max(scores))

    def _prepare(self, obs: Observation, texts: list[str]) -> int:
        """Always the Opp. limit when there is one; the Rig that best serves the announced
        skill, or ``ready`` when none beats the order as it is."""
        if "limit" in texts:
            return texts.index("limit")
        skill = SKILL_INDEX[obs.skills[obs.seat] or "guns"]
        opp = obs.skills[1 - obs.seat]
        opp_skill = SKILL_INDEX[opp] if opp else None
        up = [CARDS[c] for c in obs.hand.up]
        best_score, best = -1e9, 0
        for i, text in enumerate(texts):
            cards = _rigged(up, text)[:3]
            score = self._best_total_value(obs, cards, skill, opp_skill)
            if score > best_score + 1e-9:
                best_score, best = score, i
        return best

    def _rig_options(self, up: list[Card]) -> list[list[Card]]:
        """The top three as they are, and after each reorder the Top Card's Rig allows."""
        options = [up[:3]]
        trick = up[0].trick if up else None
        if trick is not None and trick.kind == "rig":
            positions = [p for p in trick.positions if p <= len(up)]
            for order in permutations(positions):
                rigged = list(up)
                for p, o in zip(positions, order):
                    rigged[p - 1] = up[o - 1]
                options.append(rigged[:3])
        return options

    def _discard_order(self, obs: Observation, texts: list[str]) -> int:
        """The strongest card goes down first, so that it is the first a Recover brings back."""
        cards = (obs.discarding or {}).get("cards") or []

        def strength(text: str) -> tuple[float, ...]:
            order = [int(k) for k in text.split()[1].split(",")]
            return tuple(_strength(cards[k - 1]) for k in order)

        return max(range(len(texts)), key=lambda i: strength(texts[i]))

    def _best_total_value(self, obs: Observation, cards: list[Card], skill: int, opp_skill: int | None) -> float:
        if not cards:
            return 0.0
        expect = self._opp_expect(obs, opp_skill)
        gain = self._win_value(obs, skill)
        best = -1e9
        subsets = [[0], [0, 1], [0, 2], [0, 1, 2]]
        for subset in subsets:
            if subset[-1] >= len(cards):
                continue
            chosen = [cards[i] for i in subset]
            trick_card = cards[0] if cards[0].trick is not None and cards[0].trick.kind != "rig" else None
            total = self._total(obs, chosen, skill, trick_card, opp_skill)
            win, lose = self._p_win(total, expect)
            best = max(best, win * gain - lose * 2.0 - len(chosen))
        return best


def _rigged(up: list[Card], text: str) -> list[Card]:
    """The face-up cards after the Rig ``text`` (``rig 3,1,2``); as they are for ``ready``."""
    if not text.startswith("rig "):
        return up
    order = [int(p) for p in text.split()[1].split(",")]
    rigged = list(up)
    for p, o in zip(sorted(order), order):
        rigged[p - 1] = up[o - 1]
    return rigged


def _strength(card_id: str | None) -> float:
    """How much a card is worth getting back: its best skill level and its bonuses; an Event
    (never Recovered) or an unseen card, nothing."""
    if card_id is None or CARDS[card_id].is_event:
        return -1.0
    c = CARDS[card_id]
    return max(c.levels) + 0.1 * sum(c.bonuses)


def _face_up_share(state: Any, seat: int) -> float:
    """An unfinished game's worth to ``seat``: its share of the face-up cards that count
    (Events do not), which is what ends the game when one side has none."""
    mine, theirs = (sum(1 for uid in state.up[s] if not state.table.is_event[uid]) for s in (seat, 1 - seat))
    return 0.5 if mine + theirs == 0 else mine / (mine + theirs)


class BossBot(SearchBoss):
    """The house boss: searches every decision with the forward model, the heuristic
    playing both seats of its playouts (skyarena.search)."""

    heuristic = HeuristicBot
    horizon = 120                    # a game can run to hundreds of decisions: play on this far, then estimate

    def estimate(self, state: Any, seat: int) -> float:
        return _face_up_share(state, seat)


HOUSE_BOTS: dict[str, type[Bot]] = {"random": RandomBot, "heuristic": HeuristicBot, "boss": BossBot}

__all__ = ["BossBot", "HOUSE_BOTS", "SKILLS", "DeckView", "Hand", "HeuristicBot", "Observation", "card"]
