"""The table of public moves (`referee.games.core.public_moves`) checked against the engines.

For every game, random playouts: at each decision, every other legal action of the moving seat
is tried on a clone. Where the engine's spectator view after the alternative is the same as
after the real move, a spectator cannot tell the two apart, so the text told for them must be
the same too (both hidden, or the same words): otherwise the told text carries information the
spectator view holds back. A few decision kinds name only a seat, a position or a line chosen
in the open (a face-down card swapped, a row looked at): the view does not follow which
face-down card moved, the table rightly shows them, and their notation is checked to name no
card at all.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter

import pytest

from referee.games import GAMES, make
from referee.games.core.public_moves import HIDDEN, PUBLIC_MOVES, decision_kind, public_text
from referee.games.oddball_aeronauts.actions import parse as oddball_action
from referee.games.sky_team.actions import parse as sky_team_action
from referee.games.skybirds.actions import parse as skybirds_action

SAMPLED_ALTERNATIVES = 20
STEPS = 300
# Decision kinds whose notation names only places chosen in the open (no card): the view does
# not tell face-down cards apart, so the place itself is the only thing told.
PLACES_ONLY = {
    "skyjo-action": re.compile(r"^(take-discard|pick|look|between|remove) ?(\d )?([A-D][1-3]|row [1-3]|col [A-D])?"
                               r"( \d)?$"),
}


def _view(state: object) -> str:
    return json.dumps(state.public_view(), sort_keys=True)  # type: ignore[attr-defined]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_told_move_says_nothing_the_spectator_view_hides(game: str) -> None:
    told: Counter[str] = Counter()
    for seed in range(3):
        state = make(game, GAMES[game].min_players, seed, {})
        rng = random.Random(seed)
        for _ in range(STEPS):
            if state.is_over():
                break
            joint = {seat: rng.choice(state.legal_actions(seat)) for seat in state.to_move()}
            after = state.clone()
            after.apply(joint)
            seen = _view(after)
            for seat, action in joint.items():
                text = public_text(game, action)
                if text is not None:
                    told[decision_kind(action)] += 1
                legal = state.legal_actions(seat)
                for other in rng.sample(legal, min(SAMPLED_ALTERNATIVES, len(legal))):
                    if str(other) == str(action):
                        continue
                    trial = state.clone()
                    trial.apply({**joint, seat: other})
                    if _view(trial) != seen or public_text(game, other) == text:
                        continue
                    places = PLACES_ONLY.get(game)
                    assert places is not None and places.match(str(action)) and places.match(str(other)), (
                        f"{game} seed {seed}: {action} and {other} leave the same spectator view, yet are told "
                        f"as {text!r} and {public_text(game, other)!r}")
            state = after
    shown_kinds = {kind for kind, telling in PUBLIC_MOVES[game].items() if telling != HIDDEN}
    assert told and set(told) <= shown_kinds, told  # public moves are told, under the kinds the table shows


def test_every_decision_kind_of_every_game_has_a_row_in_the_table() -> None:
    """A kind missing from the table would be hidden silently: every kind the playouts meet is listed."""
    for game in sorted(GAMES):
        met: set[str] = set()
        for seed in range(4):
            state = make(game, GAMES[game].min_players, seed, {})
            rng = random.Random(seed)
            while not state.is_over() and len(met) < 40:
                for seat in state.to_move():
                    met.update(decision_kind(a) for a in state.legal_actions(seat))
                state.apply({seat: rng.choice(state.legal_actions(seat)) for seat in state.to_move()})
                if state.decisions > 600:
                    break
        assert met <= set(PUBLIC_MOVES[game]), (game, met - set(PUBLIC_MOVES[game]))


def test_what_the_rules_hide_stays_hidden_and_an_unlisted_game_tells_nothing() -> None:
    sky_team = make("sky-team", 2, 1, {})
    place = sky_team.legal_actions(sky_team.to_move()[0])[0]
    assert public_text("sky-team", sky_team_action("4>axis")) == "4>axis"
    assert public_text("sky-team", sky_team_action("3-1>axis")) == public_text("sky-team", sky_team_action("1+1>axis"))
    assert public_text("sky-team", sky_team_action("roll 1,3")) is None
    assert public_text("oddball-aeronauts", oddball_action("rig 3,1,2")) == "rig"
    assert public_text("oddball-aeronauts", oddball_action("discard 2,1")) is None
    assert public_text("skybirds", skybirds_action("give 7")) is None
    assert public_text("toy", place) is None
