"""Secrets: the service token and the per-seat tokens.

Seat tokens are random (256 bits) and only their SHA-256 is kept, as the key of the
lookup table, so that neither a memory dump of the table nor the timing of a dict lookup
reveals a usable token. The service token is compared in constant time.

A seat token starts with the issuing process's instance id (``<instance>.<secret>``), so a
token from before a restart is told apart from a mistyped one: the referee can say plainly
that it restarted and no longer knows the match.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass


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

    def __init__(self, instance: str | None = None) -> None:
        self.instance = instance or secrets.token_hex(4)
        self._table: dict[bytes, SeatKey] = {}
        self._by_match: dict[str, list[bytes]] = {}

    def issue(self, match_id: str, seat: int) -> str:
        token = f"{self.instance}.{new_token()}"
        key = digest(token)
        self._table[key] = SeatKey(match_id, seat)
        self._by_match.setdefault(match_id, []).append(key)
        return token

    def lookup(self, token: str) -> SeatKey | None:
        return self._table.get(digest(token))

    def issued_elsewhere(self, token: str) -> bool:
        """The token has the form of a seat token of another referee process."""
        instance, dot, secret = token.partition(".")
        return bool(dot) and len(instance) == len(self.instance) and instance != self.instance and len(secret) >= 32

    def revoke_match(self, match_id: str) -> None:
        for key in self._by_match.pop(match_id, []):
            self._table.pop(key, None)

    def __len__(self) -> int:
        return len(self._table)


GENERATE = "generate one with `python -c 'import secrets; print(secrets.token_urlsafe(32))'`"


def check_token(token: str, what: str = "the service token") -> str:
    """``token`` with surrounding whitespace (a newline from a file) removed, or ValueError
    if it is too short or holds characters no client can send in metadata."""
    token = token.strip()
    if len(token) < 16:
        raise ValueError(f"{what} must be at least 16 characters; {GENERATE}")
    if any(ch.isspace() or not ch.isprintable() or not ch.isascii() for ch in token):
        raise ValueError(f"{what} may only hold printable ASCII without spaces (gRPC metadata cannot carry the rest); "
                         f"{GENERATE}")
    return token


class ServiceToken:
    """A token that privileged calls present (``authorization: Bearer ...``): the service
    token (StartMatch, operators), or the spectator token (Watch without the anonymous limits)."""

    def __init__(self, token: str, what: str = "the service token") -> None:
        self._digest = digest(check_token(token, what))

    def check(self, presented: str | None) -> bool:
        if presented is None:
            return False
        return hmac.compare_digest(digest(presented), self._digest)

