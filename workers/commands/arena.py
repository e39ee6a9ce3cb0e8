"""``skyarena arena serve``: the Arena gRPC service (submissions, ladders, matches, logs, organiser calls).

It checks what it needs before the port opens, each missing piece one line: the database and
its schema, the broker the smoke matches are sent through, and a sandbox that can check
entry points (the Arena loads no author's code itself).
"""

from __future__ import annotations

import click

from skyarena.cli_support import UserError
from workers.arena.archive import ArchiveLimits
from workers.arena.server import ArenaServer, configure_logs, serve
from workers.arena.upload_limits import UploadLimits
from workers.broker import broker_url
from workers.errors import PLATFORM_ERRORS
from workers.sandbox import SandboxUnavailable, select_backend
from workers.store import open_database

from .upload_options import upload_options

DEFAULT_LIMITS = ArchiveLimits()


@click.group("arena")
def command() -> None:
    """The Arena gRPC service: what bot authors and organisers talk to."""


@command.command("serve")
@click.option("--listen", default="127.0.0.1:50052", show_default=True, help="HOST:PORT to serve on (:0 picks one).")
@click.option("--metrics-listen", metavar="HOST:PORT", help="Serve Prometheus metrics here.")
@click.option("--database-url", envvar="DATABASE_URL", metavar="URL",
              help="Postgres URL (env DATABASE_URL; default: the embedded server).")
@click.option("--max-archive-bytes", type=click.IntRange(1), envvar="SKYARENA_ARENA_MAX_ARCHIVE_BYTES",
              default=DEFAULT_LIMITS.max_archive_bytes, show_default=True, help="Largest upload.")
@click.option("--max-unpacked-bytes", type=click.IntRange(1), envvar="SKYARENA_ARENA_MAX_UNPACKED_BYTES",
              default=DEFAULT_LIMITS.max_unpacked_bytes, show_default=True, help="Largest unpacked total.")
@click.option("--max-files", type=click.IntRange(1), envvar="SKYARENA_ARENA_MAX_FILES",
              default=DEFAULT_LIMITS.max_files, show_default=True, help="Most archive entries.")
@click.option("--sandbox", type=click.Choice(["auto", "bwrap", "unshare"]), default="auto", show_default=True,
              help="The sandbox that checks entry points.")
@upload_options
@click.option("--log-level", default="info", show_default=True)
@click.option("--log-format", type=click.Choice(["json", "text"]), default="json", show_default=True)
def serve_command(listen: str, metrics_listen: str | None, database_url: str | None, max_archive_bytes: int,
                  max_unpacked_bytes: int, max_files: int, sandbox: str, log_level: str, log_format: str,
                  uploads: UploadLimits) -> None:
    """Serve the Arena (DATABASE_URL, CELERY_BROKER_URL)."""
    configure_logs(log_level, log_format)
    try:
        db = open_database(database_url, max_size=8)
        broker = broker_url()
        select_backend(sandbox)
    except PLATFORM_ERRORS + (SandboxUnavailable, ValueError) as exc:
        raise UserError(f"arena not started: {exc}") from None
    from workers.arena.tasks import enqueue_smoke
    from workers.celery_app import configure

    configure(broker)
    limits = ArchiveLimits(max_archive_bytes, max_unpacked_bytes, max_files)
    try:
        serve(ArenaServer(db, enqueue_smoke, limits, sandbox_backend=sandbox, uploads=uploads), listen,
              metrics_listen)
    except OSError as exc:
        raise UserError(f"arena not started: {exc}") from None
    finally:
        db.close()
