"""TrueSkill ladders: free-for-all by rank, co-op against the game, explanations, parameter checks."""

from __future__ import annotations

import math

import pytest
import trueskill

from workers.ratings import (
    Rating,
    RatingParameterError,
    RatingParameters,
    SeatResult,
    match_quality,
    rate_cooperative,
    rate_free_for_all,
)

PARAMS = RatingParameters()


def test_defaults_are_trueskills_own() -> None:
    env = trueskill.TrueSkill()
    assert (PARAMS.mu, PARAMS.sigma, PARAMS.beta, PARAMS.tau, PARAMS.draw_probability) == pytest.approx(
        (env.mu, env.sigma, env.beta, env.tau, env.draw_probability))


def test_free_for_all_orders_by_rank_and_explains_each_change() -> None:
    seats = [SeatResult(10, 2), SeatResult(11, 0), SeatResult(12, 1)]
    rated = rate_free_for_all(PARAMS, seats, {})
    mus = {c.version_id: c.after.mu for c in rated.changes}
    assert mus[11] > mus[12] > mus[10]
    assert [c.seat for c in rated.changes] == [0, 1, 2]
    for change in rated.changes:
        assert change.before == PARAMS.fresh() and change.after.sigma < change.before.sigma
        assert change.quality == pytest.approx(match_quality(PARAMS, [PARAMS.fresh()] * 3))
        assert change.weight == 1.0 and change.unrated_reason is None
    assert [c.rank for c in rated.changes] == [2, 0, 1]


def test_a_tie_moves_equal_players_alike() -> None:
    rated = rate_free_for_all(PARAMS, [SeatResult(1, 0), SeatResult(2, 0), SeatResult(3, 1)], {})
    first, second, last = rated.changes
    assert first.after.mu == pytest.approx(second.after.mu, abs=0.01)  # message passing: near, not exact
    assert last.after.mu < PARAMS.mu < first.after.mu


def test_unrated_seats_keep_their_rating_and_say_why() -> None:
    seats = [SeatResult(1, 0), SeatResult(2, 1, unrated_reason="excused"), SeatResult(3, 2)]
    rated = rate_free_for_all(PARAMS, seats, {2: Rating(30.0, 2.0)})
    assert rated.changes[1].after == Rating(30.0, 2.0) and rated.changes[1].unrated_reason == "excused"
    assert rated.changes[1].weight == 0.0
    assert set(rated.new_ratings()) == {1, 3}
    alone = rate_free_for_all(PARAMS, seats[:2], {})
    assert not alone.new_ratings() and all(not c.rated for c in alone.changes)
    assert alone.changes[0].unrated_reason == "fewer than two rated seats in the match"


def test_floating_point_failures_are_retried_with_mpmath() -> None:
    # trueskill's own regression case: the built-in backend raises on this upset.
    ratings = {1: Rating(-323.263, 2.965), 2: Rating(-48.441, 2.190)}
    with pytest.raises(FloatingPointError):
        trueskill.TrueSkill().rate([(trueskill.Rating(-323.263, 2.965),), (trueskill.Rating(-48.441, 2.190),)])
    rated = rate_free_for_all(PARAMS, [SeatResult(1, 0), SeatResult(2, 1)], ratings)
    winner, loser = rated.changes
    assert winner.after.mu > -323.263 and loser.after.mu < -48.441
    assert all(math.isfinite(c.after.mu) and math.isfinite(c.after.sigma) for c in rated.changes)


def test_a_version_in_two_seats_is_refused() -> None:
    with pytest.raises(ValueError, match="more than one seat"):
        rate_free_for_all(PARAMS, [SeatResult(1, 0), SeatResult(1, 1)], {})


@pytest.mark.parametrize("partners, game", [
    ((Rating(25.0, 25 / 3), Rating(25.0, 25 / 3)), Rating(25.0, 25 / 3)),   # fresh sides
    ((Rating(31.0, 3.0), Rating(19.0, 5.0)), Rating(25.0, 4.0)),           # mean of partners == game
    ((Rating(40.0, 1.5), Rating(40.0, 1.5)), Rating(40.0, 2.5)),           # a strong settled pair
])
def test_cooperative_landing_and_crash_move_a_partner_by_opposite_amounts(partners: tuple[Rating, Rating],
                                                                          game: Rating) -> None:
    ratings = {1: partners[0], 2: partners[1]}
    landed = rate_cooperative(PARAMS, [SeatResult(1, 0, 1.0), SeatResult(2, 0, 1.0)], ratings, game)
    crashed = rate_cooperative(PARAMS, [SeatResult(1, 0, 0.0), SeatResult(2, 0, 0.0)], ratings, game)
    for seat in (0, 1):
        gain = landed.changes[seat].after.mu - partners[seat].mu
        loss = crashed.changes[seat].after.mu - partners[seat].mu
        assert gain > 0 > loss
        assert abs(gain + loss) <= 0.05 * abs(gain), (gain, loss)
    assert landed.game is not None and crashed.game is not None
    assert landed.game.after.mu < game.mu < crashed.game.after.mu
    assert [c.weight for c in landed.changes] == [0.5, 0.5]


def test_the_plain_team_update_would_be_lopsided() -> None:
    """Why the weights: without them a fresh pair is a 50-point team against a 25-point game."""
    env = trueskill.TrueSkill()
    fresh = env.create_rating()
    (won, _), _ = env.rate([(fresh, fresh), (fresh,)], ranks=[0, 1])
    (lost, _), _ = env.rate([(fresh, fresh), (fresh,)], ranks=[1, 0])
    assert won.mu - 25 < 1.0 and lost.mu - 25 < -8.0


def test_a_cooperative_partner_excused_by_a_fault_is_not_rated_but_the_faulty_seat_is() -> None:
    seats = [SeatResult(1, 1, 0.0), SeatResult(2, 0, 1.0, unrated_reason="excused: seat 0 forfeited")]
    rated = rate_cooperative(PARAMS, seats, {}, None)
    faulty, partner = rated.changes
    assert faulty.rated and faulty.weight == 1.0 and faulty.after.mu < PARAMS.mu and faulty.rank == 1
    assert not partner.rated and partner.after == partner.before and partner.weight == 0.0
    assert rated.game is not None and rated.game.after.mu > PARAMS.mu
    nobody = rate_cooperative(PARAMS, [SeatResult(1, 0, 1.0, "x"), SeatResult(2, 0, 1.0, "y")], {}, None)
    assert not nobody.new_ratings() and nobody.game is not None and not nobody.game.rated


def test_cooperative_seats_that_disagree_are_a_malformed_record() -> None:
    with pytest.raises(ValueError, match="disagree on landing"):
        rate_cooperative(PARAMS, [SeatResult(1, 0, 1.0), SeatResult(2, 1, 0.0)], {}, None)


@pytest.mark.parametrize("values, message", [
    ({"tau": -0.1}, "tau=-0.1 is out of range: choose a value from 0 to sigma"),
    ({"sigma": 0}, "sigma=0 is out of range"),
    ({"beta": 5000}, "beta=5000 is out of range"),
    ({"draw_probability": 1.0}, "draw_probability=1 is out of range"),
    ({"mu": float("nan")}, "mu=nan must be a finite number"),
    ({"mu": "25"}, "mu='25' must be a finite number"),
    ({"gamma": 1}, "unknown rating parameter gamma: the known ones are beta, draw_probability, mu, sigma, tau"),
])
def test_bad_rating_parameters_say_what_to_choose(values: dict[str, object], message: str) -> None:
    with pytest.raises(RatingParameterError, match=message.replace("(", r"\(").replace(")", r"\)")):
        RatingParameters.from_mapping(values)


def test_parameters_round_trip_and_shape_the_update() -> None:
    custom = RatingParameters.from_mapping({"beta": 2.0, "tau": 0.0})
    assert RatingParameters.from_mapping(custom.to_mapping()) == custom
    seats = [SeatResult(1, 0), SeatResult(2, 1)]
    assert (rate_free_for_all(custom, seats, {}).changes[0].after.mu
            != rate_free_for_all(PARAMS, seats, {}).changes[0].after.mu)

