"""Applying finished matches: everything in one transaction, exactly once, in completion order."""

from __future__ import annotations

import random
import threading
from typing import Any

import pytest

from tests.workers.league import league, outcome, random_ranks, schedule
from workers.ratings import Rating, RatingParameters, SeatResult, rate_free_for_all
from workers.store import Conflict, Database, NotFound
from workers.store import replay_document as stored_replay
from workers.store.ladders import rating_history, standings
from workers.store.results import apply_outcome, decompress_replay

TABLES = ("matches", "participants", "replays", "bot_logs", "ratings", "rating_history", "ladders")


def snapshot(db: Database) -> dict[str, list[Any]]:
    """Every row of the tables an apply writes, for before/after comparisons."""
    with db.connection() as conn:
        return {t: [tuple(r.values()) for r in conn.execute(f"SELECT * FROM {t} ORDER BY 1, 2")] for t in TABLES}


def test_one_apply_writes_result_replay_logs_and_ratings_together(db: Database) -> None:
    season, versions = league(db, players=(3,), versions=3)
    (match_id,) = schedule(db, season.ladders[3], [versions])
    done = apply_outcome(db, outcome(match_id, versions, [1, 0, 2], forfeited=[2], log=b"stderr"))
    assert done.applied and done.rated is not None
    with db.connection() as conn:
        match = conn.execute("SELECT status, completed_seq, end_reason FROM matches WHERE id = %s",
                             (match_id,)).fetchone()
        assert match == {"status": "finished", "completed_seq": done.completed_seq, "end_reason": "forfeit"}
        seats = conn.execute("SELECT seat, rank, forfeited, strikes, faults FROM participants "
                             "WHERE match_id = %s ORDER BY seat", (match_id,)).fetchall()
        assert [(s["rank"], s["forfeited"], s["strikes"]) for s in seats] == [(1, False, 0), (0, False, 0),
                                                                              (2, True, 3)]
        assert seats[2]["faults"][0]["kind"] == "timeout"
        replay = conn.execute("SELECT data, state_hash, steps FROM replays WHERE match_id = %s", (match_id,)).fetchone()
        assert replay is not None and replay["state_hash"] == f"hash-{match_id}" and replay["steps"] == 5
        assert stored_replay.header(decompress_replay(replay["data"]))["game"] == "skybirds"
        logs = conn.execute("SELECT seat, log FROM bot_logs WHERE match_id = %s ORDER BY seat", (match_id,)).fetchall()
        assert [bytes(r["log"]) for r in logs] == [b"stderr seat 0", b"stderr seat 1", b"stderr seat 2"]
        table = standings(conn, season.ladders[3])
        history = rating_history(conn, versions[1], season.ladders[3])
    assert [s.version_id for s in table] == [versions[1], versions[0], versions[2]]
    assert len(history) == 1 and history[0]["rank"] == 0 and history[0]["mu_after"] > history[0]["mu_before"]
    assert history[0]["quality"] == pytest.approx(done.rated.quality)


def test_applying_twice_changes_nothing(db: Database) -> None:
    season, versions = league(db, versions=2)
    (match_id,) = schedule(db, season.ladders[2], [versions])
    result = outcome(match_id, versions, [0, 1])
    assert apply_outcome(db, result).applied
    before = snapshot(db)
    again = apply_outcome(db, result)
    assert not again.applied and again.rated is None
    assert snapshot(db) == before


def test_bad_outcomes_are_refused_and_leave_nothing_behind(db: Database) -> None:
    season, versions = league(db, versions=3)
    (match_id,) = schedule(db, season.ladders[2], [versions[:2]])
    before = snapshot(db)
    with pytest.raises(NotFound, match="unknown match 'nope'"):
        apply_outcome(db, outcome("nope", versions[:2], [0, 1]))
    with pytest.raises(Conflict, match="scheduled with seats"):
        apply_outcome(db, outcome(match_id, [versions[0], versions[2]], [0, 1]))
    assert snapshot(db) == before
    with db.connection() as conn:
        conn.execute("UPDATE matches SET status = 'void', void_reason = 'retry limit' WHERE id = %s", (match_id,))
    with pytest.raises(Conflict, match="is void .retry limit."):
        apply_outcome(db, outcome(match_id, versions[:2], [0, 1]))


def test_concurrent_appliers_equal_a_sequential_recomputation(db: Database) -> None:
    """Eight threads apply 60 four-player matches, each match three times, in shuffled orders."""
    season, versions = league(db, players=(4,), versions=10)
    rng = random.Random(13)
    seat_lists = [rng.sample(versions, 4) for _ in range(60)]
    ids = schedule(db, season.ladders[4], seat_lists)
    outcomes = [outcome(i, seats, random_ranks(rng, 4)) for i, seats in zip(ids, seat_lists)]
    work = [o for o in outcomes for _ in range(3)]
    rng.shuffle(work)
    pool = Database(db.url, max_size=8)
    applied: list[str] = []
    errors: list[BaseException] = []
    lock = threading.Lock()

    def applier(share: list[Any]) -> None:
        try:
            for o in share:
                if apply_outcome(pool, o).applied:
                    with lock:
                        applied.append(o.match_id)
        except BaseException as exc:  # reported below: a thread's exception would otherwise vanish
            errors.append(exc)

    threads = [threading.Thread(target=applier, args=(work[k::8],)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    pool.close()
    assert not errors
    assert sorted(applied) == sorted(ids)  # every match applied exactly once

    # The sequential recomputation: the same outcomes, rated one by one in completion order.
    with db.connection() as conn:
        order = [r["id"] for r in conn.execute(
            "SELECT id FROM matches WHERE ladder_id = %s ORDER BY completed_seq", (season.ladders[4],))]
        stored = {r["version_id"]: (r["mu"], r["sigma"], r["matches"]) for r in conn.execute(
            "SELECT version_id, mu, sigma, matches FROM ratings WHERE ladder_id = %s", (season.ladders[4],))}
        history_rows = conn.execute("SELECT count(*) AS n FROM rating_history").fetchone()
    assert history_rows == {"n": 60 * 4}
    by_id = {o.match_id: o for o in outcomes}
    params = RatingParameters()
    ratings: dict[int, Rating] = {}
    played: dict[int, int] = {}
    for match_id in order:
        seats = [SeatResult(s.version_id, s.rank) for s in by_id[match_id].seats]
        ratings.update(rate_free_for_all(params, seats, ratings).new_ratings())
        for s in seats:
            played[s.version_id] = played.get(s.version_id, 0) + 1
    assert set(stored) == set(ratings)
    for version, (mu, sigma, matches) in stored.items():
        assert (mu, sigma, matches) == pytest.approx((ratings[version].mu, ratings[version].sigma, played[version]),
                                                     abs=1e-9)


def test_a_cooperative_partner_of_a_faulty_seat_is_not_rated(db: Database) -> None:
    season, versions = league(db, game="sky-team", players=(2,), versions=2)
    ladder = season.ladders[2]
    (match_id,) = schedule(db, ladder, [versions])
    done = apply_outcome(db, outcome(match_id, versions, [1, 0], scores=[0.0, 1.0], forfeited=[0], unrated=[1]))
    assert done.rated is not None and done.rated.game is not None
    with db.connection() as conn:
        history = {r["version_id"]: r for r in conn.execute(
            "SELECT version_id, mu_before, mu_after, weight, unrated_reason FROM rating_history WHERE match_id = %s",
            (match_id,))}
        rated = conn.execute("SELECT version_id, matches FROM ratings WHERE ladder_id = %s ORDER BY version_id",
                             (ladder,)).fetchall()
        game = conn.execute("SELECT pseudo_mu FROM ladders WHERE id = %s", (ladder,)).fetchone()
    faulty, partner = history[versions[0]], history[versions[1]]
    assert faulty["mu_after"] < faulty["mu_before"] and faulty["weight"] == 1.0 and faulty["unrated_reason"] is None
    assert partner["mu_after"] == partner["mu_before"] and partner["weight"] == 0.0
    assert "seat 0 forfeited" in partner["unrated_reason"]
    assert rated == [{"version_id": versions[0], "matches": 1}, {"version_id": versions[1], "matches": 0}]
    assert game is not None and game["pseudo_mu"] == pytest.approx(done.rated.game.after.mu)
    assert game["pseudo_mu"] > RatingParameters().mu  # the game beat the faulty seat
