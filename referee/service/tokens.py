"""Secrets: the service token and the per-seat tokens.

Seat tokens are random (256 bits) and only their SHA-256 is kept, as the key of the
lookup table, so that neither a memory dump of the table nor the timing of a dict lookup
reveals a usable token. The service token is compared in constant time.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any


def new_token() -> str:
    return secrets.token_urlsafe(32)


def digest(token: str) -> bytes:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).digest()


@dataclass(frozen=True)
class SeatKey:
    match_id: str
    seat: int


class SeatTokens:
    """token digest -> (match, seat). Tokens are removed when their match is forgotten; a
    finished match's tokens are refused by the match itself (they expire with it)."""

    def __init__(self) -> None:
        self._table: dict[bytes, SeatKey] = {}
        self._by_match: dict[str, list[bytes]] = {}

    def issue(self, match_id: str, seat: int) -> str:
        token = new_token()
        key = digest(token)
        self._table[key] = SeatKey(match_id, seat)
        self._by_match.setdefault(match_id, []).append(key)
        return token

    def lookup(self, token: str) -> SeatKey | None:
        return self._table.get(digest(token))

    def revoke_match(self, match_id: str) -> None:
        for key in self._by_match.pop(match_id, []):
            self._table.pop(key, None)

    def __len__(self) -> int:
        return len(self._table)


class ServiceToken:
    """The token that StartMatch and the operator calls need (``authorization: Bearer ...``)."""

    def __init__(self, token: str) -> None:
        if len(token) < 16:
            raise ValueError("the service token must be at least 16 characters; generate one with "
                             "`python -c 'import secrets; print(secrets.token_urlsafe(32))'`")
        self._digest = digest(token)

    def check(self, presented: str | None) -> bool:
        if presented is None:
            return False
        return hmac.compare_digest(digest(presented), self._digest)


def bearer(metadata: Iterable[Any] | None) -> str | None:
    """The token of an ``authorization: Bearer <token>`` metadata entry, if any."""
    for key, value in metadata or ():
        if key.lower() == "authorization":
            text = value.decode() if isinstance(value, bytes) else value
            scheme, _, token = text.partition(" ")
            if scheme.lower() == "bearer" and token.strip():
                return token.strip()
    return None
