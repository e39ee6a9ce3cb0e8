"""The caller's token, as both servers receive it: ``authorization: Bearer <token>`` metadata."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def bearer(metadata: Iterable[Any] | None) -> str | None:
    """The token of an ``authorization: Bearer <token>`` metadata entry exactly as sent, if any.

    Nothing is trimmed: every service checks a token exactly as given (a token with a space
    in or around it is refused saying so, `workers.store.accounts.check_token`), so the same
    characters get the same verdict from the Arena, the dashboard and the commands.
    """
    for key, value in metadata or ():
        if key.lower() == "authorization":
            text = value.decode() if isinstance(value, bytes) else value
            scheme, _, token = text.partition(" ")
            if scheme.lower() == "bearer" and token:
                return str(token)
    return None
