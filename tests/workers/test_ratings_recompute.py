"""``skyarena ratings recompute``: the stored ratings equal a replay of the stored results."""

from __future__ import annotations

import json
import random

from click.testing import CliRunner

from skyarena.cli import main
from tests.workers.league import league, outcome, random_ranks, schedule
from workers.seasons import SeasonSpec
from workers.store import Database
from workers.store.recompute import recompute_season
from workers.store.results import apply_outcome
from workers.store.seasons import close_season, create_season, get_season, start_season


def play(db: Database, ladder_id: int, versions: list[int], matches: int, players: int, seed: int) -> None:
    rng = random.Random(seed)
    seat_lists = [rng.sample(versions, players) for _ in range(matches)]
    for match_id, seats in zip(schedule(db, ladder_id, seat_lists, seed), seat_lists):
        apply_outcome(db, outcome(match_id, seats, random_ranks(rng, players)))


def recompute(database_url: str, *args: str) -> tuple[int, dict]:
    result = CliRunner().invoke(main, ["ratings", "recompute", *args, "--json", "--database-url", database_url])
    return result.exit_code, json.loads(result.output) if result.output.startswith("{") else {"error": result.output}


def history(db: Database) -> list[tuple]:
    with db.connection() as conn:
        return [tuple(r.values()) for r in conn.execute(
            """SELECT match_id, version_id, seq, mu_before, sigma_before, mu_after, sigma_after, quality, rank, weight,
                      unrated_reason FROM rating_history ORDER BY seq, version_id""")]


def test_check_passes_on_applied_results_and_finds_tampering(db: Database, database_url: str) -> None:
    season, versions = league(db, players=(2, 4), versions=8)
    play(db, season.ladders[2], versions, 25, 2, seed=1)
    play(db, season.ladders[4], versions, 15, 4, seed=2)
    original = history(db)
    code, report = recompute(database_url, "s1", "--check")
    assert code == 0 and report["differences"] == 0
    assert [(ladder["players"], ladder["matches"]) for ladder in report["ladders"]] == [(2, 25), (4, 15)]

    with db.connection() as conn:
        conn.execute("UPDATE ratings SET mu = mu + 1 WHERE version_id = %s AND ladder_id = %s",
                     (versions[0], season.ladders[2]))
        conn.execute("DELETE FROM rating_history WHERE seq = (SELECT max(seq) FROM rating_history)")
    code, report = recompute(database_url, "s1", "--check")
    assert code == 1 and report["differences"] >= 2
    found = [d for ladder in report["ladders"] for d in ladder["differences"]]
    assert any(d.startswith(f"2-player ladder, version {versions[0]}: stored mu") for d in found)
    assert any("no history row" in d for d in found)

    code, report = recompute(database_url, "s1")
    assert code == 0 and report["differences"] >= 2  # what was rewritten
    assert recompute(database_url, "s1", "--check")[0] == 0
    assert history(db) == original


def test_a_cooperative_season_carried_over_recomputes_from_its_start(db: Database, database_url: str) -> None:
    season, versions = league(db, game="sky-team", players=(2,), versions=4)
    rng = random.Random(5)
    seat_lists = [rng.sample(versions, 2) for _ in range(12)]
    for i, (match_id, seats) in enumerate(zip(schedule(db, season.ladders[2], seat_lists), seat_lists)):
        if i % 4 == 3:  # seat 1 faults: it takes the loss, its partner is excused
            result = outcome(match_id, seats, [0, 1], scores=[1.0, 0.0], forfeited=[1], unrated=[0])
        else:
            landed = float(rng.random() < 0.5)
            result = outcome(match_id, seats, [0, 0], scores=[landed, landed])
        apply_outcome(db, result)
    with db.connection() as conn:
        close_season(conn, "s1")
        create_season(conn, SeasonSpec("s2", "sky-team", (2,), carry_over_from="s1", sigma_inflation=2.0))
        second = start_season(conn, "s2")
    play_coop = [rng.sample(versions, 2) for _ in range(6)]
    for match_id, seats in zip(schedule(db, second.ladders[2], play_coop, seed=9), play_coop):
        apply_outcome(db, outcome(match_id, seats, [0, 0], scores=[1.0, 1.0]))
    for name in ("s1", "s2"):
        code, report = recompute(database_url, name, "--check")
        assert code == 0 and report["differences"] == 0, report
    with db.connection() as conn:
        conn.execute("UPDATE ladders SET pseudo_mu = pseudo_mu - 1 WHERE id = %s", (second.ladders[2],))
        reports = recompute_season(conn, get_season(conn, "s2"), rewrite=True)
        assert [str(d).split(":")[0] for d in reports[0].differences] == ["2-player ladder, the game"]
        assert recompute_season(conn, get_season(conn, "s2"))[0].differences == ()


def test_an_unknown_season_is_a_clear_error(database_url: str) -> None:
    code, report = recompute(database_url, "nope", "--check")
    assert code == 2 and "unknown season 'nope'" in report["error"]
