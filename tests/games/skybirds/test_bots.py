"""House bots: both answer legally; the heuristic beats random clearly at 2 and 4 players.

Games are played by driving the engine and the bots directly, seats rotated. The final
report's 1,000-game figures come from the same function (``win_share(players, 1000)``).
"""

from __future__ import annotations

from referee.games.skybirds.state import SkybirdsState
from skyarena.games import house_bots, observation_class
from skyarena.games.skybirds import HOUSE_BOTS, HeuristicBot, Observation
from skyarena.local import play_unclocked

from .helpers import new


def play_war(players: int, seed: int, lineup: list[str]) -> tuple[list[float], str, int]:
    state = play_unclocked("skybirds", [HOUSE_BOTS[name]() for name in lineup], seed)
    assert isinstance(state, SkybirdsState)
    result = state.result()
    assert result is not None
    share = [0.0] * players
    for seat in result.winners():
        share[seat] = 1 / len(result.winners())
    return share, result.reason, state.campaign


def win_share(players: int, games: int, seed0: int = 0) -> float:
    """The heuristic's share of wins against random bots, rotating its seat."""
    total = 0.0
    for i in range(games):
        seat = i % players
        lineup = ["random"] * players
        lineup[seat] = "heuristic"
        share, _, _ = play_war(players, seed0 + i, lineup)
        total += share[seat]
    return total / games


def test_skybirds_ships_typed_observation_and_house_bots() -> None:
    assert observation_class("skybirds") is Observation
    assert {"random", "heuristic"} <= set(house_bots("skybirds"))
    assert house_bots("skybirds")["heuristic"] is HeuristicBot


def test_observation_round_trips() -> None:
    state = new(3, seed=2)
    data = state.observation(1)
    obs = Observation.from_json(data)
    assert obs.to_json() == data
    assert obs.seat == 1 and len(obs.hand) == 12 and obs.dogfight.size == 0
    assert obs.counts()[0] == (1 if 0 in obs.hand else 0)


def test_heuristic_beats_random_at_two_players() -> None:
    assert win_share(2, 60) >= 0.9


def test_heuristic_beats_random_at_four_players() -> None:
    assert win_share(4, 24) >= 0.75  # random's share would be 0.25
