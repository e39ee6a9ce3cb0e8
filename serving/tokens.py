"""The caller's token, as both servers receive it: ``authorization: Bearer <token>`` metadata."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def bearer(metadata: Iterable[Any] | None) -> str | None:
    """The token of an ``authorization: Bearer <token>`` metadata entry, if any.

    The whitespace around the token belongs to the header's syntax (HTTP's optional
    whitespace), not to the token, so it is dropped here; the token itself is then checked
    exactly as sent.
    """
    for key, value in metadata or ():
        if key.lower() == "authorization":
            text = value.decode() if isinstance(value, bytes) else value
            scheme, _, token = text.partition(" ")
            if scheme.lower() == "bearer" and token.strip():
                return token.strip()
    return None
