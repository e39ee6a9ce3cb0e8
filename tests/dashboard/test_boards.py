"""The pictures of the table, drawn from views reached in seeded random games.

Every sampled position is drawn from the public view and from every seat's observation;
each picture must parse as XML, be the game's own board (not the fallback), hold one shape
per card, die or slot of the view, show the viewer's own hidden things face up and
everyone else's as backs, and never carry a value the view hides.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from dashboard.boards import BOARDS, board_svg
from referee.games import make
from referee.games.oddball_aeronauts.cards import CARDS
from tests.dashboard.playthrough import CASES, finished_game, sampled_positions

SVG = "{http://www.w3.org/2000/svg}"
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "boards"

Element = ET.Element


def parse(svg: str, game: str) -> Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    assert root.get("class") == f"board {game}", "the game's own board drew it, not the fallback"
    assert int(root.get("width", "0")) == 720 and int(root.get("height", "0")) > 100
    return root


def shapes(root: Element, *classes: str, **data: object) -> list[Element]:
    """Elements whose class holds all of ``classes`` and whose data-* attributes match."""
    found = []
    for element in root.iter():
        have = set((element.get("class") or "").split())
        if set(classes) <= have and all(element.get(f"data-{k}") == str(v) for k, v in data.items()):
            found.append(element)
    return found


def texts(element: Element) -> list[str]:
    return [t.text or "" for t in element.iter(f"{SVG}text")]


def assert_backs_are_blank(root: Element) -> None:
    """A card back or a hidden die carries no value: no text but '?', no data-value."""
    for element in shapes(root, "back") + shapes(root, "hidden"):
        assert element.get("data-value") is None
        assert all(t in ("", "?") for t in texts(element)), texts(element)


def all_views(state: Any) -> list[tuple[dict[str, Any], int | None]]:
    return [(state.public_view(), None)] + [(state.observation(s), s) for s in range(state.players)]


# ----- per game: what a view must put in its picture ---------------------------------------
def check_skyjo(root: Element, view: dict[str, Any], seat: int | None) -> None:
    cells = view["rows"] * view["cols"]
    for s, area in enumerate(view["areas"]):
        positions = [e for e in root.iter() if e.get("data-seat") == str(s) and e.get("data-pos")]
        assert len(positions) == cells, "one shape per grid position"
        expected = {"back": 0, "face": 0, "empty": 0}
        for card, up in zip(area["cards"], area["face_up"]):
            expected["empty" if up is None else "face" if up or card is not None else "back"] += 1
        for kind, count in expected.items():
            assert len([e for e in positions if kind in (e.get("class") or "").split()]) == count, kind
        peeked = sum(1 for card, up in zip(area["cards"], area["face_up"]) if up is False and card is not None)
        assert len([e for e in positions if "peeked" in (e.get("class") or "")]) == peeked
        for pos, card, up in zip(positions, area["cards"], area["face_up"]):
            if up and isinstance(card, int):
                assert str(card) in texts(pos)
        held = [e for e in root.iter() if e.get("data-seat") == str(s) and e.get("data-held")]
        assert len(held) == len(area["held"])
        assert len([e for e in held if "back" in (e.get("class") or "")]) == area["held"].count(None)
        if s == seat:
            assert None not in area["held"], "a seat knows its own held cards"


def check_sky_team(root: Element, view: dict[str, Any], seat: int | None) -> None:
    placed = [v for v in view["board"].values() if v is not None]
    dice = shapes(root, "die")
    assert len(dice) == len(placed) + sum(view["dice_count"]), "every die the view holds, once"
    on_board = [int(e.get("data-value", "0")) for e in dice if e.get("data-slot")]
    assert sorted(on_board) == sorted(placed)
    for s in (0, 1):
        hand = [e for e in dice if e.get("data-seat") == str(s) and e.get("data-hand")]
        assert len(hand) == view["dice_count"][s]
        if s == seat:
            assert sorted(int(e.get("data-value", "0")) for e in hand) == sorted(view["my_dice"])
        else:
            assert all("hidden" in (e.get("class") or "") for e in hand), "another seat's dice are hidden"
    switches = shapes(root, "switch", "on")
    assert len(switches) == sum(view["gear"]) + view["flaps"] + view["brakes"]
    assert len(shapes(root, "coffee", "on")) == view["coffee"]
    assert len(shapes(root, "airplane")) == sum(view["approach_tokens"])


def check_skybirds(root: Element, view: dict[str, Any], seat: int | None) -> None:
    known = view.get("known_cards") or [[] for _ in view["hand_sizes"]]
    for s, size in enumerate(view["hand_sizes"]):
        cards = [e for e in root.iter() if e.get("data-seat") == str(s) and e.get("data-card")]
        assert len(cards) == size, "one shape per card in a hand"
        faces = [int(e.get("data-value", "-1")) for e in cards if "face" in (e.get("class") or "")]
        if s == seat:
            assert faces == view["hand"], "a seat sees its own hand face up, in order"
        else:
            assert sorted(faces) == sorted(known[s][:size]), "only the cards the viewer knows are face up"
    reserves = sum(len(a.get("reserve") or {}) for a in view["aerodromes"])
    assert len(shapes(root, "token", "up")) + len(shapes(root, "token", "flipped")) >= reserves


def check_oddball(root: Element, view: dict[str, Any], seat: int | None) -> None:
    for s in range(len(view["factions"])):
        own = [e for e in root.iter() if e.get("data-seat") == str(s) and e.get("data-pile") in
               ("up", "up-rest", "down")]
        if s == seat:
            hand = view["hand"]
            assert len(own) == len(hand["up"]) + len(hand["down"])
            up = [e.get("data-card") for e in own if e.get("data-pile") in ("up", "up-rest")]
            assert up == hand["up"], "a seat sees its face-up run, Top Card first"
            backs = [e for e in own if "back" in (e.get("class") or "")]
            assert len(backs) == hand["down"].count(None), "cards the seat never saw are backs"
        else:
            assert own == [], "another seat's deck is only counted, never shown"


def check_fly_away(root: Element, view: dict[str, Any], seat: int | None) -> None:
    display = [e for e in root.iter() if e.get("data-slot")]
    assert len(display) == 12, "the display is the 12-slot wedge"
    assert len([e for e in display if "empty" in (e.get("class") or "")]) == view["display"].count(None)
    for entry in view["seats"]:
        s = entry["seat"]
        birds = [e for e in root.iter() if e.get("data-seat") == str(s) and e.get("data-bird")]
        assert len(birds) == len(entry["formation"]), "one shape per bird in a formation"
        flipped = sum(1 for placed in entry["formation"] if placed["flipped"])
        assert len([e for e in birds if "back" in (e.get("class") or "")]) == flipped
        hidden = [e for e in root.iter() if e.get("data-seat") == str(s) and e.get("data-scoring") == "hidden"]
        assert len(hidden) == (entry["kept_count"] or 0 if entry["kept"] is None else 0)
    if seat is not None:
        mine = view["seats"][seat]["kept"] or view.get("dealt") or []
        shown = [e.get("data-scoring") for e in shapes(root, "scoring", seat=seat)]
        assert shown == [card["id"] for card in mine], "a seat sees its own scoring cards"


CHECKS: dict[str, Callable[[Element, dict[str, Any], int | None], None]] = {
    "skyjo-action": check_skyjo,
    "sky-team": check_sky_team,
    "skybirds": check_skybirds,
    "oddball-aeronauts": check_oddball,
    "fly-away": check_fly_away,
}


@pytest.mark.parametrize(("game", "players", "seed"), CASES)
def test_every_view_of_a_random_game_draws_what_it_holds(game: str, players: int, seed: int) -> None:
    drawn = 0
    for state in sampled_positions(game, players, seed):
        for view, seat in all_views(state):
            root = parse(BOARDS[game](view, seat), game)  # directly: a bug must fail, not fall back
            assert_backs_are_blank(root)
            CHECKS[game](root, view, seat)
            drawn += 1
    assert drawn >= 5 * (players + 1)


def _leaves(value: Any) -> set[str]:
    """Every string in a JSON-like value."""
    if isinstance(value, dict):
        return set().union(*(_leaves(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(_leaves(v) for v in value)) if value else set()
    return {value} if isinstance(value, str) else set()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_oddball_cards_hidden_from_a_view_never_appear_in_its_picture(seed: int) -> None:
    """A seat's face-up run and Discarded cards that the public view (or the other seat)
    does not show are neither drawn (by id) nor named (by a text of their name)."""
    checked = 0
    for state in sampled_positions("oddball-aeronauts", 2, seed):
        for seat in (0, 1):
            hand = _leaves(state.observation(seat)["hand"])
            for view, viewer in [(state.public_view(), None), (state.observation(1 - seat), 1 - seat)]:
                visible = _leaves(view)
                hidden = {c for c in hand - visible if c in CARDS}
                root = parse(board_svg("oddball-aeronauts", view, seat=viewer), "oddball-aeronauts")
                drawn = {e.get("data-card") for e in root.iter()}
                named = set(texts(root))
                visible_names = {CARDS[c].name for c in visible if c in CARDS}
                for card_id in hidden:
                    assert card_id not in drawn, f"{card_id} of seat {seat} is drawn in a view that hides it"
                    if CARDS[card_id].name not in visible_names:
                        assert CARDS[card_id].name not in named
                    checked += 1
    assert checked > 0


@pytest.mark.parametrize("players", [2, 4])
def test_fly_away_scoring_cards_of_others_stay_hidden_until_the_end(players: int) -> None:
    checked = 0
    for state in sampled_positions("fly-away", players, 5):
        if state.is_over():
            continue
        for seat in range(players):
            own = {card["id"] for card in state.observation(seat)["seats"][seat]["kept"] or []}
            for view, viewer in all_views(state):
                if viewer == seat:
                    continue
                visible = {c for c in _leaves(view)}
                picture = board_svg("fly-away", view, seat=viewer)
                for card_id in own - visible:
                    assert f">{card_id}<" not in picture and f'"{card_id}"' not in picture
                    checked += 1
    assert checked > 0


# Per game: which shapes of a picture are cards or dice in a seat's hand.
IN_HAND: dict[str, Callable[[Element], bool]] = {
    "skybirds": lambda e: e.get("data-card") is not None and e.get("data-seat") is not None,
    "sky-team": lambda e: e.get("data-hand") is not None,
    "oddball-aeronauts": lambda e: e.get("data-pile") in ("up", "up-rest", "down", "face up", "face down"),
}


@pytest.mark.parametrize(("game", "players"), [("skybirds", 3), ("sky-team", 2), ("oddball-aeronauts", 2)])
def test_the_spectators_picture_shows_no_hand(game: str, players: int) -> None:
    """In the public view every card or die in a hand is a back or a hidden die (or not
    drawn at all), at every sampled position."""
    seen = 0
    for state in sampled_positions(game, players, 4, samples=6):
        root = parse(board_svg(game, state.public_view()), game)
        hand = [e for e in root.iter() if IN_HAND[game](e)]
        assert all({"back", "hidden"} & set((e.get("class") or "").split()) for e in hand)
        seen += len(hand)
    assert seen > 0, "hands are drawn, as backs"


def test_a_game_without_a_board_gets_the_generic_panel(toy_game: str) -> None:
    state = make(toy_game, 2, 1)
    root = ET.fromstring(board_svg(toy_game, state.observation(0), seat=0))
    assert root.get("class") == "board generic"
    shown = " ".join(texts(root))
    assert "my_die" in shown and "totals" in shown


def test_text_from_a_view_is_escaped() -> None:
    view = {"name": "<script>alert('&')</script>", "notes": ["a < b", {"k": "\"quoted\""}]}
    svg = board_svg("no-such-game", view, seat=None)
    root = ET.fromstring(svg)
    assert "<script>" not in svg
    assert any("<script>alert('&')</script>" in t for t in texts(root))


def test_a_view_a_board_cannot_read_falls_back_with_the_reason() -> None:
    root = ET.fromstring(board_svg("sky-team", {"round": 1}))
    assert root.get("class") == "board generic"
    assert any("cannot read this view" in t for t in texts(root))


def test_a_view_must_be_a_dict() -> None:
    with pytest.raises(TypeError, match="a view is a dict"):
        board_svg("sky-team", json.dumps({"round": 1}))  # type: ignore[arg-type]


def test_every_registered_game_has_a_board() -> None:
    from referee.games import GAMES

    assert set(BOARDS) == set(GAMES), "a new game needs a module in dashboard/boards/"


@pytest.mark.parametrize("game", sorted(BOARDS))
def test_sample_pictures_are_saved_for_a_look(game: str) -> None:
    """Writes a mid-game and a final picture per game under tests/artifacts/boards/ (ignored by
    git): what a person checks by eye after changing a board."""
    players = {"sky-team": 2, "oddball-aeronauts": 2}.get(game, 3)
    positions = list(sampled_positions(game, players, 7, samples=3))
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for name, state in (("middle", positions[1]), ("end", positions[-1])):
        for view, seat in all_views(state)[:2]:
            path = ARTIFACTS / f"{game}-{name}-{'public' if seat is None else f'seat{seat}'}.svg"
            path.write_text(board_svg(game, view, seat=seat), encoding="utf-8")
            parse(path.read_text(encoding="utf-8"), game)
    assert finished_game(game, players, 7).is_over()


def test_every_oddball_card_face_shows_all_of_its_text_inside_the_card() -> None:
    """A card is read in full: its name, its type line and its whole trick (or Event text), nothing cut."""
    from dashboard.boards.oddball_aeronauts import CARD_H, draw_card
    from dashboard.boards.svg import Canvas

    for card_id, card in CARDS.items():
        canvas = Canvas("oddball-aeronauts", card_id)
        draw_card(canvas, 0, 0, card_id)
        root = ET.fromstring(canvas.render())
        words = " ".join(texts(root)).split()
        assert "…" not in words and not any(w.endswith("…") for w in words), (card_id, words)
        shown = " ".join(words)
        for part in (card.name, card.trick.text if card.trick else card.text):
            assert " ".join(part.split()) in shown, f"{card_id}: {part!r} is not all on the card: {shown!r}"
        baselines = [float(t.get("y", "0")) for t in root.iter(f"{SVG}text")]
        assert max(baselines) <= CARD_H - 2, f"{card_id}: text runs below the card"


def test_skybirds_shows_every_seats_score_in_its_own_colour() -> None:
    state = list(sampled_positions("skybirds", 3, 5))[-1]  # late in the game: the seats have scored
    view = state.public_view()
    root = parse(board_svg("skybirds", view), "skybirds")
    scores = shapes(root, "score")
    assert [t.text for t in scores] == [f"{a['vp']:g} VP" for a in view["aerodromes"]]
    assert len({t.get("fill") for t in scores}) == 3, "each seat has a colour of its own"
