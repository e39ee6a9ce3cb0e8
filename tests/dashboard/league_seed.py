"""A small league with real games for the dashboard's tests: every game, its replays, tokens, faults, logs.

Every match is a seeded random game played by the engine; its result is applied through
the store's exactly-once path (`apply_outcome`) with the replay document the worker
stores (records grouped by type, `workers/play.py`), so the dashboard reads what the
platform writes. The tokens' plain texts are returned so a test can sign in.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field
from typing import Any

from referee.games import make
from referee.games.core.playout import random_joint_action
from workers.matchmaking import PlannedMatch
from workers.seasons import SeasonSpec
from workers.store import Database
from workers.store.outcome import MatchOutcome, SeatOutcome
from workers.store.replay_document import replay_document
from workers.store.results import apply_outcome
from workers.store.scheduling import schedule_matches
from workers.store.seasons import close_season, create_season, start_season
from workers.store.synthetic import register_versions
from workers.store.version_status import pause_version

GAMES = ("skyjo-action", "sky-team", "skybirds", "oddball-aeronauts", "fly-away")
AUTHOR_TOKEN = "author-token-alice"
OTHER_AUTHOR_TOKEN = "author-token-bob"
ORGANISER_TOKEN = "organiser-token-olga"
PAUSE_REASON = "too many timeouts in its last 10 matches"
FAULT = {"turn": 2, "kind": "timeout", "reason": "no answer within 1 s"}


@dataclass
class Seeded:
    seasons: dict[str, int] = field(default_factory=dict)              # game (or "closed") -> season id
    ladders: dict[str, int] = field(default_factory=dict)              # game (or "closed") -> ladder id
    versions: dict[str, list[int]] = field(default_factory=dict)       # game -> version ids (alice's first)
    matches: dict[str, list[str]] = field(default_factory=dict)        # game -> finished match ids
    in_flight: list[str] = field(default_factory=list)                 # [running, queued]
    faulty_match: str = ""
    paused_version: int = 0


def played(game: str, players: int, seed: int) -> tuple[list[int], list[float], str, dict[str, Any]]:
    """A seeded random game: ranks, scores, end reason and the stored replay document."""
    state = make(game, players, seed)
    rng = random.Random(seed)
    while not state.is_over():
        state.apply(random_joint_action(state, rng))
    result = state.result()
    assert result is not None, "a finished game has a result"
    return list(result.ranks), list(result.scores), result.reason, replay_document(state.replay())


def _token(conn: Any, account: str, scope: str, token: str) -> None:
    row = conn.execute("INSERT INTO accounts (name) VALUES (%s) ON CONFLICT (name) DO UPDATE SET name = excluded.name "
                       "RETURNING id", (account,)).fetchone()
    conn.execute("INSERT INTO api_tokens (account_id, token_hash, scope) VALUES (%s, %s, %s)",
                 (row["id"], hashlib.sha256(token.encode()).digest(), scope))


def _play_season(db: Database, ladder_id: int, game: str, versions: list[int], matches: int, seed: int,
                 *, fault_first: bool = False) -> list[str]:
    rng = random.Random(seed)
    seat_lists = [tuple(rng.sample(versions, 2)) for _ in range(matches)]
    seeds = [rng.randrange(2**31) for _ in seat_lists]
    with db.connection() as conn:
        ids = schedule_matches(conn, ladder_id, [PlannedMatch(s, 0.0, s[0]) for s in seat_lists], seeds)
    for n, (match_id, seats, match_seed) in enumerate(zip(ids, seat_lists, seeds)):
        ranks, scores, reason, replay = played(game, 2, match_seed)
        faulty = fault_first and n == 0
        outcome = MatchOutcome(match_id, tuple(
            SeatOutcome(seat=i, version_id=v, rank=ranks[i], score=scores[i],
                        faults=(FAULT,) if faulty and i == 0 else (), strikes=1 if faulty and i == 0 else 0,
                        log=f"{game} bot {v}: thinking in match {match_id}\n".encode(),
                        answer_median_s=0.004 * (1 + (v + n) % 5))  # what the referee measured, seeded
            for i, v in enumerate(seats)), reason, replay, f"hash-{match_id}")
        apply_outcome(db, outcome)
    return ids


def seed_league(db: Database, matches_per_game: int = 6) -> Seeded:
    """Per game an active two-player season (alice's two bots and bob's two, ``matches_per_game`` matches),
    a closed Skyjo season with frozen standings, a running and a queued match, a paused version."""
    seeded = Seeded()
    with db.connection() as conn:
        _token(conn, "alice", "author", AUTHOR_TOKEN)
        _token(conn, "bob", "author", OTHER_AUTHOR_TOKEN)
        _token(conn, "olga", "organiser", ORGANISER_TOKEN)
        for game in GAMES:
            create_season(conn, SeasonSpec(f"{game}-spring", game, (2,)))
            season = start_season(conn, f"{game}-spring")
            seeded.seasons[game], seeded.ladders[game] = season.id, season.ladders[2]
            seeded.versions[game] = (register_versions(conn, game, 2, account="alice")
                                     + register_versions(conn, game, 2, account="bob"))
        create_season(conn, SeasonSpec("skyjo-winter", "skyjo-action", (2,)))
        closed = start_season(conn, "skyjo-winter")
        seeded.seasons["closed"], seeded.ladders["closed"] = closed.id, closed.ladders[2]
    for n, game in enumerate(GAMES):
        seeded.matches[game] = _play_season(db, seeded.ladders[game], game, seeded.versions[game],
                                            matches_per_game, 100 + n, fault_first=game == "skyjo-action")
    seeded.faulty_match = seeded.matches["skyjo-action"][0]
    _play_season(db, seeded.ladders["closed"], "skyjo-action", seeded.versions["skyjo-action"], 3, 99)
    with db.connection() as conn:
        close_season(conn, "skyjo-winter")
        planned = [PlannedMatch(tuple(seeded.versions["fly-away"][:2]), 0.0, 0)] * 2
        seeded.in_flight = schedule_matches(conn, seeded.ladders["fly-away"], planned, [7, 8])
        conn.execute("UPDATE matches SET status = 'running', started_at = now(), attempts = 1, referee = %s "
                     "WHERE id = %s", ("127.0.0.1:50051", seeded.in_flight[0]))
        seeded.paused_version = seeded.versions["oddball-aeronauts"][3]
        pause_version(conn, seeded.paused_version, PAUSE_REASON)
    return seeded
