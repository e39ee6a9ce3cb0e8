"""Recomputing a season's ratings from its stored results: the oracle for exactly-once.

Every finished rated match of each ladder is replayed in completion order (``completed_seq``)
through the same rating code the apply path uses, with the ladder's own parameters (a final's
τ = 0), from the same start: fresh, or the carried-over standings of the source season, or for a
final ladder its finalists' ratings on the regular ladder when the finals began (that ladder
stopped then, so its stored ratings are that start; it is recomputed first). The result is compared with the stored
ratings, the game's pseudo-rating and every history row. On a regular ladder of a season with
leagues each match also moves the seats' runs above their bosses on (`workers.leagues.advance`,
as the apply path does), so every version's league and every promotion, with its evidence, are
derived again and compared too. ``rewrite`` replaces them all. It
holds each ladder exclusively (``lock_ladder``) while it works, so no apply interleaves with it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from itertools import groupby

from workers.leagues import League, Member, Promotion, advance
from workers.ratings import Rating, RatingChange, RatingParameters

from .database import Conn
from .errors import StoreError
from .finals import final_entries, ladder_rating
from .leagues import (
    bot_lineage,
    entering,
    ladder_season,
    rewrite_leagues,
    season_leagues,
    stored_members,
    stored_promotions,
)
from .results import insert_history, lock_ladder, rate_seats, seat_results
from .seasons import Season, starting_ratings

TOLERANCE = 1e-9  # the same code on the same inputs gives the same floats; this only absorbs storage rounding


@dataclass(frozen=True)
class Difference:
    players: int          # the ladder's player count
    subject: str          # "version 12", "version 12 in match ab12", "the game"
    stored: str
    recomputed: str
    stage: str = "regular"

    def __str__(self) -> str:
        return (f"{ladder_name(self.players, self.stage)}, {self.subject}: stored {self.stored}, "
                f"recomputed {self.recomputed}")


def ladder_name(players: int, stage: str) -> str:
    """"2-player ladder" or "2-player final", as reports name a ladder."""
    return f"{players}-player {'ladder' if stage == 'regular' else stage}"


@dataclass
class _Replayed:
    ratings: dict[int, Rating]
    matches: dict[int, int]
    last_match: dict[int, str]
    game: Rating | None
    history: dict[tuple[str, int], tuple[int, RatingChange]]
    members: dict[int, Member] = field(default_factory=dict)
    promotions: list[Promotion] = field(default_factory=list)


@dataclass(frozen=True)
class LadderReport:
    players: int
    matches: int
    differences: tuple[Difference, ...]
    stage: str = "regular"

    @property
    def name(self) -> str:
        return ladder_name(self.players, self.stage)


def recompute_season(conn: Conn, season: Season, *, rewrite: bool = False) -> list[LadderReport]:
    """Replay every ladder of ``season`` (the regular ones, then its finals); with ``rewrite``, store
    the recomputed ratings and history."""
    reports = []
    leagues = season_leagues(conn, season.id)
    for stage, ladders in (("regular", season.ladders), ("final", season.final_ladders)):
        for players, ladder_id in sorted(ladders.items()):
            lock_ladder(conn, ladder_id, exclusive=True)
            start = (starting_ratings(conn, season, players) if stage == "regular"
                     else _final_start(conn, season.ladders[players], ladder_id))
            params = ladder_rating(conn, ladder_id, season)
            rules = _LeagueRules.of(conn, ladder_id, leagues, params) if stage == "regular" else None
            replayed, count = _replay(conn, params, start, ladder_id, rules)
            found = _compare(conn, players, ladder_id, replayed)
            if rules is not None:
                found += _compare_leagues(conn, players, ladder_id, leagues, replayed)
            differences = tuple(replace(d, stage=stage) for d in found)
            if rewrite and differences:
                _rewrite(conn, ladder_id, replayed)
                if rules is not None:
                    rewrite_leagues(conn, ladder_id, leagues, replayed.members, replayed.promotions)
            reports.append(LadderReport(players, count, differences, stage))
    return reports


@dataclass(frozen=True)
class _LeagueRules:
    """What the apply path does after each match on a regular ladder of a season with leagues."""

    leagues: list[League]
    threshold: int
    league_start: str
    lineage: dict[int, list[int]]
    bosses: dict[int, Member]
    fresh: Rating

    @staticmethod
    def of(conn: Conn, ladder_id: int, leagues: list[League], params: RatingParameters) -> _LeagueRules | None:
        if not leagues:
            return None
        _, threshold, league_start = ladder_season(conn, ladder_id)
        seated = [r["version_id"] for r in conn.execute(
            """SELECT DISTINCT p.version_id FROM matches m JOIN participants p ON p.match_id = m.id
               WHERE m.ladder_id = %s AND m.status = 'finished'""", (ladder_id,))]
        bosses = {v: m for v, m in stored_members(conn, ladder_id).items() if m.entered == "boss"}
        return _LeagueRules(leagues, threshold, league_start, bot_lineage(conn, seated), bosses, params.fresh())

    def after(self, state: _Replayed, match_id: str, seq: int, changes: Sequence[RatingChange]) -> None:
        """Enter the match's new versions, move each rated seat's run on, promote (`workers.leagues.advance`)."""
        if not state.members:
            state.members = {v: Member(m.league, m.streak, m.entered) for v, m in self.bosses.items()}
        for change in changes:
            version = change.version_id
            if version is not None and version not in state.members:
                state.members[version] = entering(state.members, self.lineage.get(version, []), self.league_start)
        rated = [c.version_id for c in changes if c.rated and c.version_id is not None]
        state.promotions += advance(state.members, self.leagues, rated,
                                    lambda v: state.ratings.get(v, self.fresh).leaderboard_score, self.threshold,
                                    match_id, seq)


def _compare_leagues(conn: Conn, players: int, ladder_id: int, leagues: list[League], replayed: _Replayed
                     ) -> list[Difference]:
    out = []
    stored = stored_members(conn, ladder_id)
    derived = replayed.members or {v: m for v, m in stored.items() if m.entered == "boss"}
    for version in sorted(set(stored) | set(derived)):
        theirs, mine = stored.get(version), derived.get(version)
        if theirs != mine:
            out.append(Difference(players, f"version {version}'s league", _member(theirs, leagues),
                                  _member(mine, leagues)))
    kept = {(p.version_id, p.to_league): p for p in stored_promotions(conn, ladder_id, leagues)}
    made = {(p.version_id, p.to_league): p for p in replayed.promotions}
    for key in sorted(set(kept) | set(made)):
        theirs_p, mine_p = kept.get(key), made.get(key)
        if theirs_p is None or mine_p is None or not _same_promotion(theirs_p, mine_p):
            out.append(Difference(players, f"version {key[0]}'s promotion to {leagues[key[1]].name}",
                                  _promotion(theirs_p), _promotion(mine_p)))
    return out


def _member(member: Member | None, leagues: list[League]) -> str:
    if member is None:
        return "no league"
    return f"{leagues[member.league].name} ({member.entered}, {member.streak} above the boss in a row)"


def _promotion(p: Promotion | None) -> str:
    if p is None:
        return "none"
    return f"after match {p.match_id} (seq {p.seq}): {p.score:.6f} over the boss's {p.boss_score:.6f}"


def _same_promotion(a: Promotion, b: Promotion) -> bool:
    return (a.match_id, a.seq, a.from_league, a.boss_version_id, a.streak) == \
        (b.match_id, b.seq, b.from_league, b.boss_version_id, b.streak) \
        and math.isclose(a.score, b.score, abs_tol=TOLERANCE) and math.isclose(a.boss_score, b.boss_score,
                                                                                abs_tol=TOLERANCE)


def _final_start(conn: Conn, regular_id: int, final_id: int) -> tuple[dict[int, Rating], Rating | None]:
    """A final's start: its finalists' ratings and the game's pseudo-rating on the stopped regular ladder."""
    entries = final_entries(conn, final_id)
    ratings = {r["version_id"]: Rating(r["mu"], r["sigma"]) for r in conn.execute(
        "SELECT version_id, mu, sigma FROM ratings WHERE ladder_id = %s AND version_id = ANY(%s)",
        (regular_id, entries))}
    missing = sorted(set(entries) - set(ratings))
    if missing:
        raise StoreError(f"finalists {missing} have no rating on the regular ladder {regular_id}, so the final "
                         "cannot be replayed from its start; the store was edited by hand")
    pseudo = conn.execute("SELECT pseudo_mu, pseudo_sigma FROM ladders WHERE id = %s", (regular_id,)).fetchone()
    game = (Rating(pseudo["pseudo_mu"], pseudo["pseudo_sigma"])
            if pseudo is not None and pseudo["pseudo_mu"] is not None else None)
    return ratings, game


def _replay(conn: Conn, params: RatingParameters, start: tuple[dict[int, Rating], Rating | None],
            ladder_id: int, rules: _LeagueRules | None = None) -> tuple[_Replayed, int]:
    carried, game = start
    state = _Replayed(dict(carried), dict.fromkeys(carried, 0), {}, game, {})
    rows = conn.execute(
        """SELECT m.id AS match_id, m.completed_seq, m.game, p.seat, p.version_id, p.rank, p.score, p.forfeited,
                  p.unrated
           FROM matches m JOIN participants p ON p.match_id = m.id
           WHERE m.ladder_id = %s AND m.status = 'finished'
           ORDER BY m.completed_seq, p.seat""", (ladder_id,))
    count = 0
    for (match_id, seq, game_name), group in groupby(rows, key=lambda r: (r["match_id"], r["completed_seq"],
                                                                          r["game"])):
        count += 1
        seats = seat_results(list(group))
        for seat in seats:  # the apply path creates a version's row, at the prior, on its first match here
            if seat.version_id not in state.ratings:
                state.ratings[seat.version_id] = params.fresh()
                state.matches[seat.version_id] = 0
        rated = rate_seats(game_name, params, seats, state.ratings, state.game)
        for change in rated.changes:
            assert change.version_id is not None
            state.history[(match_id, change.version_id)] = (seq, change)
            if change.rated:
                state.ratings[change.version_id] = change.after
                state.matches[change.version_id] = state.matches.get(change.version_id, 0) + 1
                state.last_match[change.version_id] = match_id
        if rated.game is not None and rated.game.rated:
            state.game = rated.game.after
        if rules is not None:
            rules.after(state, match_id, seq, rated.changes)
    return state, count


def _fmt(rating: Rating | None, matches: int | None = None) -> str:
    if rating is None:
        return "none"
    text = f"mu {rating.mu:.6f} sigma {rating.sigma:.6f}"
    return text if matches is None else f"{text} after {matches} matches"


def _differs(a: Rating | None, b: Rating | None) -> bool:
    if a is None or b is None:
        return a is not b
    return not (math.isclose(a.mu, b.mu, abs_tol=TOLERANCE) and math.isclose(a.sigma, b.sigma, abs_tol=TOLERANCE))


def _compare(conn: Conn, players: int, ladder_id: int, replayed: _Replayed) -> list[Difference]:
    out = []
    stored = {r["version_id"]: r for r in conn.execute(
        "SELECT version_id, mu, sigma, matches, last_match_id FROM ratings WHERE ladder_id = %s", (ladder_id,))}
    for version in sorted(set(stored) | set(replayed.ratings)):
        row = stored.get(version)
        mine = replayed.ratings.get(version)
        theirs = Rating(row["mu"], row["sigma"]) if row else None
        n_stored = row["matches"] if row else None
        n_mine = replayed.matches.get(version) if mine else None
        last_stored = row["last_match_id"] if row else None
        if _differs(theirs, mine) or n_stored != n_mine or last_stored != replayed.last_match.get(version):
            out.append(Difference(players, f"version {version}", _fmt(theirs, n_stored), _fmt(mine, n_mine)))
    history = {(r["match_id"], r["version_id"]): r for r in conn.execute(
        """SELECT match_id, version_id, seq, mu_before, sigma_before, mu_after, sigma_after, weight, unrated_reason
           FROM rating_history WHERE ladder_id = %s""", (ladder_id,))}
    for key in sorted(set(history) | set(replayed.history)):
        row = history.get(key)
        entry = replayed.history.get(key)
        subject = f"version {key[1]} in match {key[0]}"
        if row is None or entry is None:
            out.append(Difference(players, subject, "a history row" if row else "no history row",
                                  "a history row" if entry else "no history row"))
            continue
        seq, change = entry
        before, after = Rating(row["mu_before"], row["sigma_before"]), Rating(row["mu_after"], row["sigma_after"])
        if (_differs(before, change.before) or _differs(after, change.after) or row["seq"] != seq
                or row["unrated_reason"] != change.unrated_reason or not math.isclose(row["weight"], change.weight)):
            out.append(Difference(players, subject, f"{_fmt(before)} -> {_fmt(after)} (seq {row['seq']})",
                                  f"{_fmt(change.before)} -> {_fmt(change.after)} (seq {seq})"))
    pseudo = conn.execute("SELECT pseudo_mu, pseudo_sigma FROM ladders WHERE id = %s", (ladder_id,)).fetchone()
    stored_game = Rating(pseudo["pseudo_mu"], pseudo["pseudo_sigma"]) if pseudo and pseudo["pseudo_mu"] is not None \
        else None
    if _differs(stored_game, replayed.game):
        out.append(Difference(players, "the game", _fmt(stored_game), _fmt(replayed.game)))
    return out


def _rewrite(conn: Conn, ladder_id: int, replayed: _Replayed) -> None:
    conn.execute("DELETE FROM rating_history WHERE ladder_id = %s", (ladder_id,))
    conn.execute("DELETE FROM ratings WHERE ladder_id = %s", (ladder_id,))
    with conn.cursor() as cur:
        cur.executemany(
            """INSERT INTO ratings (ladder_id, version_id, mu, sigma, matches, last_match_id)
               VALUES (%s, %s, %s, %s, %s, %s)""",
            [(ladder_id, v, r.mu, r.sigma, replayed.matches.get(v, 0), replayed.last_match.get(v))
             for v, r in replayed.ratings.items()])
    insert_history(conn, ladder_id, [(match_id, seq, c) for (match_id, _), (seq, c) in replayed.history.items()])
    game = replayed.game
    conn.execute("UPDATE ladders SET pseudo_mu = %s, pseudo_sigma = %s WHERE id = %s",
                 (game.mu if game else None, game.sigma if game else None, ladder_id))
