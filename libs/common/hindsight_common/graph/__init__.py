"""The graph projection's pure parts: which entities a text names, and their keys."""

from hindsight_common.graph.entities import (
    MAX_ENTITIES,
    document_entities,
    entity_key,
    entity_keys,
    extract_entities,
    merge_entities,
)

__all__ = [
    "MAX_ENTITIES",
    "document_entities",
    "entity_key",
    "entity_keys",
    "extract_entities",
    "merge_entities",
]
