"""``skyarena arena serve``'s upload and submission limits: one flag (and SKYARENA_ARENA_* variable)
per field of `UploadLimits`, collected into one ``uploads`` argument."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import fields
from typing import Any, TypeVar

import click

from workers.arena.upload_limits import UploadLimits

F = TypeVar("F", bound=Callable[..., Any])
DEFAULTS = UploadLimits()

# field -> (flag help); the flag is the field's name with dashes, the variable SKYARENA_ARENA_<FIELD>.
HELP = {
    "max_uploads": "Uploads in progress at once, all accounts (one more is refused at once).",
    "max_uploads_per_account": "Uploads in progress at once for one account.",
    "stream_deadline_s": "Seconds an upload may take from its start to its last byte.",
    "max_chunks": "Data messages per upload (skyarena submit sends 64 KiB each).",
    "submissions_per_hour": "SubmitVersion calls per account an hour, refused ones included.",
    "submission_burst": "Of those calls, how many one account may make at once (the bucket's size).",
    "versions_per_day": "New versions an account may store in any 24 hours.",
}


def upload_options(func: F) -> F:
    """Add the flags; the command receives ``uploads: UploadLimits`` instead of them."""
    names = [f.name for f in fields(UploadLimits)]

    @functools.wraps(func)
    def command(*args: Any, **kwargs: Any) -> Any:
        uploads = UploadLimits(**{name: kwargs.pop(name) for name in names})
        return func(*args, uploads=uploads, **kwargs)

    wrapped: Any = command
    for name in reversed(names):
        default = getattr(DEFAULTS, name)
        kind = click.FloatRange(min=0, min_open=True) if isinstance(default, float) else click.IntRange(1)
        wrapped = click.option(f"--{name.replace('_', '-')}", name, type=kind, default=default, show_default=True,
                               envvar=f"SKYARENA_ARENA_{name.upper()}", help=HELP[name])(wrapped)
    return wrapped  # type: ignore[no-any-return]
