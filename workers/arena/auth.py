"""Who is calling: the API token in ``authorization: Bearer`` metadata, checked against the store.

Tokens are checked on every call (the store keeps only their SHA-256; a revoked or expired
token is refused from the next call on). ``author`` tokens act on their own bots;
``organiser`` tokens may do everything, including the organiser calls; ``play`` tokens only
connect and play their own account's online versions (the Online service's Connect and
AcceptInvitation), every Arena call refuses them; ``service`` tokens belong to the
platform's own processes and are refused here. The token's verdict is the
store's (`accounts.check_token`, the one check every service uses); a refusal is a gRPC status
with what to do (`statuses.py`): UNAUTHENTICATED for a missing, unknown, expired or revoked
token, PERMISSION_DENIED for a live token whose scope does not allow the call.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import grpc

from serving.tokens import bearer
from workers.store import Database
from workers.store.accounts import Account, check_token

from .errors import CallRefused

AUTHOR_SCOPES = ("author", "organiser")
ORGANISER_SCOPES = ("organiser",)
PLAY_SCOPES = ("play", "author", "organiser")  # Connect and AcceptInvitation: a play token's only calls


def authenticate(db: Database, metadata: Iterable[Any] | None, scopes: tuple[str, ...]) -> Account:
    token = bearer(metadata)
    if not token:
        raise CallRefused(grpc.StatusCode.UNAUTHENTICATED,
                          "this call needs an API token: send metadata 'authorization: Bearer <token>' "
                          "(skyarena login --arena ADDR stores one for the skyarena command)")
    with db.connection() as conn:
        return check_token(conn, token, scopes)


def is_organiser(account: Account) -> bool:
    return account.scope in ORGANISER_SCOPES


def require_owner(account: Account, owner_id: int, what: str) -> None:
    """Authors act on their own bots only; organisers on any."""
    if owner_id != account.id and not is_organiser(account):
        raise CallRefused(grpc.StatusCode.PERMISSION_DENIED, f"{what} belongs to another account: you may only "
                                                              "act on your own bots")
