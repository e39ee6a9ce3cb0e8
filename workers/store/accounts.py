"""API tokens: issued once, kept only as their SHA-256, checked by scope.

A token is 256 random bits shown to its owner once; the store keeps its hash, so a leaked
database does not leak tokens. A check names what is wrong (unknown, expired, revoked,
the wrong scope) so the person holding it knows what to do, without saying whose it is.

``check_token`` is the one verdict on a token for every service (the Arena, the dashboard,
the organiser's commands): the token is checked exactly as given. A token never holds a
space or a line break, so one with them (pasted with a newline, copied with a space) is
refused saying so, rather than silently trimmed by one service and unknown to the next.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from typing import Any

from .database import Conn
from .errors import NotFound, StoreError

SCOPES = ("author", "organiser", "service", "play")


class TokenRefused(StoreError):
    """The token is missing, unknown, expired, revoked or lacks the scope asked for."""


class ScopeRefused(TokenRefused):
    """The token is live but its scope does not allow the call (gRPC: PERMISSION_DENIED, not UNAUTHENTICATED)."""


@dataclass(frozen=True)
class Account:
    id: int
    name: str
    scope: str


def account_id(conn: Conn, name: str) -> int:
    """The id of the account called ``name``, created if it does not exist."""
    row = conn.execute("INSERT INTO accounts (name) VALUES (%s) ON CONFLICT (name) DO UPDATE"
                       " SET name = excluded.name RETURNING id", (name,)).fetchone()
    assert row is not None
    return int(row["id"])


def account_by_name(conn: Conn, name: str) -> int:
    row = conn.execute("SELECT id FROM accounts WHERE name = %s", (name,)).fetchone()
    if row is None:
        raise NotFound(f"there is no account {name!r}")
    return int(row["id"])


def token_hash(token: str) -> bytes:
    return hashlib.sha256(token.encode()).digest()


def issue_token(conn: Conn, account: str, scope: str, label: str = "", expires_in_s: float | None = None) -> str:
    """A new token for ``account`` (created if needed), expiring after ``expires_in_s`` if given;
    the only time the token itself is seen."""
    if scope not in SCOPES:
        raise ValueError(f"unknown scope {scope!r}: choose one of {', '.join(SCOPES)}")
    token = secrets.token_urlsafe(32)
    conn.execute("INSERT INTO api_tokens (account_id, token_hash, scope, label, expires_at) VALUES (%s, %s, %s, %s,"
                 " CASE WHEN %s::double precision IS NULL THEN NULL ELSE now() + make_interval(secs => %s) END)",
                 (account_id(conn, account), token_hash(token), scope, label, expires_in_s, expires_in_s))
    return token


def revoke_token(conn: Conn, token: str) -> bool:
    """Revoke a token (it stays stored, refused from now on); False when it is not known."""
    row = conn.execute("UPDATE api_tokens SET revoked_at = coalesce(revoked_at, now()) WHERE token_hash = %s"
                       " RETURNING id", (token_hash(token),)).fetchone()
    return row is not None


def revoke_account_tokens(conn: Conn, account: str, label: str = "") -> int:
    """Revoke the account's live tokens (only those labelled ``label``, if given); how many were live."""
    rows = conn.execute("UPDATE api_tokens t SET revoked_at = now() FROM accounts a"
                        " WHERE a.id = t.account_id AND a.name = %s AND t.revoked_at IS NULL"
                        " AND (%s = '' OR t.label = %s) RETURNING t.id", (account, label, label)).fetchall()
    return len(rows)


def revoke_token_id(conn: Conn, token_id: int) -> bool:
    """Revoke one token by its row id (the dashboard lists tokens, never their secrets); False if not live."""
    row = conn.execute("UPDATE api_tokens SET revoked_at = now() WHERE id = %s AND revoked_at IS NULL RETURNING id",
                       (token_id,)).fetchone()
    return row is not None


def live_tokens(conn: Conn, account_contains: str = "", limit: int = 100) -> list[dict[str, Any]]:
    """Tokens neither revoked nor expired, newest first: who holds them, their scope and label (no hash)."""
    rows = conn.execute(
        "SELECT t.id, a.name AS account, t.scope, t.label, t.created_at, t.expires_at"
        " FROM api_tokens t JOIN accounts a ON a.id = t.account_id"
        " WHERE t.revoked_at IS NULL AND (t.expires_at IS NULL OR t.expires_at > now())"
        " AND strpos(a.name, %s) > 0 ORDER BY t.id DESC LIMIT %s", (account_contains, limit))
    return list(rows)


def check_token(conn: Conn, token: str | None, scope: str | tuple[str, ...]) -> Account:
    """The account the token belongs to, if it is live and has ``scope`` (or one of them); else TokenRefused."""
    scopes = (scope,) if isinstance(scope, str) else scope
    wanted = " or ".join(scopes)
    if not token:
        raise TokenRefused(f"this needs an API token with the {wanted} scope: pass --token or set SKYARENA_TOKEN")
    if any(ch.isspace() or not ch.isprintable() for ch in token):
        raise TokenRefused("the API token holds a space, a line break or another invisible character, which no "
                           "token has: paste it again without them")
    row = conn.execute(
        "SELECT a.id, a.name, t.scope, t.revoked_at IS NOT NULL AS revoked,"
        " t.expires_at IS NOT NULL AND t.expires_at <= now() AS expired"
        " FROM api_tokens t JOIN accounts a ON a.id = t.account_id WHERE t.token_hash = %s",
        (token_hash(token),)).fetchone()
    if row is None:
        raise TokenRefused("the API token is not known: check for a typo, or ask an organiser for a new one")
    if row["revoked"]:
        raise TokenRefused("the API token was revoked: ask an organiser for a new one")
    if row["expired"]:
        raise TokenRefused("the API token has expired: ask an organiser for a new one")
    if row["scope"] not in scopes:
        raise ScopeRefused(f"the API token has the {row['scope']} scope; this needs a token with the {wanted} scope")
    return Account(row["id"], row["name"], row["scope"])


def token_expiry(conn: Conn, token: str) -> Any:
    """When the token expires (None: never)."""
    row = conn.execute("SELECT expires_at FROM api_tokens WHERE token_hash = %s", (token_hash(token),)).fetchone()
    return None if row is None else row["expires_at"]
