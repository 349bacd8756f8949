"""kustomize, kubeconform and the schemas they check against, built from the Go module proxy.

Every version is pinned here. Nothing is committed and nothing is needed beforehand but Go:
the first run builds the two tools with ``go install`` and takes the Kubernetes OpenAPI
document (k8s.io/kubernetes), the prometheus-operator CRDs and the Compose specification's
JSON schema (compose-go) with ``go mod download``; later runs find them in the cache,
``$DEPLOY_TOOLS_CACHE`` or else ``~/.cache/hindsight-deploy-tools``. A tool that cannot be
built raises ToolError saying which one and why.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import kube_schemas

KUSTOMIZE = ("sigs.k8s.io/kustomize/kustomize/v5", "v5.7.1")
KUBECONFORM = ("github.com/yannh/kubeconform/cmd/kubeconform", "v0.7.0")
KUBERNETES = ("k8s.io/kubernetes", "v1.34.4")
PROMETHEUS_OPERATOR = ("github.com/prometheus-operator/prometheus-operator", "v0.85.0")
COMPOSE_GO = ("github.com/compose-spec/compose-go/v2", "v2.9.1")
# The custom resources our manifests use (deploy/k8s/monitoring), from prometheus-operator.
CRDS = ("servicemonitors", "prometheusrules", "podmonitors")
GO_TIMEOUT_S = 1800


class ToolError(RuntimeError):
    """A tool or schema could not be built or fetched; the message says which and why."""


@dataclass(frozen=True)
class Tools:
    kustomize: Path
    kubeconform: Path
    kubernetes_schemas: Path  # a directory, one file per kind (kube_schemas.file_name)
    compose_schema: Path
    kubernetes_version: str


def cache_dir() -> Path:
    configured = os.environ.get("DEPLOY_TOOLS_CACHE")
    if configured:
        return Path(configured)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "hindsight-deploy-tools"


def _go() -> str:
    go = shutil.which("go")
    if go is None:
        raise ToolError("`go` is not on PATH: kustomize and kubeconform are built with Go "
                        "(install Go 1.24 or newer; it reaches the Go module proxy)")
    return go


def _run_go(args: list[str], what: str, cwd: Path, env: dict[str, str] | None = None) -> str:
    full_env = {**os.environ, "GOTOOLCHAIN": "local", **(env or {})}
    try:
        done = subprocess.run([_go(), *args], cwd=cwd, env=full_env, capture_output=True,
                              text=True, timeout=GO_TIMEOUT_S)
    except subprocess.TimeoutExpired as e:
        raise ToolError(f"{what}: `go {' '.join(args)}` ran over {GO_TIMEOUT_S} s") from e
    if done.returncode != 0:
        raise ToolError(f"{what}: `go {' '.join(args)}` failed:\n{done.stderr.strip()[-2000:]}")
    return done.stdout


@contextmanager
def _locked(root: Path) -> Iterator[None]:
    """One builder at a time per cache (two test processes, or `make` beside a test run)."""
    root.mkdir(parents=True, exist_ok=True)
    with open(root / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _installed(root: Path, package: str, version: str) -> Path:
    name = package.rstrip("/").split("/")[-1]
    if name.startswith("v") and name[1:].isdigit():  # .../kustomize/v5
        name = package.split("/")[-2]
    target = root / "bin" / f"{name}-{version}"
    if target.is_file():
        return target
    with tempfile.TemporaryDirectory(dir=root) as gobin:
        _run_go(["install", f"{package}@{version}"], f"building {name} {version}", root,
                {"GOBIN": gobin})
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(Path(gobin) / name, target)
    return target


def _module_dir(root: Path, module: str, version: str) -> Path:
    out = _run_go(["mod", "download", "-json", f"{module}@{version}"],
                  f"fetching {module} {version}", root)
    info = json.loads(out)
    if info.get("Error") or not info.get("Dir"):
        raise ToolError(f"fetching {module} {version}: {info.get('Error', 'no directory')}")
    return Path(info["Dir"])


def _kubernetes_schemas(root: Path) -> Path:
    target = root / "schemas" / f"kubernetes-{KUBERNETES[1]}-prometheus-operator-{PROMETHEUS_OPERATOR[1]}"
    if (target / "deployment-apps-v1.json").is_file():
        return target
    swagger = _module_dir(root, *KUBERNETES) / "api" / "openapi-spec" / "swagger.json"
    crd_dir = _module_dir(root, *PROMETHEUS_OPERATOR) / "example" / "prometheus-operator-crd"
    crds = [crd_dir / f"monitoring.coreos.com_{name}.yaml" for name in CRDS]
    missing = [str(p) for p in [swagger, *crds] if not p.is_file()]
    if missing:
        raise ToolError(f"not in the fetched modules: {missing}")
    building = Path(tempfile.mkdtemp(dir=root))
    building.chmod(0o755)
    try:
        kube_schemas.write_all(swagger, building, crds)
    except (OSError, ValueError, KeyError) as e:
        shutil.rmtree(building, ignore_errors=True)
        raise ToolError(f"making the schemas from {swagger} failed: {e!r}") from e
    target.parent.mkdir(parents=True, exist_ok=True)
    os.replace(building, target)
    return target


def _compose_schema(root: Path) -> Path:
    target = root / "schemas" / f"compose-spec-{COMPOSE_GO[1]}.json"
    if target.is_file():
        return target
    source = _module_dir(root, *COMPOSE_GO) / "schema" / "compose-spec.json"
    if not source.is_file():
        raise ToolError(f"{COMPOSE_GO[0]} {COMPOSE_GO[1]} carries no schema/compose-spec.json")
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, target)
    return target


def ensure() -> Tools:
    """The tools and schemas, built or fetched on first use."""
    root = cache_dir()
    with _locked(root):
        return Tools(
            kustomize=_installed(root, *KUSTOMIZE),
            kubeconform=_installed(root, *KUBECONFORM),
            kubernetes_schemas=_kubernetes_schemas(root),
            compose_schema=_compose_schema(root),
            kubernetes_version=KUBERNETES[1].removeprefix("v"),
        )


if __name__ == "__main__":
    try:
        tools = ensure()
    except ToolError as e:
        print(f"error: {e}", file=sys.stderr)
        sys.exit(1)
    for field, value in vars(tools).items():
        print(f"{field}={value}")
