"""Copies of what an engine hands out.

Engines may build views (observations, public views, result details) from their own
containers. Where a view reaches code in the same process (a local bot, a result handed
to every seat), it must be a copy that shares no dict or list with the game, or a careless
write would change the game.
"""

from __future__ import annotations

from typing import Any


def private_copy(value: Any) -> Any:
    """A copy of JSON-like data sharing no dict or list with ``value`` (tuples are rebuilt
    only for what they contain; other values are immutable or shared as they are)."""
    if type(value) is dict:
        return {key: private_copy(item) for key, item in value.items()}
    if type(value) is list:
        return [private_copy(item) for item in value]
    if type(value) is tuple:
        return tuple(private_copy(item) for item in value)
    return value
