"""``skyarena beat [CELERY FLAGS...]``: Celery beat, which schedules and reaps on the clock.

Every few seconds it sends ``schedule`` (top up the active seasons' ladders) and ``reap``
(re-queue matches whose worker vanished); both are safe with two beats running. Celery's
own ``beat`` flags pass through; its schedule file lives in the data folder by default.
"""

from __future__ import annotations

import click

from workers.commands.preflight import preflight
from workers.store.embedded import default_data_dir


@click.command("beat", context_settings={"ignore_unknown_options": True, "allow_extra_args": True})
@click.option("--check", is_flag=True, help="Check the broker and database, then exit.")
@click.option("--json", "as_json", is_flag=True, help="Print the checked configuration as JSON.")
@click.argument("celery_args", nargs=-1, type=click.UNPROCESSED)
def command(check: bool, as_json: bool, celery_args: tuple[str, ...]) -> None:
    """Send the schedule and reap tasks on the clock (CELERY_BROKER_URL, DATABASE_URL)."""
    app = preflight("beat", as_json, need_referees=False)
    if check:
        return
    folder = default_data_dir()
    folder.mkdir(parents=True, exist_ok=True)
    schedule = [] if any(a.startswith(("-s", "--schedule")) for a in celery_args) else [
        "--schedule", str(folder / "celerybeat-schedule")]
    app.start(["beat", "--loglevel", "info", *schedule, *celery_args])
