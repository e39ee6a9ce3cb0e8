"""A burst of challenges from one account while a season runs: the quota holds, and the season's
rated throughput stays where it is without them (issue 24).

Runs of the same Sky Team season (``bench/season.py``'s: a ``skyarena worker``, beat, two
referees, house bots in the sandbox), measured for the same seconds, in the order alone, burst,
burst, alone: in a burst run one account asks for ``--burst`` challenges (one match each, spread
over the measured seconds) through the store's own quota check
(`workers.store.challenges.queue_challenges`, the Arena's), and the ones the platform has room for
are released to the workers as the Arena releases them (`workers.challenge_release`); the worker
and beat release the rest as room opens. Reported: the rated matches per minute alone and beside
the bursts and their ratio, how many challenges were accepted, refused (the quota and the cap in
flight), released and finished, and that no challenge moved a rating.

    python bench/challenges.py [--burst 100] [--seconds 40] [--rounds 1] [--json-out f.json]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.season import matches_per_min  # noqa: E402
from skyarena.settings import current  # noqa: E402
from tests.workers.services import RedisProcess, RefereeProcess  # noqa: E402
from workers.config import QueueSettings  # noqa: E402
from workers.store import Database  # noqa: E402
from workers.store.accounts import account_id  # noqa: E402
from workers.store.challenges import ChallengeLimits, ChallengeRefused, queue_challenges, release_waiting  # noqa: E402
from workers.store.recompute import recompute_season  # noqa: E402
from workers.store.seasons import get_season  # noqa: E402

GAME, SEATS, VERSIONS, WORKERS = "sky-team", 2, 8, 1


def burst(count: int, broker: str, tally: dict[str, Any], limits: ChallengeLimits) -> Any:
    """The ``during`` hook: ``count`` one-match challenge requests from one account, spread evenly."""
    from workers.celery_app import configure
    from workers.tasks import enqueue

    configure(broker)   # imported and connected before the measured seconds begin

    def run(db: Database, versions: list[int], seconds: float) -> None:
        started = time.monotonic()
        for i in range(count):
            with db.connection() as conn:
                challenger = account_id(conn, "challenger")
                try:
                    ids = queue_challenges(conn, challenger, GAME, [[versions[i % 2], versions[2 + i % 2]]], [i],
                                           limits)
                except ChallengeRefused as exc:
                    key = "refused_in_flight" if "at once" in str(exc) else "refused_quota"
                    tally[key] = tally.get(key, 0) + 1
                    conn.rollback()
                    ids = []
            if ids:
                tally["accepted"] = tally.get("accepted", 0) + 1
                with db.connection() as conn:  # as the Arena does: those the workers have room for now
                    released = release_waiting(conn, current(QueueSettings).release_policy())
                enqueue(released)
            time.sleep(max(0.0, started + (i + 1) * seconds / count - time.monotonic()))

    return run


def burst_checks(tally: dict[str, Any]) -> Any:
    """The ``after`` hook, once the measured seconds are counted (the recompute holds the ladder while it
    replays, which would stall the season's matches inside the window): what the challenges did."""

    def check(db: Database) -> None:
        with db.connection() as conn:
            row = conn.execute("SELECT count(*) AS n FROM rating_history h JOIN matches m ON m.id = h.match_id"
                               " WHERE m.kind = 'challenge'").fetchone()
            finished = conn.execute("SELECT count(*) AS n FROM matches WHERE kind = 'challenge'"
                                    " AND status = 'finished'").fetchone()
            released = conn.execute("SELECT count(*) AS n FROM matches WHERE kind = 'challenge'"
                                    " AND released_at IS NOT NULL").fetchone()
            # The oracle: every stored rating replayed from the rated results alone.
            reports = recompute_season(conn, get_season(conn, "bench"))
        tally["recompute_differences"] = sum(len(r.differences) for r in reports)
        tally["challenge_rating_changes"] = row["n"] if row else None
        tally["challenges_finished_in_window"] = finished["n"] if finished else None
        tally["challenges_released_in_window"] = released["n"] if released else None

    return check


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--burst", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=40.0)
    parser.add_argument("--warmup", type=int, default=4)
    parser.add_argument("--in-flight", type=int, default=ChallengeLimits().in_flight,
                        help="the account's cap on challenges in flight (the Arena's --challenges-in-flight)")
    parser.add_argument("--json-out", type=Path)
    parser.add_argument("--rounds", type=int, default=1, help="rounds of four runs (alone, burst, burst, alone)")
    args = parser.parse_args()
    load_before = round(os.getloadavg()[0], 1)
    with tempfile.TemporaryDirectory(prefix="sk-bench-", dir="/tmp") as name:
        folder = Path(name)
        broker = RedisProcess(folder)
        referees = [RefereeProcess(folder, f"referee{i}") for i in range(2)]
        tallies: list[dict[str, Any]] = []   # one per run with the burst
        limits = ChallengeLimits(in_flight=args.in_flight)
        try:
            # Alone and beside in the order A B B A (repeated for --rounds): a machine whose load
            # drifts during the run weighs on both sides alike.
            runs: dict[bool, list[float]] = {False: [], True: []}
            for with_burst in [False, True, True, False] * args.rounds:
                during = after = None
                if with_burst:
                    tallies.append({})
                    during, after = burst(args.burst, broker.url, tallies[-1], limits), burst_checks(tallies[-1])
                runs[with_burst].append(matches_per_min(GAME, SEATS, VERSIONS, WORKERS, broker, referees, folder,
                                                        args.warmup, args.seconds, during=during, after=after))
        finally:
            for ref in referees:
                ref.stop()
            broker.stop()
    alone, beside = (sum(runs[k]) / len(runs[k]) for k in (False, True))
    results = {"rated_per_min_alone": round(alone, 1), "rated_per_min_with_challenges": round(beside, 1),
               "ratio": round(beside / alone, 3) if alone else None, "burst": args.burst,
               **{k: sum(t.get(k) or 0 for t in tallies) for k in sorted({k for t in tallies for k in t})},
               "burst_runs": tallies, "runs_alone": [round(r, 1) for r in runs[False]],
               "runs_with_challenges": [round(r, 1) for r in runs[True]], "quota": vars(limits),
               "release_policy": vars(current(QueueSettings).release_policy()),
               "load_before": load_before, "load_average": round(os.getloadavg()[0], 1)}
    print(json.dumps(results, indent=2))
    if args.json_out:
        args.json_out.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
