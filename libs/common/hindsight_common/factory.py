"""Builds the adapters that ``Settings`` names. The only place that knows backends.

Adapter modules are imported lazily so that a process only loads the drivers it
uses.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hindsight_common.errors import ConfigurationError
from hindsight_common.ports.access import AccessCounts
from hindsight_common.ports.credentials import Credentials
from hindsight_common.ports.effects import EffectAudit
from hindsight_common.ports.embedder import Embedder
from hindsight_common.ports.embedding_cache import EmbeddingCache
from hindsight_common.ports.graph import GraphStore
from hindsight_common.ports.key_vault import KeyVault
from hindsight_common.ports.llm import LLM
from hindsight_common.ports.log import EventLog
from hindsight_common.ports.projection import TextIndex, VectorIndex
from hindsight_common.ports.reflect_state import ReflectState
from hindsight_common.ports.reflector import Reflector
from hindsight_common.ports.reranker import Reranker
from hindsight_common.settings import Settings

if TYPE_CHECKING:
    from hindsight_common.adapters.postgres import PostgresState
    from hindsight_common.security.data_keys import DataKeys
    from hindsight_common.security.screening import Screener


def make_log(settings: Settings) -> EventLog:
    """The log adapter, sealing content with per-user data keys unless
    ``HINDSIGHT_SEAL_LOG=false`` (``security/sealed_log.py``)."""
    inner = _make_log(settings)
    if not settings.seal_log:
        return inner
    from hindsight_common.security.sealed_log import SealedLog

    # The master key is read on first use: the services check it at start
    # (process.py), a command that only reads the audit stream never needs it.
    return SealedLog(inner, make_data_keys(settings))


def make_data_keys(settings: Settings) -> DataKeys:
    """The per-user data keys over the configured vault, the master key read on first use
    (and, during a rotation, the previous one: ``data_keys.previous_master_keys``)."""
    from hindsight_common.security.data_keys import DataKeys, master_key_from_settings, previous_master_keys

    return DataKeys(make_key_vault(settings), lambda: master_key_from_settings(settings),
                    previous=lambda: previous_master_keys(settings))


def make_key_vault(settings: Settings) -> KeyVault:
    """Where the wrapped data keys live: SQLite beside the log's state, or PostgreSQL."""
    if settings.log_backend == "sqlite":
        from hindsight_common.adapters.sqlite_key_vault import SqliteKeyVault

        return SqliteKeyVault(settings.key_vault_path)
    if settings.log_backend == "kafka":
        from hindsight_common.adapters.postgres_key_vault import PostgresKeyVault

        return PostgresKeyVault(_postgres_state(settings, "the key vault in cluster mode"))
    raise ConfigurationError(f"no key vault for log backend {settings.log_backend!r}")


def _make_log(settings: Settings) -> EventLog:
    if settings.log_backend == "sqlite":
        from hindsight_common.adapters.sqlite_log import SqliteLog

        return SqliteLog(settings.log_path)
    if settings.log_backend == "kafka":
        from hindsight_common.adapters.kafka_log import KafkaLog

        if not settings.kafka_bootstrap:
            raise ConfigurationError(
                "log_backend 'kafka' needs HINDSIGHT_KAFKA_BOOTSTRAP: the brokers' host:port "
                "(e.g. 127.0.0.1:9092)"
            )
        # No I/O here: topics, producer and the PostgreSQL pool start on first use. The
        # PostgreSQL state is the log's idempotency store (ports/idempotency.py).
        return KafkaLog(
            settings.kafka_bootstrap,
            _postgres_state(settings, "log_backend 'kafka' (idempotency keys)"),
            topic_prefix=settings.kafka_topic_prefix,
            partitions=settings.kafka_partitions,
            replication=settings.kafka_replication,
            stall_after_s=settings.kafka_stall_s,
            append_timeout_s=settings.kafka_append_timeout_s,
        )
    raise ConfigurationError(f"unknown log backend {settings.log_backend!r}")


def _postgres_state(settings: Settings, needed_by: str) -> PostgresState:
    from hindsight_common.adapters.postgres import PostgresState

    if not settings.postgres_dsn:
        raise ConfigurationError(
            f"{needed_by} needs HINDSIGHT_POSTGRES_DSN: "
            "postgresql://user:password@host:port/database"
        )
    return PostgresState(settings.postgres_dsn)


def make_embedder(settings: Settings) -> Embedder:
    if settings.embedder == "bge-small-en":
        from hindsight_common.adapters.onnx_embedder import BgeSmallEmbedder

        return BgeSmallEmbedder(workers=settings.model_threads)
    if settings.embedder == "minilm":
        try:
            from hindsight_common.adapters.minilm import MiniLMEmbedder
        except ImportError as e:  # pragma: no cover - depends on the optional extra
            raise ConfigurationError(
                "HINDSIGHT_EMBEDDER=minilm needs the optional PyTorch extra: "
                "pip install 'hindsight-memory-common[minilm]'") from e
        return MiniLMEmbedder(threads=settings.model_threads)
    raise ConfigurationError(f"unknown embedder {settings.embedder!r}")


EMBEDDERS = ("bge-small-en", "minilm")  # the values of HINDSIGHT_EMBEDDER


def embedder_model_id(name: str) -> str:
    """The model id the embedder ``name`` records with its vectors (loads no model)."""
    if name == "bge-small-en":
        from hindsight_common.adapters.onnx_embedder import MODEL_ID

        return MODEL_ID
    if name == "minilm":
        from hindsight_common.adapters.minilm import MODEL_ID as MINILM_ID

        return MINILM_ID
    raise ConfigurationError(f"unknown embedder {name!r} (known: {', '.join(EMBEDDERS)})")


def make_embedder_for(settings: Settings, model: str) -> Embedder:
    """The embedder that makes ``model``'s vectors (a model id an index records).
    Raises ConfigurationError when no embedder of this build makes it."""
    for name in EMBEDDERS:
        if embedder_model_id(name) == model:
            return make_embedder(settings.model_copy(update={"embedder": name}))
    raise ConfigurationError(
        f"the live vector index was made with {model!r}, which no embedder of this build makes "
        f"(HINDSIGHT_EMBEDDER: {', '.join(EMBEDDERS)}); rebuild it with one of them")


def make_embedding_cache(settings: Settings) -> EmbeddingCache | None:
    """Where computed vectors are kept for reuse; None with ``HINDSIGHT_EMBEDDING_CACHE=false``."""
    if not settings.embedding_cache:
        return None
    if settings.log_backend == "sqlite":
        from hindsight_common.adapters.sqlite_embedding_cache import SqliteEmbeddingCache

        return SqliteEmbeddingCache(settings.embedding_cache_path)
    if settings.log_backend == "kafka":
        from hindsight_common.adapters.kafka_embedding_cache import KafkaEmbeddingCache

        if not settings.kafka_bootstrap:
            raise ConfigurationError("the embedding cache in cluster mode needs HINDSIGHT_KAFKA_BOOTSTRAP")
        # No I/O here: the topic is read on first use.
        return KafkaEmbeddingCache(
            settings.kafka_bootstrap, topic_prefix=settings.kafka_topic_prefix,
            replication=settings.kafka_replication,
        )
    raise ConfigurationError(f"no embedding cache for log backend {settings.log_backend!r}")


def make_reranker(settings: Settings) -> Reranker | None:
    """The cross-encoder presets rerank with; None when turned off (``HINDSIGHT_RERANKER=none``:
    presets that ask for it then run without it, and explain says so)."""
    if settings.reranker == "ms-marco-minilm-l12":
        from hindsight_common.adapters.onnx_reranker import MiniLMCrossEncoder

        return MiniLMCrossEncoder(workers=settings.model_threads)
    if settings.reranker == "none":
        return None
    raise ConfigurationError(f"unknown reranker {settings.reranker!r}")


def make_vector_index(settings: Settings, dim: int, model: str | None = None) -> VectorIndex:
    """``model``: the embedder's model id, recorded by a cluster index it creates (Qdrant
    collection metadata, Elasticsearch mapping ``_meta``), which the services follow."""
    if settings.vector_backend == "qdrant_edge":
        from hindsight_common.adapters.qdrant_edge import QdrantEdgeIndex

        return QdrantEdgeIndex(settings.vector_dir, dim, memory_bytes=settings.vector_memory_mb * 2**20)
    if settings.vector_backend == "qdrant":
        from hindsight_common.adapters.qdrant import QdrantIndex

        if not settings.qdrant_url:
            raise ConfigurationError(
                "vector_backend 'qdrant' needs HINDSIGHT_QDRANT_URL: a server URL "
                "(http://host:6333), or ':memory:' or a directory for qdrant-client's local mode"
            )
        # No I/O here: the adapter creates its collection and alias on first use.
        return QdrantIndex.from_location(
            settings.qdrant_url, dim, collection=settings.qdrant_collection, model=model
        )
    if settings.vector_backend == "elasticsearch":
        from hindsight_common.adapters.elasticsearch_vectors import ElasticsearchVectorIndex

        url = settings.elasticsearch_vector_url or settings.elasticsearch_url
        if not url:
            raise ConfigurationError(
                "vector_backend 'elasticsearch' needs HINDSIGHT_ELASTICSEARCH_URL, "
                "e.g. http://127.0.0.1:9200"
            )
        # No I/O here: the adapter creates its index and alias on first use.
        return ElasticsearchVectorIndex(
            url, dim, alias=settings.elasticsearch_vector_index, model=model
        )
    raise ConfigurationError(f"unknown vector backend {settings.vector_backend!r}")


def make_text_index(settings: Settings) -> TextIndex:
    if settings.text_backend == "sqlite_fts":
        from hindsight_common.adapters.sqlite_fts import SqliteFtsIndex

        return SqliteFtsIndex(settings.text_path, memory_bytes=settings.text_memory_mb * 2**20)
    if settings.text_backend == "elasticsearch":
        from hindsight_common.adapters.elasticsearch import ElasticsearchIndex

        if not settings.elasticsearch_url:
            raise ConfigurationError(
                "text_backend 'elasticsearch' needs HINDSIGHT_ELASTICSEARCH_URL, "
                "e.g. http://127.0.0.1:9200"
            )
        # No I/O here: the adapter creates its index and alias on first use.
        return ElasticsearchIndex(settings.elasticsearch_url, alias=settings.elasticsearch_index)
    raise ConfigurationError(f"unknown text backend {settings.text_backend!r}")


def make_graph_store(settings: Settings) -> GraphStore:
    if settings.graph_backend == "sqlite":
        from hindsight_common.adapters.sqlite_graph import SqliteGraph

        return SqliteGraph(settings.graph_path)
    if settings.graph_backend == "neo4j":
        if not settings.neo4j_uri:
            raise ConfigurationError(
                "graph_backend 'neo4j' needs HINDSIGHT_NEO4J_URI, e.g. bolt://127.0.0.1:7687"
            )
        from hindsight_common.adapters.neo4j_graph import Neo4jGraph

        # No I/O here: the adapter connects and creates its constraints on first use.
        return seal_graph(settings, Neo4jGraph(
            settings.neo4j_uri,
            user=settings.neo4j_user,
            password=settings.neo4j_password,
            namespace=settings.neo4j_namespace,
            timeout_s=settings.neo4j_timeout_s,
        ))
    raise ConfigurationError(f"unknown graph backend {settings.graph_backend!r}")


def seal_graph(settings: Settings, graph: GraphStore) -> GraphStore:
    """The cluster's graph as stored: documents sealed, entities keyed
    (``security/sealed_graph.py``), unless ``HINDSIGHT_SEAL_LOG=false``."""
    if not settings.seal_log:
        return graph
    from hindsight_common.security.data_keys import master_key_from_settings
    from hindsight_common.security.sealed_graph import SealedGraph

    def master() -> bytes:
        return master_key_from_settings(settings)

    return SealedGraph(graph, make_data_keys(settings), master)


def make_llm(settings: Settings) -> LLM | None:
    """The chat model ``HINDSIGHT_LLM_BASE_URL`` and ``HINDSIGHT_LLM_MODEL`` name; None
    when either is unset."""
    if not settings.llm_base_url or not settings.llm_model:
        return None
    from hindsight_common.adapters.openai_chat import OpenAIChatConfig, OpenAIChatLLM

    return OpenAIChatLLM(OpenAIChatConfig(
        base_url=settings.llm_base_url,
        model=settings.llm_model,
        api_key=settings.llm_api_key,
        timeout_s=settings.llm_timeout_s,
        max_retries=settings.llm_max_retries,
        context_tokens=settings.llm_context_tokens,
        price_prompt_per_1k=settings.llm_price_prompt_per_1k,
        price_completion_per_1k=settings.llm_price_completion_per_1k,
    ))


def make_reflector(settings: Settings, llm: LLM | None = None) -> Reflector:
    """The configured reflector; ``llm`` is the process's chat model when it has built
    one already (its owner closes it), else one is made from the settings."""
    if settings.reflector == "offline":
        from hindsight_common.reflection.offline_reflector import OfflineReflector

        return OfflineReflector()
    if settings.reflector == "llm":
        llm = llm or make_llm(settings)
        if llm is None:
            raise ConfigurationError(
                "HINDSIGHT_REFLECTOR=llm needs HINDSIGHT_LLM_BASE_URL and HINDSIGHT_LLM_MODEL"
            )
        from hindsight_common.reflection.llm_reflector import LLMReflector

        return LLMReflector(llm)
    raise ConfigurationError(f"unknown reflector {settings.reflector!r}")


def make_reflect_state(settings: Settings) -> ReflectState:
    if settings.log_backend == "sqlite":
        from hindsight_common.adapters.sqlite_reflect_state import SqliteReflectState

        return SqliteReflectState(settings.reflect_state_path)
    if settings.log_backend == "kafka":
        from hindsight_common.adapters.postgres_reflect_state import PostgresReflectState
        from hindsight_common.security.sealed_reflect_state import SealedReflectState

        state = PostgresReflectState(_postgres_state(settings, "reflect state in cluster mode"))
        if not settings.seal_log:
            return state
        # Sealed like the log: PostgreSQL's WAL and pages outlive a DELETE (sealed_reflect_state).
        return SealedReflectState(state, make_data_keys(settings))
    raise ConfigurationError(f"no reflect state store for log backend {settings.log_backend!r}")


def make_access_counts(settings: Settings) -> AccessCounts:
    if settings.log_backend == "sqlite":
        from hindsight_common.adapters.sqlite_access import SqliteAccessCounts

        return SqliteAccessCounts(settings.access_counts_path)
    if settings.log_backend == "kafka":
        from hindsight_common.adapters.postgres_access import PostgresAccessCounts

        return PostgresAccessCounts(_postgres_state(settings, "access counts in cluster mode"),
                                    namespace=settings.kafka_topic_prefix)
    raise ConfigurationError(f"no access count store for log backend {settings.log_backend!r}")


def make_effect_audit(settings: Settings) -> EffectAudit | None:
    """The effect audit (``ports/effects.py``) when ``HINDSIGHT_EFFECT_AUDIT`` is on, else None."""
    if not settings.effect_audit:
        return None
    if settings.log_backend == "kafka":
        from hindsight_common.adapters.postgres_effects import PostgresEffectAudit

        return PostgresEffectAudit(_postgres_state(settings, "the effect audit"), settings.kafka_topic_prefix)
    raise ConfigurationError(
        f"HINDSIGHT_EFFECT_AUDIT is for the cluster (log backend 'kafka'), not {settings.log_backend!r}")


def make_credentials(settings: Settings) -> Credentials:
    """Where API keys are kept: beside the log's other state (SQLite embedded, PostgreSQL
    in the cluster)."""
    if settings.log_backend == "sqlite":
        from hindsight_common.adapters.sqlite_credentials import SqliteCredentials

        return SqliteCredentials(settings.credentials_path)
    if settings.log_backend == "kafka":
        from hindsight_common.adapters.postgres_credentials import PostgresCredentials

        return PostgresCredentials(_postgres_state(settings, "API keys in cluster mode"))
    raise ConfigurationError(f"no credential store for log backend {settings.log_backend!r}")


def make_screener(settings: Settings) -> Screener | None:
    """The injection screener ingest and reflect use: None when screening is off; the
    rules alone when ``screening_classifier`` is off."""
    from hindsight_common.security.screening import Screener

    if not settings.screening:
        return None
    return Screener(settings.screening_trust, classifier="shipped" if settings.screening_classifier else None)
