"""``skyarena token create`` / ``revoke``: API tokens, issued and revoked by an organiser through the
Arena, or the first organiser token made with direct access to the database (``--bootstrap``, what
``make demo`` runs).

Beside the store it writes to with ``--bootstrap``, so the SDK imports no ``workers`` code; the
store loads only for ``--bootstrap``, so an organiser's plain ``token create`` or ``revoke`` needs
the Arena client alone."""

from __future__ import annotations

import sys

import click

from skyarena.arena.client import arena, arena_options, echo_json, to_json
from skyarena.cli_support import UserError
from skyarena.v1 import arena_pb2 as pb


@click.group("token")
def command() -> None:
    """API tokens (organisers)."""


@command.command("create")
@click.option("--account", default="", help="The account the token acts as (created if new; --bootstrap: "
                                              "default 'organiser').")
@click.option("--scope", type=click.Choice(["author", "organiser", "play"]), default="author", show_default=True,
              help="play: only connects and plays the account's online bots (an author makes their own).")
@click.option("--label", default="", help="A note kept with the token.")
@click.option("--expires", "expires_s", type=click.FloatRange(min=0, min_open=True), metavar="SECONDS",
              help="Expire after this many seconds (default: never).")
@click.option("--bootstrap", is_flag=True, help="Issue it straight into the database (DATABASE_URL): for the "
                                                "first organiser token, before any exists.")
@arena_options
def create(account: str, scope: str, label: str, expires_s: float | None, bootstrap: bool, address: str | None,
           token: str | None, as_json: bool) -> None:
    """Create an API token; it is printed once (only its hash is kept)."""
    if bootstrap and scope == "play":
        raise UserError("--bootstrap makes the first organiser token; a play token comes from the Arena: "
                        "skyarena token create --scope play (with your author login)")
    if bootstrap:
        issued = _bootstrap(account or "organiser", "organiser" if scope == "author" else scope, label, expires_s)
        result = {"token": issued, "account": account or "organiser", "scope": "organiser", "expires_at": ""}
    else:
        if not account and scope != "play":
            raise UserError("name the account the token is for: --account NAME")
        response = arena(address, token).call("CreateToken", pb.CreateTokenRequest(
            account=account, scope=scope, label=label, expires_in_s=expires_s or 0))
        result = to_json(response)
    if as_json:
        echo_json(result)
        return
    click.echo(result["token"])
    article = "an" if result["scope"][:1] in "aeiou" else "a"
    click.echo(f"({article} {result['scope']} token for {result['account']}; shown only now)", err=True)


@command.command("revoke")
@click.argument("secret", required=False, metavar="[TOKEN|-]")
@click.option("--account", "for_account", default="", help="Revoke every live token of this account instead.")
@click.option("--label", default="", help="With --account: only its tokens with this label.")
@arena_options
def revoke(secret: str | None, for_account: str, label: str, address: str | None, token: str | None,
           as_json: bool) -> None:
    """Revoke a token (TOKEN, or - to read it from stdin and keep it out of the shell's history), or an
    account's tokens (--account); refused from the next call on."""
    if secret == "-":
        secret = sys.stdin.readline().strip()
    if bool(secret) == bool(for_account):
        raise UserError("name what to revoke: a token (or - to read it from stdin), or --account NAME")
    if label and not for_account:
        raise UserError("--label narrows --account: pass both, or only the token")
    response = arena(address, token).call("RevokeToken", pb.RevokeTokenRequest(
        token=secret or "", account=for_account, label=label))
    if as_json:
        echo_json(to_json(response))
        return
    whose = "the token" if secret else f"{response.revoked} live token(s) of {for_account}" + (
        f" labelled {label!r}" if label else "")
    click.echo(f"revoked {whose}: refused from the next call on")


def _bootstrap(account: str, scope: str, label: str, expires_s: float | None) -> str:
    try:
        from workers.store import StoreError, open_database
        from workers.store.accounts import issue_token
    except ModuleNotFoundError as exc:
        raise UserError(f"--bootstrap needs the platform's server parts ({exc.name} is not installed): "
                        "pip install 'skyarena[server]'") from None
    try:
        db = open_database(max_size=1)
    except StoreError as exc:
        raise UserError(str(exc)) from None
    try:
        with db.connection() as conn:
            return issue_token(conn, account, scope, label or "bootstrap", expires_s)
    finally:
        db.close()
