"""Views re-created from a stored replay are exactly the views the live game had."""

from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from dashboard.boards import board_svg
from dashboard.replay_views import ReplayViews
from referee.games import ReplayError, make
from referee.games.core import replay as replay_io
from referee.games.core.playout import random_joint_action
from referee.match.public_steps import charges_text, fault_text, moves_text
from tests.dashboard.playthrough import TABLES
from workers.arena.public_replay import public_records
from workers.store.replay_document import replay_document

LIVE_CASES = [(game, players, seed) for game, counts in TABLES for players in (counts[0], counts[-1])
              for seed in (3,)]


def live_game(game: str, players: int, seed: int) -> tuple[list[dict[str, Any]], list[str], Any]:
    """Plays a seeded random game, keeping every step's views (as JSON: they are JSON data and
    the engine may share unchanged parts between positions) and joint actions."""
    state = make(game, players, seed)
    rng = random.Random(seed)
    views = [_views(state)]
    actions: list[str] = []
    while not state.is_over():
        joint = random_joint_action(state, rng)
        state.apply(joint)
        actions.append(json.dumps({s: str(a) for s, a in joint.items()}))
        views.append(_views(state))
    return views, actions, state


def _views(state: Any) -> dict[str, Any]:
    return json.loads(json.dumps({"public": state.public_view(),
                                  "seats": [state.observation(s) for s in range(state.players)]}))


@pytest.mark.parametrize(("game", "players", "seed"), LIVE_CASES)
def test_every_step_has_the_live_games_views(game: str, players: int, seed: int) -> None:
    live, actions, state = live_game(game, players, seed)
    views = ReplayViews(state.replay(), checkpoint_every=16)
    assert len(views) == len(live) == state.decisions + 1
    # Every step in a shuffled order: jumps back and forth go through checkpoints and the cursor.
    order = list(range(len(views)))
    random.Random(seed).shuffle(order)
    for index in order[:150] + sorted(order[150:]):
        step = views[index]
        assert step.index == index
        assert {"public": step.public, "seats": step.seats} == live[index], f"step {index} differs"
        if index:
            assert json.dumps({s: a for s, a in step.actions.items()}) == actions[index - 1]
            assert step.text().startswith(f"move {index}: ")
            for seat, action in step.actions.items():  # each seat's own view names its own move
                assert f"seat {seat}: {action}" in step.text(seat)
        else:
            assert step.actions == {} and step.text().startswith("setup:")
    last = views[-1]
    assert last.over and last.result == state.result().to_json()
    assert last.view() == live[-1]["public"] and last.view(players - 1) == live[-1]["seats"][-1]
    with pytest.raises(IndexError, match="not in this match"):
        last.view(players)


def test_a_replay_file_opens_from_its_text_and_steps_one_by_one() -> None:
    live, _, state = live_game("sky-team", 2, 8)
    views = ReplayViews.from_text(replay_io.dumps(state.replay()), "match.jsonl")
    steps = list(views)
    assert [{"public": s.public, "seats": s.seats} for s in steps] == live
    assert steps[0].text() == "setup: 2 players", "the dice rolled behind the screens are no one's to read"


def test_opening_a_long_replay_replays_nothing_until_a_step_is_asked_for() -> None:
    """A war of thousands of decisions: step 0 is the position after setup; asking for it
    applies no move, and a step far in costs one pass that leaves checkpoints behind."""
    state = make("skybirds", 4, 3)
    rng = random.Random(3)
    while not state.is_over():
        state.apply(random_joint_action(state, rng))
    assert state.decisions > 2000
    views = ReplayViews(state.replay(), checkpoint_every=64)
    first = views[0]
    assert first.index == 0 and views.moves_replayed == 0 and views.checkpoints == (0,)
    assert first.public == json.loads(json.dumps(make("skybirds", 4, 3).public_view()))
    views[len(views) - 1]
    assert views.moves_replayed == state.decisions
    assert views.checkpoints == tuple(range(0, state.decisions + 1, 64))
    views[1000]
    assert views.moves_replayed == state.decisions + 1000 % 64, "the jump back re-played from step 960"
    views[1001]
    assert views.moves_replayed == state.decisions + 1000 % 64 + 1, "the next step is one move"


def test_viewers_in_several_threads_share_one_replay() -> None:
    """A Streamlit resource cache hands one object to every session: concurrent jumps must
    each get their own step's views."""
    live, _, state = live_game("skyjo-action", 4, 6)
    views = ReplayViews(state.replay(), checkpoint_every=8)

    def walk(seed: int) -> list[int]:
        rng = random.Random(seed)
        wrong = []
        for index in (rng.randrange(len(views)) for _ in range(60)):
            step = views[index]
            if {"public": step.public, "seats": step.seats} != live[index]:
                wrong.append(index)
        return wrong

    with ThreadPoolExecutor(max_workers=4) as pool:
        assert [bad for bad in pool.map(walk, range(8))] == [[]] * 8


def test_faults_of_a_match_are_told_at_their_step() -> None:
    _, _, state = live_game("oddball-aeronauts", 2, 2)
    records = state.replay() + [{"type": "match", "faults": [
        {"seat": 1, "turn": 3, "kind": "timeout", "reason": "no answer within 1.0 s", "strike": 1,
         "forfeit": False}]}]
    views = ReplayViews(records)
    assert "fault, seat 1: timeout" in views[3].text() and "no answer" not in views[3].text()
    assert "fault, seat 1: timeout — no answer within 1.0 s" in views[3].text(1)  # the seat's own reason
    assert "no answer" not in views[3].text(0)
    assert "fault" not in views[2].text()


def test_a_replay_from_another_engine_fails_with_a_clear_error() -> None:
    _, _, state = live_game("skyjo-action", 3, 4)
    records = state.replay()
    chance = next(i for i, r in enumerate(records) if r["type"] == "chance" and isinstance(r["value"], list))
    edited = [dict(r) for r in records]
    edited[chance]["value"] = list(reversed(edited[chance]["value"]))
    views = ReplayViews(edited, checkpoint_every=4)
    with pytest.raises(ReplayError, match="another engine version"):
        views[len(views) - 1]


def test_a_move_that_does_not_replay_names_its_number() -> None:
    _, _, state = live_game("fly-away", 2, 4)
    records = state.replay()
    moves = [i for i, r in enumerate(records) if r["type"] == "move"]
    records[moves[5]] = {**records[moves[5]], "actions": {"0": "take nowhere"}}
    views = ReplayViews(records)
    assert views[5].index == 5
    with pytest.raises(ReplayError, match="move 6 of this replay cannot be re-played"):
        views[6]


@pytest.mark.parametrize("bad", [[], [{"type": "move"}], [{"game": "sky-team"}]])
def test_records_without_a_header_are_refused(bad: list[dict[str, Any]]) -> None:
    with pytest.raises(ReplayError, match="starts with its header"):
        ReplayViews(bad)


def test_steps_outside_the_replay_are_refused() -> None:
    _, _, state = live_game("sky-team", 2, 1)
    views = ReplayViews(state.replay())
    assert views[-1].index == len(views) - 1
    with pytest.raises(IndexError, match="outside this replay"):
        views[len(views)]
    with pytest.raises(TypeError, match="integer"):
        views["3"]  # type: ignore[index]


@pytest.mark.parametrize(("game", "players"), [(game, counts[0]) for game, counts in TABLES])
def test_the_viewer_draws_every_seat_at_any_step_of_a_replay(game: str, players: int) -> None:
    """The replay viewer's path: a stored replay, a step, a seat (or none), a picture."""
    _, _, state = live_game(game, players, 9)
    views = ReplayViews(state.replay())
    for index in sorted({0, 1, len(views) // 3, len(views) // 2, len(views) - 1}):
        step = views[index]
        for seat in [None, *range(players)]:
            svg = board_svg(game, step.view(seat), seat=seat)
            assert ET.fromstring(svg).get("class") == f"board {game}"


PRIVATE_REASON = "seat 0 held 7 7 9 and the die 6"  # a fault reason names hidden things


@pytest.mark.parametrize(("game", "players"), [(game, counts[0]) for game, counts in TABLES])
def test_the_spectator_view_tells_exactly_what_the_public_replay_tells(game: str, players: int) -> None:
    """Every step: the spectator's picture and text against the Arena's public replay of the
    same match, the one visibility rule behind both. Nothing hidden in the text (no chance
    outcome, no seed, no fault reason), and public moves as they are."""
    _, _, state = live_game(game, players, 5)
    records = [*state.replay()]
    fault = {"turn": 1, "seat": 0, "kind": "timeout", "reason": PRIVATE_REASON, "strike": 1, "forfeit": False}
    charges = [  # the referee's note on a charge (why a CPU report was refused) is not told
        {"turn": 1, "seat": 0, "clock": "cpu", "charged_s": 0.0712, "wall_s": 0.0934, "note": PRIVATE_REASON},
        {"turn": 2, "seat": players - 1, "clock": "wall", "charged_s": 0.25}]
    records.insert(-1, {"type": "match", "faults": [fault], "forfeited": [], "charges": charges})
    views = ReplayViews(records)
    public = public_records(replay_document(records))
    faults: dict[int, list[str]] = {}
    for record in public:
        if record["type"] == "fault":
            faults.setdefault(record["turn"], []).append(fault_text(record))
    steps = [r for r in public if r["type"] == "step"]
    assert len(steps) == len(views)
    chance = [json.dumps(r["value"], separators=(",", ":")) for r in records if r.get("type") == "chance"]
    for record in steps:
        step = views[record["n"]]
        assert board_svg(game, step.view()) == board_svg(game, record["public_view"]), f"step {step.index}"
        told = f"move {step.index}: {moves_text(record['moves'])}" if step.index else f"setup: {players} players"
        timing = [charges_text(record["time"])] if record.get("time") else []
        assert step.text() == "\n".join([told, *timing, *faults.get(step.index, [])]), f"step {step.index}"
        assert "chance" not in step.text() and "seed" not in step.text()
    assert PRIVATE_REASON not in "".join(views[i].text() for i in range(len(views)))
    assert PRIVATE_REASON in views[1].text(0) and PRIVATE_REASON not in views[1].text(players - 1)
    assert "time: seat 0 0.071 s cpu (0.093 s wall)" in views[1].text()  # every view shows the charged time
    assert f"time: seat {players - 1} 0.250 s wall" in views[2].text(0)
    assert any("action" in m for r in steps for m in r["moves"])  # public moves are there to read
    assert chance  # the match drew hidden outcomes, which no spectator text names


def test_sky_team_dice_rolled_at_setup_are_not_in_the_spectators_text() -> None:
    """The picture shows the unplaced dice as '?': the text of step 0 does not name them."""
    _, _, state = live_game("sky-team", 2, 3)
    views = ReplayViews(state.replay())
    assert views[0].text() == "setup: 2 players"
    svg = board_svg("sky-team", views[0].view())
    assert "?" in svg
