"""deploy/Dockerfile without a Docker engine: what the image is built from, who it runs as,
what it exposes and sets; and that every command the manifests start is a real
`skyarena` command that accepts those arguments with the variables its container gets."""

from __future__ import annotations

import importlib.metadata
import json
import re
import tomllib
from typing import Any

import click
import pytest
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet

from .manifests import (
    DOCKERFILE,
    INTERPRETER_ENV,
    PROCESSES,
    ROOT,
    Instruction,
    Process,
    code_env_names,
    containers,
    dockerfile_instructions,
    listen_port,
    load_compose,
    module_exists,
    option_value,
    platform_services,
    process_of,
    process_of_container,
    render_resources,
    resolve,
)

# Stand-ins for the secrets, shaped like the real ones, for parsing command lines.
EXAMPLE_ENV = {
    "DATABASE_URL": "postgresql://skyarena:example@postgres:5432/skyarena",
    "CELERY_BROKER_URL": "amqp://skyarena:example@rabbitmq:5672//",
    "SKYARENA_SERVICE_TOKEN": "example-service-token",
    "SKYARENA_REFEREES": "referee-1:50051,referee-2:50051",
}


def runtime() -> list[Instruction]:
    """The instructions of the image's last stage, the one that runs."""
    instructions = dockerfile_instructions()
    last = max(i.stage for i in instructions)
    return [i for i in instructions if i.stage == last]


def only(keyword: str, instructions: list[Instruction]) -> Instruction:
    found = [i for i in instructions if i.keyword == keyword]
    assert len(found) == 1, f"the runtime stage should have one {keyword}, has {len(found)}"
    return found[0]


def env_of(instructions: list[Instruction]) -> dict[str, str]:
    pairs: dict[str, str] = {}
    for instruction in instructions:
        if instruction.keyword == "ENV":
            pairs.update(re.findall(r"([A-Z_][A-Z0-9_]*)=(\S+)", instruction.value))
    return pairs


def test_the_instruction_reader_joins_continuations_and_counts_stages() -> None:
    parsed = dockerfile_instructions("# c\nFROM a AS b\nRUN x \\\n  && y\nFROM c\nUSER 1:1\n")
    assert parsed == [Instruction("FROM", "a AS b", 0), Instruction("RUN", "x && y", 0),
                      Instruction("FROM", "c", 1), Instruction("USER", "1:1", 1)]


def test_image_runs_as_the_numeric_non_root_user_the_manifests_expect() -> None:
    user = only("USER", runtime()).value
    uid, _, gid = user.partition(":")
    assert uid.isdigit() and gid.isdigit() and int(uid) > 0 and int(gid) > 0, "numeric, so runAsNonRoot can verify it"
    created = " ".join(i.value for i in runtime() if i.keyword == "RUN")
    assert f"--uid {uid}" in created and f"--gid {gid}" in created, "USER names the user the image creates"
    for workload, pod, _ in containers(render_resources()):
        context = pod["securityContext"]
        assert (context["runAsUser"], context["runAsGroup"]) == (int(uid), int(gid)), workload["metadata"]["name"]


def test_image_entrypoint_is_skyarena_under_tini_so_the_command_picks_the_process() -> None:
    assert json.loads(only("ENTRYPOINT", runtime()).value) == ["tini", "--", "skyarena"]
    assert "tini" in " ".join(i.value for i in runtime() if i.keyword == "RUN")


def test_image_builds_from_the_package_sources_and_installs_the_server_extra() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    packages = project["tool"]["hatch"]["build"]["targets"]["wheel"]["packages"]
    copied = {i.value.split()[0] for i in dockerfile_instructions() if i.keyword == "COPY" and "--from" not in i.value}
    for package in packages:  # "sdk/skyarena": the image copies its top folder, sdk
        top = package.split("/")[0]
        assert (ROOT / package).is_dir() and top in copied, f"the Dockerfile should COPY {top} (the {package} package)"
    assert {"pyproject.toml"} <= {w for i in dockerfile_instructions() if i.keyword == "COPY" for w in i.value.split()}
    assert project["project"]["readme"] in " ".join(i.value for i in dockerfile_instructions() if i.keyword == "COPY")
    installs = " ".join(i.value for i in dockerfile_instructions() if i.keyword == "RUN")
    assert "pip wheel --no-deps" in installs and ".whl)[server]" in installs


def test_image_python_satisfies_the_package_requirement() -> None:
    (base,) = re.findall(r"ARG PYTHON_IMAGE=python:(\d+\.\d+)", DOCKERFILE.read_text())
    required = SpecifierSet(tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["requires-python"])
    assert f"{base}.0" in required, f"python {base} in the image, the package needs {required}"


def test_image_sets_only_variables_that_the_code_or_python_reads() -> None:
    env = env_of(runtime())
    assert set(env) <= code_env_names() | INTERPRETER_ENV, sorted(set(env) - code_env_names() - INTERPRETER_ENV)
    assert env["SKYARENA_DATA_DIR"] == only("WORKDIR", runtime()).value, "the data dir is the user's writable home"


def test_the_probe_is_on_path_under_the_name_the_health_checks_use() -> None:
    (copy,) = [i for i in dockerfile_instructions() if i.keyword == "COPY" and "deploy/probe.py" in i.value]
    target = copy.value.split()[-1]
    directory, _, name = target.rpartition("/")
    assert name == "skyarena-probe" and "--chmod=0755" in copy.value
    assert directory in env_of(runtime())["PATH"].split(":")
    assert any(i.keyword == "COPY" and "/opt/skyarena /opt/skyarena" in i.value for i in runtime())
    for name, svc in platform_services(load_compose()).items():
        test = svc.get("healthcheck", {}).get("test", [])
        assert not test or test[1] == "skyarena-probe", name


def test_image_exposes_every_port_the_manifests_serve_on() -> None:
    exposed = {int(port) for port in only("EXPOSE", runtime()).value.split()}
    served = set()
    for svc in platform_services(load_compose()).values():
        if "--listen" in svc["command"] or "--port" in svc["command"]:
            served.add(listen_port(svc["command"]))
        if "--metrics-listen" in svc["command"]:
            served.add(int(option_value(svc["command"], "--metrics-listen").rpartition(":")[2]))
    assert served <= exposed, sorted(served - exposed)


def test_what_the_image_runs_besides_skyarena_comes_with_the_server_extra() -> None:
    """The probe leans on grpcio-health-checking (gRPC) and Celery (the worker's ping)."""
    requirements = [Requirement(r) for r in importlib.metadata.requires("skyarena") or []]
    server = {r.name for r in requirements if r.marker is not None and r.marker.evaluate({"extra": "server"})}
    assert {"celery", "grpcio-health-checking"} <= server


def _command_lines() -> list[tuple[str, list[str], Process]]:
    """(where, the arguments after `skyarena`, what it runs) for every container of compose and k8s."""
    lines = [(f"compose service {name}", svc["command"], PROCESSES[process_of(svc["command"])])
             for name, svc in platform_services(load_compose()).items()]
    lines += [(f"k8s {w['kind']} {w['metadata']['name']} {c['name']}", c["args"], process_of_container(pod, c))
              for w, pod, c in containers(render_resources())]
    return lines


@pytest.mark.parametrize(("where", "args", "process"), _command_lines(), ids=[line[0] for line in _command_lines()])
def test_every_entry_command_is_a_real_skyarena_command(where: str, args: list[str], process: Process,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    path = process.command
    found, ctx = resolve(path)
    assert len(found) == len(path), f"{where}: `skyarena {' '.join(path)}` does not exist"
    # The variables the container gets, and no others of ours (the parse must not lean on the test's environment).
    for name in code_env_names():
        monkeypatch.delenv(name, raising=False)
    for name in process.env:
        monkeypatch.setenv(name, EXAMPLE_ENV[name])
    command = found[-1]
    try:
        command.make_context(path[-1], list(args[len(path):]), parent=ctx.parent)
    except click.UsageError as exc:
        pytest.fail(f"{where}: `skyarena {' '.join(args)}` is refused: {exc.format_message()}")


def _celery_apps() -> set[str]:
    """The Celery app modules the workers' health checks name."""
    texts: list[Any] = [svc.get("healthcheck", {}).get("test", []) for svc in load_compose()["services"].values()]
    texts += [c.get("livenessProbe", {}).get("exec", {}).get("command", [])
              for _, _, c in containers(render_resources())]
    return {m for text in texts for m in re.findall(r"--app (\S+)", " ".join(text))}


def test_the_celery_app_the_worker_probe_names_exists() -> None:
    apps = _celery_apps()
    assert len(apps) == 1, f"compose and k8s name one Celery app, not {sorted(apps)}"
    for app in apps:
        assert module_exists(app), f"the worker's health check names {app}, which does not exist"
