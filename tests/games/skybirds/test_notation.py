"""The action notation: canonical strings, parsing back, and useful errors."""

from __future__ import annotations

import random

import pytest

from referee.games import IllegalAction, make
from referee.games.core.playout import random_joint_action
from referee.games.skybirds.actions import PASS, Give, Play, PreUse, Take, Trade, Wild, parse, parse_text

from .helpers import game, play


def test_every_legal_action_round_trips_through_its_notation() -> None:
    seen: set[str] = set()
    for players in (2, 3, 4):
        state = make("skybirds", players, seed=players, options={"campaign_limit": 6})
        rng = random.Random(players)
        while not state.is_over():
            for seat in state.to_move():
                for action in state.legal_actions(seat):
                    assert not isinstance(action, Play) or 1 <= action.size <= 6, "a squadron has 1-6 cards"
                    text = str(action)
                    assert parse_text(text) == action, text
                    assert state.parse_action(seat, text) == action
                    seen.add(text.split()[0] if text[0].isalpha() else "squadron")
            state.apply(random_joint_action(state, rng))
    assert {"pass", "take", "squadron", "wild", "trade", "give"} <= seen


@pytest.mark.parametrize(("text", "canonical"), [
    ("A3 5 * 5 =5", "5 5 * A3 =5"),
    ("5 G 5", "G 5 5"),
    ("  9   ", "9"),
    ("B2 3 4 5", "3 4 5 B2"),
    ("D1 A1 2", "2 A1 D1"),
    ("*10 7 A3 =7", "7 *10 A3 =7"),  # a completed squadron, as the views show it
    ("give 7 G", "give G 7"),
    ("wild 4 2", "wild 2 4"),
])
def test_any_order_parses_to_the_canonical_action(text: str, canonical: str) -> None:
    assert str(parse(text)) == canonical


def test_action_values() -> None:
    assert parse("pass") is PASS
    assert parse("take +1") == Take("+1") and parse("take AR") == Take("AR")
    assert parse("trade B1") == Trade("B1") and parse("trade B1") != Take("B1")
    assert parse("A2>3") == PreUse("A2", 3) and parse("give G 4") == Give((0, 4))
    assert parse("wild 3") == Wild((3,)) and Wild((3,)) != Give((3,))
    run = parse("3 * 5 A3 B2 =3")
    assert isinstance(run, Play) and (run.size, run.value, run.hole, run.free, run.medals) == (3, 3, 4, 1, 0)
    medal = parse("5 *10 A1 A3 =5")
    assert isinstance(medal, Play) and medal.medals == 1 and medal.wilds == (10,), "wild cards: no medallion"


@pytest.mark.parametrize(("text", "why"), [
    ("", "empty"),
    ("hello", "neither a card"),
    ("5 5 =5", "only written when a card is wild"),
    ("5 *", "must declare its value"),
    ("5 6", "share one value"),
    ("5 * A3 =6", "declared value must be =5"),
    ("3 5 B2", "consecutive"),
    ("G 3 4 B2", "never joins a run"),
    ("3 B2", "2 or 3 cards"),
    ("3 * * A3 D2 B2 =3", "at most one wild"),
    ("9 10 11", "neither a card"),
    ("5 A1 A1", "listed twice"),
    ("5 C2", "not a dogfight token"),
    ("take Z9", "not a token"),
    ("trade +1", "not a token"),
    ("wild G", "never a wild card"),
    ("give", "at least one card"),
    ("A1>2", "not a pre-campaign token"),
    ("pass now", "takes nothing"),
    ("G", None),
])
def test_malformed_text_says_what_is_wrong(text: str, why: str | None) -> None:
    if why is None:
        assert str(parse(text)) == text
        return
    with pytest.raises(IllegalAction, match=why):
        parse_text(text)


def test_well_formed_but_illegal_lists_the_legal_actions() -> None:
    state = game([[0, 1, 5], [2, 3]])
    with pytest.raises(IllegalAction, match=r"'10' is not a legal action for seat 0 now; legal: G, G 1, G 5"):
        state.apply({0: "10"})
    with pytest.raises(IllegalAction, match="not to move"):
        state.parse_action(1, "2")


def test_a_named_low_wild_card_points_to_the_wild_decision() -> None:
    state = game([[0, 1, 1, 2], [5, 5, 3]], aerodromes=[{}, {"A3": "up"}])
    play(state, "G", "1 1")
    with pytest.raises(IllegalAction, match=r"chosen next: write '\*' now, then 'wild N'"):
        state.apply({1: "5 5 *3 A3 =5"})
