"""Builds the adapters that ``Settings`` names. The only place that knows backends.

Adapter modules are imported lazily so that a process only loads the drivers it
uses.
"""

from __future__ import annotations

from hindsight_common.errors import ConfigurationError
from hindsight_common.ports.embedder import Embedder
from hindsight_common.ports.log import EventLog
from hindsight_common.ports.projection import TextIndex, VectorIndex
from hindsight_common.settings import Settings


def make_log(settings: Settings) -> EventLog:
    if settings.log_backend == "sqlite":
        from hindsight_common.adapters.sqlite_log import SqliteLog

        return SqliteLog(settings.log_path)
    raise ConfigurationError(f"unknown log backend {settings.log_backend!r}")


def make_embedder(settings: Settings) -> Embedder:
    if settings.embedder == "minilm":
        from hindsight_common.adapters.minilm import MiniLMEmbedder

        return MiniLMEmbedder(threads=settings.embed_threads)
    raise ConfigurationError(f"unknown embedder {settings.embedder!r}")


def make_vector_index(settings: Settings, dim: int) -> VectorIndex:
    if settings.vector_backend == "qdrant_edge":
        from hindsight_common.adapters.qdrant_edge import QdrantEdgeIndex

        return QdrantEdgeIndex(settings.vector_dir, dim)
    if settings.vector_backend == "qdrant":
        from hindsight_common.adapters.qdrant import QdrantIndex

        if not settings.qdrant_url:
            raise ConfigurationError(
                "vector_backend 'qdrant' needs HINDSIGHT_QDRANT_URL: a server URL "
                "(http://host:6333), or ':memory:' or a directory for qdrant-client's local mode"
            )
        # No I/O here: the adapter creates its collection and alias on first use.
        return QdrantIndex.from_location(
            settings.qdrant_url, dim, collection=settings.qdrant_collection
        )
    raise ConfigurationError(f"unknown vector backend {settings.vector_backend!r}")


def make_text_index(settings: Settings) -> TextIndex:
    if settings.text_backend == "sqlite_fts":
        from hindsight_common.adapters.sqlite_fts import SqliteFtsIndex

        return SqliteFtsIndex(settings.text_path)
    raise ConfigurationError(f"unknown text backend {settings.text_backend!r}")
