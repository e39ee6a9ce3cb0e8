"""The house ``boss`` (skyarena.search): a searcher over the forward model that plays
within the clock it is given, and the clock every bot now reads (``Bot.clock``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from referee.games import make
from referee.match import TimeControl
from skyarena import Bot
from skyarena.bot import Clock, MatchInfo
from skyarena.cli import main
from skyarena.games import house_bots, to_observation
from skyarena.local import play_match
from skyarena.search import BossBot

BOSS_GAMES = ["fly-away", "sky-team", "skybirds", "skyjo-action"]
SHORT = {"skybirds": {"campaign_limit": 1}, "skyjo-action": {"end_score": 30}}  # quick matches


class ClockReader(Bot):
    """Records the clock it is handed at each decision."""

    seen: list[Clock | None]

    def on_match_start(self, info: MatchInfo) -> None:
        self.seen = []

    def act(self, observation: Any, legal_actions: Any) -> Any:
        self.seen.append(self.clock)
        return 0


def test_every_bot_reads_the_clock_of_its_decision() -> None:
    reader = ClockReader()
    control = TimeControl(move_s=0.25, bank_s=2.0, first_move_s=0.75)
    play_match("sky-team", [reader, house_bots("sky-team")["heuristic"]()], seed=2, time_control=control)
    first, later = reader.seen[0], reader.seen[1]
    assert first is not None and later is not None
    assert first.move_s == 0.75 and later.move_s == 0.25 and later.bank_s == 2.0
    assert later.deadline_s == pytest.approx(2.25)
    assert 0 < later.move_left() <= 0.25 and later.left() > later.move_left()


@pytest.mark.parametrize("game", BOSS_GAMES)
def test_the_boss_is_a_house_bot_that_searches_within_its_clock(game: str) -> None:
    boss_cls = house_bots(game)["boss"]
    boss = boss_cls()
    assert isinstance(boss, BossBot)
    players = 2
    # A short clock and a small bank: on a loaded test machine a process can wait a tenth of
    # a second for a core, which the bank absorbs as it would on a worker.
    control = TimeControl(move_s=0.1, bank_s=0.5, first_move_s=0.1)
    options = SHORT.get(game)
    record = play_match(game, [boss, house_bots(game)["heuristic"]()], seed=5, options=options,
                        time_control=control, strike_limit=99)
    assert [f for f in record.faults if f.seat == 0] == []   # never late, never wrong
    assert boss.searched > 0 and boss.rollouts > 0  # it searched (how many playouts depends on the machine)
    assert len(record.result.ranks) == players


def test_the_boss_keeps_the_heuristics_choice_when_it_has_no_time() -> None:
    """With no time to search, the boss is the heuristic: the search only ever overrules it."""
    state = make("fly-away", 2, 3)
    seat = state.to_move()[0]
    info = MatchInfo("fly-away", seat, 2, state.public_options(), 11)
    boss, heuristic = house_bots("fly-away")["boss"](), house_bots("fly-away")["heuristic"]()
    boss.start(info)
    heuristic.start(info)
    boss.clock = Clock(0.01, 0.0, 0.01)
    legal = state.legal_actions(seat)
    observation = to_observation("fly-away", state.observation(seat))
    wanted = heuristic.act(observation, legal)
    chosen = legal[boss.act(observation, legal)]
    assert str(chosen) == (str(legal[wanted]) if isinstance(wanted, int) else str(wanted))


def test_skyarena_play_knows_the_boss() -> None:
    result = CliRunner().invoke(main, ["play", "sky-team", "boss", "heuristic", "--games", "1", "--move-time",
                                       "0.05", "--first-move", "0.05", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert {s["name"] for s in data["bots"]} == {"boss", "heuristic"}


def test_playouts_resolve_every_answer_form() -> None:
    from skyarena.search import resolve

    legal = make("sky-team", 2, 1).legal_actions(0)
    assert resolve(1, legal) == legal[1] and resolve(str(legal[2]), legal) == legal[2]
    with pytest.raises(ValueError, match="not a legal action"):
        resolve("nonsense", legal)


def test_the_boss_benchmark_reports_every_figure() -> None:
    """bench/boss.py end to end at tiny sizes (no figure is judged here: see deploy/SCALING.md)."""
    root = Path(__file__).resolve().parents[2]

    def run(*args: str) -> dict[str, Any]:
        out = subprocess.run([sys.executable, str(root / "bench" / "boss.py"), "--json", "--games", "2",
                              "--move-time", "0.02", *args], cwd=root, capture_output=True, text=True, timeout=300)
        assert out.returncode == 0, out.stderr[-3000:]
        return json.loads(out.stdout)["results"]

    results = run("--game", "fly-away", "--players", "2", "--game", "sky-team")
    duel = results["fly-away"]["2p"]
    assert duel["games"] == 2 and duel["boss_win_rate_low"] <= duel["boss_win_rate"] <= duel["boss_win_rate_high"]
    assert {"rollouts_per_move", "time_faults"} <= set(duel)
    assert duel["control_win_rate_low"] <= duel["control_win_rate"] <= duel["control_win_rate_high"]
    pairs = results["sky-team"]["2p"]
    for pair in ("boss+boss", "boss+heuristic", "heuristic+heuristic"):
        assert pairs[pair]["landing_rate_low"] <= pairs[pair]["landing_rate"] <= pairs[pair]["landing_rate_high"]
    table = run("--game", "fly-away", "--players", "3")["fly-away"]["3p"]
    assert {"boss_mean_rank", "heuristic_mean_rank", "rank_margin_low", "rank_margin_high",
            "control_rank_margin_low", "control_rank_margin_high"} <= set(table)
    oddball = run("--game", "oddball-aeronauts")["oddball-aeronauts"]["2p"]
    assert oddball["games"] == 2
    assert oddball["boss_win_rate_low"] <= oddball["boss_win_rate"] <= oddball["boss_win_rate_high"]


def test_the_boss_overrules_the_heuristic_only_on_paired_evidence() -> None:
    """A candidate replaces the heuristic's choice only when its playouts beat the default's
    on the same draws by more than their noise; a clearly worse one is dropped early."""
    from skyarena.search import BossBot as Search
    from skyarena.search import Pairs

    def pairs(differences: list[float]) -> Pairs:
        out = Pairs()
        for d in differences:
            out.add(d)
        return out

    clear, noisy, worse = pairs([0.3, 0.25, 0.35, 0.3, 0.3, 0.28]), pairs([0.5, -0.5, 0.5, -0.4, 0.6, -0.5]), \
        pairs([-0.5, -0.4, -0.6, -0.5])
    assert Search.decide(0, {1: noisy}) == 0
    assert Search.decide(0, {1: noisy, 2: clear}) == 2
    assert Search.decide(0, {2: pairs([0.3, 0.3, 0.3])}) == 0     # too few pairs to judge
    assert Search.hopeless(worse) and not Search.hopeless(noisy) and not Search.hopeless(clear)


def test_a_playouts_worth_reads_the_score_margin_the_way_the_ranks_do() -> None:
    """Two wins are told apart by their margin, whichever way the game counts points
    (Skyjo Action: the lowest total wins)."""
    from skyarena.search import rank_value, worth

    assert worth([90, 70], 0, 10.0) > worth([75, 70], 0, 10.0) > 0.5 > worth([70, 75], 0, 10.0)
    assert worth([40, 40], 0, 10.0) == 0.5
    state = make("skyjo-action", 2, 4, {"end_score": 30})
    while not state.is_over():
        state.apply({seat: state.legal_actions(seat)[0] for seat in state.to_move()})
    result = state.result()
    assert result is not None
    winner = result.ranks.index(0)
    assert result.scores[winner] < result.scores[1 - winner]     # the lower total won
    assert rank_value(state, winner, 10.0) > 0.5 > rank_value(state, 1 - winner, 10.0)
