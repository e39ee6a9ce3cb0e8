"""A real ladder's confidence: the scheduler records the moment it settles, the reads show intervals."""

from __future__ import annotations

import itertools
import json

from click.testing import CliRunner

from skyarena.cli import main
from tests.workers.league import league, outcome, schedule
from workers.ladder_confidence import ladder_confidence, ladder_settling
from workers.matchmaking import MatchmakingParameters
from workers.scheduling import schedule_season
from workers.store import Database
from workers.store.accounts import issue_token
from workers.store.ladders import settled_at
from workers.store.results import apply_outcome
from workers.store.seasons import get_season
from workers.store.synthetic import register_versions


def play_round_robins(db: Database, ladder_id: int, versions: list[int], rounds: int) -> None:
    """Every pair meets ``rounds`` times, seats alternating; the lower version id always wins."""
    seat_lists = [list(pair if r % 2 else pair[::-1]) for r in range(rounds)
                  for pair in itertools.combinations(versions, 2)]
    for match_id, seats in zip(schedule(db, ladder_id, seat_lists), seat_lists):
        apply_outcome(db, outcome(match_id, seats, [0, 1] if seats[0] < seats[1] else [1, 0]))


def test_a_ladder_settles_the_scheduler_records_when_and_a_newcomer_unsettles_it(db: Database,
                                                                                database_url: str) -> None:
    season, versions = league(db, "settling", players=(2,), versions=4, matches_in_flight=0,
                              matchmaking=MatchmakingParameters(placement_matches=2))
    ladder = season.ladders[2]
    play_round_robins(db, ladder, versions, 2)
    schedule_season(db, season.id, 0)
    with db.connection() as conn:
        early = ladder_settling(conn, get_season(conn, "settling"), 2)
        assert not early["settled"] and early["matches_needed"] > 0 and early["text"].startswith("not yet: about")
        assert settled_at(conn, ladder) is None
    play_round_robins(db, ladder, versions, 12)
    schedule_season(db, season.id, 0)
    with db.connection() as conn:
        late = ladder_settling(conn, get_season(conn, "settling"), 2)
        moment = settled_at(conn, ladder)
        figures = ladder_confidence(conn, ladder)
    assert late["settled"] and late["matches_needed"] == 0 and all(q >= 0.95 for q in late["pairs"])
    assert moment is not None and late["settled_at"] == moment.isoformat()
    assert [(figures[v].rank_low, figures[v].rank_high) for v in versions] == [(1, 1), (2, 2), (3, 3), (4, 4)]
    assert figures[versions[0]].above_next is not None and figures[versions[0]].above_next > 0.95
    assert figures[versions[-1]].above_next is None

    schedule_season(db, season.id, 0)          # still settled: the moment is kept
    with db.connection() as conn:
        assert settled_at(conn, ladder) == moment
        token = issue_token(conn, "organiser", "organiser")
    result = CliRunner().invoke(main, ["season", "standings", "settling", "--json", "--database-url", database_url,
                                       "--token", token])
    assert result.exit_code == 0, result.output
    shown = json.loads(result.output)
    assert shown["settling"]["2"]["settled"] is True
    assert [row["rank_interval"] for row in shown["standings"]["2"]] == [[1, 1], [2, 2], [3, 3], [4, 4]]
    assert shown["standings"]["2"][0]["p_above_next"] > 0.95

    with db.connection() as conn:
        register_versions(conn, "skybirds", 1, account="newcomer")
    schedule_season(db, season.id, 0)
    with db.connection() as conn:
        assert settled_at(conn, ladder) is None
        again = ladder_settling(conn, get_season(conn, "settling"), 2)
    assert not again["settled"] and again["in_placement"] == 1
