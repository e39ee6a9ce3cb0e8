"""The running dashboard in a real headless Chromium: the ladder, a bot page and a replay of every game.

`skyarena dashboard` runs as a subprocess on a free port against a seeded league;
Selenium drives Debian's chromium through its chromedriver (a browser downloaded at run
time cannot work on these machines). Screenshots go to tests/artifacts/dashboard/ (ignored
by git), and each is checked not to be blank: the replay's picture must hold many
distinct colours, the whole page at least a few. The page is read as a person (or a
screen reader, or find-in-page) reads it: the ladder's bot names are text in the page,
the board picture spans the page's width, and Streamlit's Deploy button is not there.
Without Chromium the test is skipped and says how to install it.
"""

from __future__ import annotations

import base64
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from io import BytesIO
from pathlib import Path

import pytest
from PIL import Image

from tests.dashboard.conftest import SeededDatabase
from tests.dashboard.league_seed import AUTHOR_TOKEN, GAMES

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "dashboard"
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--window-size=1600,1600")
START_S = 60      # the dashboard's first start imports Streamlit, pandas and the engines
PAGE_S = 120      # a page's first load runs its script and draws in the browser
PICTURE_COLOURS = 12  # a board drawn in its colours has dozens; a blank or broken one has one or two
PAGE_COLOURS = 4
BOARD_SHARE = 0.9     # of the main column's width: a board is drawn as wide as the page allows

# CI installs Chromium (.ci/run), so there a missing browser is a failure, never a skip.
if os.environ.get("CI") and not (CHROMIUM.exists() and CHROMEDRIVER.exists()):
    raise RuntimeError(f"CI is set but {CHROMIUM} or {CHROMEDRIVER} is missing: .ci/run should have installed "
                       "chromium and chromium-driver")
pytestmark = pytest.mark.skipif(
    not (CHROMIUM.exists() and CHROMEDRIVER.exists()),
    reason=f"no Chromium at {CHROMIUM} and {CHROMEDRIVER}: `apt-get install -y chromium chromium-driver` "
           "(.ci/run installs them) to run the dashboard's browser test")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def dashboard(seeded: SeededDatabase, tmp_path: Path) -> Iterator[str]:
    """``skyarena dashboard`` on a free port against this test's league: its base URL."""
    port = _free_port()
    log = (tmp_path / "dashboard.log").open("wb")
    command = [str(Path(sys.executable).with_name("skyarena")), "dashboard", "--port", str(port),
               "--database-url", seeded.url]
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env={**os.environ, "HOME": str(tmp_path)})
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_S
        while True:
            if process.poll() is not None:
                pytest.fail(f"skyarena dashboard exited with {process.returncode}: "
                            f"{(tmp_path / 'dashboard.log').read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(f"{base}/_stcore/health", timeout=2) as answer:
                    if answer.read() == b"ok":
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"skyarena dashboard did not answer within {START_S} s")
            time.sleep(0.3)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


@pytest.fixture
def browser() -> Iterator[object]:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in FLAGS:
        options.add_argument(flag)
    with tempfile.TemporaryDirectory(prefix="skyarena-chromium-") as profile:
        options.add_argument(f"--user-data-dir={profile}")  # a fresh profile: no state between runs
        driver = webdriver.Chrome(options=options, service=Service(str(CHROMEDRIVER)))
        try:
            yield driver
        finally:
            driver.quit()


def colours(png: bytes) -> int:
    """Distinct colours in a screenshot (a blank page has one)."""
    image = Image.open(BytesIO(png)).convert("RGB")
    found = image.getcolors(maxcolors=1 << 20)
    return len(found) if found is not None else 1 << 20


def _open(driver: object, url: str, selector: str) -> object:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get(url)  # type: ignore[attr-defined]
    return WebDriverWait(driver, PAGE_S).until(  # type: ignore[arg-type]
        expected_conditions.visibility_of_element_located((By.CSS_SELECTOR, selector)))


def _settle(driver: object) -> None:
    """Wait until Streamlit has finished running the page's script (no "running" indicator)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, PAGE_S).until(  # type: ignore[arg-type]
        lambda d: not d.find_elements(By.CSS_SELECTOR, '[data-testid="stStatusWidget"]'))
    time.sleep(0.5)  # the last frame's paint


def _page_shot(driver: object, name: str) -> bytes:
    source: str = driver.page_source  # type: ignore[attr-defined]
    assert "Page not found" not in source, f"{name}: Streamlit did not find the page"
    png: bytes = driver.get_screenshot_as_png()  # type: ignore[attr-defined]
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / f"{name}.png").write_bytes(png)
    return png


def test_the_ladder_a_bot_page_and_a_replay_of_every_game_render_in_chromium(dashboard: str, browser: object,
                                                                             seeded: SeededDatabase) -> None:
    from selenium.webdriver.common.by import By

    _open(browser, f"{dashboard}/", "table.skyarena-table")  # the default page: Ladders
    _settle(browser)
    assert browser.find_element(By.TAG_NAME, "h1").text.startswith("Ladders")  # type: ignore[attr-defined]
    assert colours(_page_shot(browser, "ladders")) >= PAGE_COLOURS
    page_text = browser.find_element(By.TAG_NAME, "body").text  # type: ignore[attr-defined]
    from workers.store import connect
    from workers.store.ladders import frozen_standings

    with connect(seeded.url) as conn:  # the default season is the newest, the closed one
        top = frozen_standings(conn, seeded.league.ladders["closed"])[0]
        name = conn.execute("SELECT b.name FROM bot_versions v JOIN bots b ON b.id = v.bot_id WHERE v.id = %s",
                            (top.version_id,)).fetchone()
    assert name is not None
    first_row = browser.find_element(By.CSS_SELECTOR, "table.skyarena-table tbody tr")  # type: ignore[attr-defined]
    assert name["name"] in first_row.text and name["name"] in page_text, "the ladder's bot names are text in the page"
    assert "Deploy" not in page_text, "Streamlit's Deploy button is for developers, not a league's viewers"

    with connect(seeded.url) as conn:
        row = conn.execute("SELECT bot_id FROM bot_versions WHERE id = %s",
                           (seeded.league.versions["skyjo-action"][0],)).fetchone()
    assert row is not None
    _open(browser, f"{dashboard}/bot?bot={row['bot_id']}", '[data-testid="stVegaLiteChart"], .vega-embed')
    _settle(browser)
    assert colours(_page_shot(browser, "bot")) >= PAGE_COLOURS

    for game in GAMES:
        match_id = seeded.league.matches[game][0]
        picture = _open(browser, f"{dashboard}/match?match={match_id}", '[data-testid="stImage"] img')
        _settle(browser)
        browser.execute_script("arguments[0].scrollIntoView();", picture)  # type: ignore[attr-defined]
        png = picture.screenshot_as_png  # type: ignore[attr-defined]
        main = browser.find_element(By.CSS_SELECTOR, '[data-testid="stMainBlockContainer"]')  # type: ignore
        assert picture.size["width"] >= BOARD_SHARE * (main.size["width"] - 2 * 80), (  # its padding: 5 rem
            f"the {game} board is {picture.size['width']} px wide in a {main.size['width']} px column")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        (ARTIFACTS / f"replay-{game}.png").write_bytes(png)
        _page_shot(browser, f"match-{game}")
        assert colours(png) >= PICTURE_COLOURS, f"the {game} replay's picture looks blank"
        source = picture.get_attribute("src")  # type: ignore[attr-defined]
        assert source.startswith("data:image/svg+xml"), "the picture is the board's SVG"
        assert base64.b64decode(source.split(",", 1)[1]).decode().count(f'class="board {game}"') == 1


def test_a_seats_owner_signs_in_once_and_gets_the_reproduce_command_and_a_download_in_chromium(
        dashboard: str, browser: object, seeded: SeededDatabase) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    from workers.store import connect

    match_id = seeded.league.matches["sky-team"][0]
    with connect(seeded.url) as conn:
        conn.execute("UPDATE participants SET bot_seed = 42 WHERE match_id = %s", (match_id,))
    _open(browser, f"{dashboard}/match?match={match_id}", '[data-testid="stSidebar"] input[type="password"]')
    _settle(browser)
    body = browser.find_element(By.TAG_NAME, "body")  # type: ignore[attr-defined]
    assert "Your seat" not in body.text and "Sign in to download your seat's replay" in body.text
    field = browser.find_element(By.CSS_SELECTOR, '[data-testid="stSidebar"] input[type="password"]')  # type: ignore
    field.send_keys(AUTHOR_TOKEN)
    next(b for b in browser.find_elements(By.TAG_NAME, "button") if b.text == "Sign in").click()  # type: ignore
    WebDriverWait(browser, PAGE_S).until(  # type: ignore[arg-type]
        lambda d: d.find_elements(By.CSS_SELECTOR, '[data-testid="stDownloadButton"] button'))
    _settle(browser)
    text = browser.find_element(By.TAG_NAME, "body").text  # type: ignore[attr-defined]
    assert "Your seat" in text and f"skyarena reproduce {match_id} BOT_DIR" in text
    assert "signed in as alice" in text
    button = browser.find_element(By.CSS_SELECTOR, '[data-testid="stDownloadButton"] button')  # type: ignore
    assert "participant's replay" in button.text
    assert colours(_page_shot(browser, "match-your-seat")) >= PAGE_COLOURS
