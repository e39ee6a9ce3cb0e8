"""Options: defaults, bad values and contradictions, each with the fix in the message."""

from __future__ import annotations

from typing import Any

import pytest

from referee.games import GAMES, OptionError, PlayerCountError

from .helpers import new


def test_spec_defaults_and_bounds() -> None:
    spec = GAMES["skybirds"]
    assert (spec.min_players, spec.max_players, spec.version) == (2, 4, "1")
    assert spec.validate(3, {}) == {"short_war": False, "campaign_limit": 30, "setup": None}
    assert spec.max_decisions == 23_016
    assert spec.rulebook == "docs/rules/skybirds.md"


@pytest.mark.parametrize(("options", "match"), [
    ({"campaign_limit": 0}, "campaign_limit.*from 1 to 100"),
    ({"campaign_limit": 101}, "campaign_limit"),
    ({"campaign_limit": "many"}, "campaign_limit"),
    ({"short_war": "maybe"}, "short_war"),
    ({"armistice": True}, "unknown option 'armistice'"),
])
def test_bad_option_values(options: dict[str, Any], match: str) -> None:
    with pytest.raises(OptionError, match=match):
        new(3, options=options)


def test_wrong_player_count() -> None:
    with pytest.raises(PlayerCountError, match="2 to 4"):
        new(5)


@pytest.mark.parametrize(("setup", "match"), [
    ([], "JSON object"),
    ({"deal": []}, "unknown key 'deal'"),
    ({"hands": [[0, 1]]}, "list of 2 hands"),
    ({"hands": [[0, 1], []]}, r"hands\[1\] must be a non-empty list"),
    ({"hands": [[1, 2], [3]]}, "Garros"),
    ({"hands": [[0, 0], [3]]}, "deck has only 1"),
    ({"hands": [[0, 10, 10], [3]]}, "deck has only 1"),
    ({"hands": [[0, 11], [3]]}, "11 is not a card"),
    ({"hands": [[0, 1], [2]], "next_deals": [[[1], [2]]]}, r"next_deals\[0\].*Garros"),
    ({"next_deals": [[[0], [2]]]}, "needs 'hands'"),
    ({"aerodromes": [{"A1": "yes"}]}, "must be \"up\" or \"flipped\""),
    ({"aerodromes": [{"Z1": "up"}]}, "unknown key 'Z1'"),
    ({"aerodromes": [{"C2": "flipped"}]}, "never flipped"),
    ({"aerodromes": [{"plus1": 9}]}, "plus1 must be an integer from 0 to 8"),
    ({"aerodromes": [{"fraction": "1/3"}]}, "fraction must be one of"),
    ({"aerodromes": [{"fraction": "1/2"}]}, "largest first"),
    ({"aerodromes": [{"fraction": "3/4"}, {"fraction": "3/4"}]}, "given to two players"),
    ({"aerodromes": [{}, {}, {}]}, "at most 2"),
    ({"campaign": 0}, "campaign must be an integer of at least 1"),
])
def test_bad_setups_name_the_key_and_the_fix(setup: Any, match: str) -> None:
    with pytest.raises(OptionError, match=match) as info:
        new(2, options={"setup": setup})
    assert "README" in str(info.value)


@pytest.mark.parametrize("face", ["up", "flipped"])
def test_the_armistice_is_only_ever_earned_so_a_setup_cannot_start_it_in_a_reserve(face: str) -> None:
    """Taking the Armistice ends the war after that dogfight (and it is never traded for):
    a reserve holding it at the start would be a war already over, so it is refused."""
    with pytest.raises(OptionError, match=r"the Armistice \(AR\) cannot start in a reserve.*README"):
        new(3, options={"setup": {"aerodromes": [{}, {"D1": "up", "D2": "up", "AR": face}]}})


def test_contradictory_campaign_start_and_limit() -> None:
    with pytest.raises(OptionError, match="raise campaign_limit or lower setup.campaign"):
        new(2, options={"setup": {"campaign": 12}, "campaign_limit": 10})
    state = new(2, options={"setup": {"campaign": 10}, "campaign_limit": 10})
    assert state.observation(0)["campaign"] == 10


def test_setup_aerodromes_alone_keep_a_random_deal() -> None:
    state = new(4, seed=3, options={"setup": {"aerodromes": [{"A1": "flipped", "plus1": 2}]}})
    assert state.observation(1)["aerodromes"][0] == {"reserve": {"A1": "flipped"}, "plus1": 2,
                                                      "fraction": 0.0, "vp": 3.0}
    assert state.sizes == [10, 10, 10, 10]
