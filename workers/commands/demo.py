"""``skyarena demo``: the whole platform locally, a season per game, ladders moving (``make demo``).

``--local`` is the old demo instead, a round-robin among the house bots of every game played
in this process with no server at all (``skyarena play`` plays one game's matches the same
way). This module imports the platform lazily, so ``--local`` works on an author's install.
"""

from __future__ import annotations

from pathlib import Path

import click

from skyarena.cli_support import UserError
from skyarena.series_table import local_round_robin

DEFAULT_TRICKLE = 2.0  # matches a minute per settled ladder: the ladders stay alive, a laptop stays usable


@click.command("demo")
@click.option("--data-dir", envvar="SKYARENA_DATA_DIR", type=click.Path(file_okay=False, path_type=Path),
              help="Where the embedded Postgres and broker, the logs and the demo's tokens live "
                   "(env SKYARENA_DATA_DIR; default: the user data folder).")
@click.option("--workers", type=click.IntRange(1), default=2, show_default=True, help="Celery worker processes.")
@click.option("--concurrency", type=click.IntRange(1), default=3, show_default=True,
              help="Matches each worker plays at once.")
@click.option("--arena-port", type=click.IntRange(0, 65535), default=50061, show_default=True,
              help="The Arena's port (another one if it is taken).")
@click.option("--dashboard-port", type=click.IntRange(0, 65535), default=8501, show_default=True,
              help="The dashboard's port (another one if it is taken).")
@click.option("--no-browser", is_flag=True, help="Do not open the dashboard in a browser.")
@click.option("--duration", "duration_s", type=click.FloatRange(min=1), metavar="SECONDS",
              help="Stop after this long (default: run until Ctrl-C).")
@click.option("--until-rated", type=click.IntRange(1), metavar="N",
              help="Stop once every game has N rated matches (exit status 1 if --duration ends first).")
@click.option("--trickle", "trickle_per_minute", type=click.FloatRange(min=0), default=DEFAULT_TRICKLE,
              show_default=True, metavar="PER_MINUTE",
              help="Once a ladder is settled, start at most this many matches a minute on it (0: no slowing).")
@click.option("--local", is_flag=True, help="No platform: a local round-robin of the house bots, with standings.")
@click.option("--games", "n_games", type=click.IntRange(min=1), default=20, show_default=True,
              help="With --local: matches per game.")
@click.option("--seed", type=int, default=1, show_default=True, help="With --local: the first match's seed.")
def command(data_dir: Path | None, workers: int, concurrency: int, arena_port: int, dashboard_port: int,
            no_browser: bool, duration_s: float | None, until_rated: int | None, trickle_per_minute: float,
            local: bool, n_games: int, seed: int) -> None:
    """Run the platform locally with a season per game and the house bots (DATABASE_URL, CELERY_BROKER_URL)."""
    if local:
        local_round_robin(n_games, seed)
        return
    try:
        from workers.demo.launcher import DemoSettings, run_demo
        from workers.demo.league import DemoClock
        from workers.demo.processes import ChildFailed
        from workers.errors import PLATFORM_ERRORS
        from workers.store.embedded import default_data_dir
    except ModuleNotFoundError as exc:
        raise UserError(f"the platform demo needs the server parts ({exc.name} is not installed): "
                        "pip install 'skyarena[server]', or run skyarena demo --local") from None
    settings = DemoSettings(data_dir or default_data_dir(), workers, concurrency, arena_port, dashboard_port,
                            not no_browser, duration_s, until_rated, DemoClock(trickle_per_minute=trickle_per_minute))
    try:
        counts = run_demo(settings, on_stop=lambda killed: click.echo(
            "stopped every process" + (f" ({', '.join(killed)} needed SIGKILL)" if killed else ""), err=True))
    except PLATFORM_ERRORS + (ChildFailed, OSError) as exc:
        raise UserError(f"demo stopped: {exc}") from None
    if until_rated is not None and (not counts or min(counts.values()) < until_rated):
        raise SystemExit(1)
