"""How a result reads for a person: ranks 1-based (1 = first), and what an end reason means.

The engines and every ``--json`` keep ranks 0-based (0 = first), as the wire does; what is
printed for people counts from 1, as ``skyarena play`` and the dashboard do. An end reason
is a short word of the game's (``score``, ``landed``, ``spin``); printed beside a count it
can read like a figure ("score 20"), so each known word comes with what it means.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

RANKS_IN_JSON = "0 = first in this JSON (tables and text show 1 = first)"

# The end reasons of the five games (each engine's README lists its own), as a sentence part.
END_REASONS: dict[str, str] = {
    "score": "a player reached the end score",
    "round-limit": "the round limit was reached",
    "landed": "the plane landed",
    "spin": "the plane went into a spin",
    "collision": "the plane hit traffic",
    "overshoot": "the plane overshot the airport",
    "crash": "the plane never reached the airport",
    "failed-landing": "a landing condition was missed",
    "missing-mandatory": "a round ended without Axis and Engines both filled",
    "routed": "one side had no face-up cards left",
    "mutual-rout": "both sides were routed at once",
    "armistice": "a player took the Armistice",
    "campaign-limit": "the campaign limit was reached",
    "forfeit": "a seat forfeited",
}


def end_reason(reason: str) -> str:
    """``score (a player reached the end score)``; an unknown word is shown as it is."""
    meaning = END_REASONS.get(reason)
    return f"{reason} ({meaning})" if meaning else reason


def places(ranks: Sequence[int]) -> list[int]:
    """0-based ranks as people read them: 1 = first."""
    return [rank + 1 for rank in ranks]


def result_line(result: Mapping[str, Any]) -> str:
    return (f"end: {end_reason(result['reason'])}; ranks (1 = first) {places(result['ranks'])}; "
            f"scores {result['scores']}")
