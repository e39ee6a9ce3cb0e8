"""The forward model (``referee.games.core.rebuild``, ``skyarena.forward``): states rebuilt
from one seat's observation, for every game.

(a) every sample is a legal state whose view for the seat is the seat's observation, and
it plays on to the end; (b) samples depend on the observation only: two different true
states with the same observation give the same samples under the same generator; (c) the
unseen cards come out with the frequencies their remaining counts imply (chi-square at a
fixed seed). Positions come from seeded random playouts of every player count.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from referee.games import GAMES, CounterRng, State, make
from referee.games.core.errors import ObservationError
from referee.games.core.playout import random_joint_action, random_playout
from referee.games.core.rebuild import sample_state
from skyarena.bot import MatchInfo
from skyarena.forward import sample_state as sdk_sample_state
from skyarena.games import to_observation

GAMES_WITH_MODEL = ["fly-away", "oddball-aeronauts", "sky-team", "skybirds", "skyjo-action"]
# Skyjo Action refuses positions deep inside an action card's effect (its README): at most this share.
REFUSED_AT_MOST = 0.1
CASES = [(game, n) for game in GAMES_WITH_MODEL for n in GAMES[game].player_counts()]
SEEDS = 6            # random games per game and player count
EVERY = 5            # a position every this many steps...
MAX_POSITIONS = 40   # ...and at most this many per game


def positions(game: str, players: int, seeds: int = SEEDS) -> Iterator[tuple[State, int]]:
    """(true state, seat) pairs along seeded random games: every seat, movers or not."""
    for seed in range(seeds):
        state = make(game, players, seed)
        rng = random.Random(seed)
        step = taken = 0
        while not state.is_over() and taken < MAX_POSITIONS:
            if step % EVERY == 0:
                yield state, step % players
                taken += 1
            state.apply(random_joint_action(state, rng))
            step += 1


def rebuilt(state: State, seat: int, rng: CounterRng) -> State:
    return sample_state(state.game, state.players, state.public_options(), state.observation(seat), rng)


def rebuildable(game: str, players: int, seeds: int = SEEDS) -> Iterator[tuple[State, int]]:
    """The positions of ``positions`` the forward model takes; the refused ones (with a
    one-line reason, never another error) are few."""
    refused = total = 0
    for state, seat in positions(game, players, seeds):
        total += 1
        try:
            rebuilt(state, seat, CounterRng(0))
        except ObservationError as exc:
            assert game == "skyjo-action", f"{game} refused a position: {exc}"
            refused += 1
            continue
        yield state, seat
    assert refused <= REFUSED_AT_MOST * total, f"{refused} of {total} positions refused"


@pytest.mark.parametrize(("game", "players"), CASES)
def test_every_sample_shows_the_seat_its_own_observation(game: str, players: int) -> None:
    count = 0
    for k, (state, seat) in enumerate(rebuildable(game, players)):
        sample = rebuilt(state, seat, CounterRng(k))
        assert sample.observation(seat) == state.observation(seat), f"{game} {players}p position {k} seat {seat}"
        assert sample.to_move() == state.to_move()
        for mover in state.to_move():
            if mover == seat:
                assert [str(a) for a in sample.legal_actions(seat)] == [str(a) for a in state.legal_actions(seat)]
        if k % 4 == 0:  # a sample is a real state: it plays on to the end
            random_playout(sample, random.Random(k))
            assert sample.is_over() and sample.result() is not None
        count += 1
    assert count >= SEEDS


@pytest.mark.parametrize(("game", "players"), CASES)
def test_samples_depend_on_the_observation_only(game: str, players: int) -> None:
    for k, (state, seat) in enumerate(rebuildable(game, players, seeds=2)):
        twin = state.resample_hidden(seat, CounterRng(1000 + k))  # another truth behind the same view
        assert twin.observation(seat) == state.observation(seat)
        a, b = rebuilt(state, seat, CounterRng(k)), rebuilt(twin, seat, CounterRng(k))
        assert a.snapshot() == b.snapshot()
        assert a.state_hash() == b.state_hash()  # the future (its generator) too


def chi_square_critical(df: int, z: float = 3.09) -> float:
    """The chi-square value a true fit exceeds with probability 0.001 (Wilson-Hilferty)."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def assert_frequencies(seen: Counter[Any], expected: dict[Any, float]) -> None:
    total = sum(seen.values())
    assert set(seen) <= set(expected), f"drawn values that cannot be there: {set(seen) - set(expected)}"
    weight = sum(expected.values())
    stat = sum((seen.get(v, 0) - total * w / weight) ** 2 / (total * w / weight) for v, w in expected.items())
    assert stat < chi_square_critical(len(expected) - 1), f"chi-square {stat:.1f} over {len(expected) - 1} df"


def a_position(game: str, players: int, seed: int, steps: int) -> State:
    state = make(game, players, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        state.apply(random_joint_action(state, rng))
    return state


def drawn_counts(state: State, seat: int, samples: int, what: Callable[[Any], list[Any]]) -> Counter[Any]:
    seen: Counter[Any] = Counter()
    for k in range(samples):
        seen.update(what(rebuilt(state, seat, CounterRng(k))))
    return seen


def test_sky_team_partner_dice_are_fair_dice() -> None:
    state = a_position("sky-team", 2, 3, 1)
    seen = drawn_counts(state, 0, 600, lambda s: list(s.dice[1]))
    assert_frequencies(seen, {v: 1.0 for v in range(1, 7)})


def test_fly_away_draw_pile_is_every_unseen_bird_equally() -> None:
    from referee.games.fly_away.data import deck_for

    state: Any = a_position("fly-away", 3, 5, 8)
    seen_birds = set(state.display) | {b for cells in state.cells for b in cells.values()}
    unseen = set(deck_for(3)) - seen_birds
    seen = drawn_counts(state, 0, 2000, lambda s: [s.deck[s.deck_pos]])
    assert_frequencies(seen, {b: 1.0 for b in unseen})


def test_skybirds_other_hands_follow_the_unseen_counts() -> None:
    from referee.games.skybirds.data import DECK

    state: Any = a_position("skybirds", 4, 2, 12)
    seat = 0
    played, own = state.played, state.hands[seat]
    unseen = {v: DECK[v] - played[v] - own[v] for v in range(11) if DECK[v] - played[v] - own[v]}
    seen = drawn_counts(state, seat, 400,
                        lambda s: [v for o in range(1, 4) for v in range(11) for _ in range(s.hands[o][v])])
    assert_frequencies(seen, {v: float(n) for v, n in unseen.items()})


def test_oddball_other_top_card_follows_the_other_deck() -> None:
    """The other seat's Top Card is any of its deck's non-Event cards (an unseen Event in
    the top 3 would have been shown in Step 1), revealed or not, equally."""
    state: Any = a_position("oddball-aeronauts", 2, 3, 40)
    while state.observation(0)["phase"] != "announce":
        state.apply(random_joint_action(state, random.Random(0)))
    seat, opp = 0, 1
    is_event = state.table.is_event
    deck = Counter(state.table.ids[u] for lst in (state.up[opp], state.down[opp]) for u in lst if not is_event[u])
    seen = drawn_counts(state, seat, 1500, lambda s: [s.table.ids[s.up[opp][0]]])
    assert_frequencies(seen, {c: float(n) for c, n in deck.items()})


def test_oddball_box_holds_the_unseen_events_equally() -> None:
    from referee.games.oddball_aeronauts.cards import EVENTS

    state: Any = a_position("oddball-aeronauts", 2, 8, 30)
    seat = 1
    view = state.observation(seat)
    shown = set(view["hand"]["up"]) | set(view["hand"]["down"]) | set(view["decks"][0]["revealed"])
    shown |= {h["event"] for d in view["decks"] for h in d["held"]}
    unseen = [e for e in EVENTS if e not in shown]
    assert len(unseen) > view["box"] > 0
    seen = drawn_counts(state, seat, 1200, lambda s: [s.table.ids[u] for u in s.box])
    assert_frequencies(seen, {e: 1.0 for e in unseen})


# ----- the SDK's entry and bad input ---------------------------------------------------------
def info_for(state: State, seat: int) -> MatchInfo:
    return MatchInfo(state.game, seat, state.players, state.public_options())


def test_the_sdk_samples_from_the_typed_observation_a_bot_is_handed() -> None:
    state = a_position("sky-team", 2, 1, 3)
    seat = state.to_move()[0]
    observation = to_observation("sky-team", state.observation(seat))
    sample = sdk_sample_state(observation, info_for(state, seat), random.Random(4))
    assert sample.observation(seat) == state.observation(seat)
    again = sdk_sample_state(observation, info_for(state, seat), random.Random(4))
    assert again.snapshot() == sample.snapshot()


def test_an_observation_of_another_game_is_refused() -> None:
    sky = a_position("sky-team", 2, 1, 1)
    fly = a_position("fly-away", 2, 1, 1)
    with pytest.raises(ObservationError, match="not a sky-team observation"):
        sample_state("sky-team", 2, {}, fly.observation(0), CounterRng(0))
    typed = to_observation("fly-away", fly.observation(0))
    with pytest.raises(ObservationError, match="observation of fly-away, not of sky-team"):
        sdk_sample_state(typed, info_for(sky, 0), 0)


def test_a_finished_match_and_a_spectator_view_are_refused() -> None:
    state = make("sky-team", 2, 1)
    random_playout(state, random.Random(1))
    with pytest.raises(ObservationError, match="the match is over"):
        sample_state("sky-team", 2, {}, state.observation(0), CounterRng(0))
    live = make("fly-away", 2, 1)
    with pytest.raises(ObservationError, match="spectator"):
        sample_state("fly-away", 2, {}, live.public_view(), CounterRng(0))


def test_skyjo_action_unseen_cards_follow_the_remaining_deck() -> None:
    from referee.games.skyjo_action.data import STAR, number_deck

    state = a_position("skyjo-action", 3, 4, 20)
    seat = state.to_move()[0]
    view = state.observation(seat)
    left = Counter(number_deck(True))
    for area in view["areas"]:
        left.subtract(STAR if c == "*" else c for c in area["cards"] if c is not None)
    left.subtract([STAR if view["discard"] == "*" else view["discard"]])
    left.subtract([STAR if c == "*" else c for c in view["pending"].get("cards", [view["pending"].get("card")])
                   if c is not None])
    seen = drawn_counts(state, seat, 1500, lambda s: [s.deck[-1]])
    assert_frequencies(seen, {v: float(n) for v, n in left.items() if n > 0})
