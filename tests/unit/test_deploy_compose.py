"""The Docker Compose files (deploy/compose), checked for structure.

Split from test_deploy_manifests.py (which holds the shared helpers) to keep modules small.
No Docker engine is needed: the YAML is parsed and checked against what the services need.
"""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from tests.unit.test_deploy_manifests import (
    COMPOSE,
    INFRA,
    Obj,
    SERVICES,
    as_settings,
    cluster_compose,  # noqa: F401 (a fixture, used by name)
    load_docs,
)


# --- Docker Compose -----------------------------------------------------------------------


def test_embedded_compose_binds_all_interfaces() -> None:
    svc = load_docs(COMPOSE / "docker-compose.yml")[0]["services"]["hindsight"]
    assert svc["command"] == ["serve"]
    assert svc["environment"]["HINDSIGHT_HOST"] == "0.0.0.0"
    as_settings(svc["environment"])


def test_compose_cluster_defines_the_backends_with_health_checks(cluster_compose: Obj) -> None:
    services = cluster_compose["services"]
    assert set(services) == set(INFRA) | set(SERVICES)
    for name in INFRA:
        check = services[name].get("healthcheck", {})
        assert check.get("test") and not check.get("disable"), f"{name} has no health check"
    assert services["kafka"]["image"].startswith("apache/kafka:")
    assert services["kafka"]["environment"]["KAFKA_PROCESS_ROLES"] == "broker,controller"
    assert services["elasticsearch"]["image"].split(":")[-1].startswith("8.")
    assert services["elasticsearch"]["environment"]["discovery.type"] == "single-node"
    assert services["elasticsearch"]["environment"]["xpack.security.enabled"] == "false"
    assert services["neo4j"]["image"].split(":")[-1].startswith("5")
    assert services["neo4j"]["environment"]["NEO4J_AUTH"] == "none"


@pytest.mark.parametrize("service", SERVICES)
def test_compose_cluster_runs_each_service(cluster_compose: Obj, service: str) -> None:
    services = cluster_compose["services"]
    svc = services[service]
    assert svc["build"] == "../.."
    assert svc["command"] == ["run", service]
    assert "/healthz" in " ".join(svc["healthcheck"]["test"])
    depends = svc["depends_on"]
    assert isinstance(depends, dict) and depends
    for dependency, condition in depends.items():
        assert condition == {"condition": "service_healthy"}, f"{service} -> {dependency}"
        assert services[dependency].get("healthcheck", {}).get("test"), dependency
    needs = {"kafka", "postgres"} | {
        "embed": {"qdrant"},
        "project": {"elasticsearch", "neo4j"},
        "query": {"qdrant", "elasticsearch", "neo4j", "ingest"},
    }.get(service, set())
    assert needs <= set(depends), f"{service} starts before {sorted(needs - set(depends))}"

    settings = as_settings(svc["environment"])
    assert settings.host == "0.0.0.0"
    assert settings.log_backend == "kafka"
    assert settings.text_backend == "elasticsearch"
    assert settings.vector_backend == "qdrant" and settings.qdrant_url == "http://qdrant:6333"
    assert settings.graph_backend == "neo4j"
    assert settings.postgres_dsn
    # Every address names a service of this file.
    assert settings.kafka_bootstrap
    hosts = [b.rsplit(":", 1)[0] for b in settings.kafka_bootstrap.split(",")]
    hosts += [urlsplit(u).hostname for u in (settings.postgres_dsn, settings.qdrant_url,
                                             settings.elasticsearch_url, settings.neo4j_uri)]
    assert set(hosts) <= set(services), hosts


def test_compose_cluster_gateway(cluster_compose: Obj) -> None:
    services = cluster_compose["services"]
    query = services["query"]
    assert {"8080:8080", "50051:50051"} <= set(query["ports"])
    settings = as_settings(query["environment"])
    assert settings.grpc_port == 50051 and settings.port == 8080
    assert settings.ingest_url
    url = urlsplit(settings.ingest_url)
    assert url.hostname == "ingest" and url.port == as_settings(services["ingest"]["environment"]).port
    published = [s for s, svc in services.items() if svc.get("ports")]
    assert published == ["query"], "only the gateway is published"
