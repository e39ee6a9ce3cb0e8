"""A league with online versions, in this process: online bots connected to an Arena under test,
and a worker's pool of match slots playing the season with the plain ``play_match``.

The online bots are the SDK's own ``OnlinePlayer`` (what ``skyarena connect`` runs), each on a
thread, playing a house bot's code; the pool is what a Celery worker with ``--concurrency N``
does, minus the broker (the workers' Celery tests cover that path): play a queued match, top its
ladder up, and when nothing is queued, schedule as beat would.
"""

from __future__ import annotations

import queue as queues
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from skyarena.arena.client import Arena
from skyarena.arena.online import ConnectRefused, OnlinePlayer
from skyarena.remote.runner import bot_factory
from workers.play import MatchPlayer, PlayResult, play_match
from workers.scheduling import schedule_active, top_up_after
from workers.store import Database
from workers.store import online as online_store
from workers.store.seasons import get_season
from workers.store.submissions import set_status


@dataclass
class OnlineBot:
    """One online version kept online by an OnlinePlayer on a thread of this process."""

    address: str
    token: str
    bot: str
    game: str
    code: str = "random"
    max_games: int = 2
    lines: list[str] = field(default_factory=list)
    refused: str | None = None
    player: OnlinePlayer | None = None
    thread: threading.Thread | None = None

    def start(self) -> OnlineBot:
        self.player = OnlinePlayer(Arena(self.address, self.token), bot_factory(self.code, self.game), self.bot,
                                   max_games=self.max_games, say=self.lines.append)
        self.thread = threading.Thread(target=self._run, name=f"online-{self.bot}", daemon=True)
        self.thread.start()
        return self

    def _run(self) -> None:
        assert self.player is not None
        try:
            self.player.run()
        except ConnectRefused as exc:
            self.refused = str(exc)

    def drop(self) -> None:
        """The Connect stream breaks (a network drop); the bot reconnects by itself."""
        if self.player is not None:
            self.player.drop()

    def stop(self) -> None:
        """Offline: the stream ends, the matches in progress are played out."""
        if self.player is not None:
            self.player.stop()
        if self.thread is not None:
            self.thread.join(120)


def register_online_versions(db: Database, account: str, game: str, names: list[str]) -> list[int]:
    """Online versions already past their smoke match (that path has its own test): active at once."""
    ids = []
    with db.connection() as conn:
        for name in names:
            version_id = online_store.register_online(conn, account, name, game).version_id
            set_status(conn, version_id, "active", "test: smoke passed elsewhere")
            ids.append(version_id)
    return ids


def wait_online(db: Database, version_ids: list[int], timeout_s: float = 30.0) -> None:
    """Until every version has a live session (its Connect stream is open)."""
    deadline = time.monotonic() + timeout_s
    while True:
        with db.connection() as conn:
            online = {r["version_id"] for r in online_store.online_versions(conn)}
        if set(version_ids) <= online:
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"versions {sorted(set(version_ids) - online)} never came online")
        time.sleep(0.1)


@dataclass
class LeagueRun:
    results: list[PlayResult] = field(default_factory=list)

    @property
    def finished(self) -> int:
        return sum(r.status == "finished" for r in self.results)


def play_season(db: Database, player: MatchPlayer, target: int, slots: int = 3,
                on_match: Callable[[PlayResult], None] | None = None, timeout_s: float = 600.0) -> LeagueRun:
    """Play matches ``slots`` at a time until ``target`` finished, then play out what is queued."""
    run = LeagueRun()
    pending: queues.Queue[str] = queues.Queue()
    lock = threading.Lock()
    enough = threading.Event()
    deadline = time.monotonic() + timeout_s

    def offer(ids: tuple[str, ...] | list[str]) -> None:
        for match_id in ids:
            pending.put(match_id)

    def slot() -> None:
        while time.monotonic() < deadline:
            try:
                match_id = pending.get(timeout=0.3)
            except queues.Empty:
                if enough.is_set():
                    return
                offer([m for s in schedule_active(db) for m in s.match_ids])  # beat's pass
                continue
            result = play_match(player, match_id)
            with lock:
                run.results.append(result)
                if run.finished >= target:
                    enough.set()
            if on_match is not None:
                on_match(result)
            if not enough.is_set():
                topped = top_up_after(db, match_id)
                offer(topped.match_ids if topped else ())

    threads = [threading.Thread(target=slot, name=f"slot-{i}", daemon=True) for i in range(slots)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(max(1.0, deadline - time.monotonic() + 5))
    return run


@dataclass
class Storm:
    """Online bots dropping and coming back at random while a season plays: most drops break only
    the Connect stream (the bot reconnects by itself), some take the bot offline for a while."""

    bots: dict[str, OnlineBot]
    seed: int = 7
    period_s: float = 0.3
    offline_s: tuple[float, float] = (0.5, 3.0)
    events: list[str] = field(default_factory=list)
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def start(self) -> Storm:
        self._thread = threading.Thread(target=self._rage, name="storm", daemon=True)
        self._thread.start()
        return self

    def _rage(self) -> None:
        import random

        rng = random.Random(self.seed)
        names = sorted(self.bots)
        away: dict[str, float] = {}
        while not self._stop.wait(self.period_s):
            now = time.monotonic()
            for name, back_at in list(away.items()):
                if now >= back_at:
                    old = self.bots[name]
                    self.bots[name] = OnlineBot(old.address, old.token, old.bot, old.game, old.code,
                                                old.max_games).start()
                    del away[name]
                    self.events.append(f"{name} back")
            name = rng.choice(names)
            if name in away:
                continue
            if rng.random() < 0.7:
                self.bots[name].drop()
                self.events.append(f"{name} dropped")
            else:
                bot = self.bots[name]
                threading.Thread(target=bot.stop, daemon=True).start()  # its matches in progress play out
                away[name] = now + rng.uniform(*self.offline_s)
                self.events.append(f"{name} offline")
        for name in away:  # the storm is over: everyone comes back
            old = self.bots[name]
            self.bots[name] = OnlineBot(old.address, old.token, old.bot, old.game, old.code, old.max_games).start()

    def calm(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(30)


def storm_findings(db: Database, season: str) -> dict[str, Any]:
    """What a season after a storm must show: nothing stuck, lost or rated twice, every void a no-show
    with its reason."""
    with db.connection() as conn:
        season_id = get_season(conn, season).id
        statuses = {r["status"]: r["n"] for r in conn.execute(
            "SELECT status, count(*) AS n FROM matches WHERE season_id = %s GROUP BY status", (season_id,))}
        void_reasons = [r["void_reason"] for r in conn.execute(
            "SELECT void_reason FROM matches WHERE season_id = %s AND status = 'void' ORDER BY id", (season_id,))]
        badly_rated = conn.execute(
            """SELECT m.id, m.status, m.players, count(h.id) AS rows, count(DISTINCT h.version_id) AS versions
               FROM matches m LEFT JOIN rating_history h ON h.match_id = m.id WHERE m.season_id = %s
               GROUP BY m.id HAVING (m.status = 'finished' AND count(h.id) <> m.players)
                   OR (m.status <> 'finished' AND count(h.id) > 0)
                   OR count(h.id) <> count(DISTINCT h.version_id)""", (season_id,)).fetchall()
        open_invitations = conn.execute(
            "SELECT count(*) AS n FROM invitations i JOIN matches m ON m.id = i.match_id WHERE m.season_id = %s"
            " AND i.state IN ('pending', 'accepted', 'joined')", (season_id,)).fetchone()
    return {"statuses": statuses, "void_reasons": void_reasons, "badly_rated": [dict(r) for r in badly_rated],
            "open_invitations": open_invitations["n"] if open_invitations else 0}
