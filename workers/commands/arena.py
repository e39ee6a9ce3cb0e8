"""``skyarena arena serve``: the Arena gRPC service (submissions, ladders, matches, logs, organiser calls).

It checks what it needs before the port opens, each missing piece one line: the database and
its schema, the broker the smoke matches are sent through, and a sandbox that can check
entry points (the Arena loads no author's code itself).
"""

from __future__ import annotations

import click

from skyarena.cli_support import UserError, settings_options
from skyarena.settings import read_at_start
from workers.arena.config import ArenaSettings
from workers.arena.server import ArenaServer, configure_logs, serve
from workers.broker import broker_url
from workers.config import PlatformSettings, QueueSettings
from workers.errors import PLATFORM_ERRORS
from workers.sandbox import SandboxUnavailable, select_backend
from workers.store import open_database


@click.group("arena")
def command() -> None:
    """The Arena gRPC service: what bot authors and organisers talk to."""


@command.command("serve")
@click.option("--listen", default="127.0.0.1:50052", show_default=True, help="HOST:PORT to serve on (:0 picks one).")
@click.option("--metrics-listen", metavar="HOST:PORT", help="Serve Prometheus metrics here.")
@click.option("--database-url", envvar="DATABASE_URL", metavar="URL",
              help="Postgres URL (env DATABASE_URL; default: the embedded server).")
@settings_options(ArenaSettings)
@click.option("--sandbox", type=click.Choice(["auto", "bwrap", "unshare"]), default="auto", show_default=True,
              help="The sandbox that checks entry points.")
@click.option("--log-level", default="info", show_default=True)
@click.option("--log-format", type=click.Choice(["json", "text"]), default="json", show_default=True)
def serve_command(listen: str, metrics_listen: str | None, database_url: str | None, sandbox: str, log_level: str,
                  log_format: str, **setting_flags: str | None) -> None:
    """Serve the Arena (DATABASE_URL, CELERY_BROKER_URL)."""
    configure_logs(log_level, log_format)
    try:  # this process's settings, read once here; a bad one is the first line said
        settings = ArenaSettings.from_sources(setting_flags)
        platform = read_at_start(PlatformSettings)  # --database-url, where given, wins over it
        queue_settings = read_at_start(QueueSettings)
        db = open_database(database_url or platform.database_url or None, data_dir=platform.data_path, max_size=16)
        broker = broker_url(platform.broker_url or None, platform.data_path)
        select_backend(sandbox)
    except PLATFORM_ERRORS + (SandboxUnavailable, ValueError) as exc:
        raise UserError(f"arena not started: {exc}") from None
    from workers.arena.tasks import enqueue_smoke
    from workers.celery_app import configure
    from workers.tasks import enqueue

    configure(broker, queue_settings)
    try:
        serve(ArenaServer(db, enqueue_smoke, settings.archive_limits(), sandbox_backend=sandbox,
                          uploads=settings.upload_limits(), enqueue=enqueue,
                          challenge_limits=settings.challenge_limits(), max_connections=settings.max_connections),
              listen, metrics_listen)
    except OSError as exc:
        raise UserError(f"arena not started: {exc}") from None
    finally:
        db.close()
