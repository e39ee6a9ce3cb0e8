"""The shared invariant suite (OpenSpiel style): every registered game, every player count,
many seeded random games, checks at every step. A new game gets it by registering.

``SKYARENA_INVARIANT_GAMES`` sets the number of random games per game and player count
(default 40; long games stop at 8 once 20,000 steps are checked). The deep checks (clones,
hidden-information resampling, illegal input, notation legal elsewhere in the game, wrong
seats and argument types) run on every step of the first games and on a sample of steps of
the rest, sparser late in long games.
"""

from __future__ import annotations

import json
import os
import random
from typing import Any

import pytest

from referee.games import (
    GAMES,
    ArgumentError,
    CounterRng,
    IllegalAction,
    OptionError,
    PlayerCountError,
    SeatError,
    State,
    UnknownGame,
    make,
)
from referee.games.core import replay as replay_io
from referee.games.core.playout import random_joint_action
from tests.games.foreign_notation import refused_unless_legal

GAMES_PER_CASE = int(os.environ.get("SKYARENA_INVARIANT_GAMES", "40"))
MIN_GAMES = 8           # long games (wars of thousands of decisions) stop after this many
STEP_BUDGET = int(os.environ.get("SKYARENA_INVARIANT_STEPS", "20000"))  # once this many steps are checked
DEEP_GAMES = 3          # games checked deeply at every step
DEEP_EVERY = 7          # afterwards, deep checks every this many steps...
LONG_GAME = 300         # ...and past this step of a long game (wars of thousands of
LONG_EVERY = 41         # decisions), every this many: late positions stay covered, cheaply
FOREIGN_TRIES = 6       # notations seen elsewhere in the walk, tried at each deeply checked step

CASES = [(name, n) for name, spec in sorted(GAMES.items()) for n in spec.player_counts()]
RNG_WORDS = ("seed", "rng", "counter")


def _json_roundtrip(value: Any, what: str) -> str:
    try:
        return json.dumps(value, sort_keys=True, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise AssertionError(f"{what} is not JSON-serialisable: {exc}") from None


def _legal_strings(state: State, seat: int) -> list[str]:
    return [str(a) for a in state.legal_actions(seat)]


def _check_actions(state: State) -> list[str]:
    """Checks the legal actions of every seat; returns the movers' notations."""
    notations: list[str] = []
    movers = state.to_move()
    assert len(set(movers)) == len(movers), "to_move() repeats a seat"
    for seat in range(state.players):
        legal = state.legal_actions(seat)
        if seat not in movers:
            assert legal == [], f"seat {seat} is not to move but has legal actions"
            continue
        assert legal, f"seat {seat} is to move but has no legal action"
        texts = [str(a) for a in legal]
        notations += texts
        assert len(set(texts)) == len(texts), f"duplicate canonical strings: {texts}"
        for action, text in zip(legal, texts):
            hash(action)
            # apply() reads an int as a misplaced index into legal_actions and refuses it.
            assert not isinstance(action, int), f"{text!r}: an action must not be an int"
            assert state.parse_action(seat, text) == action, f"{text!r} does not parse back"
            assert state.is_legal(seat, action)
    return notations


def _check_views(state: State) -> None:
    for seat in range(state.players):
        text = _json_roundtrip(state.observation(seat), f"observation of seat {seat}")
        lowered = text.lower()
        for word in RNG_WORDS:
            assert f'"{word}"' not in lowered, f"observation of seat {seat} has a {word!r} field"
    _json_roundtrip(state.public_view(), "public view")
    # The observation must not depend on the RNG stream: re-key the RNG of a clone.
    twin = state.clone()
    twin._rng = CounterRng(state.seed + 7919, state._rng.counter + 13)
    for seat in range(state.players):
        assert twin.observation(seat) == state.observation(seat), "observation depends on RNG state"


def _check_illegal_input(state: State, rng: random.Random) -> None:
    before = state.state_hash()
    movers = state.to_move()
    with pytest.raises(IllegalAction):
        state.apply({seat: "?? not an action ??" for seat in movers})
    assert state.state_hash() == before, "a garbage action changed the state"
    with pytest.raises(IllegalAction):
        state.apply({})
    assert state.state_hash() == before, "an empty joint action changed the state"
    idle = [s for s in range(state.players) if s not in movers]
    if idle:
        joint = random_joint_action(state, rng)
        joint[idle[0]] = state.legal_actions(movers[0])[0]
        with pytest.raises(IllegalAction):
            state.apply(joint)
        assert state.state_hash() == before, "an action by a seat not to move changed the state"
    # An action that is legal for another mover but not this one (when such exists).
    for seat in movers:
        mine = set(_legal_strings(state, seat))
        for other in movers:
            foreign = [a for a in state.legal_actions(other) if str(a) not in mine]
            if other != seat and foreign:
                joint = random_joint_action(state, rng)
                joint[seat] = foreign[0]
                with pytest.raises(IllegalAction):
                    state.apply(joint)
                assert state.state_hash() == before


def _check_foreign_notation(state: State, seen: dict[str, None], rng: random.Random) -> None:
    """Notation legal elsewhere in the game is legal here or refused, the state untouched.
    Text of one kind of decision can equal another kind's action as a value (tuples of
    different classes compare by their fields), so each is tried by parse_action and apply.
    The hash is compared after each try; history and views, dearer, once after all (a
    change would persist)."""
    movers = state.to_move()
    digest, history = state.state_hash(), state.history()
    views = [state.observation(seat) for seat in range(state.players)]
    for text in rng.sample(list(seen), min(FOREIGN_TRIES, len(seen))):
        refused = refused_unless_legal(state, movers[rng.randrange(len(movers))], text, rng)
        assert not refused or state.state_hash() == digest, f"refused {text!r}, legal elsewhere, changed the state"
    assert state.history() == history, "notation legal elsewhere in the game was refused but changed the history"
    assert [state.observation(seat) for seat in range(state.players)] == views, (
        "notation legal elsewhere in the game was refused but changed a view")


def _check_wrong_arguments(state: State, rng: random.Random) -> None:
    """Wrong seats and argument types are refused with the shared errors, which name the
    argument, and the refused call changes nothing (no view, no hash)."""
    before = state.state_hash()
    views = [state.observation(seat) for seat in range(state.players)]
    last = state.players - 1
    for seat in (-1, -state.players, state.players, state.players + 1, True, False, "0", 0.0, None):
        for call, args in (("observation", ()), ("legal_actions", ()), ("parse_action", ("pass",)),
                           ("is_legal", (None,))):
            with pytest.raises(SeatError, match=rf"{call}: seat must be an integer from 0 to {last} "):
                getattr(state, call)(seat, *args)
    mover = state.to_move()[0]
    for text in (None, 0, b"pass", ["pass"]):
        with pytest.raises(ArgumentError, match=r"parse_action: text must be a string"):
            state.parse_action(mover, text)  # type: ignore[arg-type]
    for joint in (None, "pass", 0, [str(state.legal_actions(mover)[0])]):
        with pytest.raises(ArgumentError, match=r"apply takes a mapping of seat to action"):
            state.apply(joint)  # type: ignore[arg-type]
    for index in (0, 1, -1, 10**6):
        joint = random_joint_action(state, rng)
        joint[mover] = index
        with pytest.raises(IllegalAction, match=r"apply takes an action from legal_actions\(\d+\) or its "
                           r"notation string; indexes into legal_actions are resolved by the match runner"):
            state.apply(joint)
    for value in (None, [], {"action": 0}, True, 1.5):
        assert not state.is_legal(mover, value), f"is_legal({mover}, {value!r}) is not False"
        joint = random_joint_action(state, rng)
        joint[mover] = value
        with pytest.raises(IllegalAction, match="not a legal action"):
            state.apply(joint)
    joint = random_joint_action(state, rng)
    with pytest.raises(IllegalAction, match="expected one action for each of seats"):
        state.apply({str(seat): str(action) for seat, action in joint.items()})
    assert state.state_hash() == before, "a refused argument changed the state"
    assert [state.observation(seat) for seat in range(state.players)] == views, "a refused argument changed a view"


def _check_no_leak(state: State, seed: int, changed: list[int]) -> None:
    for seat in range(state.players):
        other = state.resample_hidden(seat, CounterRng(seed * 1000 + seat))
        assert other is not state
        assert other.observation(seat) == state.observation(seat), (
            f"seat {seat}'s observation changed when only what it cannot see was redrawn: hidden information leaks")
        assert _legal_strings(other, seat) == _legal_strings(state, seat), (
            f"seat {seat}'s legal actions depend on what it cannot see")
        assert other.to_move() == state.to_move()
        if other.snapshot() != state.snapshot():
            changed[0] += 1


def _play_checked(game: str, players: int, seed: int, deep: bool, stats: dict[str, Any]) -> State:
    state = make(game, players, seed=seed)
    policy = random.Random(seed)
    probe = random.Random(seed + 1)  # apart from the policy, so the walks stay as they were
    seen: dict[str, None] = {}       # every notation legal somewhere in this walk, in order met
    clones: list[tuple[State, str]] = []
    limit = GAMES[game].max_decisions
    step = 0
    while not state.is_over():
        assert state.result() is None, "result() before the game is over"
        seen.update(dict.fromkeys(_check_actions(state)))
        if (deep and step < LONG_GAME) or step % (DEEP_EVERY if step < LONG_GAME else LONG_EVERY) == 0:
            _check_views(state)
            _check_illegal_input(state, policy)
            _check_foreign_notation(state, seen, probe)
            _check_wrong_arguments(state, policy)
            _check_no_leak(state, seed + step, stats["resampled_changed"])
            twin = state.clone()
            assert twin.state_hash() == state.state_hash(), "a clone differs from its original"
            clones.append((twin, twin.state_hash()))
        state.apply(random_joint_action(state, policy))
        step += 1
        assert step <= limit, f"{game} did not end within {limit} decisions (spec bound)"
    for seat in range(players):
        assert state.legal_actions(seat) == []
    _check_views(state)
    for twin, digest in clones:
        assert twin.state_hash() == digest, "a clone changed when its original moved on (aliasing)"
    result = state.result()
    assert result is not None, "the game is over but has no result"
    assert len(result.ranks) == players and len(result.scores) == players
    assert min(result.ranks) == 0 and all(0 <= r < players for r in result.ranks)
    assert result.reason, "the result gives no reason"
    _json_roundtrip(result.to_json(), "result")
    if GAMES[game].cooperative:
        assert len(set(result.ranks)) == 1 and len(set(result.scores)) == 1, "co-op seats differ in result"
    stats["reasons"][result.reason] = stats["reasons"].get(result.reason, 0) + 1
    return state


@pytest.mark.parametrize(("game", "players"), CASES)
def test_random_games_keep_every_invariant(game: str, players: int) -> None:
    stats: dict[str, Any] = {"resampled_changed": [0], "reasons": {}}
    steps = 0
    for i in range(GAMES_PER_CASE):
        if i >= MIN_GAMES and steps >= STEP_BUDGET:
            break
        seed = 1000 * players + i
        state = _play_checked(game, players, seed, deep=i < DEEP_GAMES, stats=stats)
        steps += state.decisions
        if i < 5:
            records = state.replay()
            text = replay_io.dumps(records)
            again = replay_io.verify(replay_io.loads(text))
            assert again.state_hash() == state.state_hash(), "replay round-trip changed the final state"
    assert stats["resampled_changed"][0] > 0, (
        "resample_hidden never changed anything: the no-leak check tested nothing")


@pytest.mark.parametrize(("game", "players"), CASES)
def test_same_seed_same_game_despite_global_random(game: str, players: int) -> None:
    def run(disturb: bool) -> list[dict[str, Any]]:
        state = make(game, players, seed=4242)
        policy = random.Random(99)
        noise = random.Random(12345)
        while not state.is_over():
            if disturb:
                random.seed(noise.random())
                random.random()
            state.apply(random_joint_action(state, policy))
        return state.replay()

    assert run(False) == run(True)


@pytest.mark.parametrize(("game", "players"), CASES)
def test_different_seeds_deal_differently(game: str, players: int) -> None:
    snapshots = {json.dumps(make(game, players, seed=s).snapshot(), sort_keys=True) for s in range(8)}
    assert len(snapshots) >= 7, "different seeds gave the same initial deal"


@pytest.mark.parametrize(("game", "players"), CASES)
def test_tampered_replay_is_rejected(game: str, players: int) -> None:
    state = make(game, players, seed=77)
    random_playout_until_some_moves(state)
    records = state.replay()
    records[-1]["hash"] = "0" * 32
    with pytest.raises(replay_io.ReplayError):
        replay_io.verify(records)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_make_refuses_wrong_argument_types(game: str) -> None:
    players = GAMES[game].min_players
    for seed in ("x", "7", 1.5, None, True):
        with pytest.raises(ArgumentError, match=rf"{game}: seed must be an integer"):
            make(game, players, seed=seed)  # type: ignore[arg-type]
    for options in ("abc", 7, ["setup"], ("setup", None)):
        with pytest.raises(OptionError, match=rf"{game}: options must be a mapping of option name to value"):
            make(game, players, options=options)  # type: ignore[arg-type]
    with pytest.raises(OptionError, match=rf"{game}: unknown option (1|'zzz'); known options: .*setup"):
        make(game, players, options={1: 2, "zzz": 3})  # type: ignore[dict-item]
    for count in ("2", 2.0, None, True):
        with pytest.raises(PlayerCountError, match="the player count must be an integer"):
            make(game, count)  # type: ignore[arg-type]
    for name in (None, ["sky-team"], 7):
        with pytest.raises(UnknownGame, match="known games"):
            make(name, players)  # type: ignore[arg-type]


def random_playout_until_some_moves(state: State) -> None:
    policy = random.Random(5)
    while not state.is_over() and state.decisions < 20:
        state.apply(random_joint_action(state, policy))


def test_every_game_is_registered() -> None:
    assert set(GAMES) == {"skybirds", "skyjo-action", "sky-team", "oddball-aeronauts", "fly-away"}
