"""Leagues: the organiser's spec and its refusals, promotion after N rated matches above the boss with
its evidence, never a demotion, matchmaking within a league, and a recompute that derives the same."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence

import pytest
from click.testing import CliRunner

from skyarena.bot import Bot
from skyarena.cli import main
from tests.workers.league import outcome, schedule
from workers import leagues as leagues_module
from workers.boss_smoke import smoke_bosses
from workers.finals import Finals
from workers.house_bots import ACCOUNT
from workers.leagues import LeagueError, LeagueSpec, parse_leagues
from workers.scheduling import merge_small_leagues, schedule_season
from workers.seasons import SeasonError, SeasonSpec
from workers.store import Database
from workers.store.accounts import issue_token
from workers.store.finals import start_finals
from workers.store.leagues import ladder_leagues, season_leagues, standing_leagues, version_promotions
from workers.store.recompute import recompute_season
from workers.store.results import apply_outcome
from workers.store.seasons import Season, create_season, get_season, start_season
from workers.store.versions import add_active_version

GAME = "skybirds"
LEAGUES = "bronze:random,silver:heuristic,gold:heuristic-70"


def leagued(db: Database, promotion_matches: int = 3, league_start: str = "lowest", name: str = "s1") -> Season:
    spec = SeasonSpec(name, GAME, (2,), leagues=parse_leagues(LEAGUES), promotion_matches=promotion_matches,
                      league_start=league_start)
    with db.connection() as conn:
        create_season(conn, spec)
        return start_season(conn, name)


def version(db: Database, bot: str, account: str = "alice", number: int = 1) -> int:
    with db.connection() as conn:
        return add_active_version(conn, account, bot, GAME, f"archive {number} of {bot}".encode(),
                                  {"game": GAME, "entry": "bot.py", "name": bot})


def play(db: Database, season: Season, seats: list[int], winner: int) -> str:
    """One rated match of ``seats`` on the 2-player ladder; ``winner`` (a version) takes rank 0."""
    ladder = season.ladders[2]
    (match_id,) = schedule(db, ladder, [seats])
    apply_outcome(db, outcome(match_id, seats, [0 if v == winner else 1 for v in seats]))
    return match_id


def bosses(db: Database, season: Season) -> list[int]:
    with db.connection() as conn:
        return [lg.boss_version_id for lg in season_leagues(conn, season.id)]


def league_of(db: Database, season: Season, *versions: int) -> list[int]:
    with db.connection() as conn:
        found = ladder_leagues(conn, season.ladders[2], list(versions))
    return [found[v] for v in versions]


@pytest.mark.parametrize("text, message", [
    ("bronze:random,silver:wizard", "league silver: skybirds has no house bot 'wizard' (no game has a house bot"),
    ("bronze:random,bronze:heuristic", "league 'bronze' is named twice"),
    ("bronze:random,silver:random", "the house bot 'random' is the boss of a lower league already"),
    ("bronze:random", "one league is just the ladder"),
    ("Bronze:random,silver:heuristic", "league name 'Bronze' is not allowed"),
])
def test_a_bad_league_spec_is_refused_saying_what_to_write(text: str, message: str) -> None:
    with pytest.raises(SeasonError, match=re.escape(message)):
        SeasonSpec("s1", GAME, (2,), leagues=parse_leagues(text))


def test_a_boss_of_another_game_and_a_malformed_spec_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    # Every game has every house bot today; a game without one (as Oddball Äeronauts had no boss until its
    # forward model) is refused naming the games that have it.
    everywhere = leagues_module.league_bosses
    monkeypatch.setattr(leagues_module, "league_bosses",
                        lambda game: [b for b in everywhere(game) if game != "oddball-aeronauts" or b != "boss"])
    with pytest.raises(SeasonError) as refused:
        SeasonSpec("s1", "oddball-aeronauts", (2,), leagues=parse_leagues("bronze:heuristic,silver:boss"))
    assert str(refused.value) == (
        "league silver: oddball-aeronauts has no house bot 'boss' (that is a house bot of fly-away, sky-team, "
        "skybirds, skyjo-action, not of oddball-aeronauts): choose its boss from heuristic, random, heuristic-35, "
        "heuristic-70")
    for text in ("bronze", "bronze:,silver:boss", "bronze:random,,silver:boss", ":random"):
        with pytest.raises(LeagueError, match="is not NAME:BOSS: write the leagues lowest first"):
            parse_leagues(text)
    for threshold in (0, 1001, True):
        with pytest.raises(SeasonError, match="promotion matches .* is out of range: choose a whole number from 1"):
            SeasonSpec("s1", GAME, (2,), leagues=(LeagueSpec("a", "random"), LeagueSpec("b", "heuristic")),
                       promotion_matches=threshold)
    with pytest.raises(SeasonError, match="league start 'top' is not one of lowest, keep"):
        SeasonSpec("s1", GAME, (2,), league_start="top")


class Broken(Bot):
    """A heuristic that cannot play: what a boss failing its smoke match looks like."""

    def act(self, observation: object, legal_actions: Sequence[object]) -> object:
        raise RuntimeError("the boss is broken")


@pytest.fixture
def broken_heuristic(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    from skyarena.games import skybirds

    monkeypatch.setitem(skybirds.HOUSE_BOTS, "heuristic", Broken)
    yield


def test_the_season_command_refuses_bad_leagues_and_creates_nothing(database_url: str, db: Database,
                                                                     broken_heuristic: None) -> None:
    with db.connection() as conn:
        token = issue_token(conn, "organiser", "organiser")
    runner = CliRunner()
    for flags, message in [
        (["--leagues", "bronze:random,silver:heuristic"], "league silver: its boss, the house heuristic bot, failed "
                                                          "its smoke match against random (turn "),
        (["--leagues", "bronze:random,silver:wizard"], "skybirds has no house bot 'wizard'"),
        (["--leagues", "bronze:random;silver:boss"], "is not NAME:BOSS"),
        (["--leagues", "bronze:random,silver:boss", "--promotion-matches", "0"],
         "promotion matches 0 is out of range"),
    ]:
        result = runner.invoke(main, ["season", "create", "s1", "--game", GAME, *flags, "--database-url",
                                      database_url, "--token", token])
        assert result.exit_code == 2, result.output
        assert message in result.output and len(result.output.strip().splitlines()) == 1, result.output
    with db.connection() as conn:
        assert conn.execute("SELECT (SELECT count(*) FROM seasons) + (SELECT count(*) FROM leagues)"
                            " + (SELECT count(*) FROM bot_versions) AS n").fetchone() == {"n": 0}


def test_the_season_command_creates_leagues_with_their_bosses(database_url: str, db: Database) -> None:
    with db.connection() as conn:
        token = issue_token(conn, "organiser", "organiser")
    result = CliRunner().invoke(main, ["season", "create", "s1", "--game", GAME, "--players", "2,3", "--leagues",
                                       "bronze:heuristic-35,silver:boss", "--promotion-matches", "7",
                                       "--league-start", "keep", "--json", "--database-url", database_url,
                                       "--token", token])
    assert result.exit_code == 0, result.output
    created = json.loads(result.output)
    assert [(lg["name"], lg["boss"]) for lg in created["leagues"]] == [("bronze", "heuristic-35"), ("silver", "boss")]
    assert created["promotion_matches"] == 7 and created["league_start"] == "keep"
    with db.connection() as conn:
        boss_bots = [r["name"] for r in conn.execute(
            """SELECT b.name FROM leagues g JOIN bot_versions v ON v.id = g.boss_version_id
               JOIN bots b ON b.id = v.bot_id JOIN accounts a ON a.id = b.account_id WHERE a.name = %s
               ORDER BY g.position""", (ACCOUNT,))]
        members = conn.execute("SELECT count(*) AS n FROM league_members WHERE entered = 'boss'").fetchone()
    assert boss_bots == [f"{GAME}-heuristic-35", f"{GAME}-boss"]
    assert members == {"n": 4}  # each boss on each of the two ladders
    shown = CliRunner().invoke(main, ["season", "show", "s1", "--database-url", database_url, "--token", token])
    assert shown.exit_code == 0 and ("leagues, lowest first: bronze (boss heuristic-35), silver (boss boss); up after "
                                     "7 rated matches in a row above the boss; new versions start in their bot's "
                                     "league") in shown.output, shown.output


def scores(db: Database, season: Season) -> dict[int, float]:
    with db.connection() as conn:
        return {r["version_id"]: r["mu"] - 3 * r["sigma"] for r in conn.execute(
            "SELECT version_id, mu, sigma FROM ratings WHERE ladder_id = %s", (season.ladders[2],))}


def test_a_version_is_promoted_after_n_matches_above_its_boss_with_the_evidence_and_never_demoted(
        db: Database) -> None:
    season = leagued(db, promotion_matches=3)
    bronze_boss, silver_boss, _ = bosses(db, season)
    climber = version(db, "climber")
    # The rule, followed by hand from the stored ratings after every match: a run above the boss,
    # broken by the losses, then long enough.
    run, runs, promoted_by = 0, [], None
    for winner in [climber, climber, bronze_boss, bronze_boss, bronze_boss, bronze_boss] + [climber] * 8:
        match_id = play(db, season, [climber, bronze_boss], winner)
        now = scores(db, season)
        run = run + 1 if now[climber] > now[bronze_boss] else 0
        runs.append(run)
        if run == 3:
            promoted_by, evidence = match_id, (now[climber], now[bronze_boss])
            break
        assert league_of(db, season, climber) == [0], runs
    assert promoted_by is not None and 0 in runs[1:] and max(runs[:4]) > 0, runs  # a run broken, then one of 3
    assert league_of(db, season, climber) == [1]
    with db.connection() as conn:
        (promotion,) = version_promotions(conn, climber)
        finished = conn.execute("SELECT finished_at FROM matches WHERE id = %s", (promoted_by,)).fetchone()
    assert (promotion["from_league"], promotion["to_league"], promotion["match_id"], promotion["streak"]) == \
        ("bronze", "silver", promoted_by, 3)
    assert (promotion["score"], promotion["boss_score"]) == pytest.approx(evidence)
    assert finished is not None
    assert promotion["boss_version_id"] == bronze_boss and promotion["promoted_at"] == finished["finished_at"]
    for _ in range(6):  # beaten by the silver boss again and again: it stays in silver, rating and all
        play(db, season, [climber, silver_boss], silver_boss)
    assert league_of(db, season, climber) == [1] and scores(db, season)[climber] < scores(db, season)[silver_boss]
    with db.connection() as conn:
        assert len(version_promotions(conn, climber)) == 1
        assert recompute_season(conn, get_season(conn, "s1"))[0].differences == ()


def test_the_scheduler_plays_each_league_apart_with_its_boss(db: Database) -> None:
    season = leagued(db, promotion_matches=2)
    bronze_boss, silver_boss, gold_boss = bosses(db, season)
    climber, b, c = version(db, "climber"), version(db, "b"), version(db, "c")
    for _ in range(2):
        play(db, season, [climber, bronze_boss], climber)
    assert league_of(db, season, climber, b, c, gold_boss) == [1, 0, 0, 2]
    scheduled = schedule_season(db, season.id, 3)
    with db.connection() as conn:
        seats = [tuple(r["seats"]) for r in conn.execute(
            """SELECT array_agg(p.version_id ORDER BY p.seat) AS seats FROM participants p
               JOIN matches m ON m.id = p.match_id WHERE m.id = ANY(%s) GROUP BY m.id""",
            (list(scheduled.match_ids),))]
    silver, bronze = {climber, silver_boss}, {b, c, bronze_boss}
    assert seats and all(set(s) <= silver or set(s) <= bronze for s in seats), seats
    assert any(set(s) <= silver for s in seats) and any(set(s) <= bronze for s in seats)
    assert not any(gold_boss in s for s in seats)  # gold holds only its boss: nothing to play


def test_a_new_version_keeps_its_bots_league_when_the_season_says_so(db: Database) -> None:
    kept, lowest = leagued(db, 2, "keep", "kept"), leagued(db, 2, "lowest", "lowest")
    first = version(db, "climber")
    for season in (kept, lowest):
        bronze_boss = bosses(db, season)[0]
        for _ in range(2):
            play(db, season, [first, bronze_boss], first)
    second = version(db, "climber", number=2)  # the bot's next version
    assert league_of(db, kept, first, second) == [1, 1]
    assert league_of(db, lowest, first, second) == [1, 0]
    play(db, kept, [second, bosses(db, kept)[1]], second)  # its first match stores where it entered
    with db.connection() as conn:
        entered = conn.execute("SELECT entered FROM league_members WHERE version_id = %s AND ladder_id = %s",
                               (second, kept.ladders[2])).fetchone()
        assert entered == {"entered": "kept"}
        assert recompute_season(conn, get_season(conn, "kept"))[0].differences == ()
        shown = standing_leagues(conn, kept.ladders[2], [first, second, bosses(db, kept)[1]])
    assert shown == {first: {"league": "silver", "boss": False}, second: {"league": "silver", "boss": False},
                     bosses(db, kept)[1]: {"league": "silver", "boss": True}}


def test_recompute_reproduces_the_promotions_and_check_finds_a_tampered_one(db: Database,
                                                                             database_url: str) -> None:
    season = leagued(db, promotion_matches=2)
    bronze_boss, silver_boss, _ = bosses(db, season)
    climbers = [version(db, f"climber-{i}") for i in range(3)]
    for i, climber in enumerate(climbers):
        for n in range(2 + i):
            play(db, season, [climber, bronze_boss], climber if n != 0 or i != 2 else bronze_boss)
    play(db, season, [climbers[0], silver_boss], climbers[0])
    play(db, season, [climbers[0], silver_boss], climbers[0])  # to gold
    with db.connection() as conn:
        before = [dict(r) for r in conn.execute("SELECT * FROM league_promotions ORDER BY id")]
        members = [dict(r) for r in conn.execute("SELECT * FROM league_members ORDER BY version_id")]
    assert len(before) >= 3 and {p["version_id"] for p in before} >= {climbers[0], climbers[1]}

    def recompute(*flags: str) -> tuple[int, dict]:
        result = CliRunner().invoke(main, ["ratings", "recompute", "s1", *flags, "--json", "--database-url",
                                           database_url])
        return result.exit_code, json.loads(result.output)

    code, report = recompute("--check")
    assert code == 0 and report["differences"] == 0, report
    with db.connection() as conn:
        conn.execute("DELETE FROM league_promotions WHERE version_id = %s", (climbers[1],))
        conn.execute("UPDATE league_members SET streak = 7 WHERE version_id = %s", (climbers[2],))
    code, report = recompute("--check")
    found = report["ladders"][0]["differences"]
    assert code == 1 and report["differences"] == 2, found
    assert any(f"version {climbers[1]}'s promotion to silver: stored none, recomputed after match" in d for d in found)
    assert any(f"version {climbers[2]}'s league: stored " in d and "7 above the boss in a row)" in d for d in found)
    assert recompute()[0] == 0 and recompute("--check")[1]["differences"] == 0
    with db.connection() as conn:
        after = [dict(r) for r in conn.execute("SELECT * FROM league_promotions ORDER BY seq, version_id")]
        assert [dict(r) for r in conn.execute("SELECT * FROM league_members ORDER BY version_id")] == members
    assert [{k: v for k, v in p.items() if k != "id"} for p in after] == \
        [{k: v for k, v in p.items() if k != "id"} for p in before]


def test_every_boss_of_the_demo_passes_its_smoke_match() -> None:
    from workers.demo.league import demo_leagues

    for game in ("sky-team", "oddball-aeronauts"):
        smoke_bosses(SeasonSpec("s1", game, (2,), leagues=parse_leagues(demo_leagues(game))))


def test_a_final_of_a_season_with_leagues_moves_no_league(db: Database) -> None:
    """The finals are a ladder of their own: their matches rate the finalists there, and no membership,
    run or promotion of the regular ladder's leagues moves."""
    season = leagued(db, promotion_matches=2)
    bronze_boss = bosses(db, season)[0]
    a, b = version(db, "a"), version(db, "b")
    for seats in ([a, bronze_boss], [b, bronze_boss], [a, b]):
        play(db, season, list(seats), seats[0])
    with db.connection() as conn:
        before = [dict(r) for r in conn.execute("SELECT * FROM league_members ORDER BY ladder_id, version_id")]
        promotions = conn.execute("SELECT count(*) AS n FROM league_promotions").fetchone()
        season = start_finals(conn, "s1", Finals(2, games_per_pair=1))
    final = season.final_ladders[2]
    (match_id,) = schedule(db, final, [[a, b]])
    apply_outcome(db, outcome(match_id, [a, b], [1, 0]))
    with db.connection() as conn:
        assert [dict(r) for r in conn.execute("SELECT * FROM league_members ORDER BY ladder_id, version_id")] == before
        assert conn.execute("SELECT count(*) AS n FROM league_promotions").fetchone() == promotions
        assert conn.execute("SELECT count(*) AS n FROM ratings WHERE ladder_id = %s", (final,)).fetchone() == {"n": 2}
        assert standing_leagues(conn, final, [a, b]) == {}


def test_a_league_too_small_for_a_table_plays_with_its_neighbour() -> None:
    # Four seats: silver (two) joins bronze below it; a lowest league of one joins the league above.
    assert merge_small_leagues([0, 1, 2], [[1, 2, 3, 4], [5, 6], [7, 8, 9, 10]], 4) == [
        (0, [1, 2, 3, 4, 5, 6]), (2, [7, 8, 9, 10])]
    assert merge_small_leagues([0, 1], [[1], [2, 3, 4, 5]], 4) == [(1, [1, 2, 3, 4, 5])]
    assert merge_small_leagues([0, 1, 2], [[1], [2, 3, 4, 5], [6, 7, 8, 9]], 4) == [
        (1, [1, 2, 3, 4, 5]), (2, [6, 7, 8, 9])]
    assert merge_small_leagues([0, 1], [[1, 2], [3]], 2) == [(0, [1, 2, 3])]
