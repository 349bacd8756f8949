"""The alert rules and the Grafana dashboard in deploy/k8s/monitoring name only metrics
(and labels) that the code registers (hindsight_common/telemetry/metrics.py)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from hindsight_common.telemetry.metrics import DEFINED

MONITORING = Path(__file__).resolve().parents[2] / "deploy" / "k8s" / "monitoring"
METRIC = re.compile(r"\bhindsight_[a-z0-9_]+\b")
GROUPING = re.compile(r"\b(?:by|without)\s*\(([^)]*)\)")
SELECTOR_LABEL = re.compile(r"([a-z_]+)\s*(?:=~|!~|!=|=)\s*\"")
# Labels every series has once scraped (from the target, the ServiceMonitor) or that
# PromQL adds: not registered by the code.
TARGET_LABELS = {"namespace", "pod", "component", "job", "instance", "le"}
SUFFIXES = {"counter": ("_total", "_created"), "histogram": ("_bucket", "_count", "_sum", "_created"),
            "gauge": ("",)}


def registered() -> dict[str, set[str]]:
    """Each sample name the code's metrics expose -> their label names."""
    out: dict[str, set[str]] = {}
    for name, (kind, labels) in DEFINED.items():
        for suffix in SUFFIXES[kind]:
            out[name + suffix] = set(labels) | ({"le"} if suffix == "_bucket" else set())
    return out


def rule_expressions() -> Iterator[tuple[str, str]]:
    rules = yaml.safe_load((MONITORING / "alerts.yaml").read_text())
    for group in rules["spec"]["groups"]:
        for rule in group["rules"]:
            yield rule.get("alert", rule.get("record", "?")), str(rule["expr"])


def dashboard_expressions() -> Iterator[tuple[str, str]]:
    dashboard = json.loads((MONITORING / "grafana-dashboard.json").read_text())
    for panel in dashboard["panels"]:
        for target in panel["targets"]:
            yield panel["title"], str(target["expr"])
    for variable in dashboard["templating"]["list"]:
        query: Any = variable.get("query")
        if isinstance(query, dict):
            yield variable["name"], str(query["query"])


def problems(expressions: Iterator[tuple[str, str]]) -> list[str]:
    """Metric names no code registers, and grouping or selector labels that none of the
    expression's metrics has."""
    known = registered()
    found = []
    for where, expr in expressions:
        names = set(METRIC.findall(expr))
        if not names:
            found.append(f"{where}: names no hindsight metric")
        for name in sorted(names - set(known)):
            found.append(f"{where}: {name} is not registered")
        labels = set().union(*(known.get(n, set()) for n in names)) | TARGET_LABELS
        used = {label.strip() for g in GROUPING.findall(expr) for label in g.split(",") if label.strip()}
        used |= set(SELECTOR_LABEL.findall(expr))
        for label in sorted(used - labels):
            found.append(f"{where}: label {label!r} is on none of {sorted(names)}")
    return found


def test_the_alert_rules_name_registered_metrics_and_labels() -> None:
    assert list(rule_expressions())
    assert problems(rule_expressions()) == []


def test_the_dashboard_names_registered_metrics_and_labels() -> None:
    assert len(list(dashboard_expressions())) >= 10
    assert problems(dashboard_expressions()) == []


def test_the_check_catches_an_unknown_metric_and_label() -> None:
    found = problems(iter([
        ("typo", "rate(hindsight_dead_leters_total[5m])"),
        ("label", 'sum by (tenant) (hindsight_consumer_lag{group="embed"})'),
        ("fine", "sum by (group, stream, partition) (hindsight_consumer_lag)"),
    ]))
    assert found == ["typo: hindsight_dead_leters_total is not registered",
                     "label: label 'tenant' is on none of ['hindsight_consumer_lag']"]


@pytest.mark.parametrize("topic", ["hindsight_consumer_lag", "hindsight_dead_letters_total",
                                   "hindsight_freshness_seconds_bucket"])
def test_alerts_cover_lag_dead_letters_and_freshness(topic: str) -> None:
    rules = {name: expr for name, expr in rule_expressions()}
    assert any(topic in expr for expr in rules.values()), topic
    spec = yaml.safe_load((MONITORING / "alerts.yaml").read_text())["spec"]
    for group in spec["groups"]:
        for rule in group["rules"]:
            assert rule["labels"]["severity"] in ("warning", "critical"), rule["alert"]
            assert rule["annotations"]["summary"], rule["alert"]
