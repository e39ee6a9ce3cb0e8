"""Hidden information: what each seat and a spectator may see, and resample_hidden."""

from __future__ import annotations

import json

from referee.games import CounterRng, make
from referee.games.oddball_aeronauts.state import OddballState

from .helpers import BF, DH, GDC, HS, LO, MAR, RC, SG, TR, WD, announce, game, play, round_, up


def _text(data: object) -> str:
    return json.dumps(data, sort_keys=True)


def test_a_seat_sees_its_own_face_up_run_and_only_counts_of_the_other_deck() -> None:
    state = game([RC, HS, DH, GDC], [TR, WD, LO, BF], down0=[MAR], down1=[SG])
    obs = state.observation(0)
    assert obs["hand"] == {"up": [RC, HS, DH, GDC], "down": [None]}   # set face down unseen
    assert obs["decks"][1]["face_up"] == 4 and obs["decks"][1]["face_down"] == 1
    for card in (TR, WD, LO, BF, SG):
        assert card not in _text(obs)
    assert RC not in _text(state.observation(1)) and RC not in _text(state.public_view())


def test_played_cards_are_revealed_and_discarded_cards_stay_known_to_their_owner() -> None:
    state = game([RC, HS, DH, GDC], [TR, WD, LO, BF])
    round_(state, "guns", "sailing", "play 1+2", "play 1")
    obs1 = state.observation(1)
    assert obs1["last_round"]["played"] == [[RC, HS], [TR]]
    assert obs1["hand"]["down"] == [TR, WD, LO]           # its own Played card and the two it Discarded
    assert state.observation(0)["hand"]["down"] == [RC, HS]
    assert WD not in _text(state.observation(0))          # the loser's extra Discards are not shown
    # Everyone remembers which cards were shown, and so which deck each is in now, not where.
    for view in (state.observation(0), obs1, state.public_view()):
        assert view["decks"][0]["revealed"] == sorted([RC, HS]) and view["decks"][1]["revealed"] == [TR]


def test_the_other_seats_choices_stay_hidden_until_revealed() -> None:
    state = game([RC, HS, DH, GDC], [TR, WD, LO, BF], lead=0)
    state.apply({0: "guns"})
    assert state.observation(1)["skills"] == ["guns", None]
    state.apply({1: "sailing"})
    state.apply({0: "ready", 1: "ready"})
    before = state.observation(0)
    play(state, "play 1+2", "play 1")
    assert before["counts"] == [None, None] and before["reveal"] is None


def test_resample_keeps_the_seats_view_and_redraws_what_it_has_not_seen() -> None:
    state = make("oddball-aeronauts", 2, seed=42)
    assert isinstance(state, OddballState)
    changed = 0
    for k in range(10):
        for seat in (0, 1):
            other = state.resample_hidden(seat, CounterRng(k))
            assert isinstance(other, OddballState)
            assert other.observation(seat) == state.observation(seat)
            assert [str(a) for a in other.legal_actions(seat)] == [str(a) for a in state.legal_actions(seat)]
            changed += other.up[1 - seat] != state.up[1 - seat]
            # The other deck keeps its cards (its list is public): only their order changes.
            opp_cards = sorted(c for c in other.up[1 - seat] + other.down[1 - seat]
                               if not other.table.is_event[c])
            assert opp_cards == sorted(c for c in state.up[1 - seat] + state.down[1 - seat]
                                       if not state.table.is_event[c])
            # No Event in the other seat's top three: Step 1 would have shown it.
            assert not any(other.table.is_event[c] for c in other.up[1 - seat][:3])
    assert changed > 0


def test_resample_never_moves_a_card_the_seat_has_seen() -> None:
    state = game([RC, HS, DH, GDC], [TR, WD, LO, BF, BF, SG], down1=[SG])
    round_(state, "guns", "sailing", "play 1+2", "play 1")
    assert [state.table.ids[c] for c in state.down[1]] == [SG, TR, WD, LO]
    moved = 0
    for k in range(12):
        other = state.resample_hidden(0, CounterRng(k))
        assert isinstance(other, OddballState)
        assert other.down[1][1] == state.down[1][1]       # the Played Topsail Rigger, seen by both
        assert other.up[0] == state.up[0] and other.down[0] == state.down[0]
        moved += other.down[1] != state.down[1]           # the unseen Discards may move
    assert moved > 0
    assert up(state, 0) == [DH, GDC]


def test_public_view_has_no_hand() -> None:
    state = make("oddball-aeronauts", 2, seed=1)
    view = state.public_view()
    assert "hand" not in view and "seat" not in view
    assert set(view) >= {"round", "phase", "lead", "skills", "decks", "last_round", "events"}
    announce_state = game([RC, HS, DH], [TR, WD, LO])
    announce(announce_state, "guns", "sailing")
    assert announce_state.public_view()["skills"] == ["guns", "sailing"]
