"""Play one seat of a match on a referee, over gRPC or over stdin/stdout.

The seat's logic (:class:`SeatSession`) is the same for both transports and mirrors the
local driver (``skyarena.local``): the bot is started with a :class:`MatchInfo`, each
turn request becomes ``bot.act(observation, legal_actions)`` with the same typed
observation and the same legal action objects as local play, and the result reaches
``on_match_end``. An exception in ``act`` is reported to the referee at once (a fault
of kind ``exception``, like locally) instead of letting the clock run out, described as
``skyarena play`` describes it (`skyarena.bot_errors`: the bot's own file, line and
frames), and written in full to stderr, which is the bot's log on the platform.

    run_bot(MyBot(), referee="127.0.0.1:50051", token="...")   # gRPC
    run_bot(MyBot(), stdio=True)                               # frames on stdin/stdout

The gRPC transport lives in :mod:`.grpc_transport`, imported only when a seat connects
over gRPC: a hosted bot speaks stdio frames, and not loading grpc and asyncio saves about
half of its start-up (bench/sandbox.py, ``sdk_import_ms``).
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import IO, TYPE_CHECKING, Any, BinaryIO

from ..bot import Bot, Clock, MatchInfo
from ..bot_errors import describe, first_line
from ..games import observation_class
from ..observation import Observation
from ..v1 import referee_pb2 as pb
from ..wire import ConversionError, action_to_proto, legal_actions_from_proto, observation_from_proto
from .config import RemoteBotSettings
from .frames import DEFAULT_MAX_FRAME, read_frame, write_frame

if TYPE_CHECKING:
    import grpc

CLIENT = "skyarena-python/0.1.0"
# Caps on both sides (the referee has its own): a bot sends small answers and receives
# observations that are at most a few hundred kilobytes.
MAX_SEND_BYTES = 1 << 20
MAX_RECEIVE_BYTES = 4 << 20
# How long the first connection may take before the bot gives up: a wrong address fails
# in seconds, not after gRPC's own minutes of retrying.
CONNECT_TIMEOUT_S = 5.0
# How long a seat whose stream broke keeps trying to rejoin (at least; longer when its
# pending decision's deadline is further off). Past it the referee has charged the seat or
# is gone: the bot stops with a message instead of waiting forever.
REJOIN_WINDOW_S = RemoteBotSettings.rejoin_window_s
# gRPC's status codes by number (fixed by the gRPC specification), for the referee's notices.
STATUS_NAMES = ("OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND", "ALREADY_EXISTS",
                "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE",
                "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED")

BotFactory = Callable[[str], Bot]


class RemoteError(Exception):
    """The referee refused the stream (a gRPC status), or the stream broke for good."""

    def __init__(self, message: str, code: grpc.StatusCode | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __str__(self) -> str:
        return f"{self.code.name}: {self.message}" if self.code is not None else self.message


class MatchAborted(RemoteError):
    """The match ended without a result (join timeout, cancelled, referee shutdown)."""


@dataclass
class RemoteResult:
    """How the seat's match ended."""

    match_id: str
    game: str
    seat: int
    result: dict[str, Any]            # ranks, scores, reason, details (as local play reports it)
    faults: list[dict[str, Any]] = field(default_factory=list)
    forfeited: list[int] = field(default_factory=list)
    decisions: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"match_id": self.match_id, "game": self.game, "seat": self.seat, **self.result,
                "faults": self.faults, "forfeited": self.forfeited, "decisions": self.decisions}


def fault_dict(fault: pb.Fault) -> dict[str, Any]:
    return {"seat": fault.seat, "turn": fault.turn, "kind": fault.kind, "reason": fault.reason,
            "strike": fault.strike, "forfeit": fault.forfeit}


def end_to_result(end: pb.MatchEnd) -> dict[str, Any]:
    result = end.result
    return {"ranks": list(result.ranks), "scores": list(result.scores), "reason": result.reason,
            "details": json.loads(result.details_json) if result.details_json else {}}


class SeatSession:
    """One seat's conversation with the referee, independent of the transport."""

    def __init__(self, bot_factory: BotFactory, say: Callable[[str], None] | None = None) -> None:
        self.bot_factory = bot_factory
        self.say = say or (lambda text: print(text, file=sys.stderr, flush=True))
        self.bot: Bot | None = None
        self.info: MatchInfo | None = None
        self.game = ""
        self.observation_type: type[Observation] | None = None
        self.start_error: str | None = None
        self.finished = False
        self.outcome: RemoteResult | None = None
        self.aborted: str | None = None

    def handle(self, message: pb.RefereeMessage) -> pb.BotMessage | None:
        """React to one referee message; returns the reply to send, if any."""
        kind = message.WhichOneof("kind")
        if kind == "turn":
            return self._turn(message.turn)
        if kind == "welcome":
            self._welcome(message.welcome)
        elif kind == "notice":
            notice = message.notice
            if notice.HasField("fault"):  # the bot's own exception is in the log already, in full
                fault = notice.fault
                self.say(f"referee: {fault.kind} on turn {fault.turn}, strike {fault.strike}"
                         f"{' (forfeit)' if fault.forfeit else ''}: {first_line(notice.message)}")
            else:
                self.say(f"referee: {_code_name(notice.code)}: {notice.message}")
        elif kind == "end":
            self._end(message.end)
        return None

    def _welcome(self, welcome: pb.Welcome) -> None:
        self.game = welcome.game
        self.observation_type = observation_class(welcome.game)
        if self.bot is not None:
            self.say(f"rejoined match {welcome.match_id} as seat {welcome.seat} ({welcome.strikes} strikes so far)")
            return
        options = json.loads(welcome.options_json) if welcome.options_json else {}
        self.info = MatchInfo(welcome.game, welcome.seat, welcome.players, options, welcome.bot_seed,
                              welcome.match_id)
        self.bot = self.bot_factory(welcome.game)
        try:
            self.bot.start(self.info)
        except Exception as exc:  # reported with the first answer, as a fault of the bot
            self.start_error = self._described(exc, "on_match_start")

    def _turn(self, turn: pb.TurnRequest) -> pb.BotMessage:
        bot, observation_type = self.bot, self.observation_type
        if bot is None or observation_type is None:
            return _reply(turn.turn, error="the referee sent a turn request before Welcome")
        if self.start_error is not None:
            error, self.start_error = self.start_error, None
            return _reply(turn.turn, error=error)
        game = self.game
        observation = observation_type.from_json(observation_from_proto(game, turn.observation))
        legal = legal_actions_from_proto(game, turn.legal_actions)
        bot.clock = Clock(turn.move_limit_s, turn.bank_s, turn.deadline_s or turn.move_limit_s + turn.bank_s)
        try:
            choice = bot.act(observation, legal)
        except Exception as exc:
            return _reply(turn.turn, error=self._described(exc, "act()"))
        if type(choice) is int and 0 <= choice < 1 << 32:  # the common answer, built in one call
            return _reply(turn.turn, index=choice)
        reply = _reply(turn.turn)
        encode_answer(game, choice, legal, reply.answer)
        return reply

    def _end(self, end: pb.MatchEnd) -> None:
        self.finished = True
        if end.state != pb.MATCH_STATE_FINISHED:
            self.aborted = end.reason or "the match was aborted"
            return
        info = self.info
        result = end_to_result(end)
        self.outcome = RemoteResult(
            match_id=info.match_id if info else "", game=self.game, seat=info.seat if info else -1, result=result,
            faults=[fault_dict(f) for f in end.faults], forfeited=list(end.forfeited), decisions=end.decisions,
        )
        if self.bot is not None and info is not None:
            try:
                self.bot.on_match_end(info, result)
            except Exception as exc:
                self._described(exc, "on_match_end")

    def _described(self, exc: Exception, where: str) -> str:
        """What the bot raised, as local play tells it; written to the log in full."""
        from ..loader import bot_folder

        reason = describe(exc, where, bot_folder(type(self.bot)) if self.bot is not None else None)
        self.say(reason)
        return reason

    def conclude(self) -> RemoteResult:
        if self.aborted is not None:
            raise MatchAborted(self.aborted)
        if self.outcome is None:
            raise RemoteError("the referee closed the stream before the match ended")
        return self.outcome


def _reply(turn: int, **choice: Any) -> pb.BotMessage:
    return pb.BotMessage(answer=pb.Answer(turn=turn, **choice))


def encode_answer(game: str, choice: Any, legal: list[Any], answer: pb.Answer) -> None:
    """An index when the bot returned one (or one of the very legal action objects it was
    handed), else the notation, or the typed message for a typed game."""
    if isinstance(choice, int) and not isinstance(choice, bool) and 0 <= choice < 1 << 32:
        answer.index = choice
        return
    if isinstance(choice, str):
        answer.action.notation = choice
        return
    for index, action in enumerate(legal):
        if action is choice:
            answer.index = index
            return
    try:
        action_to_proto(game, choice, answer.action)
    except (ConversionError, TypeError, ValueError):
        answer.action.Clear()
        answer.action.notation = str(choice)


def unreachable(address: str, waited_s: float) -> str:
    """What a client says when no referee answers at ``address`` (``skyarena run`` and
    ``skyarena match`` alike)."""
    return (f"no referee answers at {address} (waited {waited_s:g} s): check the address (--referee HOST:PORT or "
            "SKYARENA_REFEREE) and that `skyarena referee serve` runs there.")


def _code_name(code: int) -> str:
    return STATUS_NAMES[code] if 0 <= code < len(STATUS_NAMES) else str(code)


# ----- stdio -----------------------------------------------------------------------------

def play_stdio(session: SeatSession, token: str = "", client: str = CLIENT, stdin: BinaryIO | None = None,
               stdout: BinaryIO | None = None) -> RemoteResult:
    """Speak length-delimited frames: BotMessage out on stdout, RefereeMessage in on stdin.

    The relay (a worker) owns the stream to the referee and may put the real seat token
    into the Join; the bot's own prints go to stderr so they cannot corrupt the frames.
    """
    out = stdout if stdout is not None else sys.stdout.buffer
    inp = stdin if stdin is not None else sys.stdin.buffer
    with _prints_to_stderr(stdout is None):
        write_frame(out, pb.BotMessage(join=pb.Join(token=token, client=client)), MAX_SEND_BYTES)
        while not session.finished:
            message = read_frame(inp, pb.RefereeMessage, max(MAX_RECEIVE_BYTES, DEFAULT_MAX_FRAME))
            if message is None:
                break
            reply = session.handle(message)
            if reply is not None:
                write_frame(out, reply, MAX_SEND_BYTES)
    return session.conclude()


@contextlib.contextmanager
def _prints_to_stderr(active: bool) -> Any:
    if not active:
        yield
        return
    saved: IO[str] = sys.stdout
    sys.stdout = sys.stderr
    try:
        yield
    finally:
        sys.stdout = saved


# ----- the entry point -------------------------------------------------------------------

def bot_factory(bot_spec: str, game: str | None = None) -> BotFactory:
    """A function of the game name that makes the bot named by ``bot_spec`` (a house bot
    name, ``file.py`` or ``file.py:Class``). A bot file is loaded at once, so its errors show
    before connecting; a house bot name is resolved once the game is known, unless given."""
    from pathlib import Path

    from ..loader import create_bot, load_bot

    looks_like_file = bot_spec.endswith(".py") or ".py:" in bot_spec or Path(bot_spec).exists()
    if looks_like_file or game:
        _, cls = load_bot(bot_spec, game or "")
        made = [create_bot(cls)]  # an __init__ that raises or needs arguments: one line, before connecting
        return lambda _game: made.pop() if made else create_bot(cls)

    def make(actual_game: str) -> Bot:
        _, cls = load_bot(bot_spec, actual_game)
        return create_bot(cls)

    return make


def run_bot(bot: Bot | BotFactory, referee: str | None = None, token: str | None = None, *, stdio: bool = False,
            client: str = CLIENT, reconnects: int = 5) -> RemoteResult:
    """Play one seat. ``bot`` is a Bot, or a function of the game name that makes one (the
    game is known only once the referee has welcomed the seat).

    Defaults come from the environment (`RemoteBotSettings`): ``SKYARENA_REFEREE``,
    ``SKYARENA_SEAT_TOKEN``, ``SKYARENA_STDIO`` and ``SKYARENA_REJOIN_WINDOW_S`` (how long to
    try rejoining a referee that went away, default REJOIN_WINDOW_S).
    """
    factory: BotFactory = (lambda game: bot) if isinstance(bot, Bot) else bot
    session = SeatSession(factory)
    try:
        settings = RemoteBotSettings.from_env()
    except ValueError as exc:
        raise RemoteError(str(exc)) from None
    stdio = stdio or settings.stdio_requested(os.environ)
    token = token if token is not None else settings.seat_token
    if stdio:
        return play_stdio(session, token, client)
    referee = referee or settings.referee or None
    if not referee:
        raise RemoteError("no referee address: pass referee='HOST:PORT' (skyarena run --referee) or set "
                          "SKYARENA_REFEREE")
    if not token:
        raise RemoteError("no seat token: pass token=... (skyarena run --token) or set SKYARENA_SEAT_TOKEN")
    window = settings.rejoin_window_s
    import asyncio

    from .grpc_transport import play_grpc

    return asyncio.run(play_grpc(session, referee, token, client, reconnects, rejoin_window_s=window))
