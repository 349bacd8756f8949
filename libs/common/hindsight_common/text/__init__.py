"""Text analysis shared by recall, reflection, the graph and the text indexes.

- :mod:`.terms` — keyword terms of a query or turn and the stop-word list (BM25 paths,
  the FTS5 and Elasticsearch analysis, the offline reflector).
- :mod:`.entities` — entity candidates in a text and their normalised keys (the graph
  projection, recall's speaker and graph paths).
- :mod:`.tokens` — token counts and truncation with the embedder's tokenizer (packing a
  recall into a token budget).

Nothing here imports recall, reflection, a port or a store adapter (only ``adapters.model_files``,
for where the embedder's tokenizer file is): the arrows point in.
"""

from hindsight_common.text.entities import (
    MAX_ENTITIES,
    document_entities,
    entity_key,
    entity_keys,
    extract_entities,
    merge_entities,
)
from hindsight_common.text.terms import STOPWORDS, keyword_terms

__all__ = [
    "MAX_ENTITIES",
    "STOPWORDS",
    "document_entities",
    "entity_key",
    "entity_keys",
    "extract_entities",
    "keyword_terms",
    "merge_entities",
]
