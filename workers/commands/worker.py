"""``skyarena worker [CELERY FLAGS...]``: a Celery worker that plays the platform's matches.

Before handing over to Celery's own ``worker`` command (every flag after ours is passed
through, e.g. ``--concurrency 4 --loglevel info``), it checks what the worker needs and
says what is wrong in one line: the broker, the database and its schema, the referees and
the service token. ``--check`` stops after the checks.

Without ``--concurrency`` the worker plays one match per core it may run on, and with one
that oversubscribes the cores it warns (``workers/admission.py`` says why).
"""

from __future__ import annotations

import click

from workers import admission
from workers.commands.preflight import preflight


@click.command("worker", context_settings={"ignore_unknown_options": True, "allow_extra_args": True})
@click.option("--check", is_flag=True, help="Check the broker, database and referees, then exit.")
@click.option("--json", "as_json", is_flag=True, help="Print the checked configuration as JSON.")
@click.argument("celery_args", nargs=-1, type=click.UNPROCESSED)
def command(check: bool, as_json: bool, celery_args: tuple[str, ...]) -> None:
    """Play matches from the queue (CELERY_BROKER_URL, DATABASE_URL, SKYARENA_REFEREES, SKYARENA_SERVICE_TOKEN)."""
    app = preflight("worker", as_json, need_referees=True)
    concurrency = admission.requested_concurrency(celery_args)
    if concurrency is None:
        celery_args = ("--concurrency", str(admission.default_concurrency()), *celery_args)
    elif (warning := admission.oversubscription_warning(concurrency)) is not None:
        click.echo(warning, err=True)
    if check:
        return
    from workers.celery_app import QUEUE

    app.worker_main(["worker", "--queues", QUEUE, "--loglevel", "info", *celery_args])
