"""Finals: the balanced schedule, the refusals, and a final played through the store to a closed season."""

from __future__ import annotations

import json
from collections import Counter
from itertools import combinations

import pytest
from click.testing import CliRunner

from skyarena.cli import main
from tests.workers.league import league, outcome
from tests.workers.test_ladder_confidence import play_round_robins
from workers.finals import Finals, progress, rounds_for, schedule, tables
from workers.scheduling import schedule_season
from workers.seasons import SeasonError
from workers.store import Database
from workers.store.accounts import issue_token
from workers.store.errors import Conflict
from workers.store.finals import final_matches, start_finals
from workers.store.ladders import frozen_standings
from workers.store.results import apply_outcome
from workers.store.seasons import get_season
from workers.store.submissions import activate, refuse_during_finals, submit_version
from workers.store.versions import version


def test_every_pair_meets_equally_often_with_the_seats_rotated() -> None:
    rounds = schedule([1, 2, 3, 4], 2, False, games_per_pair=4)
    assert len(rounds) == 4
    meetings = Counter(frozenset(m) for r in rounds for m in r)
    assert set(meetings.values()) == {4} and len(meetings) == 6
    first_seat = Counter(m[0] for r in rounds for m in r)
    assert set(first_seat.values()) == {6}      # each finalist opens half of its 12 games


def test_four_player_finals_play_every_k_subset_and_rotate_every_seat() -> None:
    assert tables([1, 2, 3, 4, 5], 4, False) == list(combinations([1, 2, 3, 4, 5], 4))
    assert rounds_for(5, 4, False, games_per_pair=6) == 2     # a pair shares 3 of the 5 tables
    rounds = schedule([1, 2, 3, 4], 4, False, games_per_pair=4)
    seats = Counter((v, seat) for r in rounds for m in r for seat, v in enumerate(m))
    assert set(seats.values()) == {1} and len(seats) == 16


def test_sky_team_finals_fly_every_pair_together_and_each_finalist_with_itself() -> None:
    assert tables([7, 8, 9], 2, True) == [(7, 7), (7, 8), (7, 9), (8, 8), (8, 9), (9, 9)]


def test_progress_queues_what_is_missing_and_requeues_a_void_slot() -> None:
    rounds = schedule([1, 2, 3], 2, False, games_per_pair=2)
    first = progress(rounds, [], [], in_flight_room=4, one_round_at_a_time=False, settled=False)
    assert first.to_queue == (rounds[0][0], rounds[0][1], rounds[0][2], rounds[1][0]) and not first.done
    # Three of them finished, one was voided (it is not among the live seats): it is queued again.
    live = list(first.to_queue[:3])
    again = progress(rounds, live, live, in_flight_room=2, one_round_at_a_time=False, settled=False)
    assert again.rounds_finished == 1 and again.to_queue == (rounds[1][0], rounds[1][1])
    everything = [m for r in rounds for m in r]
    assert progress(rounds, everything, everything, in_flight_room=4, one_round_at_a_time=False,
                    settled=False).done


def test_until_settled_stops_only_between_rounds() -> None:
    rounds = schedule([1, 2], 2, False, games_per_pair=5)
    one = [rounds[0][0]]
    assert progress(rounds, one, one, in_flight_room=4, one_round_at_a_time=True, settled=True).done
    two = [rounds[0][0], rounds[1][0]]
    mid = progress(rounds, two, two[:1], in_flight_room=4, one_round_at_a_time=True, settled=True)
    assert not mid.done and mid.to_queue == ()   # round 2 is running: it finishes before the verdict counts


@pytest.mark.parametrize("args, message", [
    ((1,), "finals need at least 2 finalists, not 1"),
    ((4, 0), "a final's game budget must be 1 to 10,000 games per pair, not 0"),
])
def test_bad_finals_are_refused_in_one_line(args: tuple[int, ...], message: str) -> None:
    with pytest.raises(SeasonError, match=message):
        Finals(*args)


def play_scheduled(db: Database, ladder_id: int) -> int:
    """Finish every queued match of the ladder (the lower version id wins); how many."""
    with db.connection() as conn:
        rows = conn.execute(
            """SELECT m.id, array_agg(p.version_id ORDER BY p.seat) AS seats FROM matches m
               JOIN participants p ON p.match_id = m.id WHERE m.ladder_id = %s AND m.status = 'queued'
               GROUP BY m.id""", (ladder_id,)).fetchall()
    for r in rows:
        seats = list(r["seats"])
        apply_outcome(db, outcome(r["id"], seats, [0, 1] if seats[0] < seats[1] else [1, 0]))
    return len(rows)


def test_a_final_is_refused_whole_then_played_to_a_closed_season(db: Database, database_url: str) -> None:
    season, versions = league(db, "cup", players=(2,), versions=4, matches_in_flight=3)
    ladder = season.ladders[2]
    with db.connection() as conn, pytest.raises(SeasonError, match="fewer than the 3 finalists asked for"):
        start_finals(conn, "cup", Finals(3))
    play_round_robins(db, ladder, versions[:3], 3)
    with db.connection() as conn:
        season = start_finals(conn, "cup", Finals(3, games_per_pair=2))
        assert season.final_ladders and frozen_standings(conn, ladder)          # the regular ladder froze
        with pytest.raises(SeasonError, match="season cup is in its finals already"):
            start_finals(conn, "cup", Finals(3))
    final = season.final_ladders[2]
    played = 0
    for _ in range(10):
        scheduled = schedule_season(db, season.id, 3)
        played += play_scheduled(db, final)
        if not scheduled.match_ids:
            break
    with db.connection() as conn:
        closed = get_season(conn, "cup")
        live, finished, running = final_matches(conn, final)
        token = issue_token(conn, "organiser", "organiser")
        standings = frozen_standings(conn, final)
    assert closed.state == "closed" and running == 0 and played == 6 and len(finished) == 6
    assert Counter(frozenset(m) for m in finished) == {frozenset(p): 2 for p in combinations(versions[:3], 2)}
    assert [s.version_id for s in standings] == versions[:3]     # the lower id always won
    shown = CliRunner().invoke(main, ["season", "standings", "cup", "--json", "--database-url", database_url,
                                      "--token", token])
    body = json.loads(shown.output)
    assert [r["version_id"] for r in body["final_standings"]["2"]] == versions[:3]
    assert body["final_standings"]["2"][0]["rank_interval"][0] == 1
    assert body["finals"] == {"top": 3, "games_per_pair": 2, "until_settled": False, "new_versions": "hold"}
    # Closed: finals and a second close are refused with the reason.
    refused = CliRunner().invoke(main, ["season", "close", "cup", "--finals", "2", "--database-url", database_url,
                                        "--token", token])
    assert refused.exit_code == 2 and "season cup is closed: finals need an active season" in refused.output


def test_a_recompute_replays_the_final_from_its_finalists_regular_ratings(db: Database, database_url: str) -> None:
    season, versions = league(db, "cup", players=(2,), versions=3, matches_in_flight=3)
    play_round_robins(db, season.ladders[2], versions, 2)
    with db.connection() as conn:
        season = start_finals(conn, "cup", Finals(3, games_per_pair=2))
    final = season.final_ladders[2]
    while schedule_season(db, season.id, 3).match_ids:
        play_scheduled(db, final)

    def recompute(*args: str) -> tuple[int, dict[str, object]]:
        result = CliRunner().invoke(main, ["ratings", "recompute", "cup", *args, "--json", "--database-url",
                                           database_url])
        return result.exit_code, json.loads(result.output)

    code, body = recompute("--check")
    assert code == 0 and body["differences"] == 0
    assert [(r["players"], r["stage"], r["matches"]) for r in body["ladders"]] == [(2, "regular", 6), (2, "final", 6)]
    with db.connection() as conn:   # a final's rating edited by hand is found, and put back by a rewrite
        conn.execute("UPDATE ratings SET mu = mu + 1 WHERE ladder_id = %s AND version_id = %s", (final, versions[0]))
    code, body = recompute("--check")
    assert code == 1 and body["differences"] == 1
    assert body["ladders"][1]["differences"][0].startswith(f"2-player final, version {versions[0]}: stored mu")
    assert recompute()[0] == 0 and recompute("--check") == (0, body | {"differences": 0, "ladders": [
        {**ladder, "differences": []} for ladder in body["ladders"]]})


def _new_version(db: Database, bot: str, archive: bytes) -> int:
    with db.connection() as conn:
        return submit_version(conn, "acct-cup", bot, "skybirds", archive, {"game": "skybirds", "entry": "bot.py"}
                              ).version_id


def _status(db: Database, version_id: int) -> tuple[str, str]:
    with db.connection() as conn:
        row = version(conn, version_id)
    return row["status"], row["status_message"]


def test_new_versions_during_the_finals_are_held_and_enter_when_they_end(db: Database) -> None:
    season, versions = league(db, "cup", players=(2,), versions=3, matches_in_flight=3)
    play_round_robins(db, season.ladders[2], versions, 2)
    with db.connection() as conn:
        season = start_finals(conn, "cup", Finals(3, games_per_pair=1))
    finalist_next = _new_version(db, "skybirds-0", b"a finalist's next version")   # the finalist's own bot
    newcomer = _new_version(db, "fresh", b"a newcomer")
    with db.connection() as conn:
        for held in (finalist_next, newcomer):
            assert activate(conn, held, "passed its smoke match m1 against the house random bot; now on the "
                                        "ladders") == []
    assert _status(db, finalist_next) == ("held", "passed its smoke match m1 against the house random bot; held "
                                                  "out of the ladders while season cup plays its finals: it enters "
                                                  "them when they end")
    assert _status(db, versions[0])[0] == "active"           # the finalist keeps its place
    final = season.final_ladders[2]
    while schedule_season(db, season.id, 3).match_ids:
        play_scheduled(db, final)
    with db.connection() as conn:
        assert get_season(conn, "cup").state == "closed"
    assert _status(db, finalist_next) == ("active", "its game's finals ended: now on the ladders")
    assert _status(db, newcomer)[0] == "active"
    assert _status(db, versions[0]) == ("superseded", "superseded by version 2")


def test_finals_that_refuse_new_versions_say_so_and_write_nothing(db: Database) -> None:
    season, versions = league(db, "cup", players=(2,), versions=3, matches_in_flight=3)
    play_round_robins(db, season.ladders[2], versions, 2)
    with db.connection() as conn:
        start_finals(conn, "cup", Finals(3, games_per_pair=1, new_versions="refuse"))
    with db.connection() as conn:
        before = conn.execute("SELECT count(*) AS n FROM bot_versions").fetchone()
    refusal = (r"^season cup is playing its finals and takes no new skybirds versions until they end: submit again "
               r"once it closes \(`skyarena standings cup`")
    with pytest.raises(Conflict, match=refusal), db.connection() as conn:
        submit_version(conn, "acct-cup", "fresh", "skybirds", b"refused", {"game": "skybirds"})
        refuse_during_finals(conn, "skybirds")
    with db.connection() as conn:
        after = conn.execute("SELECT count(*) AS n FROM bot_versions").fetchone()
        refuse_during_finals(conn, "sky-team")                 # another game's submissions are not touched
    assert before == after
    with pytest.raises(SeasonError, match="held or refused, not 'later'"):
        Finals(3, new_versions="later")
