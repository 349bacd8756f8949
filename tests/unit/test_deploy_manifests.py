"""The deploy manifests (deploy/compose, deploy/k8s), checked for structure.

No Docker engine or Kubernetes cluster is needed (our machines have neither): the YAML
is parsed and checked against what the services need (hindsight_services.process
SERVICES, hindsight_common.settings.Settings). The kustomizations are rendered and
validated against the Kubernetes schemas in test_deploy_validation.py.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml

from hindsight_common.settings import Settings
from hindsight_services import cli
from hindsight_services.process import SERVICES

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
COMPOSE = DEPLOY / "compose"
K8S = DEPLOY / "k8s"
BASE = K8S / "base"
REPLAY = K8S / "replay"
EMBEDDED = K8S / "embedded"
MONITORING = K8S / "monitoring"
OVERLAYS = ("dev", "prod")

CONFIGMAP = "hindsight-config"
SECRET = "hindsight-secrets"
EMBEDDING_SERVICES = ("embed", "query")
# Services that load the embedding model (consolidate: to find near-duplicates); the
# autoscaled ones are EMBEDDING_SERVICES.
MODEL_SERVICES = (*EMBEDDING_SERVICES, "consolidate")
INFRA = ("kafka", "postgres", "qdrant", "elasticsearch", "neo4j")
REBUILD_JOB = "hindsight-rebuild"

SETTING_NAMES = frozenset("HINDSIGHT_" + name.upper() for name in Settings.model_fields)
# A whole HINDSIGHT_* name; "HINDSIGHT_LLM_*" (a family in prose) does not match.
ENV_NAME = re.compile(r"\bHINDSIGHT_[A-Z0-9]+(?:_[A-Z0-9]+)*\b")

Obj = dict[str, Any]


# --- helpers ----------------------------------------------------------------------------


def load_docs(path: Path) -> list[Obj]:
    return [d for d in yaml.safe_load_all(path.read_text()) if d is not None]


def under(path: Path, *folders: str) -> bool:
    """Whether ``path`` lies in one of deploy/'s ``folders`` (the checkout's own path, which
    may well contain "k8s", does not count)."""
    return path.relative_to(DEPLOY).parts[0] in folders


def deploy_yaml_files() -> list[Path]:
    return sorted(p for p in DEPLOY.rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file()
                  and under(p, "compose", "k8s"))


def objects_in(directory: Path) -> dict[tuple[str, str], Obj]:
    """The Kubernetes objects of a directory's resource files (not the kustomization)."""
    out: dict[tuple[str, str], Obj] = {}
    for path in sorted(directory.glob("*.yaml")):
        if path.name == "kustomization.yaml":
            continue
        for doc in load_docs(path):
            key = (doc["kind"], doc["metadata"]["name"])
            assert key not in out, f"{key} defined twice in {directory}"
            out[key] = doc
    return out


def of_kind(objects: Mapping[tuple[str, str], Obj], kind: str) -> dict[str, Obj]:
    return {name: obj for (k, name), obj in objects.items() if k == kind}


def deployment(objects: Mapping[tuple[str, str], Obj], service: str) -> Obj:
    return objects[("Deployment", f"hindsight-{service}")]


def container(workload: Obj) -> Obj:
    containers = workload["spec"]["template"]["spec"]["containers"]
    assert len(containers) == 1, "one container per pod"
    return containers[0]


def env_of(c: Obj) -> dict[str, str]:
    return {e["name"]: e["value"] for e in c.get("env", []) if "value" in e}


def port_numbers(c: Obj) -> dict[str, int]:
    return {p["name"]: p["containerPort"] for p in c.get("ports", [])}


def cpu(quantity: str | int | float) -> float:
    q = str(quantity)
    return float(q[:-1]) / 1000 if q.endswith("m") else float(q)


def memory(quantity: str | int) -> int:
    units = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40, "k": 10**3, "M": 10**6, "G": 10**9}
    q = str(quantity)
    for unit, factor in units.items():
        if q.endswith(unit):
            return int(float(q[: -len(unit)]) * factor)
    return int(q)


def selects(selector: Mapping[str, str], labels: Mapping[str, str]) -> bool:
    return all(labels.get(k) == v for k, v in selector.items())


def unknown_setting_names(text: str) -> set[str]:
    return set(ENV_NAME.findall(text)) - SETTING_NAMES


def as_settings(env: Mapping[str, Any]) -> Settings:
    """Validate HINDSIGHT_* variables the way the services read them (names and values),
    without the test's own environment."""
    unknown = sorted(set(env) - SETTING_NAMES)
    assert not unknown, f"not Settings fields: {unknown}"
    return Settings.model_validate({k.removeprefix("HINDSIGHT_").lower(): v for k, v in env.items()})


def base_config(objects: Mapping[tuple[str, str], Obj] | None = None) -> dict[str, str]:
    objects = objects if objects is not None else objects_in(BASE)
    return dict(objects[("ConfigMap", CONFIGMAP)]["data"])


def base_secret(objects: Mapping[tuple[str, str], Obj] | None = None) -> dict[str, str]:
    objects = objects if objects is not None else objects_in(BASE)
    return dict(objects[("Secret", SECRET)].get("stringData", {}))


def kustomizations() -> list[Path]:
    return sorted(K8S.rglob("kustomization.yaml"))


def local_references(kustomization: Path) -> tuple[list[str], list[str]]:
    """(resources and components, files: patch paths and generator files)."""
    k = load_docs(kustomization)[0]
    dirs_or_files = list(k.get("resources", [])) + list(k.get("components", []))
    files = [p["path"] for p in k.get("patches", []) if "path" in p]
    files += list(k.get("patchesStrategicMerge", []))
    for generator in k.get("configMapGenerator", []) + k.get("secretGenerator", []):
        files += [f.split("=", 1)[-1] for f in generator.get("files", [])]
        files += list(generator.get("envs", []))
    return dirs_or_files, files


@pytest.fixture(scope="module")
def base() -> dict[tuple[str, str], Obj]:
    return objects_in(BASE)


@pytest.fixture(scope="module")
def cluster_compose() -> Obj:
    return load_docs(COMPOSE / "docker-compose.cluster.yml")[0]


# --- every file -------------------------------------------------------------------------


def test_every_deploy_yaml_file_parses() -> None:
    files = deploy_yaml_files()
    assert len(files) >= 15, files
    for path in files:
        docs = load_docs(path)
        assert docs, f"{path} is empty"
        for doc in docs:
            assert isinstance(doc, dict), f"{path}: a document that is not a mapping"
            if under(path, "k8s") and path.name != "kustomization.yaml":
                assert {"apiVersion", "kind", "metadata"} <= set(doc), f"{path}: {doc.get('kind')}"
                assert doc["metadata"].get("name"), f"{path}: an object without a name"


def test_every_hindsight_name_in_the_deploy_files_is_a_setting() -> None:
    files = [p for p in sorted(DEPLOY.rglob("*"))
             if p.is_file() and p.suffix in (".yaml", ".yml", ".md", ".py")
             and under(p, "compose", "k8s")]
    assert files
    seen: set[str] = set()
    for path in files:
        text = path.read_text()
        assert not unknown_setting_names(text), f"{path}: {sorted(unknown_setting_names(text))}"
        seen |= set(ENV_NAME.findall(text))
    assert {"HINDSIGHT_LOG_BACKEND", "HINDSIGHT_QDRANT_URL", "HINDSIGHT_INGEST_URL"} <= seen


def test_the_name_check_catches_a_typo() -> None:
    assert unknown_setting_names("HINDSIGHT_QDRANT_ULR: x, HINDSIGHT_QDRANT_URL: y") == {"HINDSIGHT_QDRANT_ULR"}
    assert unknown_setting_names("HINDSIGHT_LLM_* and HINDSIGHT_*") == set()
    with pytest.raises(AssertionError):
        as_settings({"HINDSIGHT_KAFKA_BOOTSTAP": "kafka:9092"})
    with pytest.raises(ValueError):
        as_settings({"HINDSIGHT_LOG_BACKEND": "kafak"})


# --- kustomize layout -------------------------------------------------------------------


def test_kustomizations_reference_only_files_that_exist() -> None:
    found = kustomizations()
    expected = {BASE, REPLAY, EMBEDDED, MONITORING} | {K8S / "overlays" / o for o in OVERLAYS} \
        | {K8S / "overlays" / o / "replay" for o in OVERLAYS}
    assert {k.parent for k in found} == expected
    for k in found:
        resources, files = local_references(k)
        assert resources, f"{k} lists no resources"
        for ref in resources:
            target = (k.parent / ref).resolve()
            assert target.exists(), f"{k}: {ref} does not exist"
            if target.is_dir():
                assert (target / "kustomization.yaml").is_file(), f"{k}: {ref} is no kustomization"
        for ref in files:
            assert (k.parent / ref).is_file(), f"{k}: {ref} does not exist"


def test_no_manifest_is_left_out_of_its_kustomization() -> None:
    for k in kustomizations():
        resources, files = local_references(k)
        listed = {(k.parent / r).resolve() for r in resources + files}
        present = {p.resolve() for p in k.parent.glob("*.yaml") if p.name != "kustomization.yaml"}
        assert present <= listed, f"{k} does not list {sorted(str(p) for p in present - listed)}"


def test_overlays_build_on_the_base_and_the_replay_jobs() -> None:
    for overlay in OVERLAYS:
        resources, _ = local_references(K8S / "overlays" / overlay / "kustomization.yaml")
        assert "../../base" in resources
        replay, _ = local_references(K8S / "overlays" / overlay / "replay" / "kustomization.yaml")
        assert replay == ["../../../replay"]
    base_resources, _ = local_references(BASE / "kustomization.yaml")
    assert not any("replay" in r or "embedded" in r for r in base_resources)


# --- base: Deployments, Services, HPAs, PDBs ----------------------------------------------


@pytest.mark.parametrize("service", SERVICES)
def test_each_service_has_a_deployment(base: dict[tuple[str, str], Obj], service: str) -> None:
    dep = deployment(base, service)
    assert dep["apiVersion"] == "apps/v1"
    labels = dep["spec"]["template"]["metadata"]["labels"]
    assert selects(dep["spec"]["selector"]["matchLabels"], labels)
    c = container(dep)
    assert c["args"] == ["run", service]
    assert "command" not in c, "the image's entry point is `hindsight`"
    ports = port_numbers(c)
    assert ports.get("http") == int(base_config(base)["HINDSIGHT_PORT"])
    for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
        get = c[probe]["httpGet"]
        assert get["path"] == "/healthz", probe
        assert get["port"] in ports or get["port"] in ports.values(), probe
    for kind in ("requests", "limits"):
        assert {"cpu", "memory"} <= set(c["resources"][kind]), kind
        assert cpu(c["resources"][kind]["cpu"]) > 0 and memory(c["resources"][kind]["memory"]) > 0
    assert cpu(c["resources"]["requests"]["cpu"]) <= cpu(c["resources"]["limits"]["cpu"])
    assert memory(c["resources"]["requests"]["memory"]) <= memory(c["resources"]["limits"]["memory"])
    env_from = c["envFrom"]
    assert {"configMapRef": {"name": CONFIGMAP}} in env_from
    assert {"secretRef": {"name": SECRET}} in env_from
    for e in c.get("env", []):
        assert isinstance(e.get("value", ""), str), f"{e['name']}: env values must be strings"


@pytest.mark.parametrize("service", SERVICES)
def test_each_service_runs_non_root_on_a_read_only_filesystem(
    base: dict[tuple[str, str], Obj], service: str
) -> None:
    pod = deployment(base, service)["spec"]["template"]["spec"]
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert pod["securityContext"]["runAsUser"] != 0
    c = container(deployment(base, service))
    assert c["securityContext"]["readOnlyRootFilesystem"] is True
    assert c["securityContext"]["allowPrivilegeEscalation"] is False
    tmp = [m for m in c["volumeMounts"] if m["mountPath"] == "/tmp"]
    assert len(tmp) == 1
    volumes = {v["name"]: v for v in pod["volumes"]}
    assert "emptyDir" in volumes[tmp[0]["name"]]


@pytest.mark.parametrize("service", SERVICES)
def test_each_service_environment_is_valid_settings(
    base: dict[tuple[str, str], Obj], service: str
) -> None:
    env = {**base_config(base), **base_secret(base)}
    env.update({k: v for k, v in env_of(container(deployment(base, service))).items()
                if k.startswith("HINDSIGHT_")})
    settings = as_settings(env)
    assert settings.host == "0.0.0.0"
    assert settings.log_backend == "kafka" and settings.kafka_bootstrap
    assert settings.postgres_dsn
    assert settings.vector_backend == "qdrant" and settings.qdrant_url
    assert settings.text_backend == "elasticsearch" and settings.elasticsearch_url
    assert settings.graph_backend == "neo4j" and settings.neo4j_uri


def test_only_the_six_services_have_deployments(base: dict[tuple[str, str], Obj]) -> None:
    assert set(of_kind(base, "Deployment")) == {f"hindsight-{s}" for s in SERVICES}


def test_configmap_and_secret(base: dict[tuple[str, str], Obj]) -> None:
    config = base_config(base)
    assert all(isinstance(v, str) for v in config.values()), "ConfigMap values must be strings"
    assert set(config) <= SETTING_NAMES
    secret = base[("Secret", SECRET)]
    assert "data" not in secret, "a placeholder in stringData, never base64 data"
    assert all(isinstance(v, str) for v in secret["stringData"].values())
    assert set(secret["stringData"]) <= SETTING_NAMES
    assert "HINDSIGHT_POSTGRES_DSN" in secret["stringData"]
    assert not set(secret["stringData"]) & set(config), "a setting in both"
    for secret_setting in ("HINDSIGHT_POSTGRES_DSN", "HINDSIGHT_NEO4J_PASSWORD", "HINDSIGHT_LLM_API_KEY"):
        assert secret_setting not in config, f"{secret_setting} belongs in the Secret"


@pytest.mark.parametrize("service", MODEL_SERVICES)
def test_embedding_services_are_sized_for_cpu_embedding(
    base: dict[tuple[str, str], Obj], service: str
) -> None:
    c = container(deployment(base, service))
    assert cpu(c["resources"]["requests"]["cpu"]) >= 1
    assert memory(c["resources"]["requests"]["memory"]) >= 2 * 2**30
    threads = int(env_of(c)["HINDSIGHT_MODEL_THREADS"])
    assert 1 <= threads <= cpu(c["resources"]["limits"]["cpu"])


def test_hpas_scale_embed_and_query_on_cpu(base: dict[tuple[str, str], Obj]) -> None:
    hpas = of_kind(base, "HorizontalPodAutoscaler")
    targets = {h["spec"]["scaleTargetRef"]["name"]: h for h in hpas.values()}
    assert set(targets) == {f"hindsight-{s}" for s in EMBEDDING_SERVICES}
    for name, hpa in targets.items():
        assert hpa["apiVersion"] == "autoscaling/v2"
        ref = hpa["spec"]["scaleTargetRef"]
        assert (ref["apiVersion"], ref["kind"]) == ("apps/v1", "Deployment")
        assert ("Deployment", name) in base
        assert "replicas" not in base[("Deployment", name)]["spec"], f"{name}: the HPA owns replicas"
        assert 1 <= hpa["spec"]["minReplicas"] <= hpa["spec"]["maxReplicas"]
        assert [m["resource"]["name"] for m in hpa["spec"]["metrics"] if m["type"] == "Resource"] == ["cpu"]
    partitions = int(base_config(base)["HINDSIGHT_KAFKA_PARTITIONS"])
    assert targets["hindsight-embed"]["spec"]["maxReplicas"] <= partitions


@pytest.mark.parametrize("service", SERVICES)
def test_each_service_has_one_disruption_budget(base: dict[tuple[str, str], Obj], service: str) -> None:
    pods = {name: d["spec"]["template"]["metadata"]["labels"] for name, d in of_kind(base, "Deployment").items()}
    mine = [p for p in of_kind(base, "PodDisruptionBudget").values()
            if selects(p["spec"]["selector"]["matchLabels"], pods[f"hindsight-{service}"])]
    assert len(mine) == 1, f"{service}: {len(mine)} PodDisruptionBudgets"
    pdb = mine[0]
    assert pdb["apiVersion"] == "policy/v1"
    others = [n for n, labels in pods.items()
              if n != f"hindsight-{service}" and selects(pdb["spec"]["selector"]["matchLabels"], labels)]
    assert not others, f"{service}'s budget also selects {others}"
    assert len({"minAvailable", "maxUnavailable"} & set(pdb["spec"])) == 1


def test_services_for_ingest_and_query(base: dict[tuple[str, str], Obj]) -> None:
    services = of_kind(base, "Service")
    assert set(services) == {"hindsight-ingest", "hindsight-query"}
    expected_ports = {"hindsight-ingest": {"http"}, "hindsight-query": {"http", "grpc"}}
    for name, svc in services.items():
        dep = base[("Deployment", name)]
        matched = [d for d, obj in of_kind(base, "Deployment").items()
                   if selects(svc["spec"]["selector"], obj["spec"]["template"]["metadata"]["labels"])]
        assert matched == [name]
        ports = port_numbers(container(dep))
        assert {p["name"] for p in svc["spec"]["ports"]} == expected_ports[name]
        for p in svc["spec"]["ports"]:
            assert p["targetPort"] in ports, f"{name}: targetPort {p['targetPort']}"
    query = container(deployment(base, "query"))
    assert port_numbers(query)["grpc"] == int(env_of(query)["HINDSIGHT_GRPC_PORT"])


def test_query_forwards_writes_to_the_ingest_service(base: dict[tuple[str, str], Obj]) -> None:
    url = urlsplit(env_of(container(deployment(base, "query")))["HINDSIGHT_INGEST_URL"])
    ingest = base[("Service", "hindsight-ingest")]
    http = next(p for p in ingest["spec"]["ports"] if p["name"] == "http")
    assert (url.scheme, url.hostname, url.port) == ("http", "hindsight-ingest", http["port"])


# --- replay (rebuild) Jobs ----------------------------------------------------------------


def test_the_rebuild_job_runs_the_online_replay_with_the_live_settings(base: dict[tuple[str, str], Obj]) -> None:
    replay = objects_in(REPLAY)
    assert not of_kind(base, "Job"), "a Job in the base would run on every apply"
    job = replay[("Job", "hindsight-rebuild")]
    assert job["apiVersion"] == "batch/v1"
    assert not job["spec"].get("suspend"), "nothing to stop first: the rebuild runs beside the live workers"
    pod = job["spec"]["template"]["spec"]
    assert pod["restartPolicy"] in ("Never", "OnFailure")
    c = container(job)
    assert "command" not in c and c["args"] == ["replay", "--projection", "all"]  # the image's `hindsight`
    args = cli._parser().parse_args(c["args"])
    assert args.command == "replay" and args.projection == "all" and not args.drop_old
    assert {"configMapRef": {"name": CONFIGMAP}} in c["envFrom"]
    assert {"secretRef": {"name": SECRET}} in c["envFrom"]
    assert c["securityContext"]["readOnlyRootFilesystem"] is True

    # The same aliases and namespace as the services: the Job itself fills new versions
    # behind them and moves them (services/hindsight_services/rebuild/cluster.py).
    live = as_settings({**base_config(base), **base_secret(base)})
    overrides = {k: v for k, v in env_of(c).items() if k.startswith("HINDSIGHT_")}
    rebuilt = as_settings({**base_config(base), **base_secret(base), **overrides})
    assert (rebuilt.qdrant_collection, rebuilt.elasticsearch_index, rebuilt.neo4j_namespace) == (
        live.qdrant_collection, live.elasticsearch_index, live.neo4j_namespace)
    assert rebuilt.log_backend == "kafka" and rebuilt.vector_backend == "qdrant"


# --- embedded StatefulSet -----------------------------------------------------------------


def test_embedded_statefulset() -> None:
    objects = objects_in(EMBEDDED)
    sts = objects[("StatefulSet", "hindsight")]
    assert sts["spec"]["replicas"] == 1, "the SQLite log has one writer"
    c = container(sts)
    assert c["args"] == ["serve"]
    assert env_of(c)["HINDSIGHT_HOST"] == "0.0.0.0"
    as_settings({k: v for k, v in env_of(c).items() if k.startswith("HINDSIGHT_")})
    assert c["readinessProbe"]["httpGet"]["path"] == "/healthz"
    assert ("Service", "hindsight") in objects


# --- monitoring: the ServiceMonitor reaches /metrics of every service ----------------------


def test_the_service_monitor_scrapes_metrics_of_every_service(base: dict[tuple[str, str], Obj]) -> None:
    monitoring = objects_in(MONITORING)
    [monitor] = of_kind(monitoring, "ServiceMonitor").values()
    [service] = [s for s in of_kind(monitoring, "Service").values()
                 if selects(monitor["spec"]["selector"]["matchLabels"], s["metadata"]["labels"])]
    assert service["spec"]["clusterIP"] == "None"  # headless: one target per pod
    [endpoint] = monitor["spec"]["endpoints"]
    assert endpoint["path"] == "/metrics"
    [port] = [p for p in service["spec"]["ports"] if p["name"] == endpoint["port"]]
    for name in SERVICES:
        template = deployment(base, name)["spec"]["template"]
        assert selects(service["spec"]["selector"], template["metadata"]["labels"]), name
        assert port["targetPort"] in port_numbers(container(deployment(base, name))), name
    assert of_kind(monitoring, "PrometheusRule")


def test_the_grafana_dashboard_is_generated_for_the_sidecar() -> None:
    k = load_docs(MONITORING / "kustomization.yaml")[0]
    [generator] = k["configMapGenerator"]
    assert generator["options"]["labels"] == {"grafana_dashboard": "1"}
    [entry] = generator["files"]
    assert (MONITORING / entry.split("=", 1)[1]).is_file()
