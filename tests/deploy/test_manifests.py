"""deploy/ checked without a Docker engine or a cluster: every YAML file loads; the compose
file passes `docker compose config` where Compose v2 is installed; the Kubernetes base
(rendered by kustomize where installed, else from its resources list) passes the official
schemas through the maintained `kubernetes-validate` package (bundled schemas, offline,
strict: unknown fields fail); and both say the same things that matter: every process,
its command, exactly its variables, a health check, no root, the sandbox's exceptions."""

from __future__ import annotations

import copy
import os
import re
import subprocess
from typing import Any

import kubernetes_validate
import pytest
import yaml

from referee.service.tokens import ServiceToken

from .manifests import (
    COMPOSE_FILE,
    DEPLOY,
    ENV_EXAMPLE,
    K8S,
    KUSTOMIZATION,
    NO_PROBE,
    PROCESSES,
    SANDBOX_PROCESSES,
    SCHEMA_WAIT,
    by_kind,
    compose_command,
    containers,
    env_file_values,
    kustomization,
    kustomize_command,
    listen_port,
    load_compose,
    platform_services,
    process_of,
    process_of_container,
    render_kustomize,
    render_resources,
    workloads,
)

# The oldest Kubernetes the base is written for: container-level appArmorProfile is 1.30's.
MIN_KUBERNETES = "1.30"
KUBERNETES_VERSIONS = [MIN_KUBERNETES, kubernetes_validate.latest_version()]


def test_every_yaml_file_under_deploy_loads() -> None:
    files = sorted(DEPLOY.rglob("*.yaml"))
    assert COMPOSE_FILE in files and KUSTOMIZATION in files
    for path in files:
        docs = [doc for doc in yaml.safe_load_all(path.read_text()) if doc is not None]
        assert docs, f"{path.relative_to(DEPLOY)} holds no YAML document"
        assert all(isinstance(doc, dict) for doc in docs), f"{path.relative_to(DEPLOY)}: a document is not a mapping"


# ---- compose ---------------------------------------------------------------------------

def _compose_or_skip() -> list[str]:
    command = compose_command()
    if command is None:
        pytest.skip("Docker Compose v2 is not installed here (neither `docker compose` nor a standalone "
                    "`docker-compose` v2 answers `version`), so `docker compose config` cannot run; "
                    "the YAML load and the consistency tests in this file still check deploy/compose.yaml")
    return command


def _clean_env() -> dict[str, str]:
    """No variable of ours leaks into Compose's interpolation from the test's environment."""
    return {key: os.environ[key] for key in ("PATH", "HOME") if key in os.environ}


def test_docker_compose_config_accepts_the_file_with_the_example_env() -> None:
    command = _compose_or_skip()
    done = subprocess.run([*command, "--env-file", str(ENV_EXAMPLE), "-f", str(COMPOSE_FILE), "config", "--quiet"],
                          capture_output=True, text=True, env=_clean_env(), timeout=60)
    assert done.returncode == 0, done.stderr


def test_docker_compose_refuses_to_start_without_the_secrets(tmp_path: Any) -> None:
    command = _compose_or_skip()
    empty = tmp_path / "empty.env"
    empty.write_text("")
    done = subprocess.run([*command, "--env-file", str(empty), "-f", str(COMPOSE_FILE), "config", "--quiet"],
                          capture_output=True, text=True, env=_clean_env(), timeout=60)
    assert done.returncode != 0
    assert "copy deploy/env.example to deploy/.env" in done.stderr, done.stderr


def _compose_processes() -> dict[str, str]:
    """Compose service name -> the process it runs."""
    return {name: process_of(svc["command"]) for name, svc in platform_services(load_compose()).items()}


def test_compose_runs_every_process_two_referees_and_several_workers() -> None:
    compose = load_compose()
    processes = _compose_processes()
    assert sorted(set(processes.values())) == sorted(PROCESSES)
    assert sorted(name for name, p in processes.items() if p == "referee") == ["referee-1", "referee-2"]
    assert [p for p in processes.values() if p == "beat"] == ["beat"], "exactly one beat"
    worker = next(name for name, p in processes.items() if p == "worker")
    replicas = compose["services"][worker]["deploy"]["replicas"]
    default = re.fullmatch(r"\$\{SKYARENA_WORKERS:-(\d+)\}", str(replicas))
    assert default and int(default.group(1)) >= 2, f"workers scale by SKYARENA_WORKERS, default 2 or more: {replicas}"
    assert {"postgres", "rabbitmq"} <= set(compose["services"])


def test_compose_gives_each_process_exactly_its_variables() -> None:
    services = platform_services(load_compose())
    for name, process in _compose_processes().items():
        given = set(services[name].get("environment", {}))
        assert given == PROCESSES[process].env, f"compose service {name} ({process}) gets {sorted(given)}"


def test_compose_health_checks_ask_each_process_on_its_own_port() -> None:
    compose = load_compose()
    for name in ("postgres", "rabbitmq"):
        assert compose["services"][name]["healthcheck"]["test"][0] == "CMD"
    assert "pg_isready" in compose["services"]["postgres"]["healthcheck"]["test"]
    assert "rabbitmq-diagnostics" in compose["services"]["rabbitmq"]["healthcheck"]["test"]
    for name, svc in platform_services(compose).items():
        process = process_of(svc["command"])
        probe = PROCESSES[process].probe
        if probe is None:
            assert "healthcheck" not in svc and process in NO_PROBE, f"{name} lacks a health check"
            continue
        test = svc["healthcheck"]["test"]
        if probe == "grpc":
            assert test == ["CMD", "skyarena-probe", "grpc", f"127.0.0.1:{listen_port(svc['command'])}"], name
        elif probe == "http":
            assert test == ["CMD", "skyarena-probe", "http",
                            f"http://127.0.0.1:{listen_port(svc['command'])}/_stcore/health"], name
        else:
            assert test[:2] == ["CMD", "skyarena-probe"] and test[-3:-1] == ["celery", "--app"], name


def test_compose_starts_each_process_after_what_it_needs() -> None:
    services = load_compose()["services"]
    for name, svc in services.items():
        for target, rule in svc.get("depends_on", {}).items():
            assert target in services, f"{name} depends on unknown {target}"
            if rule["condition"] == "service_healthy":
                assert "healthcheck" in services[target], f"{name} waits for {target} to be healthy: it has no check"
            else:
                assert rule["condition"] == "service_completed_successfully", (name, target)
                assert services[target]["restart"] == "no", f"{target} is waited for to finish: make it one-shot"
    for name, svc in platform_services(load_compose()).items():
        process, needs = process_of(svc["command"]), svc.get("depends_on", {})
        if process == "migrate":
            assert needs == {"postgres": {"condition": "service_healthy"}}
        elif "DATABASE_URL" in PROCESSES[process].env:
            assert needs["migrate"] == {"condition": "service_completed_successfully"}, name
        if "CELERY_BROKER_URL" in PROCESSES[process].env:
            assert needs["rabbitmq"] == {"condition": "service_healthy"}, name
        if process == "worker":
            referees = [n for n, p in _compose_processes().items() if p == "referee"]
            assert all(needs[r] == {"condition": "service_healthy"} for r in referees), name


def test_compose_workers_know_every_referee_by_name_and_port() -> None:
    services = platform_services(load_compose())
    processes = _compose_processes()
    referees = {f"{name}:{listen_port(services[name]['command'])}" for name, p in processes.items() if p == "referee"}
    for name, p in processes.items():
        if p == "worker":
            assert set(services[name]["environment"]["SKYARENA_REFEREES"].split(",")) == referees


def _compose_references() -> tuple[set[str], set[str]]:
    """Variables compose.yaml interpolates: (required ones, ones with a default)."""
    text = COMPOSE_FILE.read_text()
    required = set(re.findall(r"\$\{([A-Z_]+):\?", text))
    defaulted = set(re.findall(r"\$\{([A-Z_]+):-", text))
    bare = set(re.findall(r"\$\{([A-Z_]+)\}", text))
    assert not bare, f"say what happens when {sorted(bare)} is unset: ${{NAME:?message}} or ${{NAME:-default}}"
    return required, defaulted


def test_compose_secrets_come_from_the_env_file_with_example_values_only() -> None:
    required, defaulted = _compose_references()
    example = env_file_values()
    assert set(example) == required, "env.example sets exactly the variables compose.yaml requires"
    assert all("change-me" in value for value in example.values()), "env.example holds example values only"
    commented = ENV_EXAMPLE.read_text()
    for name in defaulted:
        assert f"# {name}=" in commented, f"env.example should document the optional {name}"
    ignored = subprocess.run(["git", "check-ignore", "--quiet", "deploy/.env"], cwd=DEPLOY.parent)
    assert ignored.returncode == 0, "git must ignore deploy/.env, where the real secrets go"
    # No credential is spelled out in compose.yaml itself.
    for svc in load_compose()["services"].values():
        for key, value in (svc.get("environment") or {}).items():
            if any(word in key for word in ("PASSWORD", "PASS", "TOKEN", "URL")) and key != "SKYARENA_REFEREES":
                assert "${" in str(value), f"{key} should come from deploy/.env"


def test_the_example_service_tokens_are_ones_the_referee_accepts() -> None:
    """The examples start as they are (the referee refuses tokens under 16 characters)."""
    ServiceToken(env_file_values()["SKYARENA_SERVICE_TOKEN"])
    ServiceToken(by_kind(render_resources(), "Secret")["skyarena-secrets"]["stringData"]["SKYARENA_SERVICE_TOKEN"])
    with pytest.raises(ValueError, match="at least 16 characters"):
        ServiceToken("change-me")


def test_compose_containers_are_non_root_and_only_the_worker_lifts_confinement() -> None:
    for name, svc in platform_services(load_compose()).items():
        process = process_of(svc["command"])
        assert str(svc.get("user", "10001")).split(":")[0] not in {"0", "root"}, name
        assert svc["cap_drop"] == ["ALL"] and svc["read_only"] is True, name
        options = set(svc["security_opt"])
        assert "no-new-privileges:true" in options, name
        lifted = {"seccomp=unconfined", "apparmor=unconfined"}
        if process in SANDBOX_PROCESSES:
            assert lifted <= options, f"{name} runs the sandbox: it needs user namespaces (deploy/README.md)"
        else:
            assert not {o for o in options if o.startswith(("seccomp", "apparmor"))}, f"{name} has no sandbox"


# ---- Kubernetes ------------------------------------------------------------------------

def _kustomize_or_skip() -> list[dict[str, Any]]:
    command = kustomize_command()
    if command is None:
        pytest.skip("neither `kubectl` nor `kustomize` is installed here; the base is still checked file by file "
                    "from kustomization.yaml's resources list")
    return render_kustomize(command)


def _renders() -> list[tuple[str, list[dict[str, Any]]]]:
    renders = [("resources list", render_resources())]
    command = kustomize_command()
    if command is not None:
        renders.append((" ".join(command), render_kustomize(command)))
    return renders


def test_kustomization_lists_every_manifest_and_only_existing_ones() -> None:
    listed = kustomization()["resources"]
    assert len(listed) == len(set(listed))
    on_disk = {p.name for p in K8S.glob("*.yaml")} - {KUSTOMIZATION.name}
    unlisted, missing = sorted(on_disk - set(listed)), sorted(set(listed) - on_disk)
    assert not unlisted and not missing, f"not in kustomization.yaml: {unlisted}; listed but absent: {missing}"
    assert not [p for p in K8S.rglob("*") if p.is_file() and p.suffix != ".yaml"], "k8s/ holds only manifests"


def test_kustomize_renders_the_same_resources_as_the_files() -> None:
    rendered = _kustomize_or_skip()
    assert sorted((d["kind"], d["metadata"]["name"]) for d in rendered) == \
        sorted((d["kind"], d["metadata"]["name"]) for d in render_resources())
    images = {c["image"] for _, _, c in containers(rendered)}
    entry = kustomization()["images"][0]
    assert images == {f"{entry['newName']}:{entry['newTag']}"}, "the images entry sets every container's image"


@pytest.mark.parametrize("version", KUBERNETES_VERSIONS)
def test_every_resource_passes_the_official_kubernetes_schema(version: str) -> None:
    failures = []
    for how, docs in _renders():
        for doc in docs:
            try:
                kubernetes_validate.validate(doc, version, strict=True)
            except kubernetes_validate.ValidationError as exc:
                where = "/".join(str(part) for part in exc.absolute_path) or "the top"
                failures.append(f"{doc['kind']}/{doc['metadata']['name']} ({how}) at {where}: {exc.message}")
    assert not failures, f"against Kubernetes {version}:\n" + "\n".join(failures)


def test_the_schema_check_rejects_a_misspelt_field() -> None:
    """Strict mode is what makes the test above worth having: a typo must fail it."""
    worker = copy.deepcopy(by_kind(render_resources(), "Deployment")["skyarena-worker"])
    kubernetes_validate.validate(worker, MIN_KUBERNETES, strict=True)
    worker["spec"]["replica"] = worker["spec"].pop("replicas")
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(worker, MIN_KUBERNETES, strict=True)


def _k8s_processes(docs: list[dict[str, Any]]) -> dict[str, tuple[dict[str, Any], dict[str, Any], dict[str, Any]]]:
    """Process name -> (workload, pod spec, main container); each process in one workload."""
    found: dict[str, tuple[dict[str, Any], dict[str, Any], dict[str, Any]]] = {}
    for workload, pod in workloads(docs):
        (container,) = pod["containers"]
        process = process_of(container["args"])
        assert process not in found, f"{process} runs in two workloads"
        found[process] = (workload, pod, container)
    return found


def test_k8s_runs_every_process_with_the_compose_command_line() -> None:
    docs = render_resources()
    processes = _k8s_processes(docs)
    assert sorted(processes) == sorted(PROCESSES)
    compose_args = {process_of(svc["command"]): svc["command"] for svc in platform_services(load_compose()).values()}
    for process, (workload, _, container) in processes.items():
        assert container["args"] == compose_args[process], f"{workload['metadata']['name']} and compose differ"
        assert container["image"] == kustomization()["images"][0]["name"]
        assert "command" not in container, "the image's entrypoint (tini, skyarena) stays"
    assert processes["migrate"][0]["kind"] == "Job"


def test_k8s_what_reads_the_store_waits_for_the_schema_first() -> None:
    for process, (workload, pod, _) in _k8s_processes(render_resources()).items():
        name, inits = workload["metadata"]["name"], pod.get("initContainers", [])
        if process == "migrate" or "DATABASE_URL" not in PROCESSES[process].env:
            assert not inits, f"{name} has nothing to wait for"
            continue
        assert [c["args"] for c in inits] == [list(SCHEMA_WAIT.command)], f"{name} should wait for the schema"


def test_k8s_gives_each_container_exactly_its_variables_from_config_and_secret() -> None:
    docs = render_resources()
    config_maps, secrets = by_kind(docs, "ConfigMap"), by_kind(docs, "Secret")
    for workload, pod, container in containers(docs):
        names = [e["name"] for e in container.get("env", [])]
        expected = process_of_container(pod, container).env
        assert set(names) == expected and len(names) == len(set(names)), (workload["metadata"]["name"], names)
        assert "envFrom" not in container, "envFrom would hand every key to every process"
        for entry in container["env"]:
            source = entry["valueFrom"]
            if "secretKeyRef" in source:
                ref = source["secretKeyRef"]
                assert ref["key"] in secrets[ref["name"]]["stringData"], ref
            else:
                ref = source["configMapKeyRef"]
                assert ref["key"] in config_maps[ref["name"]]["data"], ref
            assert ref["key"] == entry["name"], "one name for one variable everywhere"


def test_k8s_probes_ask_each_process_natively_on_its_own_port() -> None:
    for process, (workload, _, container) in _k8s_processes(render_resources()).items():
        name, probe = workload["metadata"]["name"], PROCESSES[process].probe
        if probe is None:
            assert process in NO_PROBE and not any(k.endswith("Probe") for k in container), name
            continue
        ports = {p["name"]: p["containerPort"] for p in container.get("ports", [])}
        if probe == "grpc":
            for kind in ("readinessProbe", "livenessProbe"):
                assert container[kind]["grpc"] == {"port": listen_port(container["args"])}, (name, kind)
        elif probe == "http":
            for kind in ("readinessProbe", "livenessProbe"):
                check = container[kind]["httpGet"]
                assert check["path"] == "/_stcore/health", name
                assert ports[check["port"]] == listen_port(container["args"]), name
        else:
            command = container["livenessProbe"]["exec"]["command"]
            assert command[0] == "skyarena-probe" and command[-3:-1] == ["celery", "--app"], name


def test_k8s_one_beat_scaled_workers_and_a_referee_list_that_matches_the_referees() -> None:
    docs = render_resources()
    processes = _k8s_processes(docs)
    beat = processes["beat"][0]
    assert beat["kind"] == "Deployment" and beat["spec"]["replicas"] == 1
    assert beat["spec"]["strategy"] == {"type": "Recreate"}, "an old beat must stop before a new one starts"
    assert processes["worker"][0]["kind"] == "Deployment" and processes["worker"][0]["spec"]["replicas"] >= 2
    referee, _, container = processes["referee"]
    assert referee["kind"] == "StatefulSet", "per-pod names: a match's Play streams must reach its referee"
    service = by_kind(docs, "Service")[referee["spec"]["serviceName"]]
    assert service["spec"]["clusterIP"] == "None", "headless: a DNS name per referee pod"
    sts, port = referee["metadata"]["name"], listen_port(container["args"])
    expected = {f"{sts}-{i}.{service['metadata']['name']}:{port}" for i in range(referee["spec"]["replicas"])}
    listed = by_kind(docs, "ConfigMap")["skyarena-config"]["data"]["SKYARENA_REFEREES"].split(",")
    assert set(listed) == expected and len(listed) == len(expected)


def test_k8s_pods_run_as_non_root_read_only_and_only_the_worker_lifts_seccomp() -> None:
    docs = render_resources()
    for workload, pod in workloads(docs):
        name = workload["metadata"]["name"]
        context = pod["securityContext"]
        assert context["runAsNonRoot"] is True and context["runAsUser"] > 0 and context["runAsGroup"] > 0, name
        assert context["seccompProfile"] == {"type": "RuntimeDefault"}, name
        assert pod["automountServiceAccountToken"] is False, name
    sandboxed = [c for p, (_, _, c) in _k8s_processes(docs).items() if p in SANDBOX_PROCESSES]
    for workload, _, container in containers(docs):
        name = f"{workload['metadata']['name']}/{container['name']}"
        own = container["securityContext"]
        assert own["allowPrivilegeEscalation"] is False and own["readOnlyRootFilesystem"] is True, name
        assert own["capabilities"] == {"drop": ["ALL"]}, name
        assert "privileged" not in own and "runAsUser" not in own, name
        mounts = {m["mountPath"] for m in container["volumeMounts"]}
        assert {"/tmp", "/var/lib/skyarena"} <= mounts, f"{name}: writable scratch beside a read-only root"
        if container in sandboxed:
            assert own["seccompProfile"] == {"type": "Unconfined"} and own["appArmorProfile"] == {"type": "Unconfined"}
        else:
            assert "seccompProfile" not in own and "appArmorProfile" not in own, name


def test_k8s_every_container_has_cpu_and_memory_requests_and_limits() -> None:
    for workload, _, container in containers(render_resources()):
        for bound in ("requests", "limits"):
            assert set(container["resources"][bound]) == {"cpu", "memory"}, (workload["metadata"]["name"], bound)


def test_k8s_services_select_their_pods_and_name_real_ports() -> None:
    docs = render_resources()
    pods = [(pod_labels(w), pod) for w, pod in workloads(docs)]
    for name, service in by_kind(docs, "Service").items():
        spec = service["spec"]
        if spec.get("type") == "ExternalName":
            continue
        selected = [pod for labels, pod in pods if spec["selector"].items() <= labels.items()]
        assert len(selected) == 1, f"Service {name} selects {len(selected)} workloads"
        port_names = {p["name"] for c in selected[0]["containers"] for p in c.get("ports", [])}
        assert {p["targetPort"] for p in spec["ports"]} <= port_names, name
    for workload, _ in workloads(docs):
        if workload["kind"] != "Job":
            assert workload["spec"]["selector"]["matchLabels"].items() <= pod_labels(workload).items()


def pod_labels(workload: dict[str, Any]) -> dict[str, str]:
    labels: dict[str, str] = workload["spec"]["template"]["metadata"]["labels"]
    return labels


def test_k8s_postgres_and_rabbitmq_are_external_and_the_secret_holds_examples_only() -> None:
    docs = render_resources()
    services = by_kind(docs, "Service")
    for name in ("postgres", "rabbitmq"):
        assert services[name]["spec"]["type"] == "ExternalName"
    (secret,) = by_kind(docs, "Secret").values()
    assert "data" not in secret, "example values in stringData, readable as examples"
    assert all("change-me" in value for value in secret["stringData"].values())
    assert "@postgres:" in secret["stringData"]["DATABASE_URL"]
    assert "@rabbitmq:" in secret["stringData"]["CELERY_BROKER_URL"]
