"""``skyarena replay MATCH_ID --mine``: your seat's full view of a finished platform match, as a file.

The Arena hands the seat's owner its participant's replay (`referee.match.participant`): the
referee's whole record (setup and chance included), the seat's bot seed and every decision it
made. It is written whole or not at all, then ``skyarena replay FILE --verify`` proves it and
``skyarena reproduce FILE BOT_DIR`` re-runs the bot on it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from referee.games.core import replay as replay_io
from skyarena.v1 import arena_pb2 as pb

from ..cli_support import UserError
from .client import arena


def fetch(match_id: str, seat: int | None = None, address: str | None = None,
          token: str | None = None) -> list[dict[str, Any]]:
    """The participant's replay records of your seat (``seat``, or your only one) of ``match_id``."""
    response: pb.ParticipantReplay = arena(address, token).call(
        "GetParticipantReplay", pb.ParticipantReplayRequest(match_id=match_id, seat=-1 if seat is None else seat))
    return replay_io.loads(response.replay_jsonl, f"the participant's replay of {match_id}")


def default_path(match_id: str, seat: int) -> Path:
    return Path(f"{match_id}-seat{seat}.jsonl")


def download(match_id: str, seat: int | None, out: Path | None, force: bool, address: str | None,
             token: str | None) -> tuple[Path, list[dict[str, Any]]]:
    """Fetch and write the file (refusing to overwrite one unless ``force``); returns its path and records."""
    if out is not None and out.exists() and not force:
        raise UserError(f"{out} exists already: pass --force to replace it, or another --out PATH")
    records = fetch(match_id, seat, address, token)
    about = next(r for r in records if r["type"] == "participant")
    path = out if out is not None else default_path(match_id, about["seat"])
    if path.exists() and not force:
        raise UserError(f"{path} exists already: pass --force to replace it, or --out PATH")
    replay_io.write(path, records)
    return path, records
