"""Keeping an online version online: the Connect stream, its invitations, the matches they seat.

:class:`OnlinePlayer` holds one Connect stream to the Arena (``online.proto``) and plays every
invitation it is sent with the SDK's remote runner (``skyarena.remote``: the same ``Play``
stream, rejoining and typed observations as ``skyarena run``), each match in a thread of its
own, so several run at once up to the ``max_games`` it declared. Heartbeats come every few
seconds; when none came for three of them, or the stream broke, it connects again (waiting
longer each time, at most ``MAX_BACKOFF_S``); the Arena then sends every invitation still
open, and a match in progress that this process is not playing any more (it was restarted)
is rejoined with its seat token through the referee's rejoin window. A refusal that
reconnecting cannot cure (a wrong token, another account's bot, a hosted version, a newer
connection for the same version) ends it with the Arena's one-line message.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import grpc

from skyarena.v1 import online_pb2 as pb
from skyarena.v1 import online_pb2_grpc as pb_grpc

from ..remote.runner import BotFactory, RemoteError, SeatSession
from .client import Arena

CLIENT = "skyarena-python/0.1.0 connect"
MAX_BACKOFF_S = 5.0
MISSED_HEARTBEATS = 3    # heartbeats not heard before the stream counts as dead
# Statuses that another attempt cannot change: the message says what to do instead.
FINAL = frozenset({grpc.StatusCode.UNAUTHENTICATED, grpc.StatusCode.PERMISSION_DENIED, grpc.StatusCode.NOT_FOUND,
                   grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.FAILED_PRECONDITION, grpc.StatusCode.ABORTED,
                   grpc.StatusCode.UNIMPLEMENTED})
CHANNEL_OPTIONS = [("grpc.keepalive_time_ms", 10_000), ("grpc.keepalive_timeout_ms", 5_000),
                   ("grpc.keepalive_permit_without_calls", 1)]


class ConnectRefused(Exception):
    """The Arena refused the connection for good (the message is its own)."""


@dataclass(frozen=True)
class Played:
    """One match this process played (or tried to)."""

    match_id: str
    seat: int
    outcome: str          # a line for the author: rank and result, or why it did not finish


class OnlinePlayer:
    def __init__(self, arena: Arena, factory: BotFactory, bot: str, version_id: int = 0, max_games: int = 1,
                 games: int | None = None, say: Callable[[str], None] = print) -> None:
        self.arena = arena
        self.factory = factory
        self.request = pb.ConnectRequest(bot=bot, version_id=version_id, max_games=max_games, client=CLIENT)
        self.games = games
        self.say = say
        self.played: list[Played] = []
        self._playing: dict[int, threading.Thread] = {}
        self._lock = threading.Lock()
        self._done = threading.Event()
        self._call: grpc.Call | None = None

    def run(self) -> list[Played]:
        """Stay connected until ``games`` matches were played (or forever), reconnecting as needed."""
        failures = 0
        while not self._done.is_set():
            try:
                self._session()
                failures = 0
            except grpc.RpcError as exc:
                code = exc.code() if isinstance(exc, grpc.Call) else grpc.StatusCode.UNKNOWN
                details = exc.details() if isinstance(exc, grpc.Call) else str(exc)
                if self._done.is_set():
                    break
                if code in FINAL:
                    self.stop()
                    raise ConnectRefused(details or code.name) from None
                failures += 1
                wait = min(0.5 * 2 ** failures, MAX_BACKOFF_S)
                self.say(f"connection to the Arena lost ({code.name}: {details}); connecting again in {wait:g} s")
                self._done.wait(wait)
        self._finish_matches()
        return self.played

    def stop(self) -> None:
        """Go offline: the Connect stream ends; matches in progress are played to their end."""
        self._done.set()
        self.drop()

    def drop(self) -> None:
        """Break the Connect stream as a network drop would: the player connects again by itself
        (the disconnect-storm test and benchmark use it)."""
        call = self._call
        if call is not None:
            call.cancel()

    def _session(self) -> None:
        with grpc.insecure_channel(self.arena.address, options=CHANNEL_OPTIONS) as channel:
            stub = pb_grpc.OnlineStub(channel)
            call = stub.Connect(self.request, metadata=self.arena.metadata)
            self._call = call
            heard = [time.monotonic(), 10.0]  # last message, heartbeat period
            watchdog = threading.Thread(target=self._watch, args=(call, heard), daemon=True)
            watchdog.start()
            try:
                for event in call:
                    heard[0] = time.monotonic()
                    kind = event.WhichOneof("kind")
                    if kind == "connected":
                        c = event.connected
                        heard[1] = c.heartbeat_s
                        self.say(f"online: {c.bot} v{c.version} (version {c.version_id}, {c.game}) is {c.status}, "
                                 f"up to {c.max_games} match(es) at once"
                                 + (f" — {c.status_message}" if c.status_message else ""))
                    elif kind == "invitation":
                        self._take(stub, event.invitation)
                    if self._done.is_set():
                        return
            finally:
                self._call = None
                call.cancel()

    def _watch(self, call: grpc.Call, heard: list[float]) -> None:
        """Cancel a stream that went silent (no heartbeat for three periods): the loop connects again."""
        while call.is_active():
            if time.monotonic() - heard[0] > MISSED_HEARTBEATS * heard[1]:
                call.cancel()
                return
            time.sleep(0.2)

    def _take(self, stub: pb_grpc.OnlineStub, invitation: pb.Invitation) -> None:
        with self._lock:
            if invitation.id in self._playing:
                return  # told again after a reconnection; this process is playing it already
        try:
            stub.AcceptInvitation(pb.AcceptInvitationRequest(invitation_id=invitation.id),
                                  metadata=self.arena.metadata, timeout=10)
        except grpc.RpcError as exc:
            details = exc.details() if isinstance(exc, grpc.Call) else str(exc)
            self.say(f"invitation {invitation.id} (match {invitation.match_id}) not taken: {details}")
            return
        what = "rejoining" if invitation.resume else "playing"
        where = f"{invitation.kind} {invitation.season}".strip()
        self.say(f"{what} match {invitation.match_id} ({where}, seat {invitation.seat}) on {invitation.referee}")
        thread = threading.Thread(target=self._play, args=(invitation,), name=f"match-{invitation.match_id}",
                                  daemon=True)
        with self._lock:
            self._playing[invitation.id] = thread
        thread.start()

    def _play(self, invitation: pb.Invitation) -> None:
        from ..remote.grpc_transport import play_grpc

        session = SeatSession(self.factory, say=self.say)
        try:
            result = asyncio.run(play_grpc(session, invitation.referee, invitation.seat_token, CLIENT))
            ranks = result.result["ranks"]
            own = [f for f in result.faults if f["seat"] == result.seat]
            outcome = (f"ranked {ranks[result.seat] + 1} of {len(ranks)} ({result.result['reason']}), "
                       f"{len(own)} fault(s)")
        except RemoteError as exc:
            outcome = f"did not finish here: {exc}"
        except Exception as exc:  # the bot's own loading failed: the referee plays its fallback
            outcome = f"failed: {type(exc).__name__}: {exc}"
        self.say(f"match {invitation.match_id}: {outcome}")
        with self._lock:
            self._playing.pop(invitation.id, None)
            self.played.append(Played(invitation.match_id, invitation.seat, outcome))
            if self.games is not None and len(self.played) >= self.games:
                self.stop()

    def _finish_matches(self) -> None:
        with self._lock:
            threads = list(self._playing.values())
        for thread in threads:
            thread.join()
