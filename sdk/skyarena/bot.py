"""The ``Bot`` base class that bot authors subclass."""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar


@dataclass(frozen=True)
class MatchInfo:
    """What a bot is told when a match starts.

    ``options`` are the game options in force, except ``setup`` (it would reveal the deal).
    ``bot_seed`` seeds ``Bot.random`` so a bot's own randomness is reproducible; it says
    nothing about the dice or the deck.
    """

    game: str
    seat: int
    players: int
    options: dict[str, Any] = field(default_factory=dict)
    bot_seed: int = 0
    match_id: str = ""


@dataclass(frozen=True)
class Clock:
    """The clock of the decision being asked, as the referee set it: a bot that thinks
    (searches) reads how long it may take here. Seconds are counted from when the request
    reached the bot's process; on a CPU clock the referee charges CPU seconds, which a
    single-threaded bot spends no faster than wall seconds, so reading wall time here is
    on the safe side."""

    move_s: float
    """This decision's limit before the time bank is drawn on."""
    bank_s: float
    """What is left of the seat's time bank."""
    deadline_s: float
    """Seconds from the request until the referee plays the fallback action (limit plus
    bank, less anything already spent)."""
    received: float = field(default_factory=time.monotonic)
    """``time.monotonic()`` when the request arrived."""

    def elapsed(self) -> float:
        return time.monotonic() - self.received

    def move_left(self) -> float:
        """Seconds left before this decision starts drawing on the bank."""
        return min(self.move_s, self.deadline_s) - self.elapsed()

    def left(self) -> float:
        """Seconds left before the fallback action is played (bank included)."""
        return self.deadline_s - self.elapsed()


class Bot:
    """Subclass and implement :meth:`act`.

    ``act(observation, legal_actions)`` receives the game's typed observation (what your
    seat may know) and the legal actions in canonical order, and returns one of them, its
    notation string, or its index. The same class plays locally (``skyarena play``) and on
    the platform, unchanged.
    """

    name: ClassVar[str | None] = None

    def __init__(self) -> None:
        self.random = random.Random(0)
        self.info: MatchInfo | None = None
        # The current decision's clock, set before each act() (None when the match has no
        # clock, as under play_unclocked).
        self.clock: Clock | None = None

    # ----- hooks -------------------------------------------------------------------
    def on_match_start(self, info: MatchInfo) -> None:
        """Called once before the first decision."""

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        raise NotImplementedError(f"{type(self).__name__} must implement act(observation, legal_actions)")

    def on_match_end(self, info: MatchInfo, result: dict[str, Any]) -> None:
        """Called once with the final result (ranks, scores, reason) as a dict."""

    # ----- used by the runners -------------------------------------------------------
    def start(self, info: MatchInfo) -> None:
        self.info = info
        self.random = random.Random(info.bot_seed)
        self.on_match_start(info)

    def sample_state(self, observation: Any, rng: random.Random | None = None) -> Any:
        """A full engine state consistent with what this seat knows (the forward model,
        :func:`skyarena.forward.sample_state`), drawn with ``rng`` (``self.random`` by
        default): clone it, apply actions, play it out."""
        from .forward import sample_state

        if self.info is None:
            raise RuntimeError("sample_state needs the match's info: call it from act(), after the match started.")
        return sample_state(observation, self.info, self.random if rng is None else rng)

    @classmethod
    def display_name(cls) -> str:
        return cls.name or cls.__name__

    def run(self, referee: str | None = None, token: str | None = None, *, stdio: bool = False) -> Any:
        """Play one seat on a referee (gRPC at ``referee`` with the seat ``token``, or
        length-delimited frames on stdin/stdout with ``stdio=True``); returns the seat's
        RemoteResult. Defaults: SKYARENA_REFEREE, SKYARENA_SEAT_TOKEN, SKYARENA_STDIO."""
        from .remote import run_bot  # imported here: local play needs no gRPC

        return run_bot(self, referee, token, stdio=stdio)


def bot_seed(match_seed: int, seat: int, salt: str = "") -> int:
    """A per-seat seed for a bot's own randomness that reveals nothing of the match seed."""
    digest = hashlib.sha256(f"skyarena-bot:{match_seed}:{seat}:{salt}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


class RandomBot(Bot):
    """Plays a uniformly random legal action: the baseline every game has."""

    name = "random"

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        return self.random.randrange(len(legal_actions))
