"""A ladder's confidence as everyone reads it: rank intervals, P(above the next), the settled verdict.

One place turns the store's rows into the figures of `workers.rank_confidence`, so the
scheduler (which records the moment a ladder settles), `skyarena season standings`, the
Arena's GetStandings and the dashboard's Ladders page can never disagree.

- Intervals and P(above the next) are over every version the ladder lists (the live
  ratings, or a closed season's frozen standings: then they are frozen too, being a seeded
  function of frozen numbers).
- The verdict is over the versions still playing (active ones, as the matchmaker sees
  them): a retired version cannot settle anything, a newcomer in placement unsettles it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from workers.matchmaking import LadderVersion
from workers.rank_confidence import Contestant, Verdict, adjacent_probabilities, rank_intervals, settle_verdict
from workers.ratings import Rating
from workers.store.database import Conn
from workers.store.ladders import ladder_ratings, mark_settled, match_rate_per_hour, settled_at
from workers.store.scheduling import ladder_versions
from workers.store.seasons import Season, get_season_by_id


@dataclass(frozen=True)
class RankConfidence:
    """One version's rank interval (90 %, 1 is best) and P(it outranks the version listed next)."""

    rank_low: int
    rank_high: int
    above_next: float | None   # None for the last version listed

    def to_json(self) -> dict[str, Any]:
        return {"rank_interval": [self.rank_low, self.rank_high], "p_above_next": self.above_next}


def confidence(ratings: Sequence[tuple[int, Rating]], seed: int = 0) -> dict[int, RankConfidence]:
    """The figures of each version of a ladder, given every version's rating in ladder order."""
    intervals = rank_intervals([r for _, r in ratings], seed=seed)
    above = [*adjacent_probabilities([r for _, r in ratings]), None]
    return {v: RankConfidence(low, high, q) for (v, _), (low, high), q in zip(ratings, intervals, above)}


def ladder_confidence(conn: Conn, ladder_id: int, *, frozen: bool = False) -> dict[int, RankConfidence]:
    """Every listed version's figures on the ladder (seeded by the ladder: the same state reads the same)."""
    rows = ladder_ratings(conn, ladder_id, frozen=frozen)
    return confidence([(v, Rating(mu, sigma)) for v, mu, sigma in rows], seed=ladder_id)


def contestants(versions: Sequence[LadderVersion]) -> list[Contestant]:
    return [Contestant(v.version_id, v.rating, v.matches_played) for v in versions]


def verdict_of(season: Season, players: int, versions: Sequence[LadderVersion]) -> Verdict:
    """The settled verdict of a ladder of ``season`` from what the matchmaker knows of its versions."""
    rules = season.matchmaking
    return settle_verdict(contestants(versions), season.rating, top=rules.settle_top,
                          probability=rules.settle_probability, placement=rules.placement_matches, players=players)


def record_verdict(conn: Conn, ladder_id: int, verdict: Verdict) -> None:
    """Keep the moment the ladder settled (the scheduler calls this on each pass)."""
    mark_settled(conn, ladder_id, verdict.settled)


def ladder_settling(conn: Conn, season: Season, players: int) -> dict[str, Any]:
    """The verdict of one ladder, JSON-ready: settled, since when, the pairs, the estimate and its text."""
    ladder_id = season.ladders[players]
    verdict = verdict_of(season, players, ladder_versions(conn, ladder_id, season.rating))
    rate = match_rate_per_hour(conn, ladder_id) if season.state == "active" else None
    since = settled_at(conn, ladder_id)
    return {"settled": verdict.settled, "settled_at": since.isoformat() if since else None,
            "top": verdict.top, "probability": verdict.probability, "pairs": list(verdict.pairs),
            "in_placement": verdict.in_placement, "matches_needed": verdict.matches_needed,
            "matches_per_hour": rate, "text": verdict.text(rate)}


def season_ladder_settling(conn: Conn, season_id: int, players: int) -> dict[str, Any]:
    """``ladder_settling`` by the season's id (a plain, cacheable argument for the dashboard)."""
    return ladder_settling(conn, get_season_by_id(conn, season_id), players)
