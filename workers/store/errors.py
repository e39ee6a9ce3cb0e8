"""The store's errors: each says what went wrong and what to do next.

``StoreError`` is the store's own root, not the engines' ``SkyarenaError``: a caller (the
Arena's status table, a command) tells a store outage from a bad game option by class.
"""

from __future__ import annotations


class StoreError(Exception):
    """A problem with the store that the operator can fix (URL, server, schema)."""


class DatabaseUnavailable(StoreError):
    """The database could not be reached or refused the connection."""


class SchemaMismatch(StoreError):
    """The database's schema is not the one this code was written for."""


class NotFound(StoreError):
    """A season, version, match or account named by the caller does not exist."""


class Conflict(StoreError):
    """The request contradicts the stored state (a closed season, a retired bot, ...)."""
