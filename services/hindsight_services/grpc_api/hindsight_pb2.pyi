import datetime

from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Provenance(_message.Message):
    __slots__ = ("event_ids", "external_ids")
    EVENT_IDS_FIELD_NUMBER: _ClassVar[int]
    EXTERNAL_IDS_FIELD_NUMBER: _ClassVar[int]
    event_ids: _containers.RepeatedScalarFieldContainer[str]
    external_ids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, event_ids: _Optional[_Iterable[str]] = ..., external_ids: _Optional[_Iterable[str]] = ...) -> None: ...

class AppendedEvent(_message.Message):
    __slots__ = ("event_id", "offset")
    EVENT_ID_FIELD_NUMBER: _ClassVar[int]
    OFFSET_FIELD_NUMBER: _ClassVar[int]
    event_id: str
    offset: int
    def __init__(self, event_id: _Optional[str] = ..., offset: _Optional[int] = ...) -> None: ...

class RecallRequest(_message.Message):
    __slots__ = ("tenant", "user", "session", "agent", "query", "k", "types", "since", "until", "preset", "reference_time", "kinds", "keys", "tags", "budget_tokens", "explain", "include")
    TENANT_FIELD_NUMBER: _ClassVar[int]
    USER_FIELD_NUMBER: _ClassVar[int]
    SESSION_FIELD_NUMBER: _ClassVar[int]
    AGENT_FIELD_NUMBER: _ClassVar[int]
    QUERY_FIELD_NUMBER: _ClassVar[int]
    K_FIELD_NUMBER: _ClassVar[int]
    TYPES_FIELD_NUMBER: _ClassVar[int]
    SINCE_FIELD_NUMBER: _ClassVar[int]
    UNTIL_FIELD_NUMBER: _ClassVar[int]
    PRESET_FIELD_NUMBER: _ClassVar[int]
    REFERENCE_TIME_FIELD_NUMBER: _ClassVar[int]
    KINDS_FIELD_NUMBER: _ClassVar[int]
    KEYS_FIELD_NUMBER: _ClassVar[int]
    TAGS_FIELD_NUMBER: _ClassVar[int]
    BUDGET_TOKENS_FIELD_NUMBER: _ClassVar[int]
    EXPLAIN_FIELD_NUMBER: _ClassVar[int]
    INCLUDE_FIELD_NUMBER: _ClassVar[int]
    tenant: str
    user: str
    session: str
    agent: str
    query: str
    k: int
    types: _containers.RepeatedScalarFieldContainer[str]
    since: _timestamp_pb2.Timestamp
    until: _timestamp_pb2.Timestamp
    preset: str
    reference_time: _timestamp_pb2.Timestamp
    kinds: _containers.RepeatedScalarFieldContainer[str]
    keys: _containers.RepeatedScalarFieldContainer[str]
    tags: _containers.RepeatedScalarFieldContainer[str]
    budget_tokens: int
    explain: bool
    include: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, tenant: _Optional[str] = ..., user: _Optional[str] = ..., session: _Optional[str] = ..., agent: _Optional[str] = ..., query: _Optional[str] = ..., k: _Optional[int] = ..., types: _Optional[_Iterable[str]] = ..., since: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., until: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., preset: _Optional[str] = ..., reference_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., kinds: _Optional[_Iterable[str]] = ..., keys: _Optional[_Iterable[str]] = ..., tags: _Optional[_Iterable[str]] = ..., budget_tokens: _Optional[int] = ..., explain: _Optional[bool] = ..., include: _Optional[_Iterable[str]] = ...) -> None: ...

class RecallItem(_message.Message):
    __slots__ = ("id", "type", "kind", "key", "confidence", "tags", "content", "speaker", "role", "session", "user", "occurred_at", "score", "scores", "ranks", "provenance", "context_for", "explain", "reinforced_count", "last_reinforced_at", "importance", "superseded_by", "supersedes", "merged_into", "merged_from", "pinned", "expires_at")
    class ScoresEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: float
        def __init__(self, key: _Optional[str] = ..., value: _Optional[float] = ...) -> None: ...
    class RanksEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    ID_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    CONFIDENCE_FIELD_NUMBER: _ClassVar[int]
    TAGS_FIELD_NUMBER: _ClassVar[int]
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    SPEAKER_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    SESSION_FIELD_NUMBER: _ClassVar[int]
    USER_FIELD_NUMBER: _ClassVar[int]
    OCCURRED_AT_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    RANKS_FIELD_NUMBER: _ClassVar[int]
    PROVENANCE_FIELD_NUMBER: _ClassVar[int]
    CONTEXT_FOR_FIELD_NUMBER: _ClassVar[int]
    EXPLAIN_FIELD_NUMBER: _ClassVar[int]
    REINFORCED_COUNT_FIELD_NUMBER: _ClassVar[int]
    LAST_REINFORCED_AT_FIELD_NUMBER: _ClassVar[int]
    IMPORTANCE_FIELD_NUMBER: _ClassVar[int]
    SUPERSEDED_BY_FIELD_NUMBER: _ClassVar[int]
    SUPERSEDES_FIELD_NUMBER: _ClassVar[int]
    MERGED_INTO_FIELD_NUMBER: _ClassVar[int]
    MERGED_FROM_FIELD_NUMBER: _ClassVar[int]
    PINNED_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_AT_FIELD_NUMBER: _ClassVar[int]
    id: str
    type: str
    kind: str
    key: str
    confidence: float
    tags: _containers.RepeatedScalarFieldContainer[str]
    content: str
    speaker: str
    role: str
    session: str
    user: str
    occurred_at: _timestamp_pb2.Timestamp
    score: float
    scores: _containers.ScalarMap[str, float]
    ranks: _containers.ScalarMap[str, int]
    provenance: Provenance
    context_for: str
    explain: _struct_pb2.Struct
    reinforced_count: int
    last_reinforced_at: _timestamp_pb2.Timestamp
    importance: float
    superseded_by: str
    supersedes: _containers.RepeatedScalarFieldContainer[str]
    merged_into: str
    merged_from: _containers.RepeatedScalarFieldContainer[str]
    pinned: bool
    expires_at: _timestamp_pb2.Timestamp
    def __init__(self, id: _Optional[str] = ..., type: _Optional[str] = ..., kind: _Optional[str] = ..., key: _Optional[str] = ..., confidence: _Optional[float] = ..., tags: _Optional[_Iterable[str]] = ..., content: _Optional[str] = ..., speaker: _Optional[str] = ..., role: _Optional[str] = ..., session: _Optional[str] = ..., user: _Optional[str] = ..., occurred_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., score: _Optional[float] = ..., scores: _Optional[_Mapping[str, float]] = ..., ranks: _Optional[_Mapping[str, int]] = ..., provenance: _Optional[_Union[Provenance, _Mapping]] = ..., context_for: _Optional[str] = ..., explain: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., reinforced_count: _Optional[int] = ..., last_reinforced_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., importance: _Optional[float] = ..., superseded_by: _Optional[str] = ..., supersedes: _Optional[_Iterable[str]] = ..., merged_into: _Optional[str] = ..., merged_from: _Optional[_Iterable[str]] = ..., pinned: _Optional[bool] = ..., expires_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class RecallResponse(_message.Message):
    __slots__ = ("items", "degraded")
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    DEGRADED_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[RecallItem]
    degraded: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, items: _Optional[_Iterable[_Union[RecallItem, _Mapping]]] = ..., degraded: _Optional[_Iterable[str]] = ...) -> None: ...

class GetSessionContextRequest(_message.Message):
    __slots__ = ("session", "tenant", "user", "budget")
    SESSION_FIELD_NUMBER: _ClassVar[int]
    TENANT_FIELD_NUMBER: _ClassVar[int]
    USER_FIELD_NUMBER: _ClassVar[int]
    BUDGET_FIELD_NUMBER: _ClassVar[int]
    session: str
    tenant: str
    user: str
    budget: int
    def __init__(self, session: _Optional[str] = ..., tenant: _Optional[str] = ..., user: _Optional[str] = ..., budget: _Optional[int] = ...) -> None: ...

class ContextTurn(_message.Message):
    __slots__ = ("id", "speaker", "role", "content", "occurred_at", "tokens")
    ID_FIELD_NUMBER: _ClassVar[int]
    SPEAKER_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    OCCURRED_AT_FIELD_NUMBER: _ClassVar[int]
    TOKENS_FIELD_NUMBER: _ClassVar[int]
    id: str
    speaker: str
    role: str
    content: str
    occurred_at: _timestamp_pb2.Timestamp
    tokens: int
    def __init__(self, id: _Optional[str] = ..., speaker: _Optional[str] = ..., role: _Optional[str] = ..., content: _Optional[str] = ..., occurred_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., tokens: _Optional[int] = ...) -> None: ...

class GetSessionContextResponse(_message.Message):
    __slots__ = ("session", "summary", "summary_through", "turns", "tokens", "budget", "omitted_turns")
    SESSION_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_THROUGH_FIELD_NUMBER: _ClassVar[int]
    TURNS_FIELD_NUMBER: _ClassVar[int]
    TOKENS_FIELD_NUMBER: _ClassVar[int]
    BUDGET_FIELD_NUMBER: _ClassVar[int]
    OMITTED_TURNS_FIELD_NUMBER: _ClassVar[int]
    session: str
    summary: str
    summary_through: _timestamp_pb2.Timestamp
    turns: _containers.RepeatedCompositeFieldContainer[ContextTurn]
    tokens: int
    budget: int
    omitted_turns: bool
    def __init__(self, session: _Optional[str] = ..., summary: _Optional[str] = ..., summary_through: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., turns: _Optional[_Iterable[_Union[ContextTurn, _Mapping]]] = ..., tokens: _Optional[int] = ..., budget: _Optional[int] = ..., omitted_turns: _Optional[bool] = ...) -> None: ...

class ToolCall(_message.Message):
    __slots__ = ("name", "arguments", "result", "ok")
    NAME_FIELD_NUMBER: _ClassVar[int]
    ARGUMENTS_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    OK_FIELD_NUMBER: _ClassVar[int]
    name: str
    arguments: _struct_pb2.Struct
    result: str
    ok: bool
    def __init__(self, name: _Optional[str] = ..., arguments: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., result: _Optional[str] = ..., ok: _Optional[bool] = ...) -> None: ...

class Interaction(_message.Message):
    __slots__ = ("tenant", "user", "agent", "session", "speaker", "role", "content", "occurred_at", "external_id", "tool_calls", "metadata")
    TENANT_FIELD_NUMBER: _ClassVar[int]
    USER_FIELD_NUMBER: _ClassVar[int]
    AGENT_FIELD_NUMBER: _ClassVar[int]
    SESSION_FIELD_NUMBER: _ClassVar[int]
    SPEAKER_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    OCCURRED_AT_FIELD_NUMBER: _ClassVar[int]
    EXTERNAL_ID_FIELD_NUMBER: _ClassVar[int]
    TOOL_CALLS_FIELD_NUMBER: _ClassVar[int]
    METADATA_FIELD_NUMBER: _ClassVar[int]
    tenant: str
    user: str
    agent: str
    session: str
    speaker: str
    role: str
    content: str
    occurred_at: _timestamp_pb2.Timestamp
    external_id: str
    tool_calls: _containers.RepeatedCompositeFieldContainer[ToolCall]
    metadata: _struct_pb2.Struct
    def __init__(self, tenant: _Optional[str] = ..., user: _Optional[str] = ..., agent: _Optional[str] = ..., session: _Optional[str] = ..., speaker: _Optional[str] = ..., role: _Optional[str] = ..., content: _Optional[str] = ..., occurred_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., external_id: _Optional[str] = ..., tool_calls: _Optional[_Iterable[_Union[ToolCall, _Mapping]]] = ..., metadata: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ...) -> None: ...

class RetainRequest(_message.Message):
    __slots__ = ("interactions", "idempotency_key")
    INTERACTIONS_FIELD_NUMBER: _ClassVar[int]
    IDEMPOTENCY_KEY_FIELD_NUMBER: _ClassVar[int]
    interactions: _containers.RepeatedCompositeFieldContainer[Interaction]
    idempotency_key: str
    def __init__(self, interactions: _Optional[_Iterable[_Union[Interaction, _Mapping]]] = ..., idempotency_key: _Optional[str] = ...) -> None: ...

class RetainResponse(_message.Message):
    __slots__ = ("events", "replayed")
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    REPLAYED_FIELD_NUMBER: _ClassVar[int]
    events: _containers.RepeatedCompositeFieldContainer[AppendedEvent]
    replayed: bool
    def __init__(self, events: _Optional[_Iterable[_Union[AppendedEvent, _Mapping]]] = ..., replayed: _Optional[bool] = ...) -> None: ...

class CloseSessionRequest(_message.Message):
    __slots__ = ("session", "tenant", "user", "agent")
    SESSION_FIELD_NUMBER: _ClassVar[int]
    TENANT_FIELD_NUMBER: _ClassVar[int]
    USER_FIELD_NUMBER: _ClassVar[int]
    AGENT_FIELD_NUMBER: _ClassVar[int]
    session: str
    tenant: str
    user: str
    agent: str
    def __init__(self, session: _Optional[str] = ..., tenant: _Optional[str] = ..., user: _Optional[str] = ..., agent: _Optional[str] = ...) -> None: ...

class CloseSessionResponse(_message.Message):
    __slots__ = ("event",)
    EVENT_FIELD_NUMBER: _ClassVar[int]
    event: AppendedEvent
    def __init__(self, event: _Optional[_Union[AppendedEvent, _Mapping]] = ...) -> None: ...

class ReflectRequest(_message.Message):
    __slots__ = ("tenant", "user", "session", "task")
    TENANT_FIELD_NUMBER: _ClassVar[int]
    USER_FIELD_NUMBER: _ClassVar[int]
    SESSION_FIELD_NUMBER: _ClassVar[int]
    TASK_FIELD_NUMBER: _ClassVar[int]
    tenant: str
    user: str
    session: str
    task: str
    def __init__(self, tenant: _Optional[str] = ..., user: _Optional[str] = ..., session: _Optional[str] = ..., task: _Optional[str] = ...) -> None: ...

class ReflectResponse(_message.Message):
    __slots__ = ("event",)
    EVENT_FIELD_NUMBER: _ClassVar[int]
    event: AppendedEvent
    def __init__(self, event: _Optional[_Union[AppendedEvent, _Mapping]] = ...) -> None: ...

class ForgetRequest(_message.Message):
    __slots__ = ("memory_id", "tenant", "user", "reason")
    MEMORY_ID_FIELD_NUMBER: _ClassVar[int]
    TENANT_FIELD_NUMBER: _ClassVar[int]
    USER_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    memory_id: str
    tenant: str
    user: str
    reason: str
    def __init__(self, memory_id: _Optional[str] = ..., tenant: _Optional[str] = ..., user: _Optional[str] = ..., reason: _Optional[str] = ...) -> None: ...

class ForgetResponse(_message.Message):
    __slots__ = ("event",)
    EVENT_FIELD_NUMBER: _ClassVar[int]
    event: AppendedEvent
    def __init__(self, event: _Optional[_Union[AppendedEvent, _Mapping]] = ...) -> None: ...

class MemoryActionRequest(_message.Message):
    __slots__ = ("memory_id", "tenant", "user", "reason")
    MEMORY_ID_FIELD_NUMBER: _ClassVar[int]
    TENANT_FIELD_NUMBER: _ClassVar[int]
    USER_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    memory_id: str
    tenant: str
    user: str
    reason: str
    def __init__(self, memory_id: _Optional[str] = ..., tenant: _Optional[str] = ..., user: _Optional[str] = ..., reason: _Optional[str] = ...) -> None: ...

class MemoryActionResponse(_message.Message):
    __slots__ = ("event",)
    EVENT_FIELD_NUMBER: _ClassVar[int]
    event: AppendedEvent
    def __init__(self, event: _Optional[_Union[AppendedEvent, _Mapping]] = ...) -> None: ...

class ExpireMemoryRequest(_message.Message):
    __slots__ = ("memory_id", "tenant", "user", "expires_at", "ttl_s", "reason")
    MEMORY_ID_FIELD_NUMBER: _ClassVar[int]
    TENANT_FIELD_NUMBER: _ClassVar[int]
    USER_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_AT_FIELD_NUMBER: _ClassVar[int]
    TTL_S_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    memory_id: str
    tenant: str
    user: str
    expires_at: _timestamp_pb2.Timestamp
    ttl_s: float
    reason: str
    def __init__(self, memory_id: _Optional[str] = ..., tenant: _Optional[str] = ..., user: _Optional[str] = ..., expires_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., ttl_s: _Optional[float] = ..., reason: _Optional[str] = ...) -> None: ...

class ConsolidateRequest(_message.Message):
    __slots__ = ("tenant", "user", "dry_run")
    TENANT_FIELD_NUMBER: _ClassVar[int]
    USER_FIELD_NUMBER: _ClassVar[int]
    DRY_RUN_FIELD_NUMBER: _ClassVar[int]
    tenant: str
    user: str
    dry_run: bool
    def __init__(self, tenant: _Optional[str] = ..., user: _Optional[str] = ..., dry_run: _Optional[bool] = ...) -> None: ...

class PlannedForget(_message.Message):
    __slots__ = ("memory_id", "importance", "reason")
    MEMORY_ID_FIELD_NUMBER: _ClassVar[int]
    IMPORTANCE_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    memory_id: str
    importance: float
    reason: str
    def __init__(self, memory_id: _Optional[str] = ..., importance: _Optional[float] = ..., reason: _Optional[str] = ...) -> None: ...

class ConsolidateResponse(_message.Message):
    __slots__ = ("dry_run", "live", "forgotten", "events")
    DRY_RUN_FIELD_NUMBER: _ClassVar[int]
    LIVE_FIELD_NUMBER: _ClassVar[int]
    FORGOTTEN_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    dry_run: bool
    live: int
    forgotten: _containers.RepeatedCompositeFieldContainer[PlannedForget]
    events: _containers.RepeatedCompositeFieldContainer[AppendedEvent]
    def __init__(self, dry_run: _Optional[bool] = ..., live: _Optional[int] = ..., forgotten: _Optional[_Iterable[_Union[PlannedForget, _Mapping]]] = ..., events: _Optional[_Iterable[_Union[AppendedEvent, _Mapping]]] = ...) -> None: ...

class ListMemoriesRequest(_message.Message):
    __slots__ = ("tenant", "user", "session", "types", "kinds", "keys", "tags", "limit", "offset", "include")
    TENANT_FIELD_NUMBER: _ClassVar[int]
    USER_FIELD_NUMBER: _ClassVar[int]
    SESSION_FIELD_NUMBER: _ClassVar[int]
    TYPES_FIELD_NUMBER: _ClassVar[int]
    KINDS_FIELD_NUMBER: _ClassVar[int]
    KEYS_FIELD_NUMBER: _ClassVar[int]
    TAGS_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    OFFSET_FIELD_NUMBER: _ClassVar[int]
    INCLUDE_FIELD_NUMBER: _ClassVar[int]
    tenant: str
    user: str
    session: str
    types: _containers.RepeatedScalarFieldContainer[str]
    kinds: _containers.RepeatedScalarFieldContainer[str]
    keys: _containers.RepeatedScalarFieldContainer[str]
    tags: _containers.RepeatedScalarFieldContainer[str]
    limit: int
    offset: int
    include: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, tenant: _Optional[str] = ..., user: _Optional[str] = ..., session: _Optional[str] = ..., types: _Optional[_Iterable[str]] = ..., kinds: _Optional[_Iterable[str]] = ..., keys: _Optional[_Iterable[str]] = ..., tags: _Optional[_Iterable[str]] = ..., limit: _Optional[int] = ..., offset: _Optional[int] = ..., include: _Optional[_Iterable[str]] = ...) -> None: ...

class Memory(_message.Message):
    __slots__ = ("id", "type", "kind", "key", "confidence", "tags", "content", "speaker", "session", "user", "occurred_at", "provenance", "reinforced_count", "last_reinforced_at", "importance", "superseded_by", "supersedes", "merged_into", "merged_from", "pinned", "expires_at")
    ID_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    CONFIDENCE_FIELD_NUMBER: _ClassVar[int]
    TAGS_FIELD_NUMBER: _ClassVar[int]
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    SPEAKER_FIELD_NUMBER: _ClassVar[int]
    SESSION_FIELD_NUMBER: _ClassVar[int]
    USER_FIELD_NUMBER: _ClassVar[int]
    OCCURRED_AT_FIELD_NUMBER: _ClassVar[int]
    PROVENANCE_FIELD_NUMBER: _ClassVar[int]
    REINFORCED_COUNT_FIELD_NUMBER: _ClassVar[int]
    LAST_REINFORCED_AT_FIELD_NUMBER: _ClassVar[int]
    IMPORTANCE_FIELD_NUMBER: _ClassVar[int]
    SUPERSEDED_BY_FIELD_NUMBER: _ClassVar[int]
    SUPERSEDES_FIELD_NUMBER: _ClassVar[int]
    MERGED_INTO_FIELD_NUMBER: _ClassVar[int]
    MERGED_FROM_FIELD_NUMBER: _ClassVar[int]
    PINNED_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_AT_FIELD_NUMBER: _ClassVar[int]
    id: str
    type: str
    kind: str
    key: str
    confidence: float
    tags: _containers.RepeatedScalarFieldContainer[str]
    content: str
    speaker: str
    session: str
    user: str
    occurred_at: _timestamp_pb2.Timestamp
    provenance: Provenance
    reinforced_count: int
    last_reinforced_at: _timestamp_pb2.Timestamp
    importance: float
    superseded_by: str
    supersedes: _containers.RepeatedScalarFieldContainer[str]
    merged_into: str
    merged_from: _containers.RepeatedScalarFieldContainer[str]
    pinned: bool
    expires_at: _timestamp_pb2.Timestamp
    def __init__(self, id: _Optional[str] = ..., type: _Optional[str] = ..., kind: _Optional[str] = ..., key: _Optional[str] = ..., confidence: _Optional[float] = ..., tags: _Optional[_Iterable[str]] = ..., content: _Optional[str] = ..., speaker: _Optional[str] = ..., session: _Optional[str] = ..., user: _Optional[str] = ..., occurred_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., provenance: _Optional[_Union[Provenance, _Mapping]] = ..., reinforced_count: _Optional[int] = ..., last_reinforced_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., importance: _Optional[float] = ..., superseded_by: _Optional[str] = ..., supersedes: _Optional[_Iterable[str]] = ..., merged_into: _Optional[str] = ..., merged_from: _Optional[_Iterable[str]] = ..., pinned: _Optional[bool] = ..., expires_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class ListMemoriesResponse(_message.Message):
    __slots__ = ("items", "next_offset")
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    NEXT_OFFSET_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[Memory]
    next_offset: int
    def __init__(self, items: _Optional[_Iterable[_Union[Memory, _Mapping]]] = ..., next_offset: _Optional[int] = ...) -> None: ...

class GetMemoryRequest(_message.Message):
    __slots__ = ("memory_id", "tenant", "include")
    MEMORY_ID_FIELD_NUMBER: _ClassVar[int]
    TENANT_FIELD_NUMBER: _ClassVar[int]
    INCLUDE_FIELD_NUMBER: _ClassVar[int]
    memory_id: str
    tenant: str
    include: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, memory_id: _Optional[str] = ..., tenant: _Optional[str] = ..., include: _Optional[_Iterable[str]] = ...) -> None: ...

class SourceTurn(_message.Message):
    __slots__ = ("id", "speaker", "role", "content", "session", "occurred_at", "external_id")
    ID_FIELD_NUMBER: _ClassVar[int]
    SPEAKER_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    SESSION_FIELD_NUMBER: _ClassVar[int]
    OCCURRED_AT_FIELD_NUMBER: _ClassVar[int]
    EXTERNAL_ID_FIELD_NUMBER: _ClassVar[int]
    id: str
    speaker: str
    role: str
    content: str
    session: str
    occurred_at: _timestamp_pb2.Timestamp
    external_id: str
    def __init__(self, id: _Optional[str] = ..., speaker: _Optional[str] = ..., role: _Optional[str] = ..., content: _Optional[str] = ..., session: _Optional[str] = ..., occurred_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., external_id: _Optional[str] = ...) -> None: ...

class GetMemoryResponse(_message.Message):
    __slots__ = ("memory", "sources")
    MEMORY_FIELD_NUMBER: _ClassVar[int]
    SOURCES_FIELD_NUMBER: _ClassVar[int]
    memory: Memory
    sources: _containers.RepeatedCompositeFieldContainer[SourceTurn]
    def __init__(self, memory: _Optional[_Union[Memory, _Mapping]] = ..., sources: _Optional[_Iterable[_Union[SourceTurn, _Mapping]]] = ...) -> None: ...

class GetMemoryHistoryResponse(_message.Message):
    __slots__ = ("memory_id", "live", "versions")
    MEMORY_ID_FIELD_NUMBER: _ClassVar[int]
    LIVE_FIELD_NUMBER: _ClassVar[int]
    VERSIONS_FIELD_NUMBER: _ClassVar[int]
    memory_id: str
    live: str
    versions: _containers.RepeatedCompositeFieldContainer[Memory]
    def __init__(self, memory_id: _Optional[str] = ..., live: _Optional[str] = ..., versions: _Optional[_Iterable[_Union[Memory, _Mapping]]] = ...) -> None: ...

class EraseUserRequest(_message.Message):
    __slots__ = ("tenant", "user", "reason")
    TENANT_FIELD_NUMBER: _ClassVar[int]
    USER_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    tenant: str
    user: str
    reason: str
    def __init__(self, tenant: _Optional[str] = ..., user: _Optional[str] = ..., reason: _Optional[str] = ...) -> None: ...

class EraseUserResponse(_message.Message):
    __slots__ = ("keys_destroyed", "event", "next")
    KEYS_DESTROYED_FIELD_NUMBER: _ClassVar[int]
    EVENT_FIELD_NUMBER: _ClassVar[int]
    NEXT_FIELD_NUMBER: _ClassVar[int]
    keys_destroyed: int
    event: AppendedEvent
    next: str
    def __init__(self, keys_destroyed: _Optional[int] = ..., event: _Optional[_Union[AppendedEvent, _Mapping]] = ..., next: _Optional[str] = ...) -> None: ...
