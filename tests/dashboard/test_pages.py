"""Every page of the dashboard on a seeded league, as a person sees it (Streamlit's AppTest).

The expected orders and figures come from the store's own reads (`ladders.py`) over the
same database, so the tests check what the page shows against what the league holds.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from dashboard.stats import wilson_interval
from referee.match.public_steps import moves_text
from tests.dashboard.app_pages import PAGES, TIMEOUT_S, open_page
from tests.dashboard.conftest import SeededDatabase
from tests.dashboard.html_table import HREF, column, header, page_tables
from tests.dashboard.league_seed import (
    AUTHOR_TOKEN,
    GAMES,
    ORGANISER_TOKEN,
    OTHER_AUTHOR_TOKEN,
    PAUSE_REASON,
)
from workers.arena.participant_replay import stored_seat_jsonl
from workers.arena.public_replay import public_records
from workers.store import Database, connect, ladders, matches, seasons, versions
from workers.store.accounts import TokenRefused, check_token, issue_token, live_tokens
from workers.store.challenges import ChallengeLimits, queue_challenges
from workers.store.ladders import frozen_standings, leaderboard, rating_history
from workers.store.matches import replay_data
from workers.store.results import decompress_replay
from workers.store.versions import answer_latency

SVG_DATA_URL = "data:image/svg+xml;base64,"


@pytest.fixture
def page(seeded: SeededDatabase, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """A function opening one page (with query parameters) on this test's seeded database."""
    monkeypatch.setenv("DATABASE_URL", seeded.url)

    yield open_page


def store_rows(url: str, read: Any, *args: Any, **kwargs: Any) -> Any:
    with connect(url) as conn:
        return read(conn, *args, **kwargs)


def select_season(app: AppTest, name: str) -> AppTest:
    box = app.selectbox(key="ladder_season")
    index = next(i for i, s in enumerate(box.options) if s.startswith(name + " "))
    box.select_index(index).run()
    assert not app.exception, [e.value for e in app.exception]
    return app


def metrics(app: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in app.metric}


def chart_specs(app: AppTest) -> list[dict[str, Any]]:
    return [json.loads(e.proto.spec) for e in app.get("vega_lite_chart")]


# ----- Ladders ------------------------------------------------------------------------------
def test_ladder_lists_the_versions_in_the_stores_order_with_their_figures(page: Any, seeded: SeededDatabase) -> None:
    app = select_season(page("ladders"), "skyjo-action-spring")
    assert not app.dataframe, "the ladder is text in the page, not a canvas"
    table = page_tables(app)[0]
    expected = store_rows(seeded.url, leaderboard, seeded.league.ladders["skyjo-action"])
    assert column(table, "#") == [str(row["position"]) for row in expected] == ["1", "2", "3", "4"]
    assert [(r["bot"], int(r["version"])) for r in table] == [(row["bot"], row["version"]) for row in expected]
    assert [r["bot" + HREF] for r in table] == [f"/bot?bot={_bot_id(seeded.url, row['version_id'])}"
                                                f"&version={row['version_id']}" for row in expected]
    scores = [float(x) for x in column(table, "μ − 3σ")]
    assert scores == pytest.approx([row["score"] for row in expected], abs=0.005)
    assert scores == sorted(scores, reverse=True)
    assert sum(int(x) for x in column(table, "matches")) == 2 * 6, "six two-seat matches"
    assert set(column(table, "author")) == {"alice", "bob"}
    assert all(0 <= float(rate.rstrip(" %")) <= 100 for rate in column(table, "win rate"))
    assert metrics(app) == {"State": "active", "Played": "6", "In flight": "0", "Void": "0"}


def test_the_ladders_trend_is_each_versions_rating_history(page: Any, seeded: SeededDatabase) -> None:
    """The sparkline draws μ after each of the version's matches (μ − 3σ only climbs as σ shrinks, a
    diagonal for everyone): it starts at its first match's μ and ends at its rating now."""
    app = select_season(page("ladders"), "skyjo-action-spring")
    ladder = seeded.league.ladders["skyjo-action"]
    for row, expected in zip(page_tables(app)[0], store_rows(seeded.url, leaderboard, ladder)):
        history = store_rows(seeded.url, rating_history, expected["version_id"], ladder)
        assert row["trend"] == (f"μ {history[0]['mu_after']:.1f} to {expected['mu']:.1f} "
                                f"over {len(history)} matches")


def test_ladder_filters_by_author_and_keeps_the_ladders_positions(page: Any, seeded: SeededDatabase) -> None:
    app = select_season(page("ladders"), "skyjo-action-spring")
    everyone = page_tables(app)[0]
    app.text_input(key="ladder_author").input("bob").run()
    bobs = page_tables(app)[0]
    assert set(column(bobs, "author")) == {"bob"} and len(bobs) == 2
    assert column(bobs, "#") == [r["#"] for r in everyone if r["author"] == "bob"]
    app.text_input(key="ladder_author").input("nobody-like-this").run()
    assert not page_tables(app) and "No version matches the filters." in [i.value for i in app.info]


def test_sky_team_ranks_by_landing_rate_and_live_progress_counts_matches_in_flight(page: Any) -> None:
    app = select_season(page("ladders"), "sky-team-spring")
    assert "landing rate" in header(app)
    app = select_season(app, "fly-away-spring")
    assert metrics(app)["In flight"] == "2" and metrics(app)["Played"] == "6"


def test_a_closed_season_shows_its_frozen_standings(page: Any, seeded: SeededDatabase) -> None:
    app = page("ladders")  # the newest season first: the closed one
    assert app.selectbox(key="ladder_season").value["name"] == "skyjo-winter"
    assert metrics(app)["State"] == "closed"
    assert any(c.value.startswith("Closed ") for c in app.caption)
    frozen = store_rows(seeded.url, frozen_standings, seeded.league.ladders["closed"])
    table = page_tables(app)[0]
    assert column(table, "#") == [str(s.position) for s in frozen]
    assert [float(x) for x in column(table, "μ")] == pytest.approx([s.mu for s in frozen], abs=0.005)
    assert "ladder_author" not in [t.key for t in app.text_input], "frozen standings are not filtered"


# ----- Bot ----------------------------------------------------------------------------------
def _bot_id(url: str, version_id: int) -> int:
    with connect(url) as conn:
        row = conn.execute("SELECT bot_id FROM bot_versions WHERE id = %s", (version_id,)).fetchone()
    assert row is not None
    return int(row["bot_id"])


def test_bot_page_shows_versions_history_chart_matches_head_to_head_and_faults(page: Any,
                                                                               seeded: SeededDatabase) -> None:
    version = store_rows(seeded.url, matches.match_participants, seeded.league.faulty_match)[0]["version_id"]
    app = page("bot", bot=_bot_id(seeded.url, version))  # seat 0 of the faulty match: the faulty seat
    assert [s.value for s in app.subheader] == ["Versions", "Rating history", "Recent matches", "Head to head",
                                               "Faults by kind"]
    specs = chart_specs(app)
    assert len(specs) == 1 and [layer["mark"]["type"] for layer in specs[0]["layer"]] == ["area", "line"]
    assert specs[0]["layer"][0]["encoding"]["y2"]["field"] == "high", "the ±3σ band"
    versions, recent, h2h, faults = (d.value for d in app.dataframe)
    ladder = seeded.league.ladders["skyjo-action"]
    assert app.selectbox(key=f"bot_ladder_{version}").value["ladder_id"] == ladder, "the active season first"
    played = store_rows(seeded.url, ladders.version_ladders, version)[0]["matches"]
    assert played < 5 and list(versions["status"]) == [f"placement ({played} of 5 matches)"]
    stored = store_rows(seeded.url, ladders.rated_matches, version, ladder, limit=100)
    assert list(recent["match"]) == [f"/match?match={m['match_id']}" for m in stored]
    meetings = store_rows(seeded.url, ladders.head_to_head, version, ladder)
    assert list(h2h["meetings"]) == [m["meetings"] for m in meetings] and sum(h2h["meetings"]) == len(stored)
    for row in h2h.itertuples():
        low, high = wilson_interval(row.ahead, row.meetings)
        assert row._7 == pytest.approx(low) and row._8 == pytest.approx(high)
        assert low <= row._6 <= high
    assert list(faults["kind"]) == ["timeout"] and list(faults["faults"]) == [1]
    latency = store_rows(seeded.url, answer_latency, version)
    assert latency["matches"] >= played and metrics(app)["Median answer"] == f"{latency['median_s'] * 1000:.0f} ms"
    assert list(faults["example"]) == [f"/match?match={seeded.league.faulty_match}"]
    assert "Your bot's log" not in [s.value for s in app.subheader], "logs only for the author"


def test_only_the_bots_author_reads_its_logs_after_signing_in_once(page: Any, seeded: SeededDatabase) -> None:
    version = seeded.league.versions["sky-team"][0]  # alice's
    app = page("bot", bot=_bot_id(seeded.url, version))
    app.text_input(key="token_author").input("not-a-token")
    next(b for b in app.button if b.label == "Sign in").click().run()
    assert any("the API token is not known" in e.value for e in app.error)
    app.text_input(key="token_author").input(AUTHOR_TOKEN + " ")  # the Arena refuses it too: one verdict
    next(b for b in app.button if b.label == "Sign in").click().run()
    assert any("paste it again without them" in e.value for e in app.error)
    assert "Your bot's log" not in [s.value for s in app.subheader]
    app.text_input(key="token_author").input(OTHER_AUTHOR_TOKEN)
    next(b for b in app.button if b.label == "Sign in").click().run()
    assert any("signed in as **bob**" in c.value for c in app.sidebar.caption)
    assert "Your bot's log" not in [s.value for s in app.subheader], "bob does not read alice's logs"
    next(b for b in app.button if b.label == "Sign out").click().run()
    app.text_input(key="token_author").input(AUTHOR_TOKEN)
    next(b for b in app.button if b.label == "Sign in").click().run()
    assert "Your bot's log" in [s.value for s in app.subheader]
    shown = app.selectbox(key="log_match").value
    assert f"thinking in match {shown['match_id']}" in app.code[0].value
    app.run()  # the same session: still signed in, the token is not asked again
    assert "token_author" not in [t.key for t in app.text_input]


def test_a_paused_version_says_why_and_an_unknown_bot_offers_the_search(page: Any, seeded: SeededDatabase) -> None:
    app = page("bot", bot=_bot_id(seeded.url, seeded.league.paused_version))
    assert list(app.dataframe[0].value["status"]) == [f"paused: {PAUSE_REASON}"]
    app = page("bot", bot=999999)
    assert "There is no bot 999999: search for it below." in [w.value for w in app.warning]
    app.text_input(key="bot_search").input("fly-away").run()
    found = app.dataframe[0].value
    assert len(found) == 4 and set(found["game"]) == {"fly-away"} and list(found["bot"]) == sorted(found["bot"])


# ----- Match --------------------------------------------------------------------------------
def _picture(app: AppTest) -> str:
    """The SVG of the replay's picture (an image with a data URL)."""
    urls = [image.proto.imgs[0].url for image in app.get("image")]
    assert len(urls) == 1 and urls[0].startswith(SVG_DATA_URL), urls
    svg = base64.b64decode(urls[0][len(SVG_DATA_URL):]).decode()
    assert svg.startswith("<svg")
    return svg


@pytest.mark.parametrize("game", GAMES)
def test_every_games_replay_steps_turn_by_turn_with_its_picture(page: Any, seeded: SeededDatabase,
                                                               game: str) -> None:
    match_id = seeded.league.matches[game][0]
    app = page("match", match=match_id)
    seats = page_tables(app)[0]
    stored = store_rows(seeded.url, matches.match_participants, match_id)
    assert column(seats, "seat") == ["0", "1"]
    assert column(seats, "bot") == [f"{s['bot']} v{s['version']}" for s in stored]
    if game != "sky-team":
        assert column(seats, "place") == [str(s["rank"] + 1) for s in stored]
    assert metrics(app)["Status"] == "finished"
    slider = app.slider(key=f"step_{match_id}")
    first = _picture(app)
    assert slider.value == 0 and f'class="board {game}"' in first and "spectator" in first
    # The spectator's text tells what the public replay tells: no draw at setup, moves as the rules show them.
    assert app.code[0].value == "setup: 2 players"
    public = public_records(decompress_replay(store_rows(seeded.url, replay_data, match_id)))
    app.button(key=f"step_{match_id}_next").click().run()
    assert app.slider(key=f"step_{match_id}").value == 1
    assert app.code[0].value.split("\n")[0] == "move 1: " + moves_text(next(
        r for r in public if r["type"] == "step" and r["n"] == 1)["moves"])
    app.button(key=f"step_{match_id}_prev").click().run()
    assert app.slider(key=f"step_{match_id}").value == 0 and _picture(app) == first
    last = int(slider.max)
    app.slider(key=f"step_{match_id}").set_value(last).run()
    assert any(c.value == f"Step {last} of {last} · the end" for c in app.caption)
    assert app.button(key=f"step_{match_id}_next").disabled
    spectator = _picture(app)
    assert app.selectbox(key=f"step_{match_id}_viewer").options == ["spectator", "seat 0", "seat 1"]
    app.selectbox(key=f"step_{match_id}_viewer").select("seat 0").run()
    seat_view = _picture(app)
    assert seat_view != spectator and "spectator" not in seat_view


def test_a_sky_team_match_reads_as_the_teams_landing_or_loss(page: Any, seeded: SeededDatabase) -> None:
    """Both seats of a co-operative game rank first, crash or not: the table says what ``skyarena play``
    says, the team landed or lost and why, never "place 1" for a crash."""
    for match_id in seeded.league.matches["sky-team"]:
        app = page("match", match=match_id)
        stored = store_rows(seeded.url, matches.match_participants, match_id)
        reason = store_rows(seeded.url, matches.match, match_id)["end_reason"]
        seats = page_tables(app)[0]
        assert "place" not in seats[0]
        landed = stored[0]["rank"] == 0 and stored[0]["score"] > 0
        assert column(seats, "team result") == ["landed" if landed else f"lost ({reason})"] * 2


def test_autoplay_advances_a_step_each_tick_until_paused(page: Any, seeded: SeededDatabase) -> None:
    match_id = seeded.league.matches["skyjo-action"][1]
    app = page("match", match=match_id)
    app.button(key=f"step_{match_id}_play").click().run()
    assert app.button(key=f"step_{match_id}_play").label == "Pause"
    steps = [app.slider(key=f"step_{match_id}").value]
    for _ in range(3):
        app.run()  # what each run_every tick does
        steps.append(app.slider(key=f"step_{match_id}").value)
    assert steps == [1, 2, 3, 4]
    app.button(key=f"step_{match_id}_play").click().run()
    app.run()
    assert app.slider(key=f"step_{match_id}").value == 4 and app.button(key=f"step_{match_id}_play").label == "Play"


def test_a_match_shows_its_faults_and_an_unfinished_one_has_no_replay_yet(page: Any, seeded: SeededDatabase) -> None:
    app = page("match", match=seeded.league.faulty_match)
    assert "Faults" in [s.value for s in app.subheader]
    faults = app.dataframe[0].value
    assert list(faults["kind"]) == ["timeout"] and list(faults["seat"]) == [0]
    app = page("match", match=seeded.league.in_flight[0])
    assert metrics(app)["Status"] == "running"
    assert "No replay stored: the match has not finished." in [i.value for i in app.info]
    app = page("match", match="no-such-match")
    assert any("There is no match 'no-such-match'" in w.value for w in app.warning)


# ----- Live ---------------------------------------------------------------------------------
def test_live_lists_running_then_queued_matches(page: Any, seeded: SeededDatabase) -> None:
    app = page("live")
    assert metrics(app) == {"Running": "1", "Queued": "1"}
    table = page_tables(app)[0]
    assert column(table, "match") == seeded.league.in_flight
    assert column(table, "match" + HREF) == [f"/match?match={m}" for m in seeded.league.in_flight]
    assert column(table, "status") == ["running", "queued"]
    seats = store_rows(seeded.url, matches.match_participants, seeded.league.in_flight[0])
    assert column(table, "seats") == [", ".join(f"{s['bot']} v{s['version']}" for s in seats)] * 2
    queued = table[1]
    assert queued["referee"] == queued["started"] == "–", "a queued match's empty cells read as empty"
    assert not any("None" in cell for row in table for cell in row.values())


# ----- Organiser ----------------------------------------------------------------------------
def test_organiser_runs_a_season_and_pauses_and_reinstates_a_version(page: Any, seeded: SeededDatabase) -> None:
    app = page("organiser")
    assert "Sign in with an organiser token to run seasons and pause versions." in [i.value for i in app.info]
    app.text_input(key="token_organiser").input(AUTHOR_TOKEN)
    next(b for b in app.button if b.label == "Sign in").click().run()
    assert any("this needs a token with the organiser scope" in e.value for e in app.error), \
        "an author is not an organiser"
    app.text_input(key="token_organiser").input(ORGANISER_TOKEN)
    next(b for b in app.button if b.label == "Sign in").click().run()

    app.text_input(key="new_season_name").input("summer")
    app.text_input(key="new_season_players").input("2,3")
    next(b for b in app.button if b.label == "Create").click().run()
    assert [s.value for s in app.success] == ["season summer created (draft): start it when its bots are ready"]
    season = next(s for s in store_rows(seeded.url, seasons.seasons) if s["name"] == "summer")
    assert season["state"] == "draft" and sorted(season["ladders"]) == ["2", "3"]
    app.text_input(key="new_season_name").input("summer")
    next(b for b in app.button if b.label == "Create").click().run()
    assert any("exists already" in e.value for e in app.error)

    app.button(key=f"start_{season['id']}").click().run()
    app.button(key=f"close_{season['id']}").click().run()
    assert next(s for s in store_rows(seeded.url, seasons.seasons) if s["name"] == "summer")["state"] == "closed"

    app.text_input(key="organiser_bot").input("skybirds").run()
    chosen = app.selectbox(key="organiser_active_version").value
    app.button[[b.label for b in app.button].index("Pause")].click().run()
    assert any("say why" in e.value for e in app.error), "a pause needs its reason"
    app.text_input(key="pause_reason").input("crashes the referee")
    app.button[[b.label for b in app.button].index("Pause")].click().run()
    paused = store_rows(seeded.url, versions.versions_by_status, "paused", bot="skybirds", limit=10)
    assert [(v["id"], v["status_message"]) for v in paused] == [(chosen["id"], "crashes the referee")]
    app.radio(key="organiser_status").set_value("paused").run()
    assert app.selectbox(key="organiser_paused_version").value["id"] == chosen["id"]
    app.button[[b.label for b in app.button].index("Reinstate")].click().run()
    assert not store_rows(seeded.url, versions.versions_by_status, "paused", bot="skybirds", limit=10)


def test_the_store_reads_refuse_nothing_on_an_empty_database(db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    """A fresh platform: every page says what to do instead of failing."""
    monkeypatch.setenv("DATABASE_URL", db.url)
    for name, expected in (("ladders", "No seasons yet"), ("live", "No match is in flight"),
                           ("bot", "No bots yet")):
        app = AppTest.from_file(str(PAGES / f"{name}.py"), default_timeout=TIMEOUT_S).run()
        assert not app.exception and any(i.value.startswith(expected) for i in app.info), name


def test_organiser_revokes_a_token_and_it_is_refused_from_then_on(page: Any, seeded: SeededDatabase) -> None:
    with connect(seeded.url) as conn:
        leaked = issue_token(conn, "mallory", "author", "leaked laptop")
    app = page("organiser")
    app.text_input(key="token_organiser").input(ORGANISER_TOKEN)
    next(b for b in app.button if b.label == "Sign in").click().run()
    app.text_input(key="tokens_account").input("mallory").run()
    chosen = app.selectbox(key="tokens_chosen").value
    assert (chosen["account"], chosen["label"]) == ("mallory", "leaked laptop")
    app.button(key="tokens_revoke").click().run()
    assert [s.value for s in app.success] == [f"token #{chosen['id']} of mallory revoked"]
    with connect(seeded.url) as conn, pytest.raises(TokenRefused, match="revoked"):
        check_token(conn, leaked, "author")
    assert not store_rows(seeded.url, live_tokens, "mallory"), "a revoked token is no longer listed"
    assert store_rows(seeded.url, check_token, ORGANISER_TOKEN, "organiser") is not None


def test_a_seats_owner_gets_the_reproduce_command_and_its_participants_replay(page: Any,
                                                                             seeded: SeededDatabase) -> None:
    version = seeded.league.versions["sky-team"][0]  # alice's
    rows, _ = store_rows(seeded.url, matches.version_match_page, version, 5)
    match_id, seat = next((r["id"], s["seat"]) for r in rows if r["status"] == "finished" for s in r["seats"]
                          if s["version_id"] == version)
    with connect(seeded.url) as conn:
        conn.execute("UPDATE participants SET bot_seed = 12345678901234567890 WHERE match_id = %s", (match_id,))
        stranger = issue_token(conn, "carol", "author", "test")
    app = page("match", match=match_id)
    assert "Your seat" not in [s.value for s in app.subheader]
    app.text_input(key="token_author").input(stranger)
    next(b for b in app.button if b.label == "Sign in").click().run()
    assert "Your seat" not in [s.value for s in app.subheader], "carol played no seat of it"
    next(b for b in app.button if b.label == "Sign out").click().run()
    app.text_input(key="token_author").input(AUTHOR_TOKEN)
    next(b for b in app.button if b.label == "Sign in").click().run()
    assert "Your seat" in [s.value for s in app.subheader]
    assert any(c.value == f"skyarena reproduce {match_id} BOT_DIR" for c in app.code)
    download = app.get("download_button")
    assert download and download[0].label == f"Download seat {seat}'s participant's replay"
    with connect(seeded.url) as conn:
        text = stored_seat_jsonl(conn, match_id, matches.match_participants(conn, match_id)[seat])
    assert text is not None and '"bot_seed":12345678901234567890' in text  # what the button hands out
    app.run()  # the same session: still signed in
    assert "Your seat" in [s.value for s in app.subheader]


def test_the_bot_page_lists_challenges_apart_from_rated_matches(page: Any, seeded: SeededDatabase) -> None:
    seats = [p["version_id"] for p in store_rows(seeded.url, matches.match_participants, seeded.league.faulty_match)]
    version = seats[0]
    with connect(seeded.url) as conn:
        account = conn.execute("SELECT b.account_id FROM bot_versions v JOIN bots b ON b.id = v.bot_id"
                               " WHERE v.id = %s", (version,)).fetchone()["account_id"]
        [challenge] = queue_challenges(conn, account, "skyjo-action", [seats], [7], ChallengeLimits())
    app = page("bot", bot=_bot_id(seeded.url, version))
    subheaders = [s.value for s in app.subheader]
    assert subheaders.index("Challenges (unrated)") < subheaders.index("Recent matches")
    shown = next(d.value for d in app.dataframe if "seats" in d.value.columns)
    assert list(shown["match"]) == [f"/match?match={challenge}"] and list(shown["status"]) == ["queued"]
    recent = next(d.value for d in app.dataframe if "Δμ" in d.value.columns)
    assert f"/match?match={challenge}" not in list(recent["match"]), "a challenge is not a rated match"
