"""Oddball Äeronauts' forward model (rebuild.py) beyond the generic properties of
tests/games/test_forward_model.py: what a player who remembers the game knows is kept."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from referee.games import CounterRng, make
from referee.games.core.errors import ObservationError
from referee.games.core.playout import random_joint_action
from referee.games.core.rebuild import sample_state
from referee.games.oddball_aeronauts.cards import FACTIONS
from referee.games.oddball_aeronauts.state import OddballState
from skyarena.bot import MatchInfo
from skyarena.forward import sample_state as sdk_sample_state
from skyarena.games import to_observation

from .helpers import GAME, RC, TR, game

SEEDS = range(20, 30)   # seeds 20, 23 and 28 play a Capture


def positions(seeds: range = SEEDS, options: dict[str, Any] | None = None) -> Iterator[OddballState]:
    """Every decision of seeded random games."""
    for seed in seeds:
        state = make(GAME, 2, seed, options)
        assert isinstance(state, OddballState)
        rng = random.Random(seed)
        while not state.is_over():
            yield state
            state.apply(random_joint_action(state, rng))


def rebuilt(state: OddballState, seat: int, k: int) -> OddballState:
    sample = sample_state(GAME, 2, state.public_options(), state.observation(seat), CounterRng(k))
    assert isinstance(sample, OddballState)
    return sample


def deck(state: OddballState, seat: int) -> tuple[Counter[str], int]:
    """A deck's non-Event cards and how many Events it holds."""
    cards = [state.table.ids[u] for lst in (state.up[seat], state.down[seat]) for u in lst]
    events = sum(1 for c in cards if c.startswith("event/"))
    return Counter(c for c in cards if not c.startswith("event/")), events


def test_each_deck_holds_the_cards_it_truly_holds_captures_included() -> None:
    """Which cards are in which deck is public (captures and Events move in the open), and a
    seat's never-seen cards are its own: a sample's decks hold exactly the true cards."""
    foreign = 0
    for k, state in enumerate(positions()):
        seat = k % 2
        sample = rebuilt(state, seat, k)
        for s in (0, 1):
            assert deck(sample, s) == deck(state, s), f"position {k}, seat {seat}, deck {s}"
        assert len(sample.box) == len(state.box)
        foreign += any(c.split("/")[0] in FACTIONS and c.split("/")[0] != state.table.factions[1 - seat]
                       for c in deck(state, 1 - seat)[0])
    assert foreign > 0, "no capture in these games: the test would not check one"


def test_the_other_seats_announced_trick_is_on_its_top_cards() -> None:
    """A Rig or Opp. limit announced at the start of Step 3 names the other seat's Top Card's
    trick: in Step 3 the sample's other deck has such a card there and uses it."""
    checked = 0
    for k, state in enumerate(positions()):
        if state.observation(0)["phase"] != "play":
            continue
        for seat in (0, 1):
            text = state.announced[1 - seat]
            if text is None:
                continue
            sample = rebuilt(state, seat, k)
            top = [sample.table.cards[u].trick for u in sample.up[1 - seat][:3]]
            assert any(t is not None and t.text == text for t in top)
            pre = sample.table.cards[sample.pre_uid[1 - seat]].trick
            assert pre is not None and pre.text == text
            checked += 1
    assert checked >= 3


def test_a_card_the_other_seat_protected_is_its_top_card_next_round() -> None:
    """Public history beyond the view's current round: a card Protected last round is the
    Top Card now (Step 1 made nobody Discard): the truth has it there, and so does every sample."""
    checked = 0
    for state in positions():
        view = state.observation(0)
        last = view["last_round"]
        if view["phase"] != "announce" or last is None or last["protected"][1] is None \
                or any(e.get("taker") == 1 and e.get("done") for e in view["events"]):
            continue
        assert state.table.ids[state.up[1][0]] == last["protected"][1]
        for j in range(4):
            sample = rebuilt(state, 0, j)
            assert sample.table.ids[sample.up[1][0]] == last["protected"][1]
        checked += 1
    assert checked >= 2


def test_a_sample_plays_on_like_the_engine() -> None:
    """Samples from every decision of a game play to the end with the engine's own rules."""
    for k, state in enumerate(positions(seeds=range(2))):
        if k % 7:
            continue
        sample = rebuilt(state, k % 2, k)
        rng = random.Random(k)
        while not sample.is_over():
            sample.apply(random_joint_action(sample, rng))
        assert sample.result() is not None


def test_the_leads_hidden_trick_choice_is_refused_with_a_reason() -> None:
    state = make(GAME, 2, 1, {"simultaneous_counts": False})
    rng = random.Random(1)
    while not (state.observation(0)["phase"] == "play" and len(state.to_move()) == 1
               and state.to_move()[0] != state.observation(0)["lead"]):
        state.apply(random_joint_action(state, rng))
    waiting = state.to_move()[0]
    with pytest.raises(ObservationError, match="the Lead's card count is shown but its trick is not"):
        sample_state(GAME, 2, state.public_options(), state.observation(waiting), CounterRng(0))


def test_a_game_fixed_by_setup_is_refused_with_a_reason() -> None:
    state = game([RC, RC, RC], [TR, TR, TR])
    with pytest.raises(ObservationError, match="a game dealt by 'setup' cannot be rebuilt"):
        sample_state(GAME, 2, state.public_options(), state.observation(0), CounterRng(0))


def test_the_sdk_samples_an_oddball_position_from_the_typed_observation() -> None:
    state = make(GAME, 2, 7)
    rng = random.Random(7)
    for _ in range(25):
        state.apply(random_joint_action(state, rng))
    seat = state.to_move()[0]
    observation = to_observation(GAME, state.observation(seat))
    info = MatchInfo(GAME, seat, 2, state.public_options())
    sample = sdk_sample_state(observation, info, random.Random(3))
    assert sample.observation(seat) == state.observation(seat)
    assert sdk_sample_state(observation, info, random.Random(3)).snapshot() == sample.snapshot()
