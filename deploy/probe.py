#!/usr/bin/env python3
"""Health probe for the platform's containers: ``skyarena-probe grpc HOST:PORT``,
``skyarena-probe http URL`` or ``skyarena-probe celery --app MODULE``; exit status 0 when
healthy, 1 otherwise, with one line on stderr saying why.

Why a script and not the usual ``grpc_health_probe`` binary: that one is a separate
download per architecture, while this uses the ``grpc.health.v1`` client that the
server extra already installs (grpcio-health-checking), the standard library's HTTP
client and Celery's own remote control, so the image gains no new dependency. Docker
Compose's health checks run it; Kubernetes runs it only for the worker and uses its
native ``grpc:`` and ``httpGet:`` probes for the rest.
"""

from __future__ import annotations

import argparse
import fnmatch
import socket
import sys
import urllib.error
import urllib.request

DEFAULT_TIMEOUT_S = 3.0


class Unhealthy(Exception):
    """What the probe saw instead of a healthy answer, in one line."""


def check_grpc(address: str, service: str, timeout_s: float) -> None:
    """Ask ``grpc.health.v1.Health/Check``; anything but SERVING is unhealthy.

    The empty service name asks about the server as a whole, the convention that
    grpc's own health servicer and Kubernetes' ``grpc:`` probe follow."""
    import grpc  # each kind imports only what it asks with: a probe runs every few seconds
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    with grpc.insecure_channel(address) as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        try:
            response = stub.Check(health_pb2.HealthCheckRequest(service=service), timeout=timeout_s)
        except grpc.RpcError as exc:
            code = exc.code() if isinstance(exc, grpc.Call) else None
            details = exc.details() if isinstance(exc, grpc.Call) else str(exc)
            raise Unhealthy(f"{address}: health check failed ({code.name if code else 'error'}: {details})") from None
    status = health_pb2.HealthCheckResponse.ServingStatus.Name(response.status)
    if response.status != health_pb2.HealthCheckResponse.SERVING:
        what = f"service {service!r}" if service else "the server"
        raise Unhealthy(f"{address}: {what} is {status}")


def check_http(url: str, timeout_s: float) -> None:
    """GET the URL; a 2xx answer is healthy (Streamlit's /_stcore/health answers 200 "ok")."""
    try:
        with urllib.request.urlopen(url, timeout=timeout_s) as response:
            status = response.status
    except urllib.error.HTTPError as exc:
        raise Unhealthy(f"{url}: HTTP {exc.code} {exc.reason}") from None
    except (urllib.error.URLError, OSError) as exc:
        reason = exc.reason if isinstance(exc, urllib.error.URLError) else exc
        raise Unhealthy(f"{url}: no answer ({reason})") from None
    if not 200 <= status < 300:
        raise Unhealthy(f"{url}: HTTP {status}")


def check_celery(app_name: str, node: str | None, timeout_s: float) -> None:
    """Ping the workers through the broker; healthy when ``node`` answers.

    The default node pattern is ``*@<this host's name>``: the worker in this container
    (Celery names its node ``NAME@HOSTNAME``, and every container has its own host name),
    whatever name the worker command gives it before the ``@``. Asking every worker
    instead would let a dead worker pass on another's answer."""
    from celery.app.utils import find_app
    from kombu.exceptions import OperationalError

    pattern = node or f"*@{socket.gethostname()}"
    app = find_app(app_name)
    with app.connection_for_write() as connection:
        try:
            # One try: a probe reports the broker down, it does not wait for it to come back.
            connection.ensure_connection(max_retries=0, timeout=timeout_s)
            replies = app.control.ping(timeout=timeout_s, connection=connection)
        except (OperationalError, OSError) as exc:
            raise Unhealthy(f"the broker of {app_name} is unreachable ({exc})") from None
    names = sorted(name for reply in replies for name in reply)
    if not any(fnmatch.fnmatchcase(name, pattern) for name in names):
        raise Unhealthy(f"no worker {pattern} answered the ping within {timeout_s:g} s "
                        f"(answered: {', '.join(names) or 'none'})")


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="skyarena-probe", description=__doc__.split("\n\n")[0])
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT_S,
                        help=f"seconds to wait for an answer (default {DEFAULT_TIMEOUT_S})")
    kinds = parser.add_subparsers(dest="kind", required=True)
    grpc_parser = kinds.add_parser("grpc", help="grpc.health.v1 check of a gRPC server")
    grpc_parser.add_argument("address", metavar="HOST:PORT")
    grpc_parser.add_argument("--service", default="", help="the service to ask about (default: the whole server)")
    http_parser = kinds.add_parser("http", help="GET a URL, healthy on 2xx")
    http_parser.add_argument("url", metavar="URL")
    celery_parser = kinds.add_parser("celery", help="Celery remote-control ping of this host's worker")
    celery_parser.add_argument("--app", required=True, help="the Celery app (module or module:attribute)")
    celery_parser.add_argument("--node", help="node name pattern that must answer (default: *@this host's name)")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        if args.kind == "grpc":
            check_grpc(args.address, args.service, args.timeout)
        elif args.kind == "http":
            check_http(args.url, args.timeout)
        else:
            check_celery(args.app, args.node, args.timeout)
    except Unhealthy as exc:
        print(f"unhealthy: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
