"""The rulebook's scoring example: Nick's 51 points, on equivalent data.

No card list is published, so the example is rebuilt with the designed cards: the same
three kinds of scoring card (outside, top row, center), the same abilities used in the
same order (a swan swaps with a flamingo, a greylag goose swaps with the crane at the
bottom right, the top-row goose is flipped, a pelican doubles) and the same figures:
12 + 12 + 10 for the scoring cards, 20 for two birds of each species, -3 for one penalty
card: 51.
"""

from __future__ import annotations

from referee.games.fly_away.data import ABILITY_OF, deck_for
from referee.games.fly_away.geometry import SLOT_NAMES
from tests.games.fly_away.helpers import bird, full_formation, game, legal

MARTIN, NICK, SELMA = 0, 1, 2

# Nick's formation before the abilities (slot: card).
NICK_FORMATION = {
    "T1": bird("goose", "flip"), "T2": bird("flamingo"), "T3": bird("pelican"),
    "M1": bird("crane"), "M2": bird("goose", "swap"), "M3": bird("goose"), "M4": bird("flamingo", skip=1),
    "B1": bird("swan"), "B2": bird("pelican", "double"), "B3": bird("swan", "swap"), "B4": bird("crane", skip=1),
    "B5": bird("crane", skip=2),
}


def plain_formation(part: int) -> dict[str, int]:
    """A formation for Martin (part 0) or Selma (part 1) of cards needing no decision."""
    pool = sorted(c for c in deck_for(3) if ABILITY_OF[c] in (None, "double") and c not in NICK_FORMATION.values())
    return dict(zip(SLOT_NAMES, pool[12 * part:12 * part + 12]))


def nick_game():  # type: ignore[no-untyped-def]
    return game(
        3,
        formations=[
            full_formation(plain_formation(0), anchor=(4, 4)),
            full_formation(NICK_FORMATION),
            full_formation(plain_formation(1), anchor=(-2, 1)),
        ],
        kept=[["outside-1", "top-1", "center-1"], ["outside-3", "top-4", "center-5"],
              ["outside-2", "top-2", "center-2"]],
        penalties_taken=[[], [-3], []],
    )


def nick_details(state) -> dict:  # type: ignore[no-untyped-def]
    result = state.result()
    assert result is not None
    return result.details["scores"][NICK]


def test_nick_uses_his_abilities_and_scores_51() -> None:
    state = nick_game()
    assert state.to_move() == (NICK,), "Martin and Selma have no abilities to use"
    # Swaps come first: no flip is offered yet.
    assert "swap B3 M4" in legal(state) and not any(a.startswith("flip") for a in legal(state))
    state.apply({NICK: "swap B3 M4"})     # the swan swaps with the flamingo: no swan in the center
    state.apply({NICK: "swap M2 B5"})     # the goose swaps with the crane at the bottom right
    # Both swap cards are spent: Nick moves on to flips without a decision.
    assert legal(state) == ["done", "flip T1"]
    state.apply({NICK: "flip T1"})        # the top-row goose is turned face down
    assert state.is_over()

    nick = nick_details(state)
    cards = {c["card"]: c for c in nick["scoring_cards"]}
    # Card 1, outside: 2 + (-6) + 4 + 6 + 6 (the doubled pelican at B2 scores 4); a goose is outside.
    assert cards["outside-3"]["total"] == 12 and cards["outside-3"]["no_card"] == 0
    assert cards["outside-3"]["species"] == {"swan": 2, "flamingo": -6, "goose": 4, "crane": 6, "pelican": 6}
    # Card 2, top row: flamingo 3 + pelican 2 + 7 for no face-up goose.
    assert cards["top-4"]["total"] == 12 and cards["top-4"]["no_card"] == 7
    # Card 3, center: crane 2 + goose -2 + flamingo 3 + 7 for no swan.
    assert cards["center-5"]["total"] == 10 and cards["center-5"]["no_card"] == 7
    assert nick["species_bonus"] == 20
    assert nick["penalties"] == -3
    assert nick["total"] == 51
    assert state.result().scores[NICK] == 51.0


def test_each_of_nicks_abilities_gains_points() -> None:
    from referee.games.fly_away.rules import board, score

    state = nick_game()

    def now() -> int:
        return score(board(state, NICK), state.flipped[NICK], state.kept[NICK] or (), state.penalties[NICK]).total

    totals = [now()]
    for text in ("swap B3 M4", "swap M2 B5", "flip T1"):
        state.apply({NICK: text})
        totals.append(now() if not state.is_over() else nick_details(state)["total"])
    assert totals[0] < totals[1] < totals[2] < totals[3] == 51
