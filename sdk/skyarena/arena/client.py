"""Talking to the Arena: its address, the caller's token, a channel, and errors as one-line messages.

The address and token come from the command line, else ``SKYARENA_ARENA`` and
``SKYARENA_TOKEN``, else what ``skyarena login`` stored in the user's config directory
(``arena.json``, file mode 0600 so other users of the machine cannot read the token).
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import click
import grpc
from google.protobuf.json_format import MessageToDict
from google.protobuf.message import Message

from skyarena.v1 import arena_pb2_grpc as pb_grpc

from ..cli_support import UserError

ARENA_ENV = "SKYARENA_ARENA"
TOKEN_ENV = "SKYARENA_TOKEN"
CONFIG_FILE = "arena.json"
CALL_TIMEOUT_S = 60.0     # a submission's intake runs the bot's loader in a sandbox: seconds, not minutes
MAX_MESSAGE_BYTES = 64 << 20  # a long match's public replay
F = TypeVar("F", bound=Callable[..., Any])
# The Arena's refusals whose message is a sentence saying what to do: shown as they are,
# without the status code's name in front ("invalid argument: ...").
WRITTEN_FOR_PEOPLE = frozenset({
    grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.NOT_FOUND, grpc.StatusCode.FAILED_PRECONDITION,
    grpc.StatusCode.PERMISSION_DENIED, grpc.StatusCode.ALREADY_EXISTS, grpc.StatusCode.RESOURCE_EXHAUSTED,
    grpc.StatusCode.UNAUTHENTICATED})


def config_path() -> Path:
    return Path(os.environ.get("SKYARENA_CONFIG_DIR") or click.get_app_dir("skyarena")) / CONFIG_FILE


def stored_login() -> dict[str, str]:
    path = config_path()
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        raise UserError(f"cannot read {path} ({exc}): run skyarena login --arena ADDR again") from None
    return {k: str(v) for k, v in data.items() if k in ("arena", "token")}


def store_login(arena: str, token: str) -> Path:
    """Write the login with mode 0600 from the start (never readable by others, even briefly)."""
    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    temporary = path.with_suffix(".tmp")
    with contextlib.suppress(FileNotFoundError):
        temporary.unlink()
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as out:
        json.dump({"arena": arena, "token": token}, out)
    os.replace(temporary, path)
    return path


@dataclass(frozen=True)
class Arena:
    address: str
    token: str

    @contextmanager
    def stub(self, service: Callable[[grpc.Channel], Any] = pb_grpc.ArenaStub) -> Iterator[Any]:
        """A stub of the Arena's ``service`` (the Arena's own, or the Online service's) on a channel of its own."""
        channel = grpc.insecure_channel(self.address, options=[
            ("grpc.max_receive_message_length", MAX_MESSAGE_BYTES),  # public replays of long matches
        ])
        try:
            yield service(channel)
        finally:
            channel.close()

    @property
    def metadata(self) -> tuple[tuple[str, str], ...]:
        return (("authorization", f"Bearer {self.token}"),)

    def call(self, method: str, request: Message, timeout: float = CALL_TIMEOUT_S,
             service: Callable[[grpc.Channel], Any] = pb_grpc.ArenaStub) -> Any:
        """One unary call; a gRPC error becomes a UserError with the Arena's own message."""
        with self.stub(service) as stub:
            try:
                return getattr(stub, method)(request, metadata=self.metadata, timeout=timeout)
            except grpc.RpcError as exc:
                raise call_error(exc, self.address) from None


def call_error(exc: grpc.RpcError, address: str) -> UserError:
    code = exc.code() if isinstance(exc, grpc.Call) else grpc.StatusCode.UNKNOWN
    details = exc.details() if isinstance(exc, grpc.Call) else str(exc)
    if code == grpc.StatusCode.UNAVAILABLE:
        return UserError(f"the Arena at {address} does not answer ({details}): check the address "
                         f"(--arena, {ARENA_ENV} or skyarena login) and that it runs")
    if code in WRITTEN_FOR_PEOPLE and details:
        return UserError(details)
    return UserError(f"{code.name.lower().replace('_', ' ')}: {details}")


def arena(address: str | None, token: str | None) -> Arena:
    stored = stored_login()
    chosen = address or os.environ.get(ARENA_ENV) or stored.get("arena")
    if not chosen:
        raise UserError(f"no Arena address: pass --arena HOST:PORT, set {ARENA_ENV}, or run "
                        "skyarena login --arena HOST:PORT")
    key = token or os.environ.get(TOKEN_ENV) or stored.get("token")
    if not key:
        raise UserError(f"no API token: run skyarena login --arena {chosen}, or set {TOKEN_ENV}")
    return Arena(chosen, key)


def arena_options(func: F) -> F:
    """``--arena``, ``--token`` and ``--json``: what every Arena command takes."""
    func = click.option("--json", "as_json", is_flag=True, help="Print JSON.")(func)
    func = click.option("--token", metavar="TOKEN", help=f"An API token (default: {TOKEN_ENV}, then the login).")(func)
    func = click.option("--arena", "address", metavar="HOST:PORT",
                        help=f"The Arena (default: {ARENA_ENV}, then the login).")(func)
    return func


def to_json(message: Message) -> dict[str, Any]:
    """A response as JSON, with field names as in the .proto and every field present."""
    return MessageToDict(message, preserving_proto_field_name=True, always_print_fields_with_no_presence=True,
                         unquote_int64_if_possible=True)


def echo_json(data: Any) -> None:
    click.echo(json.dumps(data, default=str))
