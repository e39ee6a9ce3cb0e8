"""An embedded Postgres for machines where no DATABASE_URL is set.

`pgserver` ships Postgres binaries in a wheel and starts a server on a unix socket inside
its data folder. Its handle is shared between processes through a lock file and a list of
the processes using it, so a worker, the Arena service and the dashboard started on one
machine all talk to one server; the server stops when the last of them exits, and the
data stays in the folder for the next run.
"""

from __future__ import annotations

import warnings
from pathlib import Path

from workers.config import PlatformSettings

from .errors import DatabaseUnavailable

DATA_DIR_ENV = PlatformSettings.env_name("data_dir")


def default_data_dir() -> Path:
    """Where the platform keeps its local data: ``SKYARENA_DATA_DIR`` or the user's data dir."""
    configured = PlatformSettings.from_env().data_path
    if configured:
        return configured
    import platformdirs

    return Path(platformdirs.user_data_dir("skyarena", appauthor=False))


def embedded_folder(name: str, data_dir: Path | None, what: str, error: type[Exception], instead: str) -> Path:
    """``<data dir>/<name>``, created; else ``error`` saying to move the data dir or set ``instead``."""
    folder = (data_dir or default_data_dir()) / name
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise error(f"cannot create the embedded {what} folder {folder}: {exc.strerror}; set {DATA_DIR_ENV} to a "
                    f"writable folder or {instead}") from None
    return folder


def embedded_database_url(data_dir: Path | None = None) -> str:
    """Start (or join) the embedded server for ``data_dir`` and return its connection URL."""
    folder = embedded_folder("postgres", data_dir, "database", DatabaseUnavailable, "DATABASE_URL to a server")
    try:
        with warnings.catch_warnings():
            # pgserver asks platformdirs for a runtime folder as it is imported (for its lock file). Without
            # XDG_RUNTIME_DIR (a container, ssh, CI) platformdirs warns and falls back to a private folder
            # in /tmp, which is all pgserver needs: the warning told every command's user nothing to act on.
            warnings.filterwarnings("ignore", message="XDG_RUNTIME_DIR")
            import pgserver
    except ModuleNotFoundError:
        raise DatabaseUnavailable("no DATABASE_URL is set and the embedded Postgres (pgserver) is not installed: "
                                  "pip install 'skyarena[server]', or set DATABASE_URL=postgresql://...") from None
    try:
        server = pgserver.get_server(folder, cleanup_mode="stop")
    except Exception as exc:  # pgserver raises plain exceptions from initdb/pg_ctl
        raise DatabaseUnavailable(f"the embedded Postgres in {folder} did not start ({exc}); see "
                                  f"{folder}/log for its log, or set DATABASE_URL to a server") from None
    _keep_alive.append(server)  # the handle stops the server when collected: keep it for the process
    return str(server.get_uri())


_keep_alive: list[object] = []
