"""Render every kustomization under deploy/k8s and validate it; check the compose files.

Each kustomization is built with kustomize and every object it renders is validated by
kubeconform, strictly, against the schemas of toolchain.py (Kubernetes and the
prometheus-operator CRDs): a wrong type, an unknown field or a kind without a schema is an
error, nothing is skipped. The compose files are validated against the Compose
specification's JSON schema.

    deploy_check.py check          validate everything; exit 1 naming each problem
    deploy_check.py render DIR     print what kustomize renders for DIR (deploy/k8s/...)
    deploy_check.py tools          build or fetch the tools, print where they are
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jsonschema
import yaml

import toolchain

DEPLOY = Path(__file__).resolve().parents[1]
K8S = DEPLOY / "k8s"
COMPOSE = DEPLOY / "compose"
SCHEMA_FILE = "{{ .ResourceKind }}{{ .KindSuffix }}.json"
RUN_TIMEOUT_S = 300


@dataclass
class Report:
    """What kubeconform said about one rendered stream of objects."""

    valid: list[str] = field(default_factory=list)  # "Kind/name"
    problems: list[str] = field(default_factory=list)  # "Kind/name: message"

    @property
    def ok(self) -> bool:
        return not self.problems and bool(self.valid)


def kustomizations(root: Path = K8S) -> list[Path]:
    """Every directory under ``root`` with a kustomization.yaml."""
    return sorted(p.parent for p in root.rglob("kustomization.yaml"))


def render(directory: Path, tools: toolchain.Tools | None = None) -> str:
    tools = tools or toolchain.ensure()
    done = subprocess.run([str(tools.kustomize), "build", str(directory)], capture_output=True,
                          text=True, timeout=RUN_TIMEOUT_S)
    if done.returncode != 0:
        raise ValueError(f"kustomize build {directory} failed: {done.stderr.strip()}")
    return done.stdout


def validate_manifests(text: str, tools: toolchain.Tools | None = None) -> Report:
    """kubeconform on a multi-document YAML stream, strict, no schema left out."""
    tools = tools or toolchain.ensure()
    done = subprocess.run(
        [str(tools.kubeconform), "-strict", "-summary", "-verbose", "-output", "json",
         "-kubernetes-version", tools.kubernetes_version,
         "-schema-location", str(tools.kubernetes_schemas / SCHEMA_FILE), "-"],
        input=text, capture_output=True, text=True, timeout=RUN_TIMEOUT_S)
    try:
        out: dict[str, Any] = json.loads(done.stdout)
    except json.JSONDecodeError as e:
        raise ValueError(f"kubeconform gave no report (exit {done.returncode}): "
                         f"{done.stderr.strip() or done.stdout.strip()}") from e
    report = Report()
    for resource in out.get("resources") or []:
        name = f"{resource.get('kind')}/{resource.get('name')}"
        if resource.get("status") == "statusValid":
            report.valid.append(name)
        else:
            report.problems.append(f"{name}: {resource.get('status')}: {resource.get('msg')}")
    if done.returncode != 0 and not report.problems:
        report.problems.append(f"kubeconform exited {done.returncode}: {done.stderr.strip()}")
    return report


def compose_problems(path: Path, tools: toolchain.Tools | None = None) -> list[str]:
    """Where a compose file breaks the Compose specification's schema ([] when it holds)."""
    tools = tools or toolchain.ensure()
    schema = json.loads(tools.compose_schema.read_text())
    document = yaml.safe_load(path.read_text())
    if "draft-07" not in str(schema.get("$schema")):
        raise ValueError(f"{tools.compose_schema}: not the draft-07 schema this check reads")
    validator = jsonschema.Draft7Validator(schema)
    return [f"{path.name}: {'/'.join(str(p) for p in e.absolute_path) or '(top)'}: {e.message}"
            for e in sorted(validator.iter_errors(document), key=lambda e: list(map(str, e.path)))]


def compose_files(root: Path = COMPOSE) -> list[Path]:
    return sorted(p for p in root.iterdir() if p.suffix in (".yml", ".yaml"))


def check_all(tools: toolchain.Tools) -> list[str]:
    """Every problem in deploy/ (kustomize errors, schema violations); [] when all hold."""
    problems: list[str] = []
    for directory in kustomizations():
        where = directory.relative_to(DEPLOY.parent)
        try:
            report = validate_manifests(render(directory, tools), tools)
        except ValueError as e:
            problems.append(f"{where}: {e}")
            continue
        problems += [f"{where}: {p}" for p in report.problems]
        print(f"{where}: {len(report.valid)} objects valid")
    for path in compose_files():
        found = compose_problems(path, tools)
        problems += found
        if not found:
            print(f"{path.relative_to(DEPLOY.parent)}: valid")
    return problems


def main(argv: list[str]) -> int:
    try:
        tools = toolchain.ensure()
    except toolchain.ToolError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    if argv == ["tools"]:
        for name, value in vars(tools).items():
            print(f"{name}={value}")
        return 0
    if len(argv) == 2 and argv[0] == "render":
        sys.stdout.write(render(Path(argv[1]), tools))
        return 0
    if argv == ["check"]:
        problems = check_all(tools)
        for problem in problems:
            print(f"INVALID {problem}", file=sys.stderr)
        return 1 if problems else 0
    print(__doc__.strip().split("\n\n")[-1], file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
