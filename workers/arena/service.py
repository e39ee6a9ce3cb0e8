"""The Arena's calls: each checks the caller's token, reads or changes the store, answers.

Handlers are plain synchronous methods run on the server's thread pool (the store is
psycopg's blocking pool). `_call` wraps every one: it times it, turns each layer's errors
into gRPC statuses by class (`statuses.py`) whose message says what to do, and logs one JSON line per call (never a
token). Authors see and change only their own bots; organisers everyone's.
"""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Callable, Iterator
from typing import Any, Protocol, TypeVar

import grpc

from referee.match.faults import REASON_LIMIT, cap
from serving.logs import EventLog
from skyarena.settings import current
from skyarena.v1 import arena_pb2 as pb
from skyarena.v1 import arena_pb2_grpc as pb_grpc
from workers.boss_smoke import smoke_bosses
from workers.challenge_release import ReleasePolicy
from workers.config import QueueSettings
from workers.finals import DEFAULT_GAMES_PER_PAIR, Finals
from workers.ladder_confidence import ladder_confidence, ladder_settling
from workers.leagues import parse_leagues
from workers.matchmaking import MatchmakingParameters
from workers.seasons import SeasonSpec, default_player_counts, season_defaults
from workers.store import Database, NotFound, matches, versions
from workers.store import submissions as store
from workers.store.accounts import (
    Account,
    account_by_name,
    issue_token,
    revoke_account_tokens,
    revoke_token,
    token_expiry,
)
from workers.store.challenges import ChallengeLimits, ChallengeRefused, queue_challenges, release_waiting
from workers.store.database import Row
from workers.store.finals import start_finals
from workers.store.ladders import frozen_standings, leaderboard, rating_history, version_ladders
from workers.store.leagues import standing_leagues
from workers.store.results import decompress_replay
from workers.store.seasons import (
    Season,
    close_season,
    create_season,
    get_season,
    season_details,
    start_season,
)
from workers.store.version_status import pause_version, reinstate_version

from .archive import NAME_PATTERN, ArchiveLimits, ArchiveRefused
from .auth import AUTHOR_SCOPES, ORGANISER_SCOPES, authenticate, is_organiser, require_owner
from .challenges import seat_lists as challenge_seats
from .errors import BadRequest, CallRefused
from .intake import Dispatch, Enqueue, Intake, receive
from .metrics import ArenaMetrics
from .participant_replay import stored_seat_jsonl
from .public_replay import public_jsonl
from .rate_limits import SubmissionGate, when
from .statuses import status_of
from .upload_limits import UploadLimits, UploadRefused, bounded_stream, refuse

LOGGER_NAME = "skyarena.arena"
log = EventLog(LOGGER_NAME)
R = TypeVar("R")
Y = TypeVar("Y")
DEFAULT_LIMIT = 100
MAX_LIMIT = 1000
ISSUABLE_SCOPES = ("author", "organiser", "play")  # service tokens are made by operators with database access
MAX_TOKEN_LIFETIME_S = 100 * 365.25 * 86400  # longer is "never" (0); far longer overflows Postgres' timestamps

# What a version's bot page says when an organiser paused or reinstated it through the Arena without a reason
PAUSED_NOTE = "paused by an organiser"
REINSTATED_NOTE = "reinstated by an organiser"


def _stamp(value: Any) -> str:
    return value.isoformat() if value is not None else ""


class Served(Protocol):
    """What `_call` needs of a servicer: its metrics (the Arena's and the Online service's alike)."""

    metrics: ArenaMetrics


def refusal(exc: Exception, name: str) -> tuple[grpc.StatusCode, str]:
    """The status an error of a handler becomes (`statuses.STATUS_TABLE`); INTERNAL, logged, when no row names it."""
    status = status_of(exc)
    if status is None:
        status = grpc.StatusCode.INTERNAL, "the Arena failed on this call; try again, and tell the " \
                                           "organisers if it keeps failing"
        log.error("call_failed", exc_info=True, method=name, error=cap(f"{type(exc).__name__}: {exc}", REASON_LIMIT))
    return status


def _counted(served: Served, name: str, code: grpc.StatusCode, started: float) -> None:
    seconds = time.perf_counter() - started
    served.metrics.calls.labels(name, code.name).inc()
    served.metrics.latency.labels(name).observe(seconds)
    log.info("call", method=name, code=code.name, seconds=round(seconds, 4))


def _call(method: Callable[..., R]) -> Callable[..., R]:
    """Metrics, the error's status (`statuses.STATUS_TABLE`) and a log line around one handler."""
    name = method.__name__

    @functools.wraps(method)
    def handler(self: Served, request: Any, context: grpc.ServicerContext) -> R:
        started = time.perf_counter()
        code = grpc.StatusCode.OK
        try:
            return method(self, request, context)
        except Exception as exc:
            code, message = refusal(exc, name)
        finally:
            _counted(self, name, code, started)
        context.abort(code, cap(message, REASON_LIMIT))  # echoed input must not outgrow gRPC's metadata cap
        raise AssertionError("unreachable: abort raises")

    return handler


def streamed(method: Callable[..., Iterator[Y]]) -> Callable[..., Iterator[Y]]:
    """`_call` for a server-streaming handler: the same statuses, metrics and log line, once the stream ends."""
    name = method.__name__

    @functools.wraps(method)
    def handler(self: Served, request: Any, context: grpc.ServicerContext) -> Iterator[Y]:
        started = time.perf_counter()
        code = grpc.StatusCode.OK
        try:
            yield from method(self, request, context)
            return
        except Exception as exc:
            code, message = refusal(exc, name)
        finally:
            _counted(self, name, code, started)
        context.abort(code, cap(message, REASON_LIMIT))

    return handler


def version_info(row: dict[str, Any]) -> pb.BotVersionInfo:
    return pb.BotVersionInfo(
        id=row["id"], bot=row["bot"], number=row["number"], game=row["game"], status=row["status"],
        status_message=row["status_message"], archive_sha256=row["archive_sha256"],
        manifest_json=json.dumps(row["manifest"], sort_keys=True), smoke_match_id=row["smoke_match_id"] or "",
        created_at=_stamp(row["created_at"]), status_changed_at=_stamp(row["status_changed_at"]),
        account=row["account"])


def match_summary(row: Row, seats: list[Row]) -> pb.MatchSummary:
    """A match and its seats (`matches.match` and `match_participants`, or a `version_match_page` row's ``seats``)."""
    wire_seats = [pb.MatchSeat(seat=s["seat"], version_id=s["version_id"], bot=s["bot"], version=s["version"],
                               rank=-1 if s["rank"] is None else s["rank"], score=s["score"] or 0.0,
                               strikes=s["strikes"], forfeited=s["forfeited"], account=s["author"]) for s in seats]
    return pb.MatchSummary(match_id=row["id"], kind=row["kind"], season=row["season"] or "", game=row["game"],
                           players=row["players"], status=row["status"], end_reason=row["end_reason"] or "",
                           void_reason=row["void_reason"] or "", seats=wire_seats,
                           finished_at=_stamp(row["finished_at"]))


def _match(conn: Any, match_id: str) -> Row:
    row = matches.match(conn, match_id)
    if row is None:
        raise NotFound(f"there is no match {match_id!r}: `skyarena matches VERSION` lists a version's matches")
    return row


def _own_seat(conn: Any, account: Account, match_id: str, seat: int, what: str) -> Row:
    """The caller's seat of a match: ``seat`` if it is theirs, or (``seat`` < 0) their first one.
    Organisers too may open only their own: a seat's log and seed may hold its author's secrets."""
    seats = matches.match_participants(conn, match_id)
    if seat >= 0:
        chosen = [s for s in seats if s["seat"] == seat]
        if not chosen:
            raise NotFound(f"match {match_id} has no seat {seat} (it has {len(seats)}: 0..{len(seats) - 1})")
    else:
        chosen = [s for s in seats if s["account_id"] == account.id]
        if not chosen:
            raise CallRefused(grpc.StatusCode.PERMISSION_DENIED,
                              f"none of your bots played match {match_id}: you may read only {what}")
    if chosen[0]["account_id"] != account.id:
        raise CallRefused(grpc.StatusCode.PERMISSION_DENIED,
                          f"seat {chosen[0]['seat']} of match {match_id} is another account's bot: you may read "
                          f"only {what}")
    return chosen[0]


def _limit(requested: int) -> int:
    return DEFAULT_LIMIT if requested <= 0 else min(requested, MAX_LIMIT)


class ArenaService(pb_grpc.ArenaServicer):
    def __init__(self, db: Database, dispatch: Dispatch, limits: ArchiveLimits | None = None,
                 metrics: ArenaMetrics | None = None, sandbox_backend: str = "auto",
                 uploads: UploadLimits | None = None, enqueue: Enqueue | None = None,
                 challenge_limits: ChallengeLimits | None = None, release_policy: ReleasePolicy | None = None) -> None:
        self.db = db
        self.enqueue = enqueue
        self.challenge_limits = challenge_limits or ChallengeLimits()
        self.release_policy = release_policy or current(QueueSettings).release_policy()
        self.limits = limits or ArchiveLimits()
        self.metrics = metrics or ArenaMetrics()
        self.intake = Intake(db, self.limits, dispatch, sandbox_backend)
        self.gate = SubmissionGate(db, uploads or UploadLimits())

    def _author(self, context: grpc.ServicerContext) -> Account:
        return authenticate(self.db, context.invocation_metadata(), AUTHOR_SCOPES)

    def _organiser(self, context: grpc.ServicerContext) -> Account:
        return authenticate(self.db, context.invocation_metadata(), ORGANISER_SCOPES)

    def _own_version(self, account: Account, version_id: int) -> dict[str, Any]:
        with self.db.connection() as conn:
            row = versions.version(conn, version_id)
        require_owner(account, row["account_id"], f"version {version_id}")
        return row

    # ----- authors ----------------------------------------------------------------------
    @_call
    def SubmitVersion(self, request_iterator: Iterator[pb.SubmitChunk],  # type: ignore[override]
                      context: grpc.ServicerContext) -> pb.SubmitVersionResponse:
        account = self._author(context)
        with self.gate.admit(account.id, context):
            return self._submit(account, request_iterator)

    def _submit(self, account: Account, request_iterator: Iterator[pb.SubmitChunk]) -> pb.SubmitVersionResponse:
        try:
            upload = receive(bounded_stream(request_iterator, self.gate.limits), self.limits)
            self.metrics.upload_bytes.inc(len(upload.data))
            submitted = self.intake.submit(account.name, upload, self.gate.quota_check(account.id))
        except ArchiveRefused as exc:
            self.metrics.submissions.labels("refused").inc()
            log.info("submission_refused", account=account.name, reason=cap(str(exc), REASON_LIMIT))
            raise
        self.metrics.submissions.labels("existing" if submitted.existing else "stored").inc()
        with self.db.connection() as conn:
            row = versions.version(conn, submitted.version_id)
        log.info("submission_stored", account=account.name, version_id=submitted.version_id,
                 existing=submitted.existing, bot=row["bot"], game=row["game"])
        return pb.SubmitVersionResponse(version=version_info(row), existing=submitted.existing)

    @_call
    def ListBots(self, request: pb.ListBotsRequest, context: grpc.ServicerContext) -> pb.ListBotsResponse:
        account = self._author(context)
        with self.db.connection() as conn:
            rows = versions.bots(conn, None if is_organiser(account) else account.id, request.game)
        response = pb.ListBotsResponse()
        by_bot: dict[int, pb.BotInfo] = {}
        for row in rows:
            bot = by_bot.get(row["bot_id"])
            if bot is None:
                bot = by_bot[row["bot_id"]] = response.bots.add(name=row["bot"], game=row["game"],
                                                                account=row["account"],
                                                                retired=row["retired_at"] is not None)
            bot.versions.append(version_info(row))
        return response

    @_call
    def GetVersion(self, request: pb.GetVersionRequest, context: grpc.ServicerContext) -> pb.BotVersionInfo:
        return version_info(self._own_version(self._author(context), request.version_id))

    @_call
    def RetireBot(self, request: pb.RetireBotRequest, context: grpc.ServicerContext) -> pb.BotInfo:
        account = self._author(context)
        if request.account and request.account != account.name and not is_organiser(account):
            raise CallRefused(grpc.StatusCode.PERMISSION_DENIED, "only organisers may retire another account's bot")
        with self.db.connection() as conn:
            owner = account_by_name(conn, request.account) if request.account else account.id
            bot_id = store.retire_bot(conn, owner, request.bot)
            rows = [r for r in versions.bots(conn, owner) if r["bot_id"] == bot_id]
        log.info("bot_retired", account=account.name, bot=request.bot)
        first = rows[0]
        return pb.BotInfo(name=first["bot"], game=first["game"], account=first["account"], retired=True,
                          versions=[version_info(r) for r in rows])

    @_call
    def GetStandings(self, request: pb.GetStandingsRequest, context: grpc.ServicerContext) -> pb.Standings:
        self._author(context)
        limit = _limit(request.limit)
        with self.db.connection() as conn:
            season = get_season(conn, request.season)
            response = pb.Standings(season=season.name, game=season.game, state=season.state)
            closed = season.state == "closed"
            stages = [("regular", p, ladder_id) for p, ladder_id in sorted(season.ladders.items())]
            stages += [("final", p, ladder_id) for p, ladder_id in sorted(season.final_ladders.items())]
            for stage, players, ladder_id in stages:
                ladder = response.ladders.add(players=players, stage=stage)
                leagues: dict[int, dict[str, Any]] = {}
                figures = ladder_confidence(conn, ladder_id, frozen=closed)
                if stage == "regular":
                    settling = ladder_settling(conn, season, players)
                    ladder.settling.CopyFrom(pb.Settling(**{**settling, "settled_at": settling["settled_at"] or "",
                                                            "matches_per_hour": settling["matches_per_hour"] or 0}))
                if closed:
                    names = {r["version_id"]: r for r in leaderboard(conn, ladder_id, MAX_LIMIT)}
                    rows = [{**names.get(s.version_id, {}), "position": s.position, "version_id": s.version_id,
                             "mu": s.mu, "sigma": s.sigma, "score": s.score, "matches": s.matches}
                            for s in frozen_standings(conn, ladder_id)[:limit]]
                else:
                    rows = leaderboard(conn, ladder_id, limit)
                leagues = standing_leagues(conn, ladder_id, [r["version_id"] for r in rows])
                for r in rows:
                    figure = figures.get(r["version_id"])
                    row = ladder.rows.add(position=r["position"], version_id=r["version_id"], bot=r.get("bot", ""),
                                          version=r.get("version", 0), mu=r["mu"], sigma=r["sigma"],
                                          score=r["score"], matches=r["matches"], account=r.get("account", ""),
                                          league=leagues.get(r["version_id"], {}).get("league", ""),
                                          boss=leagues.get(r["version_id"], {}).get("boss", False))
                    if figure is not None:
                        row.rank_low, row.rank_high = figure.rank_low, figure.rank_high
                        if figure.above_next is not None:
                            row.p_above_next = figure.above_next
        return response

    @_call
    def ListMatches(self, request: pb.ListMatchesRequest, context: grpc.ServicerContext) -> pb.ListMatchesResponse:
        self._author(context)  # results are public: any author may see any version's matches
        with self.db.connection() as conn:
            versions.version(conn, request.version_id)
            rows, next_before = matches.version_match_page(conn, request.version_id, _limit(request.limit),
                                                           request.before)
        return pb.ListMatchesResponse(matches=[match_summary(r, r["seats"] or []) for r in rows],
                                      next_before=next_before)

    @_call
    def GetRatingHistory(self, request: pb.GetRatingHistoryRequest,
                         context: grpc.ServicerContext) -> pb.RatingHistory:
        self._author(context)
        with self.db.connection() as conn:
            versions.version(conn, request.version_id)
            season = get_season(conn, request.season)
            ladder_id = self._ladder(conn, season, request.version_id, request.players)
            players = next(p for p, lid in season.ladders.items() if lid == ladder_id)
            rows = rating_history(conn, request.version_id, ladder_id)
        return pb.RatingHistory(version_id=request.version_id, season=season.name, players=players, changes=[
            pb.RatingChange(match_id=r["match_id"], seq=r["seq"], mu_before=r["mu_before"],
                            sigma_before=r["sigma_before"], mu_after=r["mu_after"], sigma_after=r["sigma_after"],
                            rank=-1 if r["rank"] is None else r["rank"], unrated_reason=r["unrated_reason"] or "")
            for r in rows])

    @staticmethod
    def _ladder(conn: Any, season: Season, version_id: int, players: int) -> int:
        if players:
            if players not in season.ladders:
                raise NotFound(f"season {season.name} has no {players}-player ladder: it has "
                               f"{', '.join(map(str, sorted(season.ladders)))}")
            return season.ladders[players]
        played = version_ladders(conn, version_id, season.id)
        if len(played) == 1:
            return int(played[0]["ladder_id"])
        if not played:
            raise NotFound(f"version {version_id} has no rating in season {season.name} yet")
        raise BadRequest(f"version {version_id} plays on several ladders of {season.name}: pass players "
                         f"({', '.join(str(p['players']) for p in played)})")

    @_call
    def GetMatch(self, request: pb.ArenaMatchRequest, context: grpc.ServicerContext) -> pb.ArenaMatch:
        self._author(context)  # a match's result and its public replay are public
        with self.db.connection() as conn:
            row = _match(conn, request.match_id)
            seats = matches.match_participants(conn, request.match_id)
            data = matches.replay_data(conn, request.match_id)
        replay = public_jsonl(decompress_replay(data)) if data is not None else ""
        return pb.ArenaMatch(summary=match_summary(row, seats), public_replay_jsonl=replay)

    @_call
    def GetBotLog(self, request: pb.GetBotLogRequest, context: grpc.ServicerContext) -> pb.BotLog:
        account = self._author(context)
        with self.db.connection() as conn:
            row = _match(conn, request.match_id)
            seat = _own_seat(conn, account, request.match_id, request.seat, "your own bots' logs")
            found = matches.bot_log(conn, request.match_id, seat["seat"])
        if found is None and row["status"] == "void":
            raise NotFound(f"match {request.match_id} is void ({row['void_reason'] or 'not played'}): it never "
                           "finished, so it kept no log")
        if found is None and row["status"] != "finished":
            raise NotFound(f"match {request.match_id} is {row['status']}: its logs are kept once it is finished; "
                           "ask again then")
        if found is None:  # a bot that wrote nothing leaves no log row: its log is empty, not missing
            return pb.BotLog(match_id=request.match_id, seat=seat["seat"], version_id=seat["version_id"])
        return pb.BotLog(match_id=request.match_id, seat=seat["seat"], version_id=found["version_id"],
                         log=bytes(found["log"]), truncated=found["truncated"])

    @_call
    def GetParticipantReplay(self, request: pb.ParticipantReplayRequest,
                             context: grpc.ServicerContext) -> pb.ParticipantReplay:
        account = self._author(context)
        match_id = request.match_id
        with self.db.connection() as conn:
            row = _match(conn, match_id)
            seat = _own_seat(conn, account, match_id, request.seat, "the replays of your own bots' seats")
            if row["status"] == "void":
                raise CallRefused(grpc.StatusCode.FAILED_PRECONDITION,
                                  f"match {match_id} is void ({row['void_reason'] or 'not played'}): it never "
                                  "finished, so it has no replay; `skyarena matches VERSION` lists the finished ones")
            if row["status"] != "finished":
                raise CallRefused(grpc.StatusCode.FAILED_PRECONDITION,
                                  f"match {match_id} is {row['status']}: a participant's replay exists once it has "
                                  "finished; ask again then")
            jsonl = stored_seat_jsonl(conn, match_id, seat)
        if jsonl is None:
            raise NotFound(f"match {match_id} finished, but its replay is no longer stored (purged): there is "
                           "nothing to replay; `skyarena matches VERSION` lists the matches that keep theirs")
        return pb.ParticipantReplay(match_id=match_id, seat=seat["seat"], version_id=seat["version_id"],
                                    replay_jsonl=jsonl)

    @_call
    def Challenge(self, request: pb.ChallengeRequest, context: grpc.ServicerContext) -> pb.ChallengeResponse:
        account = self._author(context)
        if self.enqueue is None:
            raise CallRefused(grpc.StatusCode.UNAVAILABLE, "this Arena queues no matches (it was started without a "
                                                           "broker): tell the organisers")
        try:
            with self.db.connection() as conn:
                game, seats, seeds = challenge_seats(conn, account, request.version_id, list(request.opponents),
                                                     request.games or 1)
                ids = queue_challenges(conn, account.id, game, seats, seeds, self.challenge_limits)
        except ChallengeRefused as exc:
            raise refuse(context, UploadRefused(f"{exc}: try again {when(exc.retry_after_s)}"
                                                if exc.retry_after_s else str(exc), exc.retry_after_s)) from None
        with self.db.connection() as conn:  # those the workers have room for now; the rest wait their turn
            released = release_waiting(conn, self.release_policy)
        self.enqueue(released)   # after the commit, as every message follows its row
        log.info("challenges_queued", account=account.name, version_id=request.version_id, matches=len(ids))
        return pb.ChallengeResponse(match_ids=ids)

    # ----- organisers -------------------------------------------------------------------
    def _season_info(self, conn: Any, season: Season) -> pb.SeasonInfo:
        summary = season_details(conn, season)
        return pb.SeasonInfo(name=season.name, game=season.game, state=season.state,
                             player_counts=list(season.player_counts), summary_json=json.dumps(summary, default=str))

    @_call
    def CreateSeason(self, request: pb.CreateSeasonRequest, context: grpc.ServicerContext) -> pb.SeasonInfo:
        account = self._organiser(context)
        try:
            options = json.loads(request.options_json) if request.options_json else {}
        except json.JSONDecodeError as exc:
            raise BadRequest(f'options_json is not JSON ({exc}): send an object such as {{"max_rounds": 20}}') from None
        try:
            matchmaking = json.loads(request.matchmaking_json) if request.matchmaking_json else {}
        except json.JSONDecodeError as exc:
            raise BadRequest(f'matchmaking_json is not JSON ({exc}): send an object such as {{"settle_top": 3}}') \
                from None
        defaults = season_defaults()  # a field left 0 on the wire takes the season's default
        counts = tuple(request.player_counts) or default_player_counts(request.game)
        spec = SeasonSpec(request.name, request.game, counts, options, request.move_s or defaults["move_s"],
                          request.bank_s or defaults["bank_s"],
                          request.first_move_s or defaults["first_move_s"],
                          request.strike_limit or defaults["strike_limit"],
                          request.matches_in_flight or defaults["matches_in_flight"],
                          cpu_clock=request.cpu_clock if request.HasField("cpu_clock") else defaults["cpu_clock"],
                          wall_backstop=request.wall_backstop or defaults["wall_backstop"],
                          matchmaking=MatchmakingParameters.from_mapping(matchmaking),
                          leagues=parse_leagues(request.leagues) if request.leagues else (),
                          promotion_matches=request.promotion_matches or defaults["promotion_matches"],
                          league_start=request.league_start or defaults["league_start"])
        smoke_bosses(spec)
        with self.db.connection() as conn:
            season = create_season(conn, spec)
            if request.start:
                season = start_season(conn, request.name)
            info = self._season_info(conn, season)
        log.info("season_created", account=account.name, season=request.name, state=season.state)
        return info

    def _transition(self, request: pb.SeasonRequest, context: grpc.ServicerContext,
                    action: Callable[[Any, str], Season]) -> pb.SeasonInfo:
        account = self._organiser(context)
        with self.db.connection() as conn:
            season = action(conn, request.name)
            info = self._season_info(conn, season)
        log.info("season_changed", account=account.name, season=request.name, state=season.state)
        return info

    @_call
    def StartSeason(self, request: pb.SeasonRequest, context: grpc.ServicerContext) -> pb.SeasonInfo:
        return self._transition(request, context, start_season)

    @_call
    def CloseSeason(self, request: pb.SeasonRequest, context: grpc.ServicerContext) -> pb.SeasonInfo:
        if not request.finals:
            if request.HasField("games_per_pair") or request.until_settled or request.new_versions:
                raise BadRequest("games_per_pair, until_settled and new_versions belong to a final: set finals to K "
                                 "(2 or more)")
            return self._transition(request, context, close_season)
        budget = request.games_per_pair if request.HasField("games_per_pair") else DEFAULT_GAMES_PER_PAIR
        finals = Finals(request.finals, budget, request.until_settled, request.new_versions or "hold")
        return self._transition(request, context, lambda conn, name: start_finals(conn, name, finals))

    def _version_status(self, request: pb.VersionStatusRequest, context: grpc.ServicerContext,
                        change: Callable[[Any, int, str], None]) -> pb.BotVersionInfo:
        account = self._organiser(context)
        with self.db.connection() as conn:
            change(conn, request.version_id, request.reason)
            row = versions.version(conn, request.version_id)
        log.info("version_status", account=account.name, version_id=request.version_id, status=row["status"])
        return version_info(row)

    @_call
    def PauseVersion(self, request: pb.VersionStatusRequest, context: grpc.ServicerContext) -> pb.BotVersionInfo:
        return self._version_status(
            request, context, lambda conn, v, reason: pause_version(conn, v, reason.strip() or PAUSED_NOTE))

    @_call
    def ReinstateVersion(self, request: pb.VersionStatusRequest,
                         context: grpc.ServicerContext) -> pb.BotVersionInfo:
        return self._version_status(
            request, context, lambda conn, v, reason: reinstate_version(conn, v, reason.strip() or REINSTATED_NOTE))

    @_call
    def CreateToken(self, request: pb.CreateTokenRequest, context: grpc.ServicerContext) -> pb.CreateTokenResponse:
        if request.scope == "play":  # an author makes their own online bots' play tokens
            account = self._author(context)
            if not is_organiser(account) and request.account not in ("", account.name):
                raise CallRefused(grpc.StatusCode.PERMISSION_DENIED, "an author may create play tokens for their own "
                                  f"account only ({account.name}): leave --account out")
            request.account = request.account or account.name
        else:
            account = self._organiser(context)
        if request.scope not in ISSUABLE_SCOPES:
            raise BadRequest(f"scope {request.scope!r} cannot be issued here: choose author, organiser or play")
        if not (0 <= request.expires_in_s <= MAX_TOKEN_LIFETIME_S):  # also refuses NaN
            raise BadRequest(f"expires_in_s must be 0 (never) or a number of seconds up to {MAX_TOKEN_LIFETIME_S:.0f}"
                             " (100 years)")
        with self.db.connection() as conn:
            if not NAME_PATTERN.fullmatch(request.account):
                raise BadRequest(f"account name {cap(request.account)!r} is not allowed: use 1-64 letters, digits, "
                                 "'_', '.' or '-', starting with a letter or digit")
            token = issue_token(conn, request.account, request.scope, request.label,
                                request.expires_in_s or None)
            expires = token_expiry(conn, token)
        log.info("token_created", account=account.name, for_account=request.account, scope=request.scope)
        return pb.CreateTokenResponse(token=token, account=request.account, scope=request.scope,
                                      expires_at=_stamp(expires))

    @_call
    def RevokeToken(self, request: pb.RevokeTokenRequest, context: grpc.ServicerContext) -> pb.RevokeTokenResponse:
        account = self._organiser(context)
        if bool(request.token) == bool(request.account):
            raise BadRequest("name what to revoke: the token itself, or an account (and optionally a label)")
        with self.db.connection() as conn:
            if request.token:
                if not revoke_token(conn, request.token):
                    raise NotFound("that token is not known: check it, or revoke by account instead")
                revoked = 1
            else:
                account_by_name(conn, request.account)  # NotFound, saying so
                revoked = revoke_account_tokens(conn, request.account, request.label)
        log.info("token_revoked", account=account.name, for_account=cap(request.account), revoked=revoked,
                 by_token=bool(request.token))
        return pb.RevokeTokenResponse(revoked=revoked)
