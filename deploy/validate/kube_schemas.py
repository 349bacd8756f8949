"""Per-kind JSON schemas for kubeconform, made from the Kubernetes OpenAPI document and CRDs.

Input: ``api/openapi-spec/swagger.json`` of the k8s.io/kubernetes Go module (OpenAPI 2, one
``definitions`` map) and CustomResourceDefinition YAML files (from the prometheus-operator
module's ``example/prometheus-operator-crd``). Output: one file per (kind, group, version), named as
kubeconform's ``{{ .ResourceKind }}{{ .KindSuffix }}.json`` template expects (``deployment-apps-v1.json``,
``service-v1.json``, ``servicemonitor-monitoring-v1.json``), each standalone: the kind's
definition at the top and every definition it reaches under ``definitions``.

The schemas are strict the way the API server is with ``kubectl --validate=strict``: an object
that lists its properties accepts no other field; ``kind`` and ``apiVersion`` must be the
file's own. Two API types the server reads from more than one JSON type are widened to what
it accepts: IntOrString (``format: int-or-string``: a string or an integer) and Quantity (a
string or a number). ``null`` is not accepted where the document does not say so (the server
would read it as "unset"; our manifests never write it).

Usage: kube_schemas.py SWAGGER_JSON OUT_DIR [CRD_YAML ...]
"""

from __future__ import annotations

import copy
import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import yaml

Schema = dict[str, Any]

QUANTITY = "io.k8s.apimachinery.pkg.api.resource.Quantity"
OBJECT_META = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"
REF_PREFIX = "#/definitions/"


def file_name(kind: str, group: str, version: str) -> str:
    """kubeconform's KindSuffix: the first label of the group (none for the core group)."""
    suffix = f"-{group.split('.')[0].lower()}" if group else ""
    return f"{kind.lower()}{suffix}-{version.lower()}.json"


def api_version(group: str, version: str) -> str:
    return f"{group}/{version}" if group else version


def _tighten(node: Any, preserve_unknown: bool = False) -> Any:
    """A copy of a schema node, made strict and widened where the server accepts more."""
    if isinstance(node, list):
        return [_tighten(item) for item in node]
    if not isinstance(node, dict):
        return node
    out: Schema = {}
    for key, value in node.items():
        if key in ("properties", "patternProperties", "definitions"):
            out[key] = {name: _tighten(sub) for name, sub in value.items()}
        elif key == "description":
            continue  # kilobytes per field, never read by a validator
        else:
            out[key] = _tighten(value)
    int_or_string = out.get("format") == "int-or-string" or out.pop("x-kubernetes-int-or-string", False)
    if int_or_string:
        out.pop("type", None)
        out.pop("format", None)
        out["oneOf"] = [{"type": "string"}, {"type": "integer"}]
    if out.pop("nullable", False) and isinstance(out.get("type"), str):
        out["type"] = [out["type"], "null"]
    keeps_unknown = preserve_unknown or out.pop("x-kubernetes-preserve-unknown-fields", False)
    if "properties" in out and "additionalProperties" not in out and not keeps_unknown:
        out["additionalProperties"] = False
    return out


def _refs(node: Any) -> Iterable[str]:
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith(REF_PREFIX):
            yield ref[len(REF_PREFIX):]
        for value in node.values():
            yield from _refs(value)
    elif isinstance(node, list):
        for item in node:
            yield from _refs(item)


def _closure(root: Schema, definitions: dict[str, Schema]) -> dict[str, Schema]:
    """Every definition that ``root`` reaches through ``$ref``."""
    seen: dict[str, Schema] = {}
    todo = list(_refs(root))
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        if name not in definitions:
            raise ValueError(f"$ref to an unknown definition {name}")
        seen[name] = definitions[name]
        todo.extend(_refs(definitions[name]))
    return seen


def _pin_kind(schema: Schema, kind: str, group: str, version: str) -> Schema:
    props = schema.setdefault("properties", {})
    props["kind"] = {"type": "string", "enum": [kind]}
    props["apiVersion"] = {"type": "string", "enum": [api_version(group, version)]}
    schema["required"] = sorted(set(schema.get("required", [])) | {"kind", "apiVersion"})
    return schema


def _standalone(root: Schema, definitions: dict[str, Schema]) -> Schema:
    reached = _closure(root, definitions)
    out = dict(root)
    out["$schema"] = "http://json-schema.org/draft-04/schema#"
    if reached:
        out["definitions"] = {name: reached[name] for name in sorted(reached)}
    return out


def kubernetes_definitions(swagger: Schema) -> dict[str, Schema]:
    definitions = {name: _tighten(d) for name, d in swagger["definitions"].items()}
    definitions[QUANTITY] = {"oneOf": [{"type": "string"}, {"type": "number"}]}
    return definitions


def kubernetes_schemas(swagger: Schema) -> dict[str, Schema]:
    """File name → schema, for every kind the OpenAPI document can create or read."""
    definitions = kubernetes_definitions(swagger)
    out: dict[str, Schema] = {}
    for name, raw in swagger["definitions"].items():
        for gvk in raw.get("x-kubernetes-group-version-kind", []):
            kind, group, version = gvk["kind"], gvk.get("group", ""), gvk["version"]
            root = _pin_kind(copy.deepcopy(definitions[name]), kind, group, version)
            _add(out, file_name(kind, group, version), _standalone(root, definitions))
    return out


def crd_schemas(crd: Schema, definitions: dict[str, Schema]) -> dict[str, Schema]:
    """File name → schema for each served version of a CustomResourceDefinition."""
    spec = crd["spec"]
    kind, group = spec["names"]["kind"], spec["group"]
    out: dict[str, Schema] = {}
    for version in spec["versions"]:
        raw = version.get("schema", {}).get("openAPIV3Schema")
        if not version.get("served", True) or raw is None:
            continue
        root = _pin_kind(_tighten(raw), kind, group, version["name"])
        root["properties"]["metadata"] = {"$ref": REF_PREFIX + OBJECT_META}
        _add(out, file_name(kind, group, version["name"]), _standalone(root, definitions))
    return out


def _add(out: dict[str, Schema], name: str, schema: Schema) -> None:
    if name in out and out[name] != schema:
        raise ValueError(f"two kinds share the schema file name {name}")
    out[name] = schema


class _CrdLoader(yaml.SafeLoader):  # type: ignore[misc]  # SafeLoader is untyped
    """YAML 1.1 reads a bare ``=`` as the "value" tag; in a CRD's enums it is the string."""


_CrdLoader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:value"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def write_all(swagger_path: Path, out_dir: Path, crd_paths: Iterable[Path] = ()) -> int:
    swagger = json.loads(swagger_path.read_text())
    schemas = kubernetes_schemas(swagger)
    definitions = kubernetes_definitions(swagger)
    for path in crd_paths:
        for doc in yaml.load_all(path.read_text(), Loader=_CrdLoader):
            if doc and doc.get("kind") == "CustomResourceDefinition":
                for name, schema in crd_schemas(doc, definitions).items():
                    _add(schemas, name, schema)
    out_dir.mkdir(parents=True, exist_ok=True)
    for name, schema in schemas.items():
        (out_dir / name).write_text(json.dumps(schema, separators=(",", ":"), sort_keys=True))
    return len(schemas)


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    count = write_all(Path(argv[0]), Path(argv[1]), [Path(a) for a in argv[2:]])
    print(f"{count} schemas in {argv[1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
