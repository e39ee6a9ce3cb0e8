"""Every league's boss plays a smoke match before its season exists.

A boss is a house bot, trusted code that goes straight to ``active`` (`workers.house_bots`), but a
season whose boss cannot play its options would stand still with nobody able to climb. So
``smoke_bosses`` plays each boss, from the very ``bot.py`` its hosted version runs, against the
house ``random`` bot in this process, at the season's smallest table with the season's game
options and a short clock (a searching boss thinks for a share of whatever move time it has, so
the check takes seconds). It refuses the season, before anything is written, when a boss faulted
on its own account (the smoke match's rule, `workers.arena.smoke.OWN_FAULTS`) or forfeited.
"""

from __future__ import annotations

from types import ModuleType

from referee.match import MatchRecord, TimeControl
from skyarena.bot import Bot
from skyarena.games import house_bots
from skyarena.local import play_match
from workers.arena.smoke import OWN_FAULTS
from workers.house_bots import house_source
from workers.seasons import SeasonError, SeasonSpec

SMOKE_CLOCK = TimeControl(move_s=0.05, bank_s=2.0, first_move_s=1.0)
SMOKE_SEED = 25


def boss_class(game: str, boss: str) -> type[Bot]:
    """The class the boss's hosted ``bot.py`` defines (`house_bots.house_source`), loaded here."""
    module = ModuleType(f"skyarena_boss_{game.replace('-', '_')}_{boss.replace('-', '_')}")
    exec(compile(house_source(game, boss), f"<house {boss} bot of {game}>", "exec"), module.__dict__)  # noqa: S102
    cls: type[Bot] = module.__dict__["House"]
    return cls


def smoke_bosses(spec: SeasonSpec) -> None:
    """Raise SeasonError naming the first boss of ``spec`` that fails its smoke match (nothing is stored yet)."""
    players = min(spec.player_counts)
    for league in spec.leagues:
        record = play_match(spec.game, [boss_class(spec.game, league.boss)()]
                            + [house_bots(spec.game)["random"]() for _ in range(players - 1)],
                            SMOKE_SEED, spec.options, SMOKE_CLOCK, spec.strike_limit, match_id="boss-smoke")
        failure = _failure(record)
        if failure:
            raise SeasonError(f"league {league.name}: its boss, the house {league.boss} bot, failed its smoke match "
                              f"against random ({failure}): choose another boss (`skyarena play {spec.game} "
                              f"{league.boss} random` shows it)")


def _failure(record: MatchRecord) -> str:
    """What went wrong with seat 0 (the boss), or '' when it passed."""
    own = [f for f in record.faults if f.seat == 0 and f.kind.value in OWN_FAULTS]
    forfeited = any(f.seat == 0 and f.forfeit for f in record.faults)
    if not own and not forfeited:
        return ""
    first = (own or [f for f in record.faults if f.seat == 0])[0]
    return f"turn {first.turn}: {first.kind.value} — {first.reason.splitlines()[0] if first.reason else ''}"
