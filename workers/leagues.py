"""Leagues within a season: the organiser's spec, its verdicts, and the promotion rule.

A season may divide each of its ladders into leagues, lowest first (``bronze:heuristic,silver:boss``):
each league has a *boss*, a version of a house bot that stays in it for good. A version starts
in the lowest league (or, with ``league_start = 'keep'``, in the league its bot's superseded
version had reached) and plays only within its league, the boss included. After each of its
rated matches its leaderboard score (μ − 3σ) is compared with its league's boss's: a version
that stayed above the boss for ``promotion_matches`` of its rated matches in a row moves to the
next league, rating and all (the leagues share the ladder's TrueSkill scale, so nothing needs
converting); the top league has no promotion, and no version is ever demoted.

Pure rules; the SQL lives in `workers/store/leagues.py`, and the apply path and the recompute
both call ``advance`` with the ratings as they stand after the match, so a recompute reproduces
every promotion.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

LEAGUE_NAME = re.compile(r"^[a-z][a-z0-9-]{0,31}$")
BOSS_NAME = re.compile(r"^[A-Za-z0-9_.-]+$")   # a house bot's name: anything else is a slip of the separator
DEFAULT_PROMOTION_MATCHES = 10   # consecutive rated matches above the boss: enough for σ to shrink past luck
MAX_PROMOTION_MATCHES = 1000
LEAGUE_STARTS = ("lowest", "keep")  # a new version starts in the lowest league, or keeps its bot's league
MAX_LEAGUES = 10
EXAMPLE = "bronze:heuristic,silver:boss"


class LeagueError(ValueError):
    """A league spec or setting cannot be honoured: the message says what to write instead."""


@dataclass(frozen=True)
class LeagueSpec:
    """One league as the organiser names it: its name and its boss (a house bot of the season's game)."""

    name: str
    boss: str

    def __str__(self) -> str:
        return f"{self.name}:{self.boss}"


def parse_leagues(text: str) -> tuple[LeagueSpec, ...]:
    """``bronze:heuristic,silver:boss`` (lowest first) as league specs; only the form is checked here."""
    leagues = []
    for part in text.split(","):
        name, sep, boss = part.strip().partition(":")
        if not sep or not name.strip() or not boss.strip() or not BOSS_NAME.fullmatch(boss.strip()):
            raise LeagueError(f"league {part.strip()!r} is not NAME:BOSS: write the leagues lowest first as "
                              f"NAME:HOUSE_BOT separated by commas, e.g. {EXAMPLE}")
        leagues.append(LeagueSpec(name.strip(), boss.strip()))
    return tuple(leagues)


def league_bosses(game: str) -> list[str]:
    """The house bots that can be a boss in ``game``: the SDK's and the mixed ones (`workers.house_bots`)."""
    from workers.house_bots import all_house_bots  # it imports the store, which imports this module's users

    return all_house_bots(game)


def check_leagues(game: str, leagues: tuple[LeagueSpec, ...], promotion_matches: int, league_start: str) -> None:
    """Raise LeagueError, saying what to change, unless the leagues can be played in ``game``."""
    if isinstance(promotion_matches, bool) or not isinstance(promotion_matches, int) \
            or not 1 <= promotion_matches <= MAX_PROMOTION_MATCHES:
        raise LeagueError(f"promotion matches {promotion_matches!r} is out of range: choose a whole number from 1 "
                          f"to {MAX_PROMOTION_MATCHES} (consecutive rated matches above the boss; default "
                          f"{DEFAULT_PROMOTION_MATCHES})")
    if league_start not in LEAGUE_STARTS:
        raise LeagueError(f"league start {league_start!r} is not one of {', '.join(LEAGUE_STARTS)}: 'lowest' puts "
                          "every new version in the lowest league, 'keep' in its bot's previous version's league")
    if not leagues:
        return
    if len(leagues) < 2:
        raise LeagueError(f"one league is just the ladder: name at least two, lowest first, e.g. {EXAMPLE}")
    if len(leagues) > MAX_LEAGUES:
        raise LeagueError(f"{len(leagues)} leagues are too many: name at most {MAX_LEAGUES}")
    known = league_bosses(game)
    seen_names: set[str] = set()
    seen_bosses: set[str] = set()
    for league in leagues:
        if not LEAGUE_NAME.fullmatch(league.name):
            raise LeagueError(f"league name {league.name!r} is not allowed: use 1-32 lower-case letters, digits or "
                              "'-', starting with a letter")
        if league.name in seen_names:
            raise LeagueError(f"league {league.name!r} is named twice: give every league its own name")
        if league.boss not in known:
            elsewhere = sorted(g for g in _games() if g != game and league.boss in league_bosses(g))
            where = (f" (that is a house bot of {', '.join(elsewhere)}, not of {game})" if elsewhere
                     else " (no game has a house bot of that name)")
            raise LeagueError(f"league {league.name}: {game} has no house bot {league.boss!r}{where}: "
                              f"choose its boss from {', '.join(known)}")
        if league.boss in seen_bosses:
            raise LeagueError(f"league {league.name}: the house bot {league.boss!r} is the boss of a lower league "
                              "already: give each league its own boss")
        seen_names.add(league.name)
        seen_bosses.add(league.boss)


def _games() -> list[str]:
    from referee.games import GAMES

    return sorted(GAMES)


@dataclass(frozen=True)
class League:
    """A stored league of a season (position 0 is the lowest)."""

    id: int
    position: int
    name: str
    boss: str                 # the house bot
    boss_version_id: int


@dataclass
class Member:
    """A version's place on one ladder's leagues: its league's position and its run above the boss."""

    league: int
    streak: int = 0
    entered: str = "lowest"   # boss | lowest | kept


@dataclass(frozen=True)
class Promotion:
    """A version moved up, with the evidence: the match that did it and both scores after it."""

    version_id: int
    from_league: int          # positions
    to_league: int
    match_id: str
    seq: int
    score: float              # the version's μ − 3σ after the match
    boss_version_id: int
    boss_score: float         # the boss's μ − 3σ at that moment
    streak: int               # the rated matches in a row above the boss that it took


def advance(members: dict[int, Member], leagues: list[League], rated: Iterable[int], score: Callable[[int], float],
            threshold: int, match_id: str, seq: int) -> list[Promotion]:
    """After a rated match: move each rated seat's run above its boss on, and promote those whose run
    reached ``threshold`` (``members`` is changed in place; the bosses are never moved)."""
    promotions = []
    top = len(leagues) - 1
    for version in sorted(set(rated)):
        member = members[version]
        if member.entered == "boss" or member.league >= top:
            continue
        boss = leagues[member.league].boss_version_id
        mine, theirs = score(version), score(boss)
        member.streak = member.streak + 1 if mine > theirs else 0
        if member.streak >= threshold:
            promotions.append(Promotion(version, member.league, member.league + 1, match_id, seq, mine, boss, theirs,
                                        member.streak))
            member.league += 1
            member.streak = 0
    return promotions


def starting_league(entered_predecessor: Member | None, league_start: str) -> Member:
    """Where a version enters a ladder: the lowest league, or its bot's previous version's (``keep``)."""
    if league_start == "keep" and entered_predecessor is not None and entered_predecessor.entered != "boss":
        return Member(entered_predecessor.league, 0, "kept")
    return Member(0, 0, "lowest")
