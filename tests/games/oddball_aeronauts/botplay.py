"""Play whole games between SDK bots by driving the engine directly (tests and the
balance figures of the README use it)."""

from __future__ import annotations

from typing import Any

from referee.games.core import Result
from skyarena.games.oddball_aeronauts import HOUSE_BOTS
from skyarena.local import play_unclocked

GAME = "oddball-aeronauts"


def play_game(names: tuple[str, str], seed: int, options: dict[str, Any] | None = None) -> Result:
    """One game, seat i played by the house bot ``names[i]``."""
    state = play_unclocked(GAME, [HOUSE_BOTS[name]() for name in names], seed, options or {})
    result = state.result()
    assert result is not None
    return result


def win_rate(names: tuple[str, str], games: int, first_seed: int = 0,
             options: dict[str, Any] | None = None) -> dict[str, float]:
    """Seats swap every game. Returns the share of wins of ``names[0]``'s bot, of
    ``names[1]``'s and of draws (by bot, whatever the seat)."""
    wins = [0, 0]
    draws = 0
    for i in range(games):
        flip = i % 2 == 1
        seated = (names[1], names[0]) if flip else names
        result = play_game(seated, first_seed + i, options)
        winners = result.winners()
        if len(winners) == 2:
            draws += 1
            continue
        seat = winners[0]
        wins[(seat == 0) == flip] += 1  # seat 0 under flip is names[1]
    return {names[0] + "#a": wins[0] / games, names[1] + "#b": wins[1] / games, "draw": draws / games}


def faction_balance(games: int, bots: tuple[str, str] = ("heuristic", "heuristic"), first_seed: int = 0,
                    options: dict[str, Any] | None = None) -> dict[str, float]:
    """The same bot on both seats; the factions swap seats every game. Shares of wins of
    each faction, of draws, and of wins of seat 0 (the seat advantage)."""
    wins = {"pendragon": 0, "pirates": 0, "draw": 0, "seat0": 0}
    for i in range(games):
        factions = ["pendragon", "pirates"] if i % 2 == 0 else ["pirates", "pendragon"]
        result = play_game(bots, first_seed + i, {**(options or {}), "factions": factions})
        winners = result.winners()
        if len(winners) == 2:
            wins["draw"] += 1
        else:
            wins[factions[winners[0]]] += 1
            wins["seat0"] += winners[0] == 0
    return {k: v / games for k, v in wins.items()}
