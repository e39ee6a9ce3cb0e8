"""Building small leagues in a test database: a season, active versions, scheduled matches, outcomes."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from workers.matchmaking import PlannedMatch
from workers.seasons import SeasonSpec
from workers.store import Database
from workers.store.outcome import MatchOutcome, SeatOutcome
from workers.store.replay_document import replay_document
from workers.store.scheduling import schedule_matches
from workers.store.seasons import Season, create_season, start_season
from workers.store.synthetic import register_versions


def league(db: Database, name: str = "s1", game: str = "skybirds", players: Sequence[int] = (2,),
           versions: int = 8, **spec: Any) -> tuple[Season, list[int]]:
    """An active season with ``versions`` active versions of its game."""
    with db.connection() as conn:
        create_season(conn, SeasonSpec(name, game, tuple(players), **spec))
        season = start_season(conn, name)
        ids = register_versions(conn, game, versions, account=f"acct-{name}") if versions else []
    return season, ids


def schedule(db: Database, ladder_id: int, seat_lists: Sequence[Sequence[int]], seed: int = 1) -> list[str]:
    rng = random.Random(seed)
    with db.connection() as conn:
        return schedule_matches(conn, ladder_id, [PlannedMatch(tuple(s), 0.0, s[0]) for s in seat_lists],
                                [rng.randrange(2**31) for _ in seat_lists])


def outcome(match_id: str, versions: Sequence[int], ranks: Sequence[int], *, scores: Sequence[float] | None = None,
            forfeited: Sequence[int] = (), unrated: Sequence[int] = (), log: bytes = b"") -> MatchOutcome:
    seats = tuple(
        SeatOutcome(seat=i, version_id=v, rank=r, score=scores[i] if scores else float(-r),
                    faults=({"turn": 3, "kind": "timeout", "reason": "no answer in 1 s"},) if i in forfeited else (),
                    strikes=3 if i in forfeited else 0, forfeited=i in forfeited, unrated=i in unrated,
                    log=log + f" seat {i}".encode() if log else b"")
        for i, (v, r) in enumerate(zip(versions, ranks)))
    replay = replay_document([{"type": "header", "game": "skybirds", "seed": 1},
                              *({"type": "move", "n": n, "actions": {"0": "a"}} for n in range(1, 6))])
    return MatchOutcome(match_id, seats, "forfeit" if forfeited else "finished", replay, f"hash-{match_id}")


def random_ranks(rng: random.Random, players: int) -> list[int]:
    """A random finishing order with an occasional tie."""
    ranks = list(range(players))
    rng.shuffle(ranks)
    if players > 2 and rng.random() < 0.2:
        top = ranks.index(0)
        ranks[ranks.index(1)] = 0
        ranks[top] = 0
    return [sorted(set(ranks)).index(r) for r in ranks]
