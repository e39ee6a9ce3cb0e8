"""Shorthands for Fly Away scenario tests: pick cards by what they are, build positions
with the ``setup`` option, play notation strings."""

from __future__ import annotations

from typing import Any

from referee.games import make
from referee.games.fly_away.data import BIRDS, SPECIES, SPECIES_INDEX
from referee.games.fly_away.geometry import SLOT_BY_NAME, WEDGE
from referee.games.fly_away.state import FlyAwayState


def birds(species: str, ability: str | None = None, count: int = 1, skip: int = 0) -> list[int]:
    """Card ids of that species and ability, cards without a player-count icon first."""
    found = sorted((b.players or 0, b.id) for b in BIRDS.values()
                   if b.species == SPECIES_INDEX[species] and b.ability == ability)
    ids = [i for _, i in found][skip:skip + count]
    assert len(ids) == count, f"not enough {species} cards with ability {ability}"
    return ids


def bird(species: str, ability: str | None = None, skip: int = 0) -> int:
    return birds(species, ability, 1, skip)[0]


def species_of(card: int) -> str:
    return SPECIES[BIRDS[card].species]


def full_formation(by_slot: dict[str, int], anchor: tuple[int, int] = (0, 0)) -> list[list[int]]:
    """Setup entries [row, col, id] of a formation with these cards at these wedge slots."""
    out = []
    for name, card in by_slot.items():
        r, c = WEDGE[SLOT_BY_NAME[name]]
        out.append([r + anchor[0], c + anchor[1], card])
    return out


def game(players: int = 2, seed: int = 1, options: dict[str, Any] | None = None, **setup: Any) -> FlyAwayState:
    opts = dict(options or {})
    opts["setup"] = setup or None
    state = make("fly-away", players, seed=seed, options=opts)
    assert isinstance(state, FlyAwayState)
    return state


def play(state: FlyAwayState, text: str) -> None:
    """The seat to move (one) plays ``text``."""
    movers = state.to_move()
    assert len(movers) == 1, movers
    state.apply({movers[0]: text})


def legal(state: FlyAwayState, seat: int | None = None) -> list[str]:
    if seat is None:
        seat = state.to_move()[0]
    return [str(a) for a in state.legal_actions(seat)]


def cells(state: FlyAwayState, seat: int) -> dict[tuple[int, int], int]:
    return dict(state.cells[seat])
