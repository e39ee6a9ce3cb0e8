"""The design note's balance claims, on a small seeded sample (``balance.py`` measures
the README's figures on 1,000 games per value set).

Heuristic bot in every seat, 20 games at each of 2-5 players (80 games, seeds apart
from the README's run). The sample's error is computed, not guessed: each ratio comes
with its jackknife standard error over games (``balance.jackknife_se``, about 1 point
of percentage here), and each claim must hold at the unfavourable edge of a one-sided
99% interval (2.33 standard errors): the balanced set's worst type must be within +15%
even at the upper edge, the template's outside card above +15% even at the lower edge.
So a pass is evidence for the claim, not only a lack of evidence against it.
"""

from __future__ import annotations

import pytest

from referee.games import make
from referee.games.fly_away.data import SCORING_SETS, SCORING_TYPES
from tests.games.fly_away import balance

GAMES_PER_COUNT = 20
SEED = 10_000
Z = 2.33          # one-sided 99%
TARGET = 1.15     # the issue: no type above the others' mean by more than 15%


@pytest.fixture(scope="module", params=["balanced", "template"])
def measured(request: pytest.FixtureRequest) -> tuple[str, list[float], list[float]]:
    games = balance.play_many(request.param, GAMES_PER_COUNT, SEED)
    return request.param, balance.ratios(games), balance.jackknife_se(games)


def test_balance(measured: tuple[str, list[float], list[float]]) -> None:
    values, ratios, se = measured
    shown = {SCORING_TYPES[t]: f"{100 * (ratios[t] - 1):+.1f}% ± {100 * se[t]:.1f}" for t in range(len(ratios))}
    if values == "balanced":
        # Every type within the target, even at the upper edge of the interval.
        assert all(r + Z * e <= TARGET for r, e in zip(ratios, se)), shown
    else:
        # The design note: within the RULINGS.md template the outside card leads and
        # misses the target by far (about +46%), even at the lower edge of the interval.
        outside = SCORING_TYPES.index("outside")
        assert max(range(len(ratios)), key=lambda t: ratios[t]) == outside, shown
        assert ratios[outside] - Z * se[outside] > TARGET, shown


def test_the_option_changes_only_the_values() -> None:
    template = make("fly-away", 3, seed=7)
    balanced = make("fly-away", 3, seed=7, options={"scoring_data": "balanced"})
    assert template.options["scoring_data"] == "template"
    obs_t, obs_b = template.observation(1), balanced.observation(1)
    dealt_t, dealt_b = obs_t.pop("dealt"), obs_b.pop("dealt")
    assert obs_t == obs_b      # same deal, same view apart from the scoring card values
    assert [c["id"] for c in dealt_t] == [c["id"] for c in dealt_b]
    by_id = {c.id: c for c in SCORING_SETS["balanced"]}
    outside = next(c for c in dealt_b if c["area"] == "outside")
    assert outside["no_card"]["points"] == by_id[outside["id"]].no_card_points == 6
    assert sorted(outside["points"].values()) == [-2, 1, 1, 2, 2]
