"""Online bots (issue 27): what an online seat costs the referee next to a hosted one, a season of
online and hosted versions on one ladder, and a disconnect storm; all in one run.

Everything is real: Postgres (a scratch database), a referee process on loopback, the Arena's
gRPC server in this process with online bots connected to it through the SDK's OnlinePlayer
(what ``skyarena connect`` runs: each seat a Play stream of its own to the referee), hosted
house bots in the worker's sandbox behind its relay, and the worker's ``play_match``.

* ``overhead``: blocks of matches played one after the other, alternating hosted-only and
  online-only (Skyjo Action, 2 seats, random bots), ``--rounds`` times; for each kind the
  referee's CPU seconds per decision (from its process's CPU times) and the decisions per
  second, and their ratios online/hosted (median over the rounds): in-run ratios, never
  absolute times.
* ``season``: 4 online and 4 hosted versions on one ladder until ``--season-matches`` (200)
  rated matches finished; every match must complete and the stored ratings recompute exactly.
* ``storm``: 20 online versions dropping (the Connect stream breaks) and going offline for a
  while at random during ``--storm-matches`` rated matches: none stuck, none lost or rated
  twice, every void a no-show with its reason.

``python bench/online.py --json`` prints one JSON object with those three parts and the load
average before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import psutil

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.ratings import admin_url, scratch_database  # noqa: E402
from tests.workers.online_league import (  # noqa: E402
    OnlineBot,
    Storm,
    play_season,
    register_online_versions,
    storm_findings,
    wait_online,
)
from tests.workers.services import SERVICE_TOKEN, RefereeProcess  # noqa: E402
from workers.arena.server import ArenaServer  # noqa: E402
from workers.house_bots import register_house_versions  # noqa: E402
from workers.play import MatchPlayer, PlaySettings  # noqa: E402
from workers.referees import Referees  # noqa: E402
from workers.seasons import SeasonSpec  # noqa: E402
from workers.store import Database  # noqa: E402
from workers.store.accounts import issue_token  # noqa: E402
from workers.store.recompute import recompute_season  # noqa: E402
from workers.store.seasons import close_season, create_season, get_season, start_season  # noqa: E402
from workers.store.submissions import set_status  # noqa: E402

GAME = "skyjo-action"
MOVE_S, BANK_S, FIRST_MOVE_S = 2.0, 5.0, 10.0
HOSTED, ONLINE = 4, 20   # versions made once; each part activates the ones it plays


class Stack:
    """A scratch store, a referee process, the Arena in this process and a worker's MatchPlayer."""

    def __init__(self, stack: ExitStack, server: str) -> None:
        url = stack.enter_context(scratch_database(server))
        self.db = Database(url, max_size=16)
        stack.callback(self.db.close)
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="sk-online-")))
        self.referee = RefereeProcess(folder)
        stack.callback(self.referee.stop)
        self.arena = ArenaServer(self.db, lambda version_id: None)
        self.address = f"127.0.0.1:{self.arena.start('127.0.0.1:0')}"
        stack.callback(self.arena.stop, 1.0)
        self.player = MatchPlayer(self.db, Referees([self.referee.address], SERVICE_TOKEN),
                                  PlaySettings(owner="bench-online"))
        stack.callback(self.player.close)
        with self.db.connection() as conn:
            self.play_token = issue_token(conn, "bench", "play")
            self.hosted = register_house_versions(conn, GAME, "random", HOSTED)
        self.online = register_online_versions(self.db, "bench", GAME, [f"online-{i}" for i in range(ONLINE)])
        self.seasons = 0

    def referee_cpu_s(self) -> float:
        assert self.referee.proc is not None
        times = psutil.Process(self.referee.proc.pid).cpu_times()
        return float(times.user + times.system)

    def decisions(self, season: str) -> int:
        with self.db.connection() as conn:
            row = conn.execute("SELECT coalesce(sum(r.steps), 0) AS n FROM replays r JOIN matches m"
                               " ON m.id = r.match_id JOIN seasons s ON s.id = m.season_id WHERE s.name = %s",
                               (season,)).fetchone()
        return int(row["n"]) if row else 0

    def season(self, hosted: int, online: int, in_flight: int) -> tuple[str, list[OnlineBot], list[int]]:
        """A new active season of ``hosted`` house versions and ``online`` connected online ones: the
        game's other versions are paused meanwhile (a season seats every active version of its game)."""
        self.seasons += 1
        name = f"bench-{self.seasons}"
        ids = self.online[:online]
        with self.db.connection() as conn:
            for version_id in self.hosted + self.online:
                chosen = version_id in self.hosted[:hosted] or version_id in ids
                set_status(conn, version_id, "active" if chosen else "paused", "the benchmark's choice")
            create_season(conn, SeasonSpec(name, GAME, (2,), move_s=MOVE_S, bank_s=BANK_S, first_move_s=FIRST_MOVE_S,
                                           matches_in_flight=in_flight))
            start_season(conn, name)
        bots = [OnlineBot(self.address, self.play_token, f"online-{i}", GAME, max_games=2).start()
                for i in range(online)]
        if ids:
            wait_online(self.db, ids)
        return name, bots, ids

    def close_season(self, name: str, bots: list[OnlineBot]) -> None:
        for bot in bots:
            bot.stop()
        with self.db.connection() as conn:
            close_season(conn, name)


def block(stack: Stack, kind: str, matches: int) -> dict[str, float]:
    """``matches`` matches one at a time, hosted-only or online-only: referee CPU and decisions."""
    hosted, online = (2, 0) if kind == "hosted" else (0, 2)
    name, bots, _ = stack.season(hosted, online, in_flight=1)
    cpu = stack.referee_cpu_s()
    started = time.perf_counter()
    run = play_season(stack.db, stack.player, matches, slots=1)
    wall = time.perf_counter() - started
    cpu = stack.referee_cpu_s() - cpu
    stack.close_season(name, bots)
    decisions = stack.decisions(name)
    return {"matches": run.finished, "decisions": decisions, "referee_cpu_ms_per_decision": 1000 * cpu / decisions,
            "decisions_per_s": decisions / wall}


def overhead(stack: Stack, rounds: int, matches: int) -> dict[str, Any]:
    blocks: dict[str, list[dict[str, float]]] = {"hosted": [], "online": []}
    for _ in range(rounds):
        for kind in ("hosted", "online"):
            blocks[kind].append(block(stack, kind, matches))

    def median(kind: str, key: str) -> float:
        return statistics.median(b[key] for b in blocks[kind])

    return {"blocks": blocks,
            "cpu_per_decision_ratio": statistics.median(
                o["referee_cpu_ms_per_decision"] / h["referee_cpu_ms_per_decision"]
                for h, o in zip(blocks["hosted"], blocks["online"])),
            "decisions_per_s_ratio": statistics.median(
                o["decisions_per_s"] / h["decisions_per_s"] for h, o in zip(blocks["hosted"], blocks["online"])),
            "median": {kind: {key: median(kind, key) for key in ("referee_cpu_ms_per_decision", "decisions_per_s")}
                       for kind in blocks}}


def season(stack: Stack, matches: int) -> dict[str, Any]:
    name, bots, online_ids = stack.season(4, 4, in_flight=6)
    started = time.perf_counter()
    run = play_season(stack.db, stack.player, matches, slots=3, timeout_s=3600)
    wall = time.perf_counter() - started
    for bot in bots:
        bot.stop()
    with stack.db.connection() as conn:
        reports = recompute_season(conn, get_season(conn, name))
        online_seats = conn.execute(
            "SELECT count(*) AS n FROM participants p JOIN matches m ON m.id = p.match_id JOIN seasons s"
            " ON s.id = m.season_id WHERE s.name = %s AND m.status = 'finished' AND p.version_id = ANY(%s)",
            (name, online_ids)).fetchone()
        close_season(conn, name)
    return {"rated_matches": run.finished, "not_finished": [r.detail for r in run.results if r.status != "finished"],
            "online_seats": online_seats["n"] if online_seats else 0, "matches_per_min": 60 * run.finished / wall,
            "recompute_differences": sum(len(r.differences) for r in reports)}


def storm(stack: Stack, matches: int) -> dict[str, Any]:
    name, bots, _ = stack.season(2, 20, in_flight=6)
    # Some bots stay away longer than an invitation waits (10 s): their seats are no-shows.
    weather = Storm({bot.bot: bot for bot in bots}, offline_s=(0.5, 20.0)).start()
    try:
        run = play_season(stack.db, stack.player, matches, slots=3, timeout_s=3600)
    finally:
        weather.calm()
        for bot in weather.bots.values():
            bot.stop()
    findings = storm_findings(stack.db, name)
    with stack.db.connection() as conn:
        reports = recompute_season(conn, get_season(conn, name))
    return {"rated_matches": run.finished, "drops": sum(e.endswith("dropped") for e in weather.events),
            "offline": sum(e.endswith("offline") for e in weather.events), **findings,
            "void_reasons": sorted({re.sub(r"^no-show: .*? \(seat \d+\) ", "no-show: ", r)
                                    for r in findings["void_reasons"]}),
            "voids": len(findings["void_reasons"]),
            "recompute_differences": sum(len(r.differences) for r in reports)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3, help="alternating hosted/online blocks (overhead)")
    parser.add_argument("--block-matches", type=int, default=6, help="matches per overhead block")
    parser.add_argument("--season-matches", type=int, default=200, help="rated matches of the mixed season")
    parser.add_argument("--storm-matches", type=int, default=60, help="rated matches during the storm")
    parser.add_argument("--parts", default="overhead,season,storm", help="which parts to run, comma-separated")
    parser.add_argument("--database-url", help="a Postgres server to make the scratch database on")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    parser.add_argument("--json-out", type=Path, help="also write them to this file")
    args = parser.parse_args()
    out: dict[str, Any] = {"cores": len(os.sched_getaffinity(0)), "load_before": os.getloadavg()[0]}
    with ExitStack() as stack:
        online = Stack(stack, admin_url(args.database_url))
        parts = set(args.parts.split(","))
        if "overhead" in parts:
            out["overhead"] = overhead(online, args.rounds, args.block_matches)
        if "season" in parts:
            out["season"] = season(online, args.season_matches)
        if "storm" in parts:
            out["storm"] = storm(online, args.storm_matches)
    out["load_after"] = os.getloadavg()[0]
    text = json.dumps(out, indent=None if args.json else 2, default=str)
    if args.json_out:
        args.json_out.write_text(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
