"""A tiny game for testing the framework and the match runner without any real rules.

"High die": each of N rounds every seat privately rolls a die, then all seats choose at
the same time to ``keep`` or ``reroll``; the highest kept total after the rounds wins.
It has simultaneous moves, hidden dice and chance, which is all the runner must handle.
"""

from __future__ import annotations

from typing import Any

from referee.games import GameSpec, OptionSpec, Result, State
from referee.games.core.rng import CounterRng

ACTIONS = ("keep", "reroll")


class HighDieState(State):
    game = "toy-high-die"
    __slots__ = ("dice", "totals", "round")

    def __init__(self, players: int, seed: int, options: dict[str, Any]) -> None:
        super().__init__(players, seed, options)
        self.totals = [0] * players
        self.round = 0
        self.dice = self.roll_dice("roll", players)

    def to_move(self) -> tuple[int, ...]:
        return () if self.round >= self.options["rounds"] else tuple(range(self.players))

    def _legal_actions(self, seat: int) -> list[Any]:
        return list(ACTIONS) if self.round < self.options["rounds"] else []

    def _apply(self, actions: dict[int, Any]) -> None:
        for seat, action in actions.items():
            if action == "reroll":
                self.dice[seat] = self.roll_dice("reroll", 1)[0]
            self.totals[seat] += self.dice[seat]
        self.round += 1
        if self.round < self.options["rounds"]:
            self.dice = self.roll_dice("roll", self.players)

    def _observation(self, seat: int) -> dict[str, Any]:
        return {"my_die": self.dice[seat], "totals": list(self.totals), "round": self.round}

    def public_view(self) -> dict[str, Any]:
        return {"totals": list(self.totals), "round": self.round}

    def result(self) -> Result | None:
        if self.round < self.options["rounds"]:
            return None
        return Result.from_scores(self.totals, "score")

    def _copy_into(self, twin: State) -> None:
        assert isinstance(twin, HighDieState)
        twin.dice = list(self.dice)
        twin.totals = list(self.totals)
        twin.round = self.round

    def snapshot(self) -> dict[str, Any]:
        return {"dice": self.dice, "totals": self.totals, "round": self.round}

    def resample_hidden(self, seat: int, rng: CounterRng) -> State:
        twin = self.clone()
        assert isinstance(twin, HighDieState)
        twin.dice = [d if s == seat else rng.die() for s, d in enumerate(self.dice)]
        return twin


SPEC = GameSpec(
    name="toy-high-die", title="High die (test game)", version="1", min_players=2, max_players=4,
    factory=HighDieState, options=(OptionSpec("rounds", 3, "Rounds to play.", int, minimum=1, maximum=50),),
    max_decisions=50,
)
