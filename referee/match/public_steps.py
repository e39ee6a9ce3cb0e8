"""A step as a spectator is told it: its moves through the visibility rule and its faults
without their reasons, as records and as the one line of text every reader prints.

The Arena's public replay (`workers.arena.public_replay`), ``skyarena replay MATCH_ID`` and
the dashboard's spectator view all describe a step with these functions, so what a
spectator reads beside the picture of the table follows exactly what the rule tells:
a public move as it is, a hidden one as ``(hidden)``, never a chance outcome. It sits
with the match runner rather than the referee service because the bot author's ``skyarena``
reads it too and loads no server code; the rule itself (`referee.games.core.visibility`) is
passed in.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

HIDDEN_TEXT = "(hidden)"


def told_moves(visible: Callable[[int, Any], str | None], actions: Mapping[int, Any]) -> list[dict[str, Any]]:
    """The public replay's ``moves`` of one joint action (applied already: the rule may look at
    the state after it), in seat order."""
    moves: list[dict[str, Any]] = []
    for seat, action in sorted(actions.items()):
        text = visible(seat, action)
        moves.append({"seat": seat, "hidden": True} if text is None else {"seat": seat, "action": text})
    return moves


def public_fault(fault: Mapping[str, Any]) -> dict[str, Any]:
    """A fault as spectators get it: its kind but not its reason (a reason can name a hidden card)."""
    return {"type": "fault", "turn": fault["turn"], "seat": fault["seat"], "kind": fault["kind"],
            "strike": fault.get("strike"), "forfeit": fault.get("forfeit", False)}


def moves_text(moves: Iterable[Mapping[str, Any]]) -> str:
    return "; ".join(f"seat {m['seat']}: {HIDDEN_TEXT if m.get('hidden') else m['action']}" for m in moves)


def fault_text(fault: Mapping[str, Any]) -> str:
    return f"fault, seat {fault['seat']}: {fault['kind']}" + (" (forfeit)" if fault.get("forfeit") else "")
