"""The stored form of a match's replay, and the one place that reads it.

The worker stores the referee's replay records as one JSON document (compressed in
``replays.data``). Since format 2 that document keeps the records **in the referee's
order**, so a chance outcome stays after the move that drew it and the replay viewer can
say, step by step, what was drawn; ``end`` and ``match`` repeat the last two records for
readers that want only the result, the state hash or the faults.

Format 1, written before, grouped the records by type (``{"header", "moves", "chance",
"end", "match"}``) and so lost the interleaving. It is still read: the moves and chance
outcomes each keep their own order, which is what `referee.games.core.replay.verify`
compares, so such a replay still re-plays and proves its result; only the per-step chance
text is gone (``records(document)`` says so with ``in_order=False``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee.games import ReplayError

from .errors import StoreError

FORMAT = 2


class ReplayDocumentError(StoreError, ReplayError):
    """A stored replay in neither known shape: written by another program, or damaged (a
    ``ReplayError`` too, so a viewer that handles a replay that will not re-play handles it)."""


def replay_document(records: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The document the store keeps for the referee's ``records`` (header first)."""
    if not records or records[0].get("type") != "header":
        raise ReplayDocumentError("a replay starts with its header record; this one does not, so it cannot be stored")
    ends = [r for r in records if r.get("type") == "end"]
    matches = [r for r in records if r.get("type") == "match"]
    return {"format": FORMAT, "records": list(records), "end": ends[-1] if ends else None,
            "match": matches[-1] if matches else None}


def records(document: Mapping[str, Any]) -> tuple[list[dict[str, Any]], bool]:
    """The records, and whether each chance outcome sits after the move that drew it."""
    if isinstance(document, Mapping) and isinstance(document.get("records"), list):
        return list(document["records"]), True
    if isinstance(document, Mapping) and isinstance(document.get("header"), Mapping):
        grouped = [dict(document["header"], type="header"), *(document.get("chance") or []),
                   *(document.get("moves") or [])]
        return grouped + [dict(document[key]) for key in ("end", "match") if document.get(key)], False
    raise ReplayDocumentError("this stored replay has neither a list of records nor a header: it cannot be opened "
                              "(was it written by another program?)")


def header(document: Mapping[str, Any]) -> dict[str, Any]:
    """The replay's header record (game, players, seed, options, engine version)."""
    if isinstance(document.get("records"), list) and document["records"]:
        return dict(document["records"][0])
    return records(document)[0][0]


def moves(document: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The move records in play order."""
    if isinstance(document.get("records"), list):
        return [r for r in document["records"] if r.get("type") == "move"]
    return list(document.get("moves") or [])


def end(document: Mapping[str, Any]) -> dict[str, Any]:
    """The end record (result and the referee's state hash), or {} for a replay without one."""
    return dict(document.get("end") or {})


def match_record(document: Mapping[str, Any]) -> dict[str, Any]:
    """The referee's match record (faults, forfeits, strikes), or {} when there is none."""
    return dict(document.get("match") or {})
