"""A stored match as one seat saw it, for that seat's owner (`GetParticipantReplay`).

The store keeps the referee's full record of every finished match; the participant's replay is
that record with the seat's own view added (`referee.match.participant`): its bot seed (kept
in ``participants.bot_seed``), the options it was told, and every observation it received with
its answer, time and fault. Nothing of another seat's private side is added: their bot seeds
and logs stay where they are.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.games.core import replay as replay_io
from referee.match.participant import participant_records
from workers.store import matches, versions
from workers.store import replay_document as stored_replay
from workers.store.database import Conn, Row
from workers.store.results import decompress_replay


def participant_jsonl(document: Mapping[str, Any], seat: int, *, match_id: str, bot_seed: int | None,
                      bot: Mapping[str, Any]) -> str:
    """The participant's replay (JSON lines) of ``seat`` from a stored replay document."""
    records, _ = stored_replay.records(document)
    return replay_io.dumps(participant_records(records, seat, match_id=match_id, bot_seed=bot_seed, bot=bot))


def stored_seat_jsonl(conn: Conn, match_id: str, seat: Row) -> str | None:
    """The participant's replay of ``seat`` (a `matches.match_participants` row) of a finished match,
    or None when its replay is no longer stored; the Arena and the dashboard hand out the same."""
    data = matches.replay_data(conn, match_id)
    if data is None:
        return None
    version = versions.version(conn, seat["version_id"])
    bot = {"version_id": seat["version_id"], "bot": seat["bot"], "version": seat["version"],
           "archive_sha256": version["archive_sha256"]}
    return participant_jsonl(decompress_replay(data), seat["seat"], match_id=match_id,
                             bot_seed=matches.bot_seed(conn, match_id, seat["seat"]), bot=bot)
