"""Proto messages ⇄ the pydantic API models (``hindsight_common.api``).

Requests are turned into the very models the HTTP API validates, so both
interfaces accept and reject the same input with the same problems; answers are
the handlers' models turned into messages. Nothing here decides anything.

Presence: a proto3 ``optional`` field (or a message field) that is not set is
left out of the model's input, so the model's default applies, exactly as when a
JSON body leaves the key out. A set but invalid value is an error.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any, TypeVar

from google.protobuf.json_format import MessageToDict
from google.protobuf.message import Message
from google.protobuf.struct_pb2 import Struct
from google.protobuf.timestamp_pb2 import Timestamp
from pydantic import BaseModel, ConfigDict, Field, JsonValue, ValidationError

from hindsight_common.api import (
    AppendedOut,
    BrowseType,
    ConsolidateIn,
    ConsolidateOut,
    ExpireIn,
    ForgetIn,
    Include,
    IngestRequest,
    IngestResponse,
    MAX_OFFSET,
    MemoryDetailOut,
    MemoryHistoryOut,
    MemoryActionIn,
    MemoryListOut,
    MemoryOut,
    MemoryState,
    Provenance,
    RecallIn,
    RecallOut,
    ReflectIn,
    SessionCloseIn,
    SessionContextOut,
)
from hindsight_common.errors import InvalidInput, Problem
from hindsight_common.events.base import Identifier
from hindsight_services.grpc_api import hindsight_pb2 as pb
from hindsight_services.http import problems_from_pydantic

M = TypeVar("M", bound=BaseModel)

# Numbers in a google.protobuf.Struct are doubles; integral ones within the range a
# double holds exactly become ints again, as they were in the caller's JSON.
_EXACT_INT = 2**53


# ---------------------------------------------------------------- requests


class SessionContextParams(BaseModel):
    """GetSessionContext's input, with the same limits as the HTTP query parameters."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    session: Identifier
    tenant: str | None = Field(None, max_length=200)
    user: str = Field(min_length=1, max_length=200)
    budget: int = Field(2000, ge=1, le=200_000)


class ListMemoriesParams(BaseModel):
    """ListMemories' input, with the same limits and defaults as GET /v1/memories."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    tenant: str | None = Field(None, max_length=200)
    user: str | None = Field(None, max_length=200)
    session: str | None = Field(None, max_length=200)
    types: list[BrowseType] = Field(default_factory=lambda: list[BrowseType](["semantic"]))
    kinds: list[str] = Field(default_factory=list)
    keys: list[str] = Field(default_factory=list)
    tags: list[str] = Field(default_factory=list)
    limit: int = Field(50, ge=1, le=500)
    offset: int = Field(0, ge=0, le=MAX_OFFSET)
    include: list[Include] = Field(default_factory=list)


class SessionParams(BaseModel):
    """A session named by CloseSession (a path segment over HTTP)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    session: Identifier


class MemoryParams(BaseModel):
    """GetMemory's input."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    memory_id: str = Field(min_length=1, max_length=200)
    tenant: str | None = Field(None, max_length=200)
    include: list[Include] = Field(default_factory=list)


def validate(model: type[M], data: Mapping[str, Any]) -> M:
    """``model`` from ``data``; raises InvalidInput naming each field that is wrong."""
    try:
        return model.model_validate(dict(data))
    except ValidationError as e:
        raise InvalidInput(
            f"invalid {model.__name__}", problems_from_pydantic(e.errors(), drop_prefix=())
        ) from e


def present(msg: Message, *names: str, where: str = "") -> dict[str, Any]:
    """The fields among ``names`` that ``msg`` has set (optional scalars, messages).

    Timestamps become aware UTC datetimes and Structs become JSON objects.
    """
    out: dict[str, Any] = {}
    for name in names:
        if not msg.HasField(name):
            continue
        value = getattr(msg, name)
        if isinstance(value, Struct):
            value = _json(MessageToDict(value))
        elif isinstance(value, Timestamp):
            value = _datetime(value, f"{where}{name}")
        out[name] = value
    return out


def _datetime(ts: Timestamp, field: str) -> datetime:
    try:
        return ts.ToDatetime(tzinfo=UTC)
    except (ValueError, OverflowError) as e:
        raise InvalidInput("invalid timestamp", [Problem(field, f"not a valid time: {e}")]) from e


def _json(value: JsonValue) -> JsonValue:
    if isinstance(value, float) and value.is_integer() and abs(value) <= _EXACT_INT:
        return int(value)
    if isinstance(value, dict):
        return {k: _json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_json(v) for v in value]
    return value


def recall_in(msg: pb.RecallRequest) -> RecallIn:
    data = {
        "query": msg.query,
        "explain": msg.explain,
        **present(msg, "tenant", "user", "session", "agent", "k", "since", "until", "preset",
                  "reference_time", "budget_tokens"),
    }
    for name in ("types", "kinds", "keys", "tags", "include"):
        if values := list(getattr(msg, name)):
            data[name] = values
    return validate(RecallIn, data)


def _interaction(msg: pb.Interaction, i: int) -> dict[str, Any]:
    data: dict[str, Any] = {
        "user": msg.user,
        "session": msg.session,
        "speaker": msg.speaker,
        "content": msg.content,
        **present(msg, "tenant", "agent", "role", "occurred_at", "external_id", "metadata",
                  where=f"interactions.{i}."),
    }
    if msg.tool_calls:
        data["tool_calls"] = [
            {"name": t.name, **present(t, "arguments", "result", "ok")} for t in msg.tool_calls
        ]
    return data


def ingest_request(msg: pb.RetainRequest) -> IngestRequest:
    return validate(
        IngestRequest,
        {"interactions": [_interaction(m, i) for i, m in enumerate(msg.interactions)]},
    )


def session_context_params(msg: pb.GetSessionContextRequest) -> SessionContextParams:
    data = {"session": msg.session, "user": msg.user, **present(msg, "tenant", "budget")}
    return validate(SessionContextParams, data)


def close_session_in(msg: pb.CloseSessionRequest) -> tuple[str, SessionCloseIn]:
    session = validate(SessionParams, {"session": msg.session}).session
    return session, validate(SessionCloseIn, {"user": msg.user, **present(msg, "tenant", "agent")})


def reflect_in(msg: pb.ReflectRequest) -> ReflectIn:
    return validate(ReflectIn, {"user": msg.user, **present(msg, "tenant", "session", "task")})


def forget_in(msg: pb.ForgetRequest) -> ForgetIn:
    return validate(ForgetIn, {"user": msg.user, "reason": msg.reason, **present(msg, "tenant")})


def list_memories_params(msg: pb.ListMemoriesRequest) -> ListMemoriesParams:
    data = present(msg, "tenant", "user", "session", "limit", "offset")
    for name in ("types", "kinds", "keys", "tags", "include"):
        if values := list(getattr(msg, name)):
            data[name] = values
    return validate(ListMemoriesParams, data)


def memory_params(msg: pb.GetMemoryRequest) -> MemoryParams:
    return validate(MemoryParams, {"memory_id": msg.memory_id, **present(msg, "tenant"),
                                   "include": list(msg.include)})


# ---------------------------------------------------------------- answers


def _struct(value: Mapping[str, Any] | None) -> Struct | None:
    if value is None:
        return None
    struct = Struct()
    struct.update(_finite(dict(value)))
    return struct


def _finite(value: Any) -> Any:
    # A Struct (like JSON) has no NaN or infinity; such a figure travels as null.
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {str(k): _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value


def _provenance(p: Provenance) -> pb.Provenance:
    return pb.Provenance(event_ids=p.event_ids, external_ids=p.external_ids)


def _appended(a: AppendedOut) -> pb.AppendedEvent:
    return pb.AppendedEvent(event_id=a.event_id, offset=a.offset)


def recall_response(out: RecallOut) -> pb.RecallResponse:
    return pb.RecallResponse(items=[
        pb.RecallItem(
            id=i.id, type=i.type, kind=i.kind, key=i.key, confidence=i.confidence, tags=i.tags,
            content=i.content, speaker=i.speaker, role=i.role, session=i.session, user=i.user,
            occurred_at=i.occurred_at, score=i.score, scores=i.scores, ranks=i.ranks,
            provenance=_provenance(i.provenance), context_for=i.context_for,
            explain=_struct(i.explain), **_state(i),
        )
        for i in out.items
    ], degraded=out.degraded)


def session_context_response(out: SessionContextOut) -> pb.GetSessionContextResponse:
    return pb.GetSessionContextResponse(
        session=out.session,
        summary=out.summary,
        summary_through=out.summary_through,
        turns=[
            pb.ContextTurn(id=t.id, speaker=t.speaker, role=t.role, content=t.content,
                           occurred_at=t.occurred_at, tokens=t.tokens)
            for t in out.turns
        ],
        tokens=out.tokens,
        budget=out.budget,
        omitted_turns=out.omitted_turns,
    )


def retain_response(out: IngestResponse) -> pb.RetainResponse:
    return pb.RetainResponse(events=[_appended(e) for e in out.events], replayed=out.replayed)


def close_session_response(out: AppendedOut) -> pb.CloseSessionResponse:
    return pb.CloseSessionResponse(event=_appended(out))


def reflect_response(out: AppendedOut) -> pb.ReflectResponse:
    return pb.ReflectResponse(event=_appended(out))


def forget_response(out: AppendedOut) -> pb.ForgetResponse:
    return pb.ForgetResponse(event=_appended(out))


def memory_action_in(msg: pb.MemoryActionRequest) -> MemoryActionIn:
    return validate(MemoryActionIn, {"user": msg.user, "reason": msg.reason, **present(msg, "tenant")})


def memory_action_response(out: AppendedOut) -> pb.MemoryActionResponse:
    return pb.MemoryActionResponse(event=_appended(out))


def expire_in(msg: pb.ExpireMemoryRequest) -> ExpireIn:
    return validate(ExpireIn, {"user": msg.user, "reason": msg.reason,
                               **present(msg, "tenant", "expires_at", "ttl_s")})


def consolidate_in(msg: pb.ConsolidateRequest) -> ConsolidateIn:
    return validate(ConsolidateIn, {"user": msg.user, "dry_run": msg.dry_run, **present(msg, "tenant")})


def consolidate_response(out: ConsolidateOut) -> pb.ConsolidateResponse:
    return pb.ConsolidateResponse(
        dry_run=out.dry_run, live=out.live,
        forgotten=[pb.PlannedForget(memory_id=f.memory_id, importance=f.importance, reason=f.reason)
                   for f in out.forgotten],
        events=[_appended(e) for e in out.events])


def _memory(m: MemoryOut) -> pb.Memory:
    return pb.Memory(
        id=m.id, type=m.type, kind=m.kind, key=m.key, confidence=m.confidence, tags=m.tags,
        content=m.content, speaker=m.speaker, session=m.session, user=m.user,
        occurred_at=m.occurred_at, provenance=_provenance(m.provenance), **_state(m),
    )


def _state(m: MemoryState) -> dict[str, Any]:
    """What consolidation did with a memory, as the proto's fields."""
    return {
        "reinforced_count": m.reinforced_count, "last_reinforced_at": m.last_reinforced_at,
        "importance": m.importance, "superseded_by": m.superseded_by, "supersedes": m.supersedes,
        "merged_into": m.merged_into, "merged_from": m.merged_from, "pinned": m.pinned,
        "expires_at": m.expires_at,
    }


def list_memories_response(out: MemoryListOut) -> pb.ListMemoriesResponse:
    return pb.ListMemoriesResponse(items=[_memory(m) for m in out.items], next_offset=out.next_offset)


def memory_response(out: MemoryDetailOut) -> pb.GetMemoryResponse:
    return pb.GetMemoryResponse(
        memory=_memory(out.memory),
        sources=[
            pb.SourceTurn(id=s.id, speaker=s.speaker, role=s.role, content=s.content,
                          session=s.session, occurred_at=s.occurred_at, external_id=s.external_id)
            for s in out.sources
        ],
    )


def history_response(out: MemoryHistoryOut) -> pb.GetMemoryHistoryResponse:
    return pb.GetMemoryHistoryResponse(memory_id=out.memory_id, live=out.live,
                                       versions=[_memory(m) for m in out.versions])
