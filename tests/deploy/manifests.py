"""What the deploy tests know about deploy/: the files, the processes the platform runs,
and readers that turn the compose file, the kustomize base and the Dockerfile into data.

The process table below is the one place that says which `skyarena` command each
container runs and exactly which environment variables it gets; the tests hold the
compose file, the Kubernetes manifests and the code's own variables to it.
"""

from __future__ import annotations

import importlib
import re
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click
import yaml

from skyarena.cli import PLATFORM_COMMANDS, main
from tests import config_reference

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
COMPOSE_FILE = DEPLOY / "compose.yaml"
ENV_EXAMPLE = DEPLOY / "env.example"
DOCKERFILE = DEPLOY / "Dockerfile"
K8S = DEPLOY / "k8s"
KUSTOMIZATION = K8S / "kustomization.yaml"

# The environment contract between the platform's pieces (HELPERS.md, "Contracts").
CONTRACT_ENV = frozenset({
    "DATABASE_URL", "CELERY_BROKER_URL", "SKYARENA_SERVICE_TOKEN", "SKYARENA_REFEREES", "SKYARENA_ARENA",
    "SKYARENA_DATA_DIR",
})
# Read by the Python interpreter itself, not by our code: allowed in the image's ENV only.
INTERPRETER_ENV = frozenset({"PATH", "PYTHONUNBUFFERED", "PYTHONDONTWRITEBYTECODE"})


@dataclass(frozen=True)
class Process:
    """One kind of platform container."""

    command: tuple[str, ...]  # the `skyarena` subcommand it runs
    env: frozenset[str]       # exactly the variables it gets: no more (least privilege), no fewer
    probe: str | None         # how its health is asked: grpc, http, celery; None: see NO_PROBE


PROCESSES: dict[str, Process] = {
    "migrate": Process(("db", "upgrade"), frozenset({"DATABASE_URL"}), None),
    # The referee holds no database credentials (docs/DESIGN.md).
    "referee": Process(("referee", "serve"), frozenset({"SKYARENA_SERVICE_TOKEN"}), "grpc"),
    "worker": Process(("worker",), frozenset({"DATABASE_URL", "CELERY_BROKER_URL", "SKYARENA_SERVICE_TOKEN",
                                              "SKYARENA_REFEREES"}), "celery"),
    "beat": Process(("beat",), frozenset({"DATABASE_URL", "CELERY_BROKER_URL"}), None),
    "arena": Process(("arena", "serve"), frozenset({"DATABASE_URL"}), "grpc"),
    "dashboard": Process(("dashboard",), frozenset({"DATABASE_URL"}), "http"),
}
# Kubernetes starts everything at once, so each workload that reads the store (all but the
# migration Job) first runs this in an init container until the schema is current;
# compose orders the same with depends_on.
SCHEMA_WAIT = Process(("db", "status"), frozenset({"DATABASE_URL"}), None)
# The processes without a health check, and why that is right for them.
NO_PROBE = {
    "migrate": "a one-shot job: its exit status is its health, and what needs the schema waits for it",
    "beat": "serves no port and writes no heartbeat yet; the orchestrator restarts it when it exits",
}
# Only the worker runs the hosted-bot sandbox, so only it may lift seccomp and AppArmor.
SANDBOX_PROCESSES = frozenset({"worker"})



def process_of(args: list[str]) -> str:
    """The process a container's `skyarena` arguments start (the longest matching command)."""
    matches = [name for name, p in PROCESSES.items() if tuple(args[:len(p.command)]) == p.command]
    assert matches, f"`skyarena {' '.join(args)}` is none of the platform's processes: add it to PROCESSES"
    return max(matches, key=lambda name: len(PROCESSES[name].command))


def process_of_container(pod: dict[str, Any], container: dict[str, Any]) -> Process:
    """What a Kubernetes container runs: the schema wait if it is an init container, else a process."""
    if container in pod.get("initContainers", []):
        assert tuple(container["args"]) == SCHEMA_WAIT.command, f"init container {container['name']} should wait"
        return SCHEMA_WAIT
    return PROCESSES[process_of(container["args"])]


def option_value(args: list[str], flag: str) -> str:
    """The value after ``flag`` in a command line."""
    assert flag in args, f"`{' '.join(args)}` has no {flag}"
    return args[args.index(flag) + 1]


def listen_port(args: list[str]) -> int:
    """The port a process serves on, from its --listen HOST:PORT or --port PORT."""
    value = option_value(args, "--listen") if "--listen" in args else option_value(args, "--port")
    return int(value.rpartition(":")[2])


# ---- compose ---------------------------------------------------------------------------

def load_compose() -> dict[str, Any]:
    """The compose file as YAML sees it (anchors and << merges resolved, ${...} left as text)."""
    data = yaml.safe_load(COMPOSE_FILE.read_text())
    assert isinstance(data, dict)
    return data


def platform_services(compose: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The compose services that run our image (built from deploy/Dockerfile)."""
    return {name: svc for name, svc in compose["services"].items()
            if isinstance(svc.get("build"), dict) and svc["build"].get("dockerfile") == "deploy/Dockerfile"}


def env_file_values(path: Path = ENV_EXAMPLE) -> dict[str, str]:
    """NAME=VALUE lines of an env file (comments and blank lines skipped)."""
    values = {}
    for line in path.read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            name, sep, value = line.partition("=")
            assert sep, f"{path.name}: {line!r} is not NAME=VALUE"
            values[name.strip()] = value.strip()
    return values


def compose_command() -> list[str] | None:
    """Docker Compose v2 as the plugin (`docker compose`) or standalone, or None if absent."""
    for command in (["docker", "compose"], ["docker-compose"]):
        if shutil.which(command[0]) is None:
            continue
        version = subprocess.run([*command, "version", "--short"], capture_output=True, text=True)
        if version.returncode == 0 and version.stdout.strip().lstrip("v").startswith("2"):
            return command
    return None


# ---- kustomize -------------------------------------------------------------------------

def kustomization() -> dict[str, Any]:
    data = yaml.safe_load(KUSTOMIZATION.read_text())
    assert isinstance(data, dict)
    return data


def render_resources() -> list[dict[str, Any]]:
    """The base without kustomize: every document of every file its `resources` lists.

    Transformers (the images entry) are not applied: enough for schema and consistency
    checks, and what the tests fall back to where no kustomize is installed."""
    docs = []
    for resource in kustomization()["resources"]:
        docs += [doc for doc in yaml.safe_load_all((K8S / resource).read_text()) if doc is not None]
    return docs


def kustomize_command() -> list[str] | None:
    """`kubectl kustomize` or `kustomize build`, whichever is installed."""
    if shutil.which("kubectl"):
        return ["kubectl", "kustomize"]
    if shutil.which("kustomize"):
        return ["kustomize", "build"]
    return None


def render_kustomize(command: list[str]) -> list[dict[str, Any]]:
    done = subprocess.run([*command, str(K8S)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, f"{' '.join(command)} {K8S} failed: {done.stderr.strip()}"
    return [doc for doc in yaml.safe_load_all(done.stdout) if doc is not None]


POD_OWNERS = {"Deployment", "StatefulSet", "Job"}


def workloads(docs: list[dict[str, Any]]) -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
    """(workload, its pod spec) for every Deployment, StatefulSet and Job."""
    for doc in docs:
        if doc["kind"] in POD_OWNERS:
            yield doc, doc["spec"]["template"]["spec"]


def containers(docs: list[dict[str, Any]]) -> Iterator[tuple[dict[str, Any], dict[str, Any], dict[str, Any]]]:
    """(workload, pod spec, container) for every container of every workload."""
    for workload, pod in workloads(docs):
        for container in [*pod.get("initContainers", []), *pod["containers"]]:
            yield workload, pod, container


def by_kind(docs: list[dict[str, Any]], kind: str) -> dict[str, dict[str, Any]]:
    return {doc["metadata"]["name"]: doc for doc in docs if doc["kind"] == kind}


# ---- the Dockerfile --------------------------------------------------------------------

@dataclass(frozen=True)
class Instruction:
    keyword: str
    value: str
    stage: int  # 0 for the first FROM's stage, 1 for the second, ...


def dockerfile_instructions(text: str | None = None) -> list[Instruction]:
    """The Dockerfile's instructions, continuation lines joined and comments dropped."""
    text = DOCKERFILE.read_text() if text is None else text
    logical = re.sub(r"\\\n", " ", "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#")))
    instructions, stage = [], -1
    for line in logical.splitlines():
        if not line.strip():
            continue
        keyword, _, value = line.strip().partition(" ")
        if keyword.upper() == "FROM":
            stage += 1
        instructions.append(Instruction(keyword.upper(), " ".join(value.split()), stage))
    return instructions


# ---- the code's own commands and variables ---------------------------------------------

def _platform_module_missing(exc: ModuleNotFoundError) -> bool:
    """True when the module not found is a platform command's own, not built yet."""
    return exc.name in {module for module, _ in PLATFORM_COMMANDS.values()}


def subcommand(group: click.Group, ctx: click.Context, name: str) -> click.Command | None:
    """``group``'s command ``name``; None while it does not exist (a platform module not built yet)."""
    try:
        return group.get_command(ctx, name)
    except ModuleNotFoundError as exc:
        if _platform_module_missing(exc):
            return None
        raise


def resolve(words: tuple[str, ...]) -> tuple[list[click.Command], click.Context]:
    """The commands along ``skyarena WORDS...`` as far as they exist, and the last one's context."""
    found: list[click.Command] = []
    ctx = click.Context(main, info_name="skyarena")
    command: click.Command = main
    for word in words:
        if not isinstance(command, click.Group):
            break
        sub = subcommand(command, ctx, word)
        if sub is None:
            break
        found.append(sub)
        ctx = click.Context(sub, parent=ctx, info_name=word)
        command = sub
    return found, ctx


def code_env_names() -> frozenset[str]:
    """Every variable the code reads: each CLI option's envvar, every settings class's, the contract."""
    names = set(CONTRACT_ENV) | config_reference.env_names()

    def walk(command: click.Command, ctx: click.Context) -> None:
        for param in command.params:
            if isinstance(param, click.Option) and param.envvar:
                names.update([param.envvar] if isinstance(param.envvar, str) else param.envvar)
        if isinstance(command, click.Group):
            for name in command.list_commands(ctx):
                sub = subcommand(command, ctx, name)
                if sub is not None:
                    walk(sub, click.Context(sub, parent=ctx, info_name=name))

    walk(main, click.Context(main, info_name="skyarena"))
    return frozenset(names)


def module_exists(name: str) -> bool:
    """Whether a module can be imported (the Celery app the worker's probe names)."""
    try:
        importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name and name.startswith(exc.name):
            return False
        raise
    return True
