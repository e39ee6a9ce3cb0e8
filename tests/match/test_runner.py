"""The match runner: clocks, strikes, fallback, forfeits and fault records."""

from __future__ import annotations

from typing import Any

import pytest

from referee.games import make
from referee.match import FaultKind, MatchRunner, SeatClock, TimeControl
from referee.match.runner import first_legal_action


def drive(runner: MatchRunner, answer: Any) -> None:
    """Answer every request with answer(seat, request) -> (kind, value, elapsed)."""
    while not runner.finished:
        for req in runner.pending():
            kind, value, elapsed = answer(req.seat, req)
            if kind == "fail":
                runner.fail(req.seat, FaultKind.EXCEPTION, value, elapsed)
            else:
                runner.submit(req.seat, value, elapsed)


def test_clock_draws_overage_from_bank_and_times_out_when_empty() -> None:
    clock = SeatClock(TimeControl(move_s=1.0, bank_s=2.0, first_move_s=5.0))
    assert clock.limit_s() == 5.0 and clock.deadline_s() == 7.0
    assert clock.charge(4.0)          # first move: within its allowance
    assert clock.bank_s == 2.0
    assert clock.charge(2.5)          # 1.5 s over: from the bank
    assert clock.bank_s == pytest.approx(0.5)
    assert not clock.charge(1.6)      # 0.6 s over with 0.5 left: timeout
    assert clock.bank_s == 0.0


def test_answers_by_action_string_and_index_are_equivalent(toy_game: str) -> None:
    records = []
    for style in ("action", "string", "index"):
        runner = MatchRunner(make(toy_game, 3, seed=5))

        def answer(seat: int, req: Any, style: str = style) -> tuple[str, Any, float]:
            pick = (seat + req.turn) % 2
            value = {"action": req.legal_actions[pick], "string": str(req.legal_actions[pick]), "index": pick}[style]
            return "ok", value, 0.01

        drive(runner, answer)
        records.append(runner.record())
    assert records[0].replay == records[1].replay == records[2].replay
    assert not records[0].faults


@pytest.mark.parametrize(
    ("answer", "kind"),
    [("fly away", FaultKind.ILLEGAL), (7, FaultKind.UNPARSEABLE), (None, FaultKind.UNPARSEABLE),
     (True, FaultKind.UNPARSEABLE), ({"a": 1}, FaultKind.UNPARSEABLE)],
)
def test_bad_answer_plays_fallback_and_records_a_strike(toy_game: str, answer: Any, kind: FaultKind) -> None:
    runner = MatchRunner(make(toy_game, 2, seed=1), strike_limit=10)
    reqs = runner.pending()
    fault = runner.submit(0, answer, 0.0)
    assert fault is not None and fault.kind is kind and fault.seat == 0 and fault.turn == 1 and fault.strike == 1
    assert fault.reason
    runner.submit(1, "reroll", 0.0)
    history = runner.state.history()
    moves = [e for e in history if e[0] == "m"]
    assert dict(moves[0][1])[0] == reqs[0].legal_actions[0] == "keep"   # the fallback: first legal action


def test_timeout_uses_fallback_and_discards_the_late_answer(toy_game: str) -> None:
    control = TimeControl(move_s=0.1, bank_s=0.05, first_move_s=0.1)
    runner = MatchRunner(make(toy_game, 2, seed=3), control)
    fault = runner.submit(0, "reroll", 0.2)
    assert fault is not None and fault.kind is FaultKind.TIMEOUT
    assert runner.clocks[0].bank_s == 0.0
    assert runner.submit(1, "reroll", 0.01) is None
    first = [e for e in runner.state.history() if e[0] == "m"][0]
    assert dict(first[1]) == {0: "keep", 1: "reroll"}


def test_strike_limit_forfeits_and_ranks_the_seat_last(toy_game: str) -> None:
    runner = MatchRunner(make(toy_game, 3, seed=11, options={"rounds": 6}), strike_limit=2)

    def answer(seat: int, req: Any) -> tuple[str, Any, float]:
        if seat == 1:
            return "fail", "boom", 0.0
        return "ok", "keep", 0.0

    drive(runner, answer)
    record = runner.record()
    assert record.forfeited == [1]
    assert [f.strike for f in record.faults] == [1, 2]
    assert record.faults[-1].forfeit and not record.faults[0].forfeit
    assert record.result.ranks[1] == 2
    assert sorted(record.result.ranks[s] for s in (0, 2)) in ([0, 1], [0, 0])
    assert record.result.reason == "forfeit"
    # After the forfeit the seat was never asked again but its moves were still played.
    assert len([e for e in runner.state.history() if e[0] == "m"]) == 6


def test_cooperative_forfeit_marks_partner_unrated(toy_game: str) -> None:
    from dataclasses import replace

    from referee.games import GAMES
    GAMES[toy_game] = replace(GAMES[toy_game], cooperative=True)
    runner = MatchRunner(make(toy_game, 2, seed=2), strike_limit=1)
    runner.fail(0, FaultKind.DISCONNECT, "stream closed")
    drive(runner, lambda seat, req: ("ok", 0, 0.0))
    record = runner.record()
    assert record.forfeited == [0] and record.unrated == [1]
    assert record.result.ranks == (1, 0)


def test_fallback_is_the_first_legal_action(toy_game: str) -> None:
    state = make(toy_game, 2, seed=1)
    assert first_legal_action(state, 0) == state.legal_actions(0)[0]


def test_seat_not_awaited_is_rejected(toy_game: str) -> None:
    runner = MatchRunner(make(toy_game, 2, seed=1))
    runner.submit(0, "keep", 0.0)
    with pytest.raises(RuntimeError):
        runner.submit(0, "keep", 0.0)
    with pytest.raises(RuntimeError):
        runner.submit(5, "keep", 0.0)


def test_a_bot_changing_its_legal_list_cannot_change_what_its_index_means(toy_game: str) -> None:
    """The runner applies resolved answers without a second legality check, so the list a
    seat is handed must be its own copy."""
    runner = MatchRunner(make(toy_game, 2, seed=3))
    requests = runner.pending()
    for request in requests:
        request.legal_actions.clear()
        request.legal_actions.append("cheat")
    for request in requests:
        assert runner.submit(request.seat, 0, 0.01) is None
    first = [e for e in runner.state.history() if e[0] == "m"][0]
    assert dict(first[1]) == {0: "keep", 1: "keep"}


def test_a_custom_fallback_that_answers_illegally_is_refused(toy_game: str) -> None:
    runner = MatchRunner(make(toy_game, 2, seed=3), fallback=lambda state, seat: "fly away")
    runner.pending()
    with pytest.raises(RuntimeError, match="fallback policy chose 'fly away'"):
        runner.fail(0, FaultKind.EXCEPTION, "boom")


def test_the_engine_is_asked_for_legal_actions_once_per_seat_and_step(toy_game: str,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    state = make(toy_game, 2, seed=4)
    calls: list[int] = []
    original = type(state).legal_actions

    def counting(self: Any, seat: int) -> list[Any]:
        calls.append(seat)
        return original(self, seat)

    monkeypatch.setattr(type(state), "legal_actions", counting)
    runner = MatchRunner(state)
    for request in runner.pending():   # a request, an answer by index, the fallback after a fault
        if request.seat == 0:
            assert runner.submit(0, 1, 0.01) is None
        else:
            runner.fail(1, FaultKind.EXCEPTION, "boom")
    assert sorted(calls) == [0, 1]
    assert runner.state.decisions == 1


def test_a_hostile_action_object_is_checked_by_value_without_its_text() -> None:
    """Issue 12: a Skybirds Play with a huge ``free`` would render 2**62 stars; an Oddball
    Announce of skill 99 raises in str(). Local play checks them by value and says why from
    the legal side."""
    from referee.games.oddball_aeronauts.actions import Announce
    from referee.games.skybirds.actions import Play

    skybirds = MatchRunner(make("skybirds", 2, 1), strike_limit=10)
    seat = skybirds.pending()[0].seat
    legal = skybirds.legal_actions(seat)
    template = next(a for a in legal if isinstance(a, Play))
    fault = skybirds.submit(seat, template._replace(free=2 ** 62), 0.0)
    assert fault is not None and fault.kind is FaultKind.ILLEGAL
    assert "the Play answered is not one of the" in fault.reason and len(fault.reason) < 1000

    oddball = MatchRunner(make("oddball-aeronauts", 2, 1), strike_limit=10)
    while not any(isinstance(a, Announce) for r in oddball.pending() for a in r.legal_actions):
        request = oddball.pending()[0]
        oddball.submit(request.seat, 0, 0.0)
    request = next(r for r in oddball.pending() if any(isinstance(a, Announce) for a in r.legal_actions))
    fault = oddball.submit(request.seat, Announce(skill=99), 0.0)
    assert fault is not None and fault.kind is FaultKind.ILLEGAL and "Announce" in fault.reason


def test_any_exception_while_resolving_an_answer_is_an_unparseable_strike() -> None:
    class Raising(str):
        def strip(self, *args: Any) -> str:  # type: ignore[override]
            raise RuntimeError("boom")

    runner = MatchRunner(make("sky-team", 2, 1), strike_limit=10)
    request = runner.pending()[0]
    fault = runner.submit(request.seat, Raising("x"), 0.0)
    assert fault is not None and fault.kind is FaultKind.UNPARSEABLE and "RuntimeError" in fault.reason
    assert runner.pending()  # the match went on with the fallback


def test_a_megabyte_notation_is_echoed_capped() -> None:
    runner = MatchRunner(make("sky-team", 2, 1), strike_limit=10)
    request = runner.pending()[0]
    fault = runner.submit(request.seat, "x" * 1_000_000, 0.0)
    assert fault is not None and len(fault.reason) < 1100 and "[cut: " in fault.reason
