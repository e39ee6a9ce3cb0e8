"""A season with leagues on the dashboard (Streamlit's AppTest): the ladder shows the leagues with each
boss's line and every row's league, and a promoted version's bot page its promotion with the evidence."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.dashboard.app_pages import open_page
from tests.dashboard.html_table import HREF, column, page_tables
from tests.workers.league import outcome, schedule
from workers.leagues import parse_leagues
from workers.seasons import SeasonSpec
from workers.store import Database
from workers.store.leagues import season_leagues, version_promotions
from workers.store.results import apply_outcome
from workers.store.seasons import create_season, start_season
from workers.store.versions import add_active_version

GAME = "skybirds"


@pytest.fixture
def climbed(db: Database, database_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Any]]:
    """A skybirds season with bronze (boss random) and silver (boss heuristic); one climber promoted."""
    monkeypatch.setenv("DATABASE_URL", database_url)
    with db.connection() as conn:
        create_season(conn, SeasonSpec("leagued", GAME, (2,), leagues=parse_leagues("bronze:random,silver:heuristic"),
                                       promotion_matches=2))
        season = start_season(conn, "leagued")
        bronze_boss, silver_boss = (lg.boss_version_id for lg in season_leagues(conn, season.id))
        climber = add_active_version(conn, "alice", "climber", GAME, b"climber", {"game": GAME, "entry": "bot.py"})
        bot_id = conn.execute("SELECT bot_id FROM bot_versions WHERE id = %s", (climber,)).fetchone()["bot_id"]
    for _ in range(3):
        (match_id,) = schedule(db, season.ladders[2], [[climber, bronze_boss]])
        apply_outcome(db, outcome(match_id, [climber, bronze_boss], [0, 1]))
    yield {"season": season, "climber": climber, "bot_id": bot_id, "bosses": (bronze_boss, silver_boss), "db": db}


def test_the_ladder_shows_the_leagues_each_bosss_line_and_every_rows_league(climbed: dict[str, Any]) -> None:
    app = open_page("ladders")
    assert "Leagues" in [s.value for s in app.subheader]
    leagues, standings = page_tables(app)[:2]
    bronze_boss, silver_boss = climbed["bosses"]
    with climbed["db"].connection() as conn:
        scores = {r["version_id"]: r["mu"] - 3 * r["sigma"] for r in conn.execute(
            "SELECT version_id, mu, sigma FROM ratings WHERE ladder_id = %s", (climbed["season"].ladders[2],))}
    assert column(leagues, "league") == ["silver", "bronze"]  # top first
    assert column(leagues, "boss") == ["heuristic v1", "random v1"]
    assert leagues[1]["boss" + HREF].endswith(f"&version={bronze_boss}")
    assert leagues[0]["boss's line (μ − 3σ)"] == "not rated yet"  # the heuristic has not played yet
    assert float(leagues[1]["boss's line (μ − 3σ)"]) == pytest.approx(scores[bronze_boss], abs=0.005)
    assert column(leagues, "to move up") == ["the top league", "above the boss for 2 in a row"]
    assert column(leagues, "versions") == ["1", "0"] and column(leagues, "promoted") == ["0", "1"]
    shown = dict(zip(column(standings, "bot"), column(standings, "league")))
    assert shown == {"climber": "silver", f"{GAME}-random": "bronze · boss"}


def test_a_promoted_versions_bot_page_shows_its_promotion_and_the_evidence(climbed: dict[str, Any]) -> None:
    app = open_page("bot", bot=climbed["bot_id"], version=climbed["climber"])
    assert "Promotions" in [s.value for s in app.subheader]
    assert "League: silver" in [c.value for c in app.caption]
    with climbed["db"].connection() as conn:
        (stored,) = version_promotions(conn, climbed["climber"])
    frame = next(d.value for d in app.dataframe if "promoted" in d.value.columns)
    assert list(frame["promoted"]) == ["bronze → silver"] and list(frame["in a row"]) == [2]
    assert list(frame["match"]) == [f"/match?match={stored['match_id']}"]
    assert list(frame["its μ − 3σ"]) == pytest.approx([stored["score"]])
    assert list(frame["boss's μ − 3σ"]) == pytest.approx([stored["boss_score"]])
    assert list(frame["beaten boss"]) == ["random"]
