"""The smoke match: a new version plays one match against the house ``random`` bot before any ladder.

It is an ordinary match row (``kind = 'smoke'``, no season) that a worker plays with
``play.play_match`` like any other, so the version runs in the same sandbox, relay and
referee as in its season. The version passes when its seat finished the match without
forfeiting and without a fault of its own making (an exception, an illegal or unparseable
answer, a disconnect); a timeout alone is forgiven, because on a busy machine it says more
about the machine than about the bot. Passing makes the version ``active`` (its older
versions are superseded) and tops up its game's active seasons at once, so its placement
matches (the matchmaker seeds the least-played versions first) start without waiting for
the beat. Failing makes it ``failed`` with a message naming the first fault and its log kept.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from referee.games import GAMES
from workers.house_bots import house_archive
from workers.play import MatchPlayer, play_match
from workers.scheduling import Scheduled, schedule_season
from workers.store import Database, matches, versions
from workers.store import submissions as store
from workers.store.database import Conn
from workers.store.scheduling import new_match_id
from workers.store.seasons import active_seasons

OPPONENT = "random"
SEED_RANGE = 2**62
OWN_FAULTS = ("exception", "illegal", "unparseable", "disconnect")  # a timeout alone is the machine's, not the bot's


@dataclass(frozen=True)
class SmokeResult:
    version_id: int
    status: str                      # active | failed | waiting | smoke (still being played elsewhere)
    message: str
    retry_after_s: float | None = None
    scheduled: tuple[str, ...] = ()  # rated matches queued for the version's seasons at once


def queue_smoke(conn: Conn, version_id: int, game: str) -> str:
    """Insert the version's smoke match (seat 0: the version; the others: the house random bot)."""
    spec = GAMES[game]
    manifest = {"game": game, "entry": "bot.py", "name": OPPONENT}
    opponent = store.smoke_opponent(conn, game, house_archive(game, OPPONENT), manifest)
    match_id = new_match_id()
    seats = [version_id] + [opponent] * (spec.min_players - 1)
    store.schedule_smoke(conn, match_id, version_id, seats, game, random.SystemRandom().randrange(SEED_RANGE))
    return match_id


def verdict(seat: dict[str, Any], match_id: str, game: str, entry: str = "bot.py") -> tuple[bool, str]:
    """(passed, the message the author reads) from the version's participant row."""
    faults = [f for f in seat.get("faults") or [] if isinstance(f, dict)]
    own = [f for f in faults if f.get("kind") in OWN_FAULTS]
    if not seat.get("forfeited") and not own:
        return True, f"passed its smoke match {match_id} against the house {OPPONENT} bot; now on the ladders"
    first = (own or faults or [{}])[0]
    reason = str(first.get("reason") or "").split("\n", 1)[0]  # its traceback is in the log
    what = f"turn {first.get('turn')}: {first.get('kind')} — {reason}" if first else "it forfeited"
    return False, (f"failed its smoke match {match_id} against the house {OPPONENT} bot "
                   f"({len(faults)} fault(s){', forfeited' if seat.get('forfeited') else ''}); first: {what}. "
                   f"See `skyarena logs {match_id}`, run `skyarena play {game} {entry} {OPPONENT}` in your bot's "
                   "folder, fix it and submit again")


def conclude(db: Database, version_id: int) -> SmokeResult:
    """Read the finished (or void) smoke match and move the version to active or failed."""
    with db.connection() as conn:
        version = versions.version(conn, version_id, lock=True)
        if version["status"] != "smoke":
            return SmokeResult(version_id, version["status"], version["status_message"])
        match_id = version["smoke_match_id"]
        match = matches.match(conn, match_id)
        assert match is not None, f"the smoke match {match_id} of version {version_id} is not stored"
        if match["status"] == "void" and version["hosting"] == "online":  # a no-show: not the bot's code
            message = (f"its smoke match {match_id} was void ({match['void_reason']}); it is played again when the "
                       f"bot next connects (`skyarena connect {version['bot']}`)")
            store.set_status(conn, version_id, "smoke", message)
            return SmokeResult(version_id, "smoke", message)
        if match["status"] == "void":
            message = (f"its smoke match {match_id} could not be played ({match['void_reason']}); "
                       "fix what it says and submit again")
            store.set_status(conn, version_id, "failed", message)
            return SmokeResult(version_id, "failed", message)
        if match["status"] != "finished":
            return SmokeResult(version_id, "smoke", "the smoke match is still being played")
        seat = next(s for s in matches.match_participants(conn, match_id) if s["version_id"] == version_id)
        log = matches.bot_log(conn, match_id, seat["seat"])
        passed, message = verdict(seat, match_id, version["game"],
                                   (version["manifest"] or {}).get("entry", "bot.py"))
        if passed:
            store.activate(conn, version_id, message)
        else:
            store.set_status(conn, version_id, "failed", message, log["log"] if log else None)
        seasons = active_seasons(conn, version["game"]) if passed else []
    scheduled: list[Scheduled] = [schedule_season(db, s.id, s.matches_in_flight) for s in seasons]
    return SmokeResult(version_id, "active" if passed else "failed", message,
                       scheduled=tuple(m for s in scheduled for m in s.match_ids))


def conclude_match(db: Database, match_id: str) -> SmokeResult | None:
    """Conclude the version a finished or void smoke match belongs to (None for a rated match).

    The play_match task calls it too, so a smoke match whose own task was lost (the reaper
    sends the queued row to play_match again) still gives its version a verdict."""
    with db.connection() as conn:
        version_id = versions.version_of_smoke_match(conn, match_id)
    return None if version_id is None else conclude(db, version_id)


def run_smoke(player: MatchPlayer, version_id: int) -> SmokeResult:
    """Play the version's smoke match (if it is not played yet) and conclude it."""
    with player.db.connection() as conn:
        version = versions.version(conn, version_id)
    if version["status"] != "smoke":
        return SmokeResult(version_id, version["status"], version["status_message"])
    played = play_match(player, version["smoke_match_id"])
    if played.status == "waiting":
        return SmokeResult(version_id, "smoke", played.detail, retry_after_s=played.retry_after_s)
    return conclude(player.db, version_id)
