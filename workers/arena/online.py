"""The Online service (`proto/skyarena/v1/online.proto`): online versions register, connect, accept seats.

Served by the Arena's process beside the Arena service, over the same store and token check.
A Connect stream holds one of the server's threads for as long as the bot is online, so
their number is capped (``max_connections``; one more is refused at once with
RESOURCE_EXHAUSTED, saying so) and the server has that many threads more than the Arena's
calls need. While a stream lives it sends each of the version's open invitations once (one
thread, the `InvitationBoard`, reads every connected version's from the store every
``poll_s``), refreshes the version's session every heartbeat (and says so to the bot), and
ends when another Connect for the same version replaced it. When the stream
ends, however it ends, gRPC's done-callback deletes the session at once: the version is
offline from that moment (and at the latest `OFFLINE_AFTER_S` after its last heartbeat if the
Arena itself dies). Nothing here is rate limited.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import grpc

from referee.games import spec
from serving.logs import EventLog
from skyarena.v1 import arena_pb2 as arena_pb
from skyarena.v1 import online_pb2 as pb
from skyarena.v1 import online_pb2_grpc as pb_grpc
from skyarena.v1 import referee_pb2 as referee_pb
from workers.store import Database, matches, versions
from workers.store import online as store
from workers.store.database import Row
from workers.store.submissions import refuse_during_finals

from .archive import NAME_PATTERN
from .auth import AUTHOR_SCOPES, PLAY_SCOPES, authenticate
from .errors import BadRequest, CallRefused
from .intake import Dispatch
from .metrics import ArenaMetrics
from .service import _call, streamed, version_info
from .smoke import queue_smoke

log = EventLog("skyarena.arena")
MAX_GAMES = 64               # the most matches one connection may declare at once
DEFAULT_MAX_CONNECTIONS = 64  # Connect streams served at once (each holds a server thread)
POLL_S = 0.1                 # how often a stream looks for new invitations (a small indexed read)


def invitation_message(row: Row) -> pb.Invitation:
    """An open invitation as the bot receives it (``resume``: accepted before, its match in progress)."""
    return pb.Invitation(
        id=row["id"], match_id=row["match_id"], referee_match_id=row["referee_match_id"], seat=row["seat"],
        seat_token=row["seat_token"] or "", referee=row["referee"], game=row["game"], players=row["players"],
        options_json=json.dumps(store.options_without_setup(row["options"] or {})),
        time_control=referee_pb.TimeControl(move_s=row["move_s"], bank_s=row["bank_s"],
                                            first_move_s=row["first_move_s"]),
        strike_limit=row["strike_limit"], kind=row["kind"], season=row["season"],
        accept_within_s=row["accept_within_s"], join_within_s=row["join_within_s"],
        resume=row["state"] != "pending")


class InvitationBoard:
    """The open invitations of every version connected to this Arena process, read in one query
    every ``poll_s`` by one thread (not one query per stream), each stream woken when its own change."""

    def __init__(self, db: Database, poll_s: float = POLL_S) -> None:
        self.db = db
        self.poll_s = poll_s
        self._lock = threading.Lock()
        self._watchers: dict[int, list[threading.Event]] = {}
        self._rows: dict[int, list[Row]] = {}
        self._thread: threading.Thread | None = None
        self._closed = threading.Event()

    def close(self) -> None:
        """Stop reading (the server stops)."""
        self._closed.set()

    def watch(self, version_id: int, wake: threading.Event) -> None:
        with self._lock:
            self._watchers.setdefault(version_id, []).append(wake)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="arena-invitations", daemon=True)
                self._thread.start()

    def unwatch(self, version_id: int, wake: threading.Event) -> None:
        with self._lock:
            watchers = self._watchers.get(version_id, [])
            if wake in watchers:
                watchers.remove(wake)
            if not watchers:
                self._watchers.pop(version_id, None)
                self._rows.pop(version_id, None)

    def rows(self, version_id: int) -> list[Row]:
        with self._lock:
            return list(self._rows.get(version_id, []))

    def _run(self) -> None:
        while not self._closed.is_set():
            with self._lock:
                ids = list(self._watchers)
            if ids:
                try:
                    with self.db.connection() as conn:
                        found = store.open_invitations(conn, ids)
                except Exception as exc:  # the store blinked: the streams keep what they had, the next read may work
                    log.warning("invitations_unread", error=f"{type(exc).__name__}: {exc}")
                    found = None
                if found is not None:
                    self._publish(ids, found)
            self._closed.wait(self.poll_s)

    def _publish(self, ids: list[int], found: list[Row]) -> None:
        by_version: dict[int, list[Row]] = {version_id: [] for version_id in ids}
        for row in found:
            by_version.setdefault(row["version_id"], []).append(row)
        with self._lock:
            for version_id, rows in by_version.items():
                before = [(r["id"], r["state"]) for r in self._rows.get(version_id, [])]
                self._rows[version_id] = rows
                if [(r["id"], r["state"]) for r in rows] != before:
                    for wake in self._watchers.get(version_id, []):
                        wake.set()


class OnlineService(pb_grpc.OnlineServicer):
    def __init__(self, db: Database, dispatch: Dispatch, metrics: ArenaMetrics | None = None,
                 max_connections: int = DEFAULT_MAX_CONNECTIONS, heartbeat_s: float = store.HEARTBEAT_S,
                 poll_s: float = POLL_S) -> None:
        self.db = db
        self.dispatch = dispatch
        self.metrics = metrics or ArenaMetrics()
        self.max_connections = max_connections
        self.heartbeat_s = heartbeat_s
        self.poll_s = poll_s
        self._slots = threading.BoundedSemaphore(max_connections)
        self.board = InvitationBoard(db, poll_s)

    @_call
    def RegisterOnlineVersion(self, request: pb.RegisterOnlineRequest,
                              context: grpc.ServicerContext) -> arena_pb.SubmitVersionResponse:
        account = authenticate(self.db, context.invocation_metadata(), AUTHOR_SCOPES)
        if not NAME_PATTERN.fullmatch(request.bot):
            raise BadRequest(f"bot name {request.bot[:64]!r} is not allowed: use 1-64 letters, digits, '_', '.' or "
                             "'-', starting with a letter or digit")
        spec(request.game)  # UnknownGame, naming the games, for a game that does not exist
        with self.db.connection() as conn:
            registered = store.register_online(conn, account.name, request.bot, request.game)
            if not registered.existing:
                refuse_during_finals(conn, request.game)   # the whole transaction is undone
            row = versions.version(conn, registered.version_id)
        log.info("online_registered", account=account.name, bot=request.bot, version_id=registered.version_id,
                 existing=registered.existing)
        return arena_pb.SubmitVersionResponse(version=version_info(row), existing=registered.existing)

    @_call
    def AcceptInvitation(self, request: pb.AcceptInvitationRequest,
                         context: grpc.ServicerContext) -> pb.AcceptInvitationResponse:
        account = authenticate(self.db, context.invocation_metadata(), PLAY_SCOPES)
        with self.db.connection() as conn:
            row = store.accept(conn, request.invitation_id, account.id)
        return pb.AcceptInvitationResponse(invitation_id=row["id"], match_id=row["match_id"],
                                           join_within_s=row["join_within_s"])

    @streamed
    def Connect(self, request: pb.ConnectRequest, context: grpc.ServicerContext) -> Iterator[pb.OnlineEvent]:
        account = authenticate(self.db, context.invocation_metadata(), PLAY_SCOPES)
        max_games = request.max_games or 1
        if not 1 <= max_games <= MAX_GAMES:
            raise BadRequest(f"max_games must be 1 to {MAX_GAMES} (0 means 1), not {max_games}")
        if not request.bot and not request.version_id:
            raise BadRequest("name the bot to connect (ConnectRequest.bot), or its version (version_id)")
        if not self._slots.acquire(blocking=False):
            raise CallRefused(grpc.StatusCode.RESOURCE_EXHAUSTED,
                              f"the Arena serves {self.max_connections} online bots already: try again in a minute, "
                              "or ask the organisers to raise --max-connections")
        try:
            yield from self._connected(account.id, account.name, request, max_games, context)
        finally:
            self._slots.release()

    def _connected(self, owner_id: int, owner: str, request: pb.ConnectRequest, max_games: int,
                   context: grpc.ServicerContext) -> Iterator[pb.OnlineEvent]:
        version_id, session, connected = self._open(owner_id, request, max_games)
        ended = threading.Event()
        wake = threading.Event()  # new invitations for the version, or the stream's end

        def offline() -> None:  # the stream ended, however: the version is offline at once
            ended.set()
            wake.set()
            with self.db.connection() as conn:
                store.close_session(conn, version_id, session)

        context.add_callback(offline)
        self.board.watch(version_id, wake)
        log.info("online_connected", account=owner, version_id=version_id, max_games=max_games,
                 client=request.client[:200])
        try:
            yield pb.OnlineEvent(connected=connected)
            yield from self._serve(version_id, session, context, ended, wake)
        finally:
            self.board.unwatch(version_id, wake)
            log.info("online_disconnected", account=owner, version_id=version_id)

    def _open(self, owner_id: int, request: pb.ConnectRequest, max_games: int) -> tuple[int, str, pb.Connected]:
        """Check the version, reinstate a no-show pause, open the session, queue a pending smoke match."""
        smoke = False
        with self.db.connection() as conn:
            row = store.connectable_version(conn, owner_id, request.bot, request.version_id)
            if row["account_id"] != owner_id:
                raise store.NotYours(f"version {row['id']} is another account's bot: a token connects only its own "
                                     "account's versions")
            store.check_connectable(row)
            store.reinstate_after_no_shows(conn, row["id"])
            session = store.open_session(conn, row["id"], max_games, request.client)
            if row["status"] == "smoke" and self._smoke_due(conn, row):
                queue_smoke(conn, row["id"], row["game"])
                smoke = True
            info = versions.version(conn, row["id"])
        if smoke:
            self.dispatch(row["id"])
        return row["id"], session, pb.Connected(
            version_id=row["id"], bot=info["bot"], version=info["number"], game=info["game"], status=info["status"],
            status_message=info["status_message"], max_games=max_games, heartbeat_s=self.heartbeat_s,
            offline_after_s=store.OFFLINE_AFTER_S)

    @staticmethod
    def _smoke_due(conn: Any, row: Row) -> bool:
        """A smoke version needs a (new) smoke match when it has none or its last one was void (a no-show)."""
        if not row["smoke_match_id"]:
            return True
        match = matches.match(conn, row["smoke_match_id"])
        return match is None or match["status"] == "void"

    def _serve(self, version_id: int, session: str, context: grpc.ServicerContext, ended: threading.Event,
               wake: threading.Event) -> Iterator[pb.OnlineEvent]:
        """Invitations as the board finds them, each once per stream (a new stream tells every open
        one again), and a heartbeat every ``heartbeat_s``, until the stream ends or is replaced."""
        sent: set[int] = set()
        sequence = 0
        next_beat = time.monotonic() + self.heartbeat_s
        while context.is_active() and not ended.is_set():
            wake.clear()
            for row in self.board.rows(version_id):
                if row["id"] not in sent:
                    sent.add(row["id"])
                    yield pb.OnlineEvent(invitation=invitation_message(row))
            if time.monotonic() >= next_beat:
                with self.db.connection() as conn:
                    alive = store.beat_session(conn, version_id, session)
                    busy = store.in_flight(conn, version_id)
                if not alive:
                    raise CallRefused(grpc.StatusCode.ABORTED, f"another Connect for version {version_id} replaced "
                                      "this one (replaced by a newer connection): keep one connection per version")
                sequence += 1
                next_beat = time.monotonic() + self.heartbeat_s
                yield pb.OnlineEvent(heartbeat=pb.Heartbeat(sequence=sequence, in_flight=busy))
            wake.wait(max(0.0, next_beat - time.monotonic()))
