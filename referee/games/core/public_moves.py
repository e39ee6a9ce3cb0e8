"""What each game's rules make public, decision kind by decision kind: the table behind the
referee's visibility rule (`referee.games.core.visibility`).

A move is told to the other seats and to spectators exactly as the table says:

- ``SHOWN``: made in the open at the table, so its notation is told as it is;
- ``HIDDEN``: its notation names what the rules keep hidden; only "this seat moved" is told;
- a function of the action: part of the move is seen and part is not; the function
  writes the part that is seen (``first_word``: the kind of move is announced, its details
  are not; ``placed_die``: a Sky Team die as it lands on the board).

The entries come from each rulebook's own words (``docs/rules/`` and RULINGS.md):

- Sky Team: dice are rolled behind screens, and a die becomes public the moment it is
  placed on the Control Panel, showing its value after any coffee spent on it (how many
  tokens were spent is seen, the value it was rolled with is not); spending a Reroll token
  is a visible act, while which unplaced dice are rerolled names dice still behind the
  screen.
- Skyjo Action: every card taken, placed, revealed, discarded or played goes face up or
  onto a public pile, and the targets of action cards are chosen aloud; what a Look shows,
  or a card drawn face down, is never part of the notation ("hidden" stands in for it).
- Skybirds: squadrons, the cards named as wild, passes and tokens are played on the
  table; only the cards handed over in a pre-campaign trade pass face down between two
  players.
- Oddball Äeronauts: skills are announced, Tricks are announced ("you simply announce
  it") and the number of cards Played is shown with fingers, then compared in the open;
  the new order of a Rig and the order cards go down when Discarded are face down in the
  owner's deck, so only that a Rig was used is told.
- Fly Away: the display and every formation are face up, and swaps and flips are made in
  the open; the scoring cards kept stay hidden until the end (ruling D1: with the option
  ``public_scoring_cards`` they are in the public view as soon as chosen).

A game missing from the table, or a decision kind missing from its row, is hidden: a new
kind is told only once someone has checked its rulebook.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, Literal

SHOWN: Final = "shown"
HIDDEN: Final = "hidden"
Telling = Literal["shown", "hidden"] | Callable[[Any], str]


def first_word(action: Any) -> str:
    return str(action).split(" ", 1)[0]


def placed_die(action: Any) -> str:
    """``2>axis (1 coffee)`` for ``3-1>axis`` and ``1+1>axis`` alike: the die as it lies."""
    spent = abs(action.coffee)
    return f"{action.placed_value}>{action.space}" + (f" ({spent} coffee)" if spent else "")


PUBLIC_MOVES: Final[dict[str, dict[str, Telling]]] = {
    "sky-team": {"Place": placed_die, "SpendReroll": SHOWN, "Reroll": HIDDEN},
    "skyjo-action": {verb: SHOWN for verb in (
        "draw", "take-discard", "take-action", "activate", "take", "play", "drop", "place", "discard", "reveal",
        "star", "clear", "top", "keep", "hold", "look", "between", "pick", "remove", "steal", "replay", "defend",
        "allow")},
    "skybirds": {"pass": SHOWN, "play": SHOWN, "wild": SHOWN, "take": SHOWN, "trade": SHOWN, "use": SHOWN,
                 "give": HIDDEN},
    "oddball-aeronauts": {"Announce": SHOWN, "Prepare": first_word, "Play": SHOWN, "Protect": SHOWN,
                          "Capture": SHOWN, "Discard": HIDDEN},
    "fly-away": {"Keep": HIDDEN, "Take": SHOWN, "Swap": SHOWN, "Flip": SHOWN, "Done": SHOWN},
}


def decision_kind(action: Any) -> str:
    """The row key of an action: a Skyjo Action move's verb, a Skybirds action's kind tag,
    otherwise the action's class name (each of the other games has one class per kind)."""
    for tag in ("verb", "kind"):
        value = getattr(action, tag, None)
        if isinstance(value, str):
            return value
    return type(action).__name__


def public_text(game: str, action: Any) -> str | None:
    """The notation the other seats and spectators are told, or None for a hidden move."""
    telling = PUBLIC_MOVES.get(game, {}).get(decision_kind(action), HIDDEN)
    if telling == HIDDEN:
        return None
    return str(action) if telling == SHOWN else telling(action)
