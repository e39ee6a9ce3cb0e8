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


def public_charges(charges: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """A step's time as spectators get it: per deciding seat, its clock and what it was charged
    (the wall time too, on a CPU clock), without the referee's notes (a refused report's why)."""
    return [{"seat": c["seat"], "clock": c["clock"], "charged_s": c["charged_s"],
             **({"wall_s": c["wall_s"]} if "wall_s" in c else {})} for c in charges]


def charges_text(charges: Iterable[Mapping[str, Any]]) -> str:
    """``time: seat 0 0.071 s cpu (0.093 s wall); seat 1 0.002 s wall``, or "" for no decisions."""
    parts = [f"seat {c['seat']} {c['charged_s']:.3f} s {c['clock']}"
             + (f" ({c['wall_s']:.3f} s wall)" if "wall_s" in c else "") for c in charges]
    return "time: " + "; ".join(parts) if parts else ""


def moves_text(moves: Iterable[Mapping[str, Any]]) -> str:
    return "; ".join(f"seat {m['seat']}: {HIDDEN_TEXT if m.get('hidden') else m['action']}" for m in moves)


def fault_text(fault: Mapping[str, Any]) -> str:
    return f"fault, seat {fault['seat']}: {fault['kind']}" + (" (forfeit)" if fault.get("forfeit") else "")
