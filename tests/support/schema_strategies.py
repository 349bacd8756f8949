"""Hypothesis strategies drawn from a JSON Schema (the subset pydantic writes).

hypothesis-jsonschema does not work with the hypothesis version we pin, and the event
schemas in ``schemas/events/`` use a small part of JSON Schema: ``$ref`` into ``$defs``,
``anyOf``, ``const``, ``enum``, ``type`` with string lengths, patterns and the ``uuid`` and
``date-time`` formats, numeric bounds, arrays and objects (``additionalProperties``
included). ``from_schema`` covers that part and raises ``NotImplementedError`` on
anything else, so a new schema feature shows up as a test failure, not as data that
was never generated.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from typing import Any

from hypothesis import strategies as st

# Times that every offset keeps inside datetime's range (see the HTTP API's time checks).
_EARLIEST = datetime(1900, 1, 1)
_LATEST = datetime(2200, 1, 1)
_OFFSETS = st.sampled_from([UTC, timezone(timedelta(hours=5, minutes=30)), timezone(timedelta(hours=-8))])
# JSON strings are Unicode text: a lone surrogate is no character (RFC 8259, section 8.2).
_CHARS = st.characters(exclude_categories=["Cs"])
_SCHEMA_ONLY = {"title", "description", "default", "examples", "$id", "$schema", "format"}


def from_schema(schema: dict[str, Any], root: dict[str, Any] | None = None) -> st.SearchStrategy[Any]:
    """Values valid against ``schema``; ``root`` resolves ``#/$defs/...`` references."""
    root = root if root is not None else schema
    if "$ref" in schema:
        name = schema["$ref"].removeprefix("#/$defs/")
        return st.deferred(lambda: from_schema(root["$defs"][name], root))
    if "anyOf" in schema or "oneOf" in schema:
        return st.one_of([from_schema(s, root) for s in schema.get("anyOf") or schema["oneOf"]])
    if "allOf" in schema and len(schema["allOf"]) == 1:
        return from_schema({**schema["allOf"][0], **{k: v for k, v in schema.items() if k != "allOf"}}, root)
    if "const" in schema:
        return st.just(schema["const"])
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    kind = schema.get("type")
    if isinstance(kind, list):
        return st.one_of([from_schema({**schema, "type": k}, root) for k in kind])
    if kind == "string":
        return _string(schema)
    if kind == "integer":
        return st.integers(schema.get("minimum", -(2**53)), schema.get("maximum", 2**53))
    if kind == "number":
        return st.floats(schema.get("minimum", -1e12), schema.get("maximum", 1e12),
                         allow_nan=False, allow_infinity=False)
    if kind == "boolean":
        return st.booleans()
    if kind == "null":
        return st.none()
    if kind == "array":
        return st.lists(from_schema(schema.get("items", {"type": "string"}), root),
                        min_size=schema.get("minItems", 0), max_size=min(schema.get("maxItems", 4), 4),
                        unique=bool(schema.get("uniqueItems")))
    if kind == "object":
        return _object(schema, root)
    if not set(schema) - _SCHEMA_ONLY:  # {}: anything JSON
        return st.recursive(st.none() | st.booleans() | st.integers(-1000, 1000) | st.text(_CHARS, max_size=8),
                            lambda inner: st.lists(inner, max_size=3)
                            | st.dictionaries(st.text(_CHARS, max_size=5), inner, max_size=3), max_leaves=6)
    raise NotImplementedError(f"schema feature not covered: {sorted(schema)}")


def _string(schema: dict[str, Any]) -> st.SearchStrategy[str]:
    fmt = schema.get("format")
    if fmt == "uuid":
        return st.uuids().map(str)
    if fmt == "date-time":
        return st.datetimes(_EARLIEST, _LATEST, timezones=_OFFSETS).map(datetime.isoformat)
    if fmt is not None:
        raise NotImplementedError(f"string format not covered: {fmt}")
    low, high = schema.get("minLength", 0), min(schema.get("maxLength", 40), 40)
    if "pattern" in schema:
        longest = schema.get("maxLength", 10**9)
        return st.from_regex(schema["pattern"], fullmatch=True, alphabet=_CHARS).filter(lambda s: low <= len(s) <= longest)
    return st.text(_CHARS, min_size=low, max_size=max(low, high))


def _object(schema: dict[str, Any], root: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    properties: dict[str, Any] = schema.get("properties", {})
    required = set(schema.get("required", ()))
    extra = schema.get("additionalProperties", False)
    fixed = st.fixed_dictionaries(
        {k: from_schema(v, root) for k, v in properties.items() if k in required},
        optional={k: from_schema(v, root) for k, v in properties.items() if k not in required},
    )
    if not isinstance(extra, dict) or properties:
        return fixed
    names = _string({"type": "string", **schema.get("propertyNames", {})})
    least = schema.get("minProperties", 0)
    return st.dictionaries(names, from_schema(extra, root), min_size=least,
                           max_size=max(least, min(schema.get("maxProperties", 3), 3)))
