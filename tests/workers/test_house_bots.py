"""The house bots as hosted sources, the mixed ones included: they load, play, and keep their order."""

from __future__ import annotations

from typing import Any

from skyarena.bot import Bot
from skyarena.games import house_bots
from skyarena.local import play_unclocked
from workers.demo.league import demo_house_bots
from workers.house_bots import MIXED, all_house_bots, house_source


def house_class(game: str, bot: str) -> type[Bot]:
    """The ``House`` class of the house bot's ``bot.py``, loaded as the sandbox's runner would."""
    namespace: dict[str, Any] = {}
    exec(compile(house_source(game, bot), f"{game}-{bot}/bot.py", "exec"), namespace)  # noqa: S102
    house: type[Bot] = namespace["House"]
    return house


def test_every_free_for_all_game_with_a_heuristic_has_the_mixed_house_bots() -> None:
    assert all_house_bots("skybirds") == [*sorted(house_bots("skybirds")), *sorted(MIXED)]
    assert all_house_bots("oddball-aeronauts")[-len(MIXED):] == sorted(MIXED)


def test_a_four_player_match_of_four_distinct_house_versions_plays_to_the_end() -> None:
    for game in ("skyjo-action", "skybirds", "fly-away"):
        bots = [house_class(game, name)() for name in demo_house_bots(game)]   # the demo's four
        assert len({type(b).name for b in bots}) == 4
        state = play_unclocked(game, bots, seed=3)
        assert state.is_over() and state.result() is not None


def test_more_heuristic_moves_place_better_on_average() -> None:
    places: dict[str, float] = dict.fromkeys(("heuristic", "heuristic-35", "random"), 0.0)
    for seed in range(12):
        bots = {name: house_class("skybirds", name)() for name in places}
        order = list(places)[seed % 3:] + list(places)[:seed % 3]   # rotate the seats
        state = play_unclocked("skybirds", [bots[name] for name in order], seed=seed)
        result = state.result()
        assert result is not None
        for seat, name in enumerate(order):
            places[name] += result.ranks[seat]
    assert places["heuristic"] < places["heuristic-35"] < places["random"]
