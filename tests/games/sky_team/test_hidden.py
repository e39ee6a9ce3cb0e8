"""Dice behind the screens: a seat sees its own dice and only the count of its partner's."""

from __future__ import annotations

import json

from referee.games import CounterRng
from skyarena.games.sky_team import Observation

from .helpers import C, P, dice, game, play


def test_a_seat_sees_its_dice_and_only_the_count_of_the_partners() -> None:
    s = game({"dice": [dice([1, 1, 2, 6], [3, 4, 5, 5])]})
    mine, theirs = s.observation(P), s.observation(C)
    assert mine["my_dice"] == [1, 1, 2, 6] and mine["other_dice_count"] == 4
    assert theirs["my_dice"] == [3, 4, 5, 5] and theirs["role"] == "copilot"
    assert "dice" not in s.public_view() and "my_dice" not in s.public_view()
    play(s, "P:6>axis")
    assert s.observation(C)["board"]["axis_pilot"] == 6 and s.observation(C)["other_dice_count"] == 3


def test_resampling_redraws_only_the_partners_unplaced_dice() -> None:
    s = game({"dice": [dice([1, 1, 2, 6], [3, 4, 5, 5])]})
    play(s, "P:6>axis", "C:5>radio")
    changed = 0
    for n in range(20):
        other = s.resample_hidden(P, CounterRng(n))
        assert other.observation(P) == s.observation(P)
        assert [str(a) for a in other.legal_actions(P)] == [str(a) for a in s.legal_actions(P)]
        assert other.dice[P] == s.dice[P] and len(other.dice[C]) == 3
        changed += other.dice[C] != s.dice[C]
    assert changed >= 15


def test_resampled_futures_do_not_follow_the_real_dice() -> None:
    """The seat cannot know the next round's dice, scripted or not: they are redrawn too."""
    s = game({"dice": [dice([1, 2, 3, 3], [1, 2, 3, 3]), dice([6, 6, 6, 6], [6, 6, 6, 6])]})
    next_rounds = set()
    for n in range(10):
        twin = s.resample_hidden(P, CounterRng(n))
        play(twin, "P:3>axis")
        twin.apply({C: twin.legal_actions(C)[0]})
        while twin.round == 0 and not twin.is_over():
            seat = twin.to_move()[0]
            choices = [a for a in twin.legal_actions(seat) if str(a) != "reroll"]
            twin.apply({seat: choices[0]})
        if not twin.is_over():
            next_rounds.add(twin.dice[P])
    assert next_rounds and next_rounds != {(6, 6, 6, 6)}
    play(s, "P:3>axis", "C:3>axis", "P:2>engines", "C:2>engines", "P:1>radio", "C:1>radio", "P:3>conc", "C:3>conc")
    assert s.dice[P] == (6, 6, 6, 6)


def test_typed_observation_round_trips() -> None:
    s = game({"dice": [dice([1, 1, 2, 6], [3, 4, 5, 5])]})
    play(s, "P:6>axis")
    data = s.observation(C)
    obs = Observation.from_json(data)
    assert obs.to_json() == data
    assert obs.board.axis_pilot == 6 and obs.my_dice == (3, 4, 5, 5) and obs.partner == P
    assert obs.approach_tokens == (0, 0, 1, 2, 1, 3, 2) and obs.result is None
    json.dumps(data)
