"""A burst of challenges from one account while a season runs: the quota holds, and the season's
rated throughput stays where it is without them (issue 24).

Two runs of the same Sky Team season (``bench/season.py``'s: a ``skyarena worker``, beat, two
referees, house bots in the sandbox), measured for the same seconds: one alone, one while one
account asks for ``--burst`` challenges (one match each, spread over the measured seconds) through
the store's own quota check (`workers.store.challenges.queue_challenges`, the Arena's), each
accepted one sent to the workers as the Arena sends it (``workers.tasks.enqueue``). Reported: the
rated matches per minute of both runs and their ratio, how many challenges were accepted and
refused (the quota and the cap in flight), and that no challenge moved a rating.

    python bench/challenges.py [--burst 100] [--seconds 40] [--json-out f.json]
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
from tests.workers.services import RedisProcess, RefereeProcess  # noqa: E402
from workers.store import Database  # noqa: E402
from workers.store.accounts import account_id  # noqa: E402
from workers.store.challenges import ChallengeLimits, ChallengeRefused, queue_challenges  # noqa: E402

GAME, SEATS, VERSIONS, WORKERS = "sky-team", 2, 8, 1


def burst(count: int, broker: str, tally: dict[str, Any], limits: ChallengeLimits) -> Any:
    """The ``during`` hook: ``count`` one-match challenge requests from one account, spread evenly."""

    def run(db: Database, versions: list[int], seconds: float) -> None:
        from workers.celery_app import configure
        from workers.tasks import enqueue

        configure(broker)
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
                enqueue(ids)
                tally["accepted"] = tally.get("accepted", 0) + 1
            time.sleep(max(0.0, started + (i + 1) * seconds / count - time.monotonic()))
        with db.connection() as conn:
            row = conn.execute("SELECT count(*) AS n FROM rating_history h JOIN matches m ON m.id = h.match_id"
                               " WHERE m.kind = 'challenge'").fetchone()
            finished = conn.execute("SELECT count(*) AS n FROM matches WHERE kind = 'challenge'"
                                    " AND status = 'finished'").fetchone()
        tally["challenge_rating_changes"] = row["n"] if row else None
        tally["challenges_finished_in_window"] = finished["n"] if finished else None

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--burst", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=40.0)
    parser.add_argument("--warmup", type=int, default=4)
    parser.add_argument("--in-flight", type=int, default=ChallengeLimits().in_flight,
                        help="the account's cap on challenges in flight (the Arena's --challenges-in-flight)")
    parser.add_argument("--json-out", type=Path)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="sk-bench-", dir="/tmp") as name:
        folder = Path(name)
        broker = RedisProcess(folder)
        referees = [RefereeProcess(folder, f"referee{i}") for i in range(2)]
        tally: dict[str, Any] = {}
        limits = ChallengeLimits(in_flight=args.in_flight)
        try:
            alone = matches_per_min(GAME, SEATS, VERSIONS, WORKERS, broker, referees, folder, args.warmup,
                                    args.seconds)
            beside = matches_per_min(GAME, SEATS, VERSIONS, WORKERS, broker, referees, folder, args.warmup,
                                     args.seconds, during=burst(args.burst, broker.url, tally, limits))
        finally:
            for ref in referees:
                ref.stop()
            broker.stop()
    results = {"rated_per_min_alone": round(alone, 1), "rated_per_min_with_challenges": round(beside, 1),
               "ratio": round(beside / alone, 3) if alone else None, "burst": args.burst, **tally,
               "quota": vars(limits), "load_average": round(os.getloadavg()[0], 1)}
    print(json.dumps(results, indent=2))
    if args.json_out:
        args.json_out.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
