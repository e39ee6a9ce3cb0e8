"""The engine framework itself, exercised on the toy game (tests/toy_game.py)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import Counter

import pytest

from referee.games import CounterRng, IllegalAction, OptionError, PlayerCountError, Result, UnknownGame, make
from referee.games.core import replay as replay_io
from referee.games.core.playout import random_joint_action, random_playout
from tests.games import test_invariants as suite


def test_counter_rng_is_a_pure_function_of_seed_and_counter() -> None:
    a, b = CounterRng(42), CounterRng(42)
    assert [a.below(1000) for _ in range(50)] == [b.below(1000) for _ in range(50)]
    twin = a.copy()
    assert [a.die() for _ in range(10)] == [twin.die() for _ in range(10)]
    assert CounterRng(1).next64() != CounterRng(2).next64()


def test_counter_rng_is_roughly_uniform() -> None:
    rng = CounterRng(7)
    counts = Counter(rng.die() for _ in range(60_000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(abs(c - 10_000) < 400 for c in counts.values())
    perms = Counter(tuple(rng.shuffled([1, 2, 3])) for _ in range(12_000))
    assert len(perms) == 6 and all(abs(c - 2_000) < 200 for c in perms.values())


def test_result_ranks_share_ties() -> None:
    assert Result.from_scores([5, 9, 5, 1], "score").ranks == (1, 0, 1, 3)
    assert Result.from_scores([5, 9, 5, 1], "score", lower_is_better=True).ranks == (1, 3, 1, 0)


def test_bad_options_and_player_counts_say_what_to_do(toy_game: str) -> None:
    with pytest.raises(UnknownGame, match="known games"):
        make("chess", 2)
    with pytest.raises(OptionError, match="unknown option 'round'.*rounds"):
        make(toy_game, 2, options={"round": 3})
    with pytest.raises(OptionError, match="'rounds' cannot be 0; it must be an integer from 1 to 50"):
        make(toy_game, 2, options={"rounds": 0})
    with pytest.raises(OptionError, match="an integer"):
        make(toy_game, 2, options={"rounds": "many"})
    with pytest.raises(PlayerCountError, match="2 to 4 players, not 5"):
        make(toy_game, 5)
    assert make(toy_game, 2, options={"rounds": "4"}).options["rounds"] == 4


def test_invariant_suite_passes_on_the_toy_game(toy_game: str) -> None:
    stats = {"resampled_changed": [0], "reasons": {}}
    for seed in range(5):
        suite._play_checked(toy_game, 3, seed, deep=True, stats=stats)
    assert stats["resampled_changed"][0] > 0 and stats["reasons"] == {"score": 5}


def test_replay_round_trip_and_tamper_detection(toy_game: str) -> None:
    state = make(toy_game, 2, seed=9, options={"rounds": 5})
    random_playout(state, random.Random(1))
    records = replay_io.loads(replay_io.dumps(state.replay()))
    assert replay_io.verify(records).state_hash() == state.state_hash()
    moved = [r for r in records if r["type"] == "move"][0]
    moved["actions"]["0"] = "reroll" if moved["actions"]["0"] == "keep" else "keep"
    with pytest.raises(replay_io.ReplayError):
        replay_io.verify(records)
    chance = [dict(r) for r in state.replay()]
    next(r for r in chance if r["type"] == "chance")["value"] = [9, 9]
    with pytest.raises(replay_io.ReplayError, match="chance outcome 1"):
        replay_io.verify(chance)
    with pytest.raises(replay_io.ReplayError, match="first line must be the header"):
        replay_io.loads('{"type": "move"}\n')
    with pytest.raises(replay_io.ReplayError, match="not JSON"):
        replay_io.loads("hello\n")


def test_clone_is_independent(toy_game: str) -> None:
    state = make(toy_game, 2, seed=3)
    twin = state.clone()
    before = twin.state_hash()
    state.apply({0: "reroll", 1: "reroll"})
    assert twin.state_hash() == before
    twin.apply({0: "keep", 1: "keep"})
    assert twin.state_hash() != state.state_hash()


def test_result_json_shares_nothing_with_the_result() -> None:
    """Every seat's bot is handed the result: one bot writing into it must not change it."""
    from referee.games import Result

    result = Result((0, 1), (3.0, 1.0), "score", {"why": {"cards": [1, 2]}})
    handed = result.to_json()
    handed["details"]["why"]["cards"].append(99)
    handed["details"]["extra"] = True
    assert result.to_json()["details"] == {"why": {"cards": [1, 2]}}


def test_a_game_engine_is_imported_only_when_its_game_is_asked_for() -> None:
    """A process that plays one game (a hosted bot) must not pay for importing the others."""
    probe = ("import json, sys, referee.games as g\n"
             "def engines(): return sorted({m.split('.')[2] for m in sys.modules if m.startswith('referee.games.')}"
             " - {'core'})\n"
             "names, before = list(g.GAMES), engines()\n"
             "g.make('fly-away', 2, 1)\n"
             "print(json.dumps([names, before, engines()]))\n")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert json.loads(out) == [["sky-team", "skyjo-action", "skybirds", "oddball-aeronauts", "fly-away"], [],
                               ["fly_away"]]


def test_an_equal_tuple_of_another_action_class_is_not_legal() -> None:
    """Oddball's ``Announce(2) == Protect(2)`` as tuples: where ``protect 2`` is legal, an
    Announce of the same field is refused by ``is_legal`` and ``apply`` (which would apply it
    as an announcement), and the state is left as it was."""
    from referee.games.oddball_aeronauts.actions import Announce, Protect

    for seed in range(200):
        state = make("oddball-aeronauts", 2, seed)
        rng = random.Random(seed)
        while not state.is_over():
            for seat in state.to_move():
                protects = [a for a in state.legal_actions(seat) if type(a) is Protect]
                if protects:
                    twin = Announce(protects[0].position)
                    assert twin == protects[0] and state.is_legal(seat, protects[0])
                    assert not state.is_legal(seat, twin)
                    before = state.state_hash()
                    with pytest.raises(IllegalAction):
                        state.apply({s: (twin if s == seat else state.legal_actions(s)[0])
                                     for s in state.to_move()})
                    assert state.state_hash() == before
                    return
            state.apply(random_joint_action(state, rng))
    pytest.fail("no random Oddball game of 200 reached a protect decision")
