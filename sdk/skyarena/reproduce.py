"""Re-running a bot on its seat of a recorded match, decision by decision (``skyarena reproduce``).

The bot is driven exactly as a hosted bot is on the platform: through the SDK's own
:class:`~skyarena.remote.runner.SeatSession`, welcomed with the match's options and the seat's
recorded bot seed, and handed each decision as the referee's ``TurnRequest`` (the observation and
legal actions converted to the wire and back, as the referee sends them). The observations are
the participant's replay's, re-derived by re-playing the referee's full record and checked equal
to the file's (`referee.match.participant`). Each answer is resolved against the legal actions
as the referee does and compared with what the platform took:

- an answer the platform took must name the same action;
- an exception, illegal or unparseable answer on the platform must fail the same way here;
- a timeout or disconnect on the platform is not compared (the referee never used what the bot
  answered late), and is listed.

The first decision that differs ends the run, with both answers and the observation: a bot that
is not deterministic under its seed, or another version, shows there.
"""

from __future__ import annotations

import json
import pdb
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.games import IllegalAction, MalformedAction, SkyarenaError
from referee.games.core.errors import ReplayError
from referee.match.participant import SeatDecision, engine_records, jsonable, participant, seat_decisions

from .bot import Bot
from .remote.runner import SeatSession
from .v1 import referee_pb2 as pb
from .wire import action_to_proto, observation_to_proto, typed_action_bytes, wire_for

NOT_COMPARED = ("timeout", "disconnect")   # platform faults whose answer the referee never took


@dataclass(frozen=True)
class Answer:
    """What a bot's answer came to: the action's notation, or the fault it would be."""

    action: str | None
    fault: str | None = None       # exception | illegal | unparseable
    reason: str = ""

    def text(self) -> str:
        return repr(self.action) if self.fault is None else f"{self.fault} ({self.reason})"


@dataclass(frozen=True)
class Stop:
    """A decision shown in full: where ``--at`` stopped, or the first that differs."""

    turn: int
    observation: dict[str, Any]
    legal: list[str]
    platform: str        # what the platform took (or its fault)
    here: str            # what the bot answers now


@dataclass
class Reproduction:
    seat: int
    total: int                        # the seat's decisions in the match
    compared: int = 0                 # decisions re-run and found identical
    difference: Stop | None = None
    stopped: Stop | None = None       # --at
    not_compared: list[int] = field(default_factory=list)
    seconds: float = 0.0
    log: list[str] = field(default_factory=list)  # what the bot's session said (its exceptions, as on the platform)

    def summary(self) -> str:
        skipped = (f"; {len(self.not_compared)} not compared (timeouts or disconnects on the platform: turns "
                   f"{', '.join(map(str, self.not_compared[:10]))}{'...' if len(self.not_compared) > 10 else ''})"
                   if self.not_compared else "")
        if self.difference is not None:
            d = self.difference
            return (f"turn {d.turn} differs: on the platform the bot answered {d.platform}, here it answers {d.here} "
                    f"({self.compared} decisions identical before it){skipped}")
        if self.stopped is not None:
            return f"stopped at turn {self.stopped.turn}: {self.compared} decisions identical so far{skipped}"
        return f"all {self.compared} decisions identical{skipped}"

    def to_json(self) -> dict[str, Any]:
        def stop(s: Stop | None) -> dict[str, Any] | None:
            return None if s is None else vars(s)

        return {"seat": self.seat, "decisions": self.total, "identical": self.compared,
                "difference": stop(self.difference), "stopped": stop(self.stopped),
                "not_compared": self.not_compared, "seconds": round(self.seconds, 4), "summary": self.summary()}


def resolve(game: str, decision: SeatDecision, answer: pb.Answer) -> Answer:
    """The action a bot's Answer names, by the referee's rule (index, typed message by value, notation)."""
    legal = decision.legal
    choice = answer.WhichOneof("choice")
    if choice == "index":
        if answer.index < len(legal):
            return Answer(str(legal[answer.index]))
        return Answer(None, "unparseable", f"index {answer.index} of {len(legal)} legal actions")
    if choice == "error":
        return Answer(None, "exception", answer.error.strip().splitlines()[0] if answer.error.strip() else "")
    if choice != "action":
        return Answer(None, "unparseable", "no choice")
    typed = answer.action.WhichOneof("game")
    wire = wire_for(game)
    if typed is not None and wire is not None:
        key = getattr(answer.action, typed).SerializeToString(deterministic=True)
        found = next((a for a in legal if typed_action_bytes(game, a, wire) == key), None)
        return Answer(str(found)) if found is not None else Answer(None, "illegal", "a typed action not legal now")
    try:
        return Answer(str(decision.state.parse_action(decision.seat, answer.action.notation)))
    except MalformedAction as exc:
        return Answer(None, "unparseable", str(exc))
    except IllegalAction as exc:
        return Answer(None, "illegal", str(exc))
    except SkyarenaError as exc:
        return Answer(None, "unparseable", str(exc))


def platform_answer(decision: SeatDecision) -> Answer:
    fault = decision.fault
    if fault is None:
        return Answer(decision.answer)
    return Answer(None, str(fault.get("kind")), (str(fault.get("reason", "")).splitlines() or [""])[0][:200])


def same(platform: Answer, here: Answer) -> bool:
    if platform.fault is None:
        return here.fault is None and here.action == platform.action
    return here.fault == platform.fault


def welcome(records: Sequence[Mapping[str, Any]]) -> pb.Welcome:
    """The Welcome the seat's bot got: the match, its seat, the options it was told, its bot seed."""
    about = participant(records)
    header = engine_records(records)[0]
    if about.get("bot_seed") is None:
        raise ReplayError("this match's bot seed was not kept (a match played before the platform stored them): "
                          "its bot cannot be re-run exactly; reproduce a newer match")
    return pb.Welcome(match_id=str(about.get("match_id", "")), game=header["game"], seat=int(about["seat"]),
                      players=int(header["players"]), options_json=json.dumps(about.get("options") or {},
                                                                              sort_keys=True),
                      bot_seed=int(about["bot_seed"]))


def turn_request(game: str, decision: SeatDecision) -> pb.RefereeMessage:
    turn = pb.TurnRequest(turn=decision.turn, observation=observation_to_proto(game, decision.observation),
                          legal_actions=[action_to_proto(game, a) for a in decision.legal])
    return pb.RefereeMessage(turn=turn)


def _debugged(bot: Bot) -> None:
    """The bot's next ``act`` runs under pdb, stopped at its first line (observation and legal_actions in scope)."""
    original = bot.act

    def act(observation: Any, legal_actions: Sequence[Any]) -> Any:
        del bot.act  # this decision only
        return pdb.Pdb().runcall(original, observation, legal_actions)

    bot.act = act  # type: ignore[method-assign]


def reproduce(records: Sequence[Mapping[str, Any]], make_bot: Callable[[], Bot], *, at: int | None = None,
              debug: bool = False) -> Reproduction:
    """Re-run the bot ``make_bot`` makes on the participant's replay ``records``' seat; stop at the
    first difference, or at the seat's first decision from turn ``at`` on (under pdb with ``debug``)."""
    about = participant(records)
    seat = int(about["seat"])
    game = engine_records(records)[0]["game"]
    recorded = {int(r["turn"]): r for r in records if r.get("type") == "decision"}
    decisions = seat_decisions(records, seat)
    report = Reproduction(seat, int(about.get("decisions", len(recorded))))
    session = SeatSession(lambda _game: make_bot(), say=report.log.append)
    started = time.perf_counter()
    session.handle(pb.RefereeMessage(welcome=welcome(records)))
    for decision in decisions:
        mine = recorded.get(decision.turn)
        if mine is None or mine.get("observation") != jsonable(decision.observation):
            raise ReplayError(f"the decision of turn {decision.turn} is not the re-played match's: the file was "
                              "edited; fetch it again with `skyarena replay MATCH_ID --mine`")
        stopping = at is not None and decision.turn >= at
        if stopping and debug and session.bot is not None:
            _debugged(session.bot)
        reply = session.handle(turn_request(game, decision))
        assert reply is not None
        here = resolve(game, decision, reply.answer)
        platform = platform_answer(decision)
        shown = Stop(decision.turn, jsonable(decision.observation), [str(a) for a in decision.legal],
                     platform.text(), here.text())
        if platform.fault in NOT_COMPARED:
            report.not_compared.append(decision.turn)
        elif not same(platform, here):
            report.difference = shown
            break
        else:
            report.compared += 1
        if stopping:
            report.stopped = shown
            break
    report.seconds = time.perf_counter() - started
    return report
