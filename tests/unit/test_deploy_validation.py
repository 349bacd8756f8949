"""The deploy manifests rendered and validated against real schemas, by real tools.

Every kustomization under deploy/k8s is built with kustomize and each object it renders is
validated, strictly, by kubeconform against the Kubernetes 1.34 OpenAPI schemas and the
prometheus-operator CRDs; both compose files against the Compose specification's JSON
schema. The tools are built from the Go module proxy on first use (deploy/validate,
toolchain.py): where they cannot be built the tests FAIL with the reason, they never skip.
Deliberately broken copies prove the validation catches what it should.
"""

from __future__ import annotations

import copy
import shutil
import sys
from pathlib import Path
from typing import Any, Callable

import pytest
import yaml

from tests.unit.test_deploy_manifests import (
    COMPOSE,
    K8S,
    OVERLAYS,
    REBUILD_JOB,
    SECRET,
    SERVICES,
    Obj,
    as_settings,
    base_config,
    base_secret,
    container,
    cpu,
    deployment,
    load_docs,
    of_kind,
)

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "deploy" / "validate"))
import deploy_check  # noqa: E402
import toolchain  # noqa: E402

KUSTOMIZATIONS = [str(d.relative_to(K8S)) for d in deploy_check.kustomizations()]


@pytest.fixture(scope="session")
def tools() -> toolchain.Tools:
    try:
        return toolchain.ensure()
    except toolchain.ToolError as e:
        pytest.fail(f"the validation tools could not be built: {e}", pytrace=False)


def build(directory: Path, tools: toolchain.Tools) -> dict[tuple[str, str], Obj]:
    out: dict[tuple[str, str], Obj] = {}
    for doc in yaml.safe_load_all(deploy_check.render(directory, tools)):
        if doc:
            out[(doc["kind"], doc["metadata"]["name"])] = doc
    return out


# --- every kustomization renders, and every object it renders is valid ---------------------


def test_every_kustomization_is_checked() -> None:
    assert set(KUSTOMIZATIONS) == {"base", "embedded", "monitoring", "replay", "overlays/dev",
                                   "overlays/prod", "overlays/dev/replay", "overlays/prod/replay"}


@pytest.mark.parametrize("directory", KUSTOMIZATIONS)
def test_kustomization_renders_objects_valid_against_the_schemas(
    directory: str, tools: toolchain.Tools
) -> None:
    rendered = deploy_check.render(K8S / directory, tools)
    objects = [d for d in yaml.safe_load_all(rendered) if d]
    report = deploy_check.validate_manifests(rendered, tools)
    assert report.problems == []
    # Each object was validated against a schema, none passed over.
    assert sorted(report.valid) == sorted(f"{o['kind']}/{o['metadata']['name']}" for o in objects)


@pytest.mark.parametrize("name", ["docker-compose.yml", "docker-compose.cluster.yml"])
def test_compose_file_follows_the_compose_specification(name: str, tools: toolchain.Tools) -> None:
    assert deploy_check.compose_problems(COMPOSE / name, tools) == []


def test_check_all_passes_on_the_repository(tools: toolchain.Tools,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    assert deploy_check.check_all(tools) == []
    out = capsys.readouterr().out
    assert "deploy/k8s/overlays/prod: " in out and "docker-compose.cluster.yml: valid" in out


# --- the validation fails on broken copies -------------------------------------------------


def broken_copy(tmp_path: Path, file: str, change: Callable[[list[Obj]], None]) -> Path:
    """A copy of deploy/k8s with one file's documents changed."""
    root = tmp_path / "k8s"
    shutil.copytree(K8S, root)
    docs = load_docs(root / file)
    change(docs)
    (root / file).write_text(yaml.safe_dump_all(docs, sort_keys=False))
    return root


def ingest_container(docs: list[Obj]) -> Obj:
    return container(docs[0])


def set_port_text(docs: list[Obj]) -> None:
    ingest_container(docs)["ports"][0]["containerPort"] = "eighty"


def misspell_pull_policy(docs: list[Obj]) -> None:
    c = ingest_container(docs)
    c["imagePulPolicy"] = c.pop("imagePullPolicy")


def replicas_as_list(docs: list[Obj]) -> None:
    docs[0]["spec"]["replicas"] = [1]


def unknown_endpoint_field(docs: list[Obj]) -> None:
    docs[0]["spec"]["endpoints"][0]["scrapeEvery"] = "15s"


@pytest.mark.parametrize(("file", "change", "directory", "expected"), [
    ("base/ingest.yaml", set_port_text, "overlays/dev", ["Deployment/hindsight-ingest", "containerPort"]),
    ("base/ingest.yaml", misspell_pull_policy, "overlays/prod", ["Deployment/hindsight-ingest", "imagePulPolicy"]),
    ("base/ingest.yaml", replicas_as_list, "base", ["Deployment/hindsight-ingest", "replicas"]),
    ("monitoring/servicemonitor.yaml", unknown_endpoint_field, "monitoring",
     ["ServiceMonitor/hindsight", "scrapeEvery"]),
], ids=["wrong-type", "unknown-field", "wrong-type-list", "crd-unknown-field"])
def test_validation_fails_on_a_broken_copy(
    tmp_path: Path, tools: toolchain.Tools, file: str, change: Callable[[list[Obj]], None],
    directory: str, expected: list[str],
) -> None:
    root = broken_copy(tmp_path, file, change)
    report = deploy_check.validate_manifests(deploy_check.render(root / directory, tools), tools)
    assert not report.ok
    [problem] = report.problems
    assert all(word in problem for word in expected), problem
    assert expected[0] not in report.valid


def service_with_target_port(name: str, target: Any) -> Obj:
    return {"apiVersion": "v1", "kind": "Service", "metadata": {"name": name},
            "spec": {"selector": {"app": "x"}, "ports": [{"port": 80, "targetPort": target}]}}


def test_int_or_string_and_quantity_take_what_the_api_server_takes(tools: toolchain.Tools) -> None:
    docs = [service_with_target_port("by-number", 8080), service_with_target_port("by-name", "http"),
            service_with_target_port("by-float", 1.5), service_with_target_port("by-list", [8080])]
    report = deploy_check.validate_manifests(yaml.safe_dump_all(docs), tools)
    assert sorted(report.valid) == ["Service/by-name", "Service/by-number"]
    assert sorted(p.split(":")[0] for p in report.problems) == ["Service/by-float", "Service/by-list"]
    quota = {"apiVersion": "v1", "kind": "ResourceQuota", "metadata": {"name": "q"},
             "spec": {"hard": {"cpu": 2, "memory": "4Gi", "pods": "10"}}}
    assert deploy_check.validate_manifests(yaml.safe_dump(quota), tools).ok
    quota["spec"]["hard"]["cpu"] = {"value": 2}
    assert not deploy_check.validate_manifests(yaml.safe_dump(quota), tools).ok


def test_a_kind_without_a_schema_is_an_error_not_a_skip(tools: toolchain.Tools) -> None:
    widget = {"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"}}
    report = deploy_check.validate_manifests(yaml.safe_dump(widget), tools)
    assert report.valid == [] and len(report.problems) == 1 and "Widget/w" in report.problems[0]


def test_a_broken_kustomization_is_reported(tmp_path: Path, tools: toolchain.Tools) -> None:
    root = tmp_path / "k8s"
    shutil.copytree(K8S, root)
    (root / "base" / "pdb.yaml").unlink()
    with pytest.raises(ValueError, match="kustomize build .* failed: .*pdb.yaml"):
        deploy_check.render(root / "overlays" / "dev", tools)


def compose_with(tmp_path: Path, name: str, change: Callable[[Any], None]) -> Path:
    doc = copy.deepcopy(load_docs(COMPOSE / name)[0])
    change(doc)
    path = tmp_path / name
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    return path


@pytest.mark.parametrize(("change", "expected"), [
    (lambda d: d["services"]["hindsight"].__setitem__("restart_policy", "always"),
     "services/hindsight: 'restart_policy' does not match any of the regexes"),
    (lambda d: d.__setitem__("service", {}), "(top): 'service' does not match any of the regexes"),
    (lambda d: d["services"]["hindsight"].__setitem__("ports", "8080:8080"),
     "services/hindsight/ports: '8080:8080' is not of type 'array'"),
], ids=["bad-service-key", "bad-top-level-key", "wrong-type"])
def test_compose_check_fails_on_a_broken_copy(
    tmp_path: Path, tools: toolchain.Tools, change: Callable[[Any], None], expected: str
) -> None:
    problems = deploy_check.compose_problems(compose_with(tmp_path, "docker-compose.yml", change), tools)
    assert len(problems) == 1 and expected in problems[0], problems


# --- a tool that cannot be built is a failure with the reason -------------------------------


def test_without_go_the_tools_fail_with_the_reason(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEPLOY_TOOLS_CACHE", str(tmp_path))
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    with pytest.raises(toolchain.ToolError, match="`go` is not on PATH"):
        toolchain.ensure()


def test_a_version_that_does_not_exist_fails_with_go_s_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DEPLOY_TOOLS_CACHE", str(tmp_path))
    monkeypatch.setattr(toolchain, "KUSTOMIZE", ("sigs.k8s.io/kustomize/kustomize/v5", "v5.0.0-no-such"))
    with pytest.raises(toolchain.ToolError, match=r"building kustomize v5\.0\.0-no-such: `go install .*` failed:\n.*no-such"):
        toolchain.ensure()
    assert not (tmp_path / "bin").exists(), "nothing half-built is left to be taken later"


# --- what the overlays produce --------------------------------------------------------------


def test_dev_overlay_built(tools: toolchain.Tools) -> None:
    built = build(K8S / "overlays" / "dev", tools)
    assert {obj["metadata"].get("namespace") for obj in built.values()} == {"hindsight-dev"}
    assert not of_kind(built, "HorizontalPodAutoscaler")
    for service in SERVICES:
        dep = deployment(built, service)
        assert dep["spec"]["replicas"] == 1, service
        requests = container(dep)["resources"]["requests"]
        assert cpu(requests["cpu"]) < 1, f"{service}: small requests in dev"
    settings = as_settings({**base_config(built), **base_secret(built)})
    assert settings.kafka_replication == 1


def test_prod_overlay_built(tools: toolchain.Tools) -> None:
    built = build(K8S / "overlays" / "prod", tools)
    assert {obj["metadata"].get("namespace") for obj in built.values()} == {"hindsight"}
    assert ("Secret", SECRET) not in built, "prod must never overwrite the real Secret"
    hpas = {h["spec"]["scaleTargetRef"]["name"]: h for h in of_kind(built, "HorizontalPodAutoscaler").values()}
    for service in SERVICES:
        dep = deployment(built, service)
        name = f"hindsight-{service}"
        least = hpas[name]["spec"]["minReplicas"] if name in hpas else dep["spec"]["replicas"]
        assert least >= 2, f"{service}: at least two replicas with minAvailable: 1"
        assert container(dep)["image"] != "hindsight:dev"
    for pdb in of_kind(built, "PodDisruptionBudget").values():
        assert pdb["spec"].get("minAvailable") == 1 and "maxUnavailable" not in pdb["spec"]
    assert len(of_kind(built, "PodDisruptionBudget")) == len(SERVICES)
    partitions = int(base_config(built)["HINDSIGHT_KAFKA_PARTITIONS"])
    assert hpas["hindsight-embed"]["spec"]["maxReplicas"] <= partitions
    assert int(base_config(built)["HINDSIGHT_KAFKA_REPLICATION"]) >= 3


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_replay_overlay_built(overlay: str, tools: toolchain.Tools) -> None:
    built = build(K8S / "overlays" / overlay / "replay", tools)
    app = build(K8S / "overlays" / overlay, tools)
    namespaces = {obj["metadata"].get("namespace") for obj in built.values()}
    assert namespaces == {obj["metadata"].get("namespace") for obj in app.values()}
    job = built[("Job", REBUILD_JOB)]
    assert container(job)["image"] == container(deployment(app, "embed"))["image"]
    assert of_kind(built, "Job") == {REBUILD_JOB: job}
