"""A stored replay document, back into the records `ReplayViews` re-plays.

The store keeps what the worker hands it (`MatchOutcome.replay`). Two shapes are read:
the referee's records in their order (a list, or ``{"records": [...]}``), and the
worker's document of records grouped by type (``{"header", "moves", "chance", "end",
"match"}``, `workers/play.py`). The grouped one no longer says after which move each
chance outcome was drawn, so its steps are re-played without per-step chance text, the
outcomes still checked in their own order (``ReplayViews(chance_in_order=False)``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.games import ReplayError


def replay_records(document: Any) -> tuple[list[dict[str, Any]], bool]:
    """The records and whether their chance outcomes sit after the moves that drew them."""
    if isinstance(document, list):
        return document, True
    if isinstance(document, Mapping) and isinstance(document.get("records"), list):
        return list(document["records"]), True
    if isinstance(document, Mapping) and isinstance(document.get("header"), Mapping):
        records = [dict(document["header"], type="header"), *(document.get("moves") or []),
                   *(document.get("chance") or [])]
        records += [document[key] for key in ("end", "match") if document.get(key)]
        return records, False
    raise ReplayError("this stored replay has neither a list of records nor a header: the viewer cannot open it "
                      "(was it written by another version of the worker?)")
