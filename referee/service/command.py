"""``skyarena referee serve``: the referee service from the command line.

It lives beside the service and loads through the CLI's ``PLATFORM_COMMANDS`` table, so a
bot author's ``skyarena`` never imports server code; the service's own modules load only
when ``serve`` runs (``--help`` works without the server extra).
"""

from __future__ import annotations

import asyncio
import importlib
import os
import sys
from typing import Any

import click

from referee.games import GAMES, GameSpec
from referee.service.limits import Limits
from skyarena.cli_support import UserError, settings_options


@click.group("referee")
def command() -> None:
    """Run the referee service."""


def _register_game(target: str) -> None:
    """``module:ATTR`` naming a GameSpec to serve besides the built-in games (tests, new games)."""
    module_name, _, attr = target.partition(":")
    if os.getcwd() not in sys.path:
        sys.path.append(os.getcwd())  # as `python -m` would: modules of the current directory
    try:
        game_spec = getattr(importlib.import_module(module_name), attr or "SPEC")
    except (ImportError, AttributeError) as exc:
        raise UserError(f"--register-game {target}: {exc}") from None
    if not isinstance(game_spec, GameSpec):
        raise UserError(f"--register-game {target} is not a GameSpec")
    GAMES[game_spec.name] = game_spec


def _serve_imports() -> Any:
    """The referee's modules; without the server extra, a one-line message saying so."""
    try:
        from referee.service import limits, logs, server, tokens
    except ModuleNotFoundError as exc:
        raise UserError(f"the referee needs the server extra (module {exc.name!r} is missing): "
                        "pip install 'skyarena[server]'") from None
    return limits, logs, server, tokens


@command.command("serve")
@click.option("--listen", envvar="SKYARENA_LISTEN", default="127.0.0.1:50051", show_default=True,
              metavar="HOST:PORT", help="Address to serve gRPC on (env SKYARENA_LISTEN); port 0 picks one.")
@click.option("--service-token", envvar="SKYARENA_SERVICE_TOKEN", required=True,
              help="Token that StartMatch and operator calls must present (env SKYARENA_SERVICE_TOKEN).")
@click.option("--spectator-token", envvar="SKYARENA_SPECTATOR_TOKEN",
              help="Token that lets a spectator (the dashboard) watch without the anonymous limits and take the "
                   "reserved spectator slots (env SKYARENA_SPECTATOR_TOKEN).")
@click.option("--seed-key", envvar="SKYARENA_SEED_KEY", hidden=True,
              help="Key of the bots' seeds (env SKYARENA_SEED_KEY); default: a random key per process.")
@click.option("--metrics-listen", envvar="SKYARENA_METRICS_LISTEN", metavar="HOST:PORT",
              help="Serve Prometheus metrics over HTTP here (env SKYARENA_METRICS_LISTEN).")
@click.option("--log-level", envvar="SKYARENA_LOG_LEVEL", default="info", show_default=True,
              type=click.Choice(["debug", "info", "warning", "error"]))
@click.option("--log-format", envvar="SKYARENA_LOG_FORMAT", default="json", show_default=True,
              type=click.Choice(["json", "text"]))
@click.option("--register-game", "register_games", multiple=True, hidden=True, metavar="MODULE:ATTR")
@settings_options(Limits)
def serve_command(listen: str, service_token: str, spectator_token: str | None, seed_key: str | None,
                  metrics_listen: str | None, log_level: str, log_format: str, register_games: tuple[str, ...],
                  **limit_flags: str | None) -> None:
    """Serve matches over gRPC until SIGINT/SIGTERM; then running matches finish (within the
    shutdown grace) or end ABORTED, and the process exits."""
    limits_mod, logs, server, tokens = _serve_imports()
    for target in register_games:
        _register_game(target)
    try:  # every check before anything starts, each a one-line message
        limits = limits_mod.Limits.from_sources(limit_flags)
        limits_mod.parse_listen(listen)
        if metrics_listen:
            limits_mod.parse_listen(metrics_listen, "--metrics-listen")
        service_token = tokens.check_token(service_token, "the service token (--service-token)")
        if spectator_token:
            spectator_token = tokens.check_token(spectator_token, "the spectator token (--spectator-token)")
    except ValueError as exc:
        raise UserError(str(exc)) from None
    logs.configure(log_level, log_format)
    try:
        asyncio.run(server.serve(listen, service_token, limits, metrics_listen, spectator_token=spectator_token,
                                 seed_key=seed_key.encode() if seed_key else None))
    except OSError as exc:
        raise UserError(str(exc) if str(exc).startswith("cannot listen") else f"cannot serve on {listen}: {exc}") \
            from None
