"""What a worker or beat checks before it starts: each missing piece is one clear line."""

from __future__ import annotations

import json

import click
from celery import Celery

from skyarena.cli_support import UserError
from skyarena.settings import read_at_start
from workers.broker import BrokerUnavailable, broker_url, redact
from workers.config import PlatformSettings, QueueSettings, WorkerSettings
from workers.errors import PLATFORM_ERRORS
from workers.referees import check_reachable, parse_public_referees, parse_referees, service_token
from workers.sandbox import SandboxUnavailable, select_backend
from workers.store import open_database
from workers.store import redact as redact_database

BROKER_CONNECT_TIMEOUT_S = 5.0


def preflight(kind: str, as_json: bool, need_referees: bool) -> Celery:
    """Check broker, database (and referees); configure and return the Celery app."""
    try:  # this process's settings, read once here (its children inherit them); a bad one is the first line said
        platform = read_at_start(PlatformSettings)
        queue_settings = read_at_start(QueueSettings)
        if need_referees:
            read_at_start(WorkerSettings)
        broker = broker_url(platform.broker_url or None, platform.data_path)
        db = open_database(platform.database_url or None, data_dir=platform.data_path, max_size=1)
        database = redact_database(db.url)
        db.close()
        referees = check_reachable(parse_referees()) if need_referees else []
        sandbox = None
        if need_referees:  # a worker: it plays matches
            service_token()
            parse_public_referees()
            sandbox = select_backend().summary
    except PLATFORM_ERRORS + (SandboxUnavailable, ValueError) as exc:
        raise UserError(f"{kind} not started: {exc}") from None
    from workers.celery_app import configure

    app = configure(broker, queue_settings)
    try:
        with app.connection_for_write() as connection:
            connection.ensure_connection(max_retries=1, timeout=BROKER_CONNECT_TIMEOUT_S)
    except Exception as exc:  # kombu raises the transport's own errors
        raise UserError(f"{kind} not started: {BrokerUnavailable.__name__}: the broker at {redact(broker)} "
                        f"does not answer ({exc}); start it or fix CELERY_BROKER_URL") from None
    summary = {"kind": kind, "broker": redact(broker), "database": database, "referees": referees,
               "sandbox": sandbox}
    click.echo(json.dumps(summary) if as_json else
               f"{kind}: broker {summary['broker']}, database {database}"
               + (f", referees {', '.join(referees)}, sandbox {sandbox}" if referees else ""), err=not as_json)
    return app
