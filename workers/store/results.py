"""Applying a finished match exactly once: result, participants, replay, logs and ratings together.

``apply_outcome`` is the only way a result enters the store. One transaction:

1. locks the match row (``FOR UPDATE``): a second applier of the same match waits here,
   then finds it ``finished`` and changes nothing (at-least-once delivery, exactly-once effect);
2. takes the ladder row: shared by appliers, exclusive for a recompute or a season closing
   (``lock_ladder``), and exclusive for a co-operative ladder, whose every match moves the
   game's pseudo-rating;
3. locks the rating row of every seat's version, in version order (``FOR UPDATE``, rows
   missing for a new version are created and locked): two matches that share a version
   apply one after the other, two that share none run side by side, and no update is lost
   (a ladder with leagues is held exclusively instead: a promotion reads the boss's rating);
4. only then draws the completion number (``match_completion_seq``). A match that waited for
   a version's row draws after the match it waited for, so for every version the order of
   its changes is the order of the numbers, and replaying the results in that order (the
   recompute) gives exactly the stored ratings;
5. writes the participants' results, the compressed replay with the referee's state hash,
   the hosted bots' logs, each rating change and a history row per seat explaining it;
6. on a ladder with leagues, moves each seat's run above its boss on and records any
   promotion it earned (`store.leagues.apply_leagues`), so a promotion happens exactly once.

The unique keys back this up: one replay and one history row per (match, version), one
``completed_seq`` per match. Locks are taken in one order (match, ladder, versions by id),
so appliers do not deadlock; the rare deadlock between two first matches of a new version
(step 3's insert) is retried. Statements go in pipelines: a few round trips per match.
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import orjson
import psycopg
from psycopg.types.json import Jsonb

from referee.games import GAMES
from workers.ratings import (
    RatedMatch,
    Rating,
    RatingChange,
    RatingParameters,
    SeatResult,
    rate_cooperative,
    rate_free_for_all,
)

from . import replay_document as stored_replay
from .database import Conn, Database
from .errors import Conflict, NotFound
from .leagues import apply_leagues
from .outcome import MatchOutcome, SeatOutcome

DEADLOCK_RETRIES = 3  # a deadlock is only possible between first matches of a new version; a retry settles it
REPLAY_COMPRESSION_LEVEL = 6  # zlib's default: replays are repetitive JSON, ~10x smaller, cheap to compress


@dataclass(frozen=True)
class Applied:
    match_id: str
    applied: bool                 # False: the match had been applied before; nothing changed now
    completed_seq: int | None
    rated: RatedMatch | None      # None for a smoke match or a repeated apply


def lock_ladder(conn: Conn, ladder_id: int, *, exclusive: bool) -> None:
    """Hold the ladder until this transaction ends: shared (appliers) or exclusive (recompute, close)."""
    mode = "UPDATE" if exclusive else "SHARE"
    conn.execute(f"SELECT 1 FROM ladders WHERE id = %s FOR {mode}", (ladder_id,))


def seat_results(seats: Sequence[Mapping[str, Any]]) -> list[SeatResult]:
    """What the rating code needs from each seat (an outcome's seats or stored participant rows)."""
    forfeited = [s["seat"] for s in seats if s["forfeited"]]
    out = []
    for s in seats:
        reason = None
        if s["unrated"]:
            reason = (f"excused: seat {', '.join(map(str, forfeited))} forfeited, so this seat could not win "
                      "or lose on its own play" if forfeited else "excused by the match record")
        out.append(SeatResult(s["version_id"], s["rank"], s["score"] or 0.0, reason))
    return out


def rate_seats(game: str, params: RatingParameters, seats: Sequence[SeatResult], ratings: Mapping[int, Rating],
               pseudo: Rating | None) -> RatedMatch:
    """The one place that picks the rating model for a game: co-op against the game, or free-for-all."""
    if GAMES[game].cooperative:
        return rate_cooperative(params, seats, ratings, pseudo)
    return rate_free_for_all(params, seats, ratings)


def apply_outcome(db: Database, outcome: MatchOutcome) -> Applied:
    """Apply ``outcome`` in its own transaction; safe to call any number of times, concurrently."""
    for attempt in range(DEADLOCK_RETRIES + 1):
        try:
            with db.connection() as conn:
                return apply_in_transaction(conn, outcome, commit=True)
        except psycopg.errors.DeadlockDetected:
            if attempt == DEADLOCK_RETRIES:
                raise
    raise AssertionError("unreachable")


def apply_in_transaction(conn: Conn, outcome: MatchOutcome, *, commit: bool = False) -> Applied:
    """``apply_outcome`` inside the caller's transaction; ``commit`` sends the COMMIT with the last
    statements (one round trip fewer) instead of leaving it to the caller."""
    with conn.pipeline():
        match_cursor = conn.execute(
            """SELECT m.id, m.kind, m.ladder_id, m.season_id, m.game, m.status, m.void_reason, m.completed_seq,
                      coalesce(l.rating, s.rating) AS rating_parameters,
                      coalesce(l.stage = 'regular' AND EXISTS (SELECT 1 FROM leagues g WHERE g.season_id = m.season_id),
                               false) AS leagued
               FROM matches m LEFT JOIN seasons s ON s.id = m.season_id LEFT JOIN ladders l ON l.id = m.ladder_id
               WHERE m.id = %s FOR UPDATE OF m""", (outcome.match_id,))
        seats_cursor = conn.execute("SELECT seat, version_id FROM participants WHERE match_id = %s",
                                    (outcome.match_id,))
        match = match_cursor.fetchone()
        scheduled = {r["seat"]: r["version_id"] for r in seats_cursor.fetchall()}
    if match is None:
        raise NotFound(f"unknown match {outcome.match_id!r}: only a scheduled match can be applied")
    if match["status"] == "finished":
        return Applied(outcome.match_id, False, match["completed_seq"], None)
    if match["status"] == "void":
        raise Conflict(f"match {outcome.match_id} is void ({match['void_reason']}): its result is not stored; "
                       "drop this outcome")
    _check_seats(outcome, scheduled)
    rated = None
    with conn.pipeline():
        _write_result(conn, outcome)
        if match["kind"] == "rated":
            params = RatingParameters.from_mapping(match["rating_parameters"] or {})
            ratings, pseudo, seq = _lock_ratings(conn, match["ladder_id"], match["game"], params, outcome,
                                                 exclusive=match["leagued"])
            rated = rate_seats(match["game"], params, seat_results([vars(s) for s in _by_seat(outcome)]), ratings,
                               pseudo)
            store_rating_changes(conn, match["ladder_id"], outcome.match_id, seq, rated)
            if match["leagued"]:
                apply_leagues(conn, match["ladder_id"], match["season_id"], outcome.match_id, seq, rated, params)
        else:
            seq = _next_seq(conn)
        conn.execute(
            """UPDATE matches SET status = 'finished', completed_seq = %s, end_reason = %s, finished_at = now(),
                      referee = coalesce(%s, referee), confinement = %s, lease_owner = NULL, lease_expires_at = NULL
               WHERE id = %s""",
            (seq, outcome.end_reason, outcome.referee, outcome.confinement, outcome.match_id))
        if commit:
            conn.commit()
    return Applied(outcome.match_id, True, seq, rated)


def _by_seat(outcome: MatchOutcome) -> list[SeatOutcome]:
    return sorted(outcome.seats, key=lambda s: s.seat)


def _next_seq(conn: Conn) -> int:
    row = conn.execute("SELECT nextval('match_completion_seq') AS seq").fetchone()
    assert row is not None
    return int(row["seq"])


def _lock_ratings(conn: Conn, ladder_id: int, game: str, params: RatingParameters, outcome: MatchOutcome,
                  *, exclusive: bool = False) -> tuple[dict[int, Rating], Rating | None, int]:
    """Steps 2-4: the ladder, the seats' rating rows in version order, then the completion number.

    ``exclusive`` (a ladder with leagues): a promotion compares a version with its boss, whose
    rating any match may move, so the ladder's matches apply one at a time, in completion order."""
    cooperative = GAMES[game].cooperative or exclusive
    versions = sorted({s.version_id for s in outcome.seats})  # a co-op version may fill two seats (self-play)
    ladder_cursor = conn.execute(
        f"SELECT pseudo_mu, pseudo_sigma FROM ladders WHERE id = %s FOR {'UPDATE' if cooperative else 'SHARE'}",
        (ladder_id,))
    rows_cursor = conn.execute(
        """SELECT version_id, mu, sigma FROM ratings WHERE ladder_id = %s AND version_id = ANY(%s)
           ORDER BY version_id FOR UPDATE""", (ladder_id, versions))
    seq_cursor = conn.execute("SELECT nextval('match_completion_seq') AS seq")
    ladder = ladder_cursor.fetchone()
    rows = rows_cursor.fetchall()
    seq_row = seq_cursor.fetchone()
    assert seq_row is not None
    seq = int(seq_row["seq"])
    ratings = {r["version_id"]: Rating(r["mu"], r["sigma"]) for r in rows}
    missing = [v for v in versions if v not in ratings]
    if missing:
        # A version's first match here: create its row (or wait for the applier creating it), locked
        # like the others; the number drawn above may precede a match this one waited for: redraw.
        fresh = params.fresh()
        with conn.cursor() as cur:
            cur.executemany(
                """INSERT INTO ratings (ladder_id, version_id, mu, sigma) VALUES (%s, %s, %s, %s)
                   ON CONFLICT (ladder_id, version_id) DO UPDATE SET ladder_id = excluded.ladder_id
                   RETURNING version_id, mu, sigma""",
                [(ladder_id, v, fresh.mu, fresh.sigma) for v in missing], returning=True)
            while True:
                for r in cur.fetchall():
                    ratings[r["version_id"]] = Rating(r["mu"], r["sigma"])
                if not cur.nextset():
                    break
        seq = _next_seq(conn)
    pseudo = None
    if ladder is not None and ladder["pseudo_mu"] is not None:
        pseudo = Rating(ladder["pseudo_mu"], ladder["pseudo_sigma"])
    return ratings, pseudo, seq


def _check_seats(outcome: MatchOutcome, scheduled: dict[int, int]) -> None:
    reported = {s.seat: s.version_id for s in outcome.seats}
    if scheduled != reported:
        raise Conflict(f"match {outcome.match_id} was scheduled with seats {dict(sorted(scheduled.items()))} "
                       f"(seat: version) but the outcome reports {dict(sorted(reported.items()))}; "
                       "build the outcome from the match's own seats")


def _write_result(conn: Conn, outcome: MatchOutcome) -> None:
    seats = outcome.seats
    conn.execute(
        """UPDATE participants p SET rank = u.rank, score = u.score, faults = u.faults, strikes = u.strikes,
                  forfeited = u.forfeited, unrated = u.unrated, bot_seed = u.bot_seed::numeric,
                  answer_median_s = u.answer_median_s
           FROM unnest(%s::int[], %s::int[], %s::float8[], %s::jsonb[], %s::int[], %s::bool[], %s::bool[],
                       %s::text[], %s::float8[])
                AS u (seat, rank, score, faults, strikes, forfeited, unrated, bot_seed, answer_median_s)
           WHERE p.match_id = %s AND p.seat = u.seat""",
        ([s.seat for s in seats], [s.rank for s in seats], [s.score for s in seats],
         [Jsonb(list(s.faults)) for s in seats], [s.strikes for s in seats], [s.forfeited for s in seats],
         [s.unrated for s in seats], [None if s.bot_seed is None else str(s.bot_seed) for s in seats],  # beyond bigint
         [s.answer_median_s for s in seats], outcome.match_id))
    logs = [s for s in seats if s.log or s.log_truncated]
    if logs:
        conn.execute(
            """INSERT INTO bot_logs (match_id, seat, version_id, log, truncated)
               SELECT %s, * FROM unnest(%s::int[], %s::bigint[], %s::bytea[], %s::bool[])""",
            (outcome.match_id, [s.seat for s in logs], [s.version_id for s in logs], [s.log for s in logs],
             [s.log_truncated for s in logs]))
    conn.execute("INSERT INTO replays (match_id, data, state_hash, steps) VALUES (%s, %s, %s, %s)",
                 (outcome.match_id, compress_replay(outcome.replay), outcome.state_hash,
                  len(stored_replay.moves(outcome.replay))))


def compress_replay(replay: Mapping[str, Any]) -> bytes:
    return zlib.compress(orjson.dumps(replay), REPLAY_COMPRESSION_LEVEL)


def decompress_replay(data: bytes) -> dict[str, Any]:
    replay: dict[str, Any] = orjson.loads(zlib.decompress(data))
    return replay


def store_rating_changes(conn: Conn, ladder_id: int, match_id: str, seq: int, rated: RatedMatch) -> None:
    """The ratings rows, the history rows and the game's rating for one rated match."""
    moved = [c for c in rated.changes if c.rated]
    if moved:
        conn.execute(
            """UPDATE ratings r SET mu = u.mu, sigma = u.sigma, matches = r.matches + 1, last_match_id = %s,
                      updated_at = now()
               FROM unnest(%s::bigint[], %s::float8[], %s::float8[]) AS u (version_id, mu, sigma)
               WHERE r.ladder_id = %s AND r.version_id = u.version_id""",
            (match_id, [c.version_id for c in moved], [c.after.mu for c in moved], [c.after.sigma for c in moved],
             ladder_id))
    insert_history(conn, ladder_id, [(match_id, seq, c) for c in rated.changes])
    if rated.game is not None and rated.game.rated:
        conn.execute("UPDATE ladders SET pseudo_mu = %s, pseudo_sigma = %s WHERE id = %s",
                     (rated.game.after.mu, rated.game.after.sigma, ladder_id))


def insert_history(conn: Conn, ladder_id: int, entries: Sequence[tuple[str, int, RatingChange]]) -> None:
    """History rows, one per (match, version): ``entries`` are (match id, completion seq, change)."""
    if not entries:
        return
    columns = list(zip(*[(match_id, c.version_id, seq, c.before.mu, c.before.sigma, c.after.mu, c.after.sigma,
                          c.quality, c.rank, c.weight, c.unrated_reason) for match_id, seq, c in entries]))
    conn.execute(
        """INSERT INTO rating_history (ladder_id, match_id, version_id, seq, mu_before, sigma_before, mu_after,
                                       sigma_after, quality, rank, weight, unrated_reason)
           SELECT %s, * FROM unnest(%s::text[], %s::bigint[], %s::bigint[], %s::float8[], %s::float8[], %s::float8[],
                                    %s::float8[], %s::float8[], %s::int[], %s::float8[], %s::text[])""",
        (ladder_id, *map(list, columns)))
