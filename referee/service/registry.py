"""Every match of one referee process: StartMatch's checks, the seat tokens, and lifetimes.

A StartMatch request is checked here field by field before any match exists (each refusal
a :class:`~.errors.RequestError` whose message says what to send instead); the registry then
creates the :class:`~.driver.Match`, issues one seat token per seat, finds matches by id
(operators, spectators) and by token (seats), and forgets a match ``limits.retain_s`` after
it ends, keeping its id refused for ``limits.match_id_retain_s`` more.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import re
import secrets
import time
from typing import Any

import grpc

from referee.games import make
from referee.match import TimeControl
from referee.match.clock import MIN_WALL_BACKSTOP
from referee.match.faults import cap
from skyarena.v1 import referee_pb2 as pb

from .driver import Match
from .errors import RequestError
from .limits import Limits
from .logs import log
from .metrics import Metrics
from .seeds import SeatSeeds
from .tokens import SeatTokens

MATCH_ID_RE = re.compile(r"^[A-Za-z0-9._-]{1,64}$")
DEFAULT_TIME_CONTROL = TimeControl()


def _utc(timestamp: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(timestamp))


class MatchRegistry:
    """Every match of this process, the seat tokens, and their lifetimes."""

    def __init__(self, limits: Limits, metrics: Metrics, seeds: SeatSeeds | None = None) -> None:
        self.limits = limits
        self.metrics = metrics
        self.matches: dict[str, Match] = {}
        self.tokens = SeatTokens()
        self.seeds = seeds or SeatSeeds()
        # Ids of forgotten matches and when they were forgotten, kept limits.match_id_retain_s
        # more: a match id is never started twice by this process within that window.
        self.used_ids: dict[str, float] = {}
        self.started_at = time.time()
        self.accepting = True

    def running(self) -> list[Match]:
        return [m for m in self.matches.values() if not m.phase.over]

    def start(self, request: pb.StartMatchRequest) -> tuple[Match, list[str]]:
        """Validate a StartMatch request and create the match; returns it and the seat tokens."""
        if not self.accepting:
            raise RequestError(grpc.StatusCode.UNAVAILABLE,
                               "the referee is shutting down and starts no new match; use another referee.")
        if len(self.running()) >= self.limits.max_matches:
            raise RequestError(grpc.StatusCode.RESOURCE_EXHAUSTED,
                               f"this referee already runs {self.limits.max_matches} matches; retry later or use "
                               "another referee.")
        match_id = request.match_id or f"m-{secrets.token_hex(8)}"
        if not MATCH_ID_RE.match(match_id):
            raise RequestError(grpc.StatusCode.INVALID_ARGUMENT,
                               f"match_id {match_id!r} must be 1-64 characters of A-Z a-z 0-9 . _ -")
        if match_id in self.matches:
            raise RequestError(grpc.StatusCode.ALREADY_EXISTS,
                               f"match {match_id} already exists on this referee; a retried StartMatch must not "
                               "start it twice. Use GetMatch to follow it, or start a new attempt under a new id "
                               f"(e.g. {match_id}.a2).")
        if match_id in self.used_ids:
            raise RequestError(grpc.StatusCode.ALREADY_EXISTS,
                               f"match id {match_id} was already used on this referee (its match is forgotten); start "
                               f"each attempt under a new id (e.g. {match_id}.a2), with the same seed to replay it.")
        players = request.players
        if players != len(request.seats):
            raise RequestError(grpc.StatusCode.INVALID_ARGUMENT,
                               f"players is {players} but {len(request.seats)} seats were given; give one SeatSpec "
                               "per seat.")
        options = self._options(request.options_json)
        seed = request.seed if request.HasField("seed") else secrets.randbelow(1 << 62)
        control = self._time_control(request)
        strike_limit = request.strike_limit or 3
        if strike_limit > self.limits.max_strikes:
            raise RequestError(grpc.StatusCode.INVALID_ARGUMENT,
                               f"strike_limit {strike_limit} is above this referee's ceiling of "
                               f"{self.limits.max_strikes}.")
        join_timeout = request.join_timeout_s or self.limits.join_timeout_s
        if not 0 < join_timeout <= self.limits.max_join_timeout_s:
            raise RequestError(grpc.StatusCode.INVALID_ARGUMENT,
                               f"join_timeout_s must be above 0 and at most {self.limits.max_join_timeout_s:g} s.")
        try:
            state = make(request.game, players, seed, options)
        except Exception as exc:  # OptionError, PlayerCountError, a game's setup validation
            raise RequestError(grpc.StatusCode.INVALID_ARGUMENT, str(exc)) from None
        names = [s.name or f"seat {i}" for i, s in enumerate(request.seats)]
        cpu_seats = [i for i, s in enumerate(request.seats) if s.cpu_clock]
        match = Match(match_id, state, names, control, strike_limit, join_timeout, self.limits, self.metrics,
                      self._ended, self.seeds, cpu_seats)
        self.matches[match_id] = match
        self.metrics.matches_running.inc()
        tokens = [self.tokens.issue(match_id, seat) for seat in range(players)]
        return match, tokens

    @staticmethod
    def _options(text: str) -> dict[str, Any]:
        if not text.strip():
            return {}
        try:
            options = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RequestError(grpc.StatusCode.INVALID_ARGUMENT, f"options_json is not JSON: {exc.msg}") from None
        if not isinstance(options, dict):
            raise RequestError(grpc.StatusCode.INVALID_ARGUMENT,
                               'options_json must be a JSON object such as {"max_rounds": 20}')
        return options

    def _time_control(self, request: pb.StartMatchRequest) -> TimeControl:
        lim = self.limits
        if not request.HasField("time_control"):
            return dataclasses.replace(DEFAULT_TIME_CONTROL, wall_backstop=lim.wall_backstop)
        tc = request.time_control
        checks = (("move_s", tc.move_s, lim.max_move_s), ("first_move_s", tc.first_move_s, lim.max_move_s),
                  ("bank_s", tc.bank_s, lim.max_bank_s))
        for name, value, ceiling in checks:
            if not 0 <= value <= ceiling:
                raise RequestError(grpc.StatusCode.INVALID_ARGUMENT,
                                   f"time_control.{name} must be from 0 to {ceiling:g} s, got {value}")
        if tc.move_s <= 0:
            raise RequestError(grpc.StatusCode.INVALID_ARGUMENT, "time_control.move_s must be above 0")
        backstop = tc.wall_backstop or lim.wall_backstop
        if not MIN_WALL_BACKSTOP <= backstop <= lim.max_wall_backstop:
            raise RequestError(grpc.StatusCode.INVALID_ARGUMENT,
                               f"time_control.wall_backstop must be 0 (the referee's default) or from "
                               f"{MIN_WALL_BACKSTOP:g} to {lim.max_wall_backstop:g}, got {tc.wall_backstop}")
        return TimeControl(move_s=tc.move_s, bank_s=tc.bank_s, first_move_s=tc.first_move_s or tc.move_s,
                           wall_backstop=backstop)

    def get(self, match_id: str) -> Match:
        match = self.matches.get(match_id)
        if match is None:
            shown = cap(match_id, 64)
            if match_id in self.used_ids:
                raise RequestError(grpc.StatusCode.NOT_FOUND,
                                   f"match {shown} ended more than {self.limits.retain_s:g} s ago and is forgotten "
                                   "(--retain): its result was only kept that long.")
            raise RequestError(grpc.StatusCode.NOT_FOUND,
                               f"this referee does not know match {shown!r}: it never started it, or it ran before "
                               f"the referee restarted (this process started at {_utc(self.started_at)}; matches do "
                               "not survive a restart).")
        return match

    def by_token(self, token: str) -> tuple[Match, int]:
        key = self.tokens.lookup(token)
        if key is None and self.tokens.issued_elsewhere(token):
            raise RequestError(grpc.StatusCode.UNAUTHENTICATED,
                               "this seat token was issued by another run of the referee (it restarted at "
                               f"{_utc(self.started_at)}, or this is a different referee): it no longer knows that "
                               "match. The platform must start the match again (a new StartMatch gives new tokens).")
        match = self.matches.get(key.match_id) if key is not None else None
        if match is None:
            raise RequestError(grpc.StatusCode.UNAUTHENTICATED,
                               "unknown seat token: join with the token StartMatch returned for your seat (a match's "
                               f"tokens are forgotten {self.limits.retain_s:g} s after it ends).")
        assert key is not None
        return match, key.seat

    def _ended(self, match: Match) -> None:
        self.metrics.matches_running.dec()
        asyncio.get_running_loop().call_later(self.limits.retain_s, self._forget, match.id)

    def _forget(self, match_id: str) -> None:
        self.matches.pop(match_id, None)
        self.tokens.revoke_match(match_id)
        now = time.time()
        self.used_ids[match_id] = now
        horizon = now - self.limits.match_id_retain_s
        while self.used_ids:  # oldest first (insertion order): drop the ids past the window
            oldest, at = next(iter(self.used_ids.items()))
            if at >= horizon:
                break
            del self.used_ids[oldest]

    async def shutdown(self, grace_s: float) -> None:
        """Start no new match; let running ones finish within ``grace_s``; abort the rest."""
        self.accepting = False
        running = self.running()
        if running:
            log.info("shutdown_waiting", matches=len(running), grace_s=grace_s)
            await asyncio.wait([asyncio.ensure_future(m.done.wait()) for m in running], timeout=grace_s)
        for match in self.running():
            match.abort(f"the referee shut down before the match ended (grace period {grace_s:g} s).")
