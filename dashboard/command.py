"""``skyarena dashboard``: the Streamlit dashboard on a port, against the store.

It becomes ``python -m streamlit run dashboard/app.py`` (exec, so signals reach Streamlit
directly and the process a supervisor started is the server itself), with the database
URL handed over in ``DATABASE_URL``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

APP = Path(__file__).resolve().parent / "app.py"


@click.command(help="Start the Streamlit dashboard (ladders, bots, matches and replays, live, organiser).")
@click.option("--port", type=click.IntRange(1, 65535), default=8501, show_default=True)
@click.option("--address", default="127.0.0.1", show_default=True, help="the interface to listen on "
              "(0.0.0.0 for every one)")
@click.option("--database-url", envvar="DATABASE_URL", help="the store (default: DATABASE_URL, else the "
              "embedded server)")
def command(port: int, address: str, database_url: str | None) -> None:
    from workers.store import open_database
    from workers.store.errors import StoreError

    try:  # refuse a missing or unmigrated store here, in one line, rather than on every page
        open_database(database_url).close()
    except StoreError as exc:
        raise click.ClickException(str(exc)) from None
    env = dict(os.environ)
    if database_url:
        env["DATABASE_URL"] = database_url
    arguments = [sys.executable, "-m", "streamlit", "run", str(APP),
                 "--server.port", str(port), "--server.address", address,
                 "--server.headless", "true",              # no browser opened, no e-mail prompt
                 "--browser.gatherUsageStats", "false",    # no usage reporting from a league server
                 "--server.fileWatcherType", "none",       # an installed dashboard does not reload its code
                 "--client.toolbarMode", "viewer"]         # no Deploy button: viewers of a league deploy nothing
    os.execve(sys.executable, arguments, env)
