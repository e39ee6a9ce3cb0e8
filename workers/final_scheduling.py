"""Playing a season's finals: the scheduler's pass over a season whose finals were called.

Each final ladder, under its scheduling lock, reads the seats of its matches so far, asks
`workers.finals.progress` which slots of the fixed balanced schedule to queue now (up to
the season's ``matches_in_flight``), and queues them with seeds drawn from the ladder's
history. When every final is over (its budget played, or settled at a round's end with
``--until-settled``) the pass closes the season in the same transaction: the final
standings are frozen beside the regular ones. Everything is re-derived from the rows on
each pass, so a killed worker, referee or scheduler loses nothing and repeats nothing.
"""

from __future__ import annotations

import random

from referee.games import GAMES
from workers.finals import Finals, progress, schedule
from workers.ladder_confidence import record_verdict
from workers.matchmaking import PlannedMatch
from workers.rank_confidence import Contestant, Verdict, settle_verdict
from workers.ratings import Rating
from workers.store.database import Conn
from workers.store.finals import final_entries, final_matches, ladder_rating
from workers.store.scheduling import SEED_RANGE, ladder_match_count, schedule_matches, scheduling_lock
from workers.store.seasons import Season, close_season


def final_verdict(conn: Conn, season: Season, players: int) -> Verdict:
    """The final ladder's verdict: its top min(k, K − 1) in its whole order with probability p (no placement;
    the standings a final freezes ask more than a season's per-pair verdict, `workers.rank_confidence`)."""
    ladder_id = season.final_ladders[players]
    rows = conn.execute("SELECT version_id, mu, sigma, matches FROM ratings WHERE ladder_id = %s",
                        (ladder_id,)).fetchall()
    rules = season.matchmaking
    return settle_verdict([Contestant(r["version_id"], Rating(r["mu"], r["sigma"]), r["matches"]) for r in rows],
                          ladder_rating(conn, ladder_id, season), top=min(rules.settle_top, len(rows) - 1),
                          probability=rules.settle_probability, players=players, whole_order=True)


def schedule_finals(conn: Conn, season: Season) -> list[str]:
    """Queue the finals' next matches; close the season once every final is over. Returns the new ids."""
    assert season.finals is not None
    finals = Finals.from_mapping(season.finals)
    cooperative = GAMES[season.game].cooperative
    ids: list[str] = []
    over = True
    for players, ladder_id in sorted(season.final_ladders.items()):
        scheduling_lock(conn, ladder_id)
        verdict = final_verdict(conn, season, players)
        record_verdict(conn, ladder_id, verdict)
        live, finished, running = final_matches(conn, ladder_id)
        step = progress(schedule(final_entries(conn, ladder_id), players, cooperative, finals.games_per_pair),
                        live, finished, in_flight_room=max(0, season.matches_in_flight - running),
                        one_round_at_a_time=finals.until_settled, settled=verdict.settled)
        over = over and step.done
        if step.to_queue:
            rng = random.Random(f"{season.id}/{ladder_id}/{ladder_match_count(conn, ladder_id)}")
            planned = [PlannedMatch(seats, 0.0, seats[0]) for seats in step.to_queue]
            ids.extend(schedule_matches(conn, ladder_id, planned, [rng.randrange(SEED_RANGE) for _ in planned]))
    if over:
        close_season(conn, season.name)
    return ids

