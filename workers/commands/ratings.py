"""``skyarena ratings recompute SEASON [--check]``: replay a season's results and compare or rewrite."""

from __future__ import annotations

import json
from pathlib import Path

import click

from skyarena.cli_support import UserError
from workers.commands.store_options import open_store, store_options
from workers.store import StoreError
from workers.store.recompute import recompute_season
from workers.store.seasons import get_season

SHOWN_DIFFERENCES = 20  # per ladder in the table; --json lists them all


@click.group("ratings")
def command() -> None:
    """The league's TrueSkill ratings."""


@command.command("recompute")
@click.argument("season")
@click.option("--check", is_flag=True, help="Only compare with what is stored; exit 1 on any difference.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@store_options
def recompute_command(season: str, check: bool, as_json: bool, database_url: str | None,
                      data_dir: Path | None) -> None:
    """Replay every stored result of SEASON in completion order and rewrite its ratings (or --check them)."""
    store = open_store(database_url, data_dir)
    try:
        with store.connection() as conn:
            reports = recompute_season(conn, get_season(conn, season), rewrite=not check)
    except StoreError as exc:
        raise UserError(str(exc)) from None
    finally:
        store.close()
    differences = sum(len(r.differences) for r in reports)
    if as_json:
        click.echo(json.dumps({"season": season, "check": check, "differences": differences, "ladders": [
            {"players": r.players, "stage": r.stage, "matches": r.matches,
             "differences": [str(d) for d in r.differences]}
            for r in reports]}))
    else:
        for report in reports:
            verb = "differ" if check else "rewritten"
            click.echo(f"{report.name}: {report.matches} matches replayed, "
                       f"{len(report.differences)} {verb}")
            for difference in report.differences[:SHOWN_DIFFERENCES]:
                click.echo(f"  {difference}")
            if len(report.differences) > SHOWN_DIFFERENCES:
                click.echo(f"  ... and {len(report.differences) - SHOWN_DIFFERENCES} more (--json lists them all)")
    if check and differences:
        raise SystemExit(1)
