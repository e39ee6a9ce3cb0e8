"""A local series' report as tables (``skyarena play``) and the house bots' round-robin
(``skyarena demo --local``), printed the same way by both."""

from __future__ import annotations

from rich.table import Table

from referee.games import GAMES

from .bot_errors import first_line
from .cli_support import UserError, console
from .games import QUICK_HOUSE_BOTS, house_bots
from .local import RANK_CONVENTION, SeriesReport, play_series
from .results_text import end_reason


def print_report(report: SeriesReport) -> None:
    title = f"{report.game}: {report.games} match{'es' if report.games != 1 else ''}, seed {report.seed}"
    if report.cooperative:
        _print_team(report, title)
    else:
        table = Table(title=title, caption=f"mean rank: {RANK_CONVENTION}")
        for col in ("bot", "wins", "win %", "mean rank", "mean score", "faults"):
            table.add_column(col, justify="left" if col == "bot" else "right")
        for st in sorted(report.standings, key=lambda s: (-s.wins, s.rank_sum)):
            table.add_row(st.name, str(st.wins), f"{100 * st.wins / max(st.games, 1):.1f}",
                          f"{st.mean_rank or 0:.2f}", f"{st.score_sum / max(st.games, 1):.2f}", str(st.faults))
        console.print(table)
    _print_reasons(report)
    if len(report.matches) == 1:
        match = report.matches[0]
        ranks = [r + 1 for r in match.ranks]
        console.print(f"result: {match.reason}; ranks (1 = first) {ranks}; scores {match.scores}")
    faults = [(m.seed, m.seats, f) for m in report.matches for f in m.faults]
    if faults:
        console.print(f"[bold red]{len(faults)} fault(s)[/bold red]")
        for match_seed, seats, fault in faults[:20]:
            console.print(f"  match seed {match_seed}, turn {fault['turn']}, seat {fault['seat']} "
                          f"({seats[fault['seat']]}): {fault['kind']} — {first_line(fault['reason'])}"
                          + (" (forfeit)" if fault["forfeit"] else ""), highlight=False, soft_wrap=True)
            if "\n" in fault["reason"]:  # the bot's traceback, unwrapped so paths stay whole
                console.print(fault["reason"].split("\n", 1)[1], markup=False, highlight=False, soft_wrap=True)
        if len(faults) > 20:
            console.print(f"  ... and {len(faults) - 20} more (--json lists them all)")


def _print_team(report: SeriesReport, title: str) -> None:
    """Co-operative games: the seats win or lose together, so the team is the row."""
    table = Table(title=f"{title} — co-operative: the team wins or loses together")
    for col in ("team", "matches", "wins", "win %", "mean score", "faults"):
        table.add_column(col, justify="left" if col == "team" else "right")
    wins = report.team_wins()
    score = sum(st.score_sum for st in report.standings) / max(1, sum(st.games for st in report.standings))
    faults = ", ".join(f"{st.name} {st.faults}" for st in report.standings)
    bases = {st.name.split("#")[0] for st in report.standings}
    team = f"{bases.pop()} (team)" if len(bases) == 1 else " + ".join(st.name for st in report.standings)
    table.add_row(team, str(report.games), str(wins),
                  f"{100 * wins / max(report.games, 1):.1f}", f"{score:.2f}", faults)
    console.print(table)


def _print_reasons(report: SeriesReport) -> None:
    """Why matches ended: in a co-operative game this is the landing rate and each way to lose."""
    counts = report.reasons()
    parts = [f"{end_reason(reason)} in {n} of {report.games} ({100 * n / max(report.games, 1):.1f} %)"
             for reason, n in counts.most_common()]
    console.print("ended by: " + ", ".join(parts), highlight=False)




def local_round_robin(n_games: int, seed: int) -> None:
    """A local round-robin among the house bots of every registered game, with standings
    (``skyarena demo --local``; the platform demo itself is a platform command)."""
    if not GAMES:
        raise UserError("no game is registered; is the installation complete?")
    for name in sorted(GAMES):
        game_spec = GAMES[name]
        house = house_bots(name)
        roster = sorted(set(house) & set(QUICK_HOUSE_BOTS))
        players = game_spec.min_players
        if game_spec.cooperative:
            # Partners play as one team against the game: each house bot fills every seat.
            for bot in roster:
                print_report(play_series(name, [(bot, house[bot])] * players, n_games, seed))
            continue
        factories = [(roster[i % len(roster)], house[roster[i % len(roster)]]) for i in range(players)]
        report = play_series(name, factories, n_games, seed, None, None, 3, keep_records=True)
        print_report(report)


