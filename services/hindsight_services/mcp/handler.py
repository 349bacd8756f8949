"""mcp's handler: the memory tools an agent calls, each one call to the Hindsight gateway.

Parameter types and ``Field`` descriptions become each tool's JSON Schema; the
pydantic results become its output schema. A gateway error reaches the agent as a
tool error carrying the gateway's message (which names the wrong field), never a crash.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import BaseModel, ConfigDict, Field

from hindsight_client import AsyncHindsight, HindsightError, Memory, RecallItem, TransportError, Unavailable


@dataclass(frozen=True)
class Gateway:
    """What every tool call uses: the SDK client and the configured default user."""

    client: AsyncHindsight
    default_user: str | None

    def user(self, given: str | None) -> str:
        user = given or self.default_user
        if not user:
            raise ToolError("no user given: pass `user`, or start the server with HINDSIGHT_MCP_USER set")
        return user


GatewayContext = Context[Gateway, Any]


def _gateway(ctx: GatewayContext) -> Gateway:
    return ctx.request_context.lifespan_context


@contextmanager
def gateway_errors() -> Iterator[None]:
    """Turn the SDK's errors into tool errors that carry the gateway's message."""
    try:
        yield
    except TransportError as e:
        raise ToolError(f"Hindsight is unreachable: {e} (is `hindsight serve` running?)") from e
    except Unavailable as e:
        raise ToolError(f"Hindsight is unavailable, try again shortly: HTTP {e.status}: {e}") from e
    except HindsightError as e:
        status = f"HTTP {e.status}: " if e.status is not None else ""
        raise ToolError(f"Hindsight rejected the call: {status}{e}") from e


# -- parameters shared by several tools ----------------------------------------------------

User = Annotated[str | None, Field(
    description="Who the memory is about (the end user's id). Omit to use the server's default user.")]
Session = Annotated[str, Field(
    min_length=1, max_length=200, description="The conversation's id: any stable string, e.g. a chat id.")]
OptSession = Annotated[str | None, Field(description="Only this conversation (session id).")]
Types = Annotated[list[Literal["episodic", "semantic"]] | None, Field(
    description="episodic: turns as they were said; semantic: statements learned from them. Default both.")]
Timestamp = Annotated[str | None, Field(
    description="ISO-8601 time with a zone, e.g. 2024-05-01T10:00:00Z.")]


# -- results --------------------------------------------------------------------------------

class _Out(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Recorded(_Out):
    """The event Hindsight appended to its log."""

    event_id: str
    offset: int


class Retained(Recorded):
    replayed: bool


class MemoryOut(_Out):
    """A memory. type episodic: a turn as it happened; semantic: a statement learned from turns."""

    id: str
    type: str
    kind: str | None
    key: str | None
    confidence: float | None
    tags: list[str]
    content: str
    speaker: str
    session: str
    occurred_at: str
    reinforced_count: int = Field(0, description="How often later conversations confirmed it.")
    supersedes: list[str] = Field(default_factory=list, description="Ids of older values it replaced.")
    pinned: bool = Field(False, description="Pinned: never forgotten by a forgetting pass.")
    expires_at: str | None = Field(None, description="When it expires (expire_memory), if it does.")


class RecalledOut(MemoryOut):
    score: float


class Recalled(_Out):
    items: list[RecalledOut]


class MemoryList(_Out):
    items: list[MemoryOut]
    next_offset: int | None


class HistoryOut(_Out):
    memory_id: str
    live: str | None
    versions: list[MemoryOut]


class TurnOut(_Out):
    speaker: str
    role: str
    content: str
    occurred_at: str


class ContextOut(_Out):
    session: str
    summary: str | None
    turns: list[TurnOut]
    tokens: int
    budget: int
    omitted_turns: bool


def _memory(m: Memory) -> MemoryOut:
    return MemoryOut(
        id=m.id, type=m.type, kind=m.kind, key=m.key, confidence=m.confidence, tags=list(m.tags),
        content=m.content, speaker=m.speaker, session=m.session, occurred_at=m.occurred_at.isoformat(),
        reinforced_count=m.reinforced_count, supersedes=list(m.supersedes), pinned=m.pinned,
        expires_at=m.expires_at.isoformat() if m.expires_at else None,
    )


def _recalled(item: RecallItem) -> RecalledOut:
    return RecalledOut(**_memory(item).model_dump(), score=item.score)


# -- the tools ------------------------------------------------------------------------------

async def retain(
    ctx: GatewayContext,
    content: Annotated[str, Field(min_length=1, description="What was said or done, in full.")],
    session: Session,
    user: User = None,
    role: Annotated[Literal["user", "assistant", "tool", "system"], Field(
        description="Who produced the turn.")] = "user",
    speaker: Annotated[str | None, Field(
        description="Display name of the speaker. Default: the user id for role user, else the role.")] = None,
    occurred_at: Timestamp = None,
    external_id: Annotated[str | None, Field(
        max_length=500, description="Your id for this turn; it comes back in provenance.")] = None,
) -> Retained:
    """Save a conversation turn to long-term memory: something the user said, your reply, or a
    tool's outcome. Use it whenever the user shares facts, preferences, plans or corrections
    worth remembering in later conversations, and for decisions and outcomes of a task.
    Durable when it returns; searchable by recall once indexed (normally within a second).
    Returns the event id and log offset; replayed is true when the turn was already recorded.
    """
    gw = _gateway(ctx)
    who = gw.user(user)
    with gateway_errors():
        result = await gw.client.retain(
            content, user=who, session=session, speaker=speaker or (who if role == "user" else role),
            role=role, occurred_at=occurred_at, external_id=external_id)
    [event] = result.events
    return Retained(event_id=event.event_id, offset=event.offset, replayed=result.replayed)


async def recall(
    ctx: GatewayContext,
    query: Annotated[str, Field(min_length=1, max_length=4000, description=(
        "What you want to know, in natural language, e.g. 'Which programming language does Ann prefer?'"))],
    user: User = None,
    session: OptSession = None,
    k: Annotated[int, Field(ge=1, le=100, description="How many memories to return at most.")] = 10,
    types: Types = None,
    since: Timestamp = None,
    until: Timestamp = None,
) -> Recalled:
    """Search long-term memory by meaning and by keyword. Use it before answering whenever
    earlier conversations, the user's preferences or facts about them could matter, or when the
    user refers to something said before. Returns up to k memories, best first: each with its
    id (pass it to forget), content, type (episodic: a turn as it was said; semantic: a
    statement learned from turns, with kind and key), speaker, session, time and score.
    """
    gw = _gateway(ctx)
    with gateway_errors():
        result = await gw.client.recall(
            query, user=user or gw.default_user, session=session, k=k, types=types, since=since, until=until)
    return Recalled(items=[_recalled(i) for i in result.items])


async def reflect(
    ctx: GatewayContext,
    session: Annotated[str | None, Field(description=(
        "The conversation to learn from. Omit to reflect on every conversation of the user with new turns."))] = None,
    user: User = None,
    close: Annotated[bool, Field(description=(
        "Also mark the conversation as ended (needs session). Use when the conversation is over."))] = False,
) -> Recorded:
    """Make Hindsight learn from a conversation now: it distills facts, preferences and lessons
    from the turns into semantic memories (see list_memories). Use it when a conversation or
    task ends (close=true also marks the conversation as ended), or after important new
    information. Runs in the background; returns the id of the request event.
    """
    gw = _gateway(ctx)
    who = gw.user(user)
    with gateway_errors():
        if close:
            if session is None:
                raise ToolError("close=true needs the session to close")
            event = await gw.client.close_session(session, user=who)
        else:
            event = await gw.client.reflect(user=who, session=session)
    return Recorded(event_id=event.event_id, offset=event.offset)


async def forget(
    ctx: GatewayContext,
    memory_id: Annotated[str, Field(description="The memory's id, as returned by recall or list_memories.")],
    user: User = None,
    reason: Annotated[str, Field(max_length=500, description="Why (kept in the log for audit).")] = "",
) -> Recorded:
    """Forget one memory by its id (from recall or list_memories). Use it when the user asks you
    to forget something, or a memory is wrong or outdated. Once applied (within a moment)
    recall and list_memories never return it again. Returns the id of the forget event.
    """
    gw = _gateway(ctx)
    who = gw.user(user)
    with gateway_errors():
        event = await gw.client.forget(memory_id, user=who, reason=reason)
    return Recorded(event_id=event.event_id, offset=event.offset)


MemoryId = Annotated[str, Field(description="The memory's id, as returned by recall or list_memories.")]
Reason = Annotated[str, Field(max_length=500, description="Why (kept in the log for audit).")]


async def pin_memory(ctx: GatewayContext, memory_id: MemoryId, user: User = None, reason: Reason = "") -> Recorded:
    """Pin a memory so it is never forgotten by Hindsight's forgetting passes. Use it when the
    user says something must always be remembered. Returns the id of the pin event."""
    return await _memory_action(ctx, "pin", memory_id, user, reason)


async def unpin_memory(ctx: GatewayContext, memory_id: MemoryId, user: User = None, reason: Reason = "") -> Recorded:
    """Unpin a memory: forgetting passes judge it by its importance again. Returns the id of
    the unpin event."""
    return await _memory_action(ctx, "unpin", memory_id, user, reason)


async def restore_memory(ctx: GatewayContext, memory_id: MemoryId, user: User = None, reason: Reason = "") -> Recorded:
    """Bring back a forgotten memory (list_memories with types=["forgotten"] shows them, to an
    admin key). Once applied, recall returns it again. Returns the id of the restore event."""
    return await _memory_action(ctx, "restore", memory_id, user, reason)


async def _memory_action(ctx: GatewayContext, action: str, memory_id: str, user: str | None, reason: str) -> Recorded:
    gw = _gateway(ctx)
    who = gw.user(user)
    call = {"pin": gw.client.pin, "unpin": gw.client.unpin, "restore": gw.client.restore}[action]
    with gateway_errors():
        event = await call(memory_id, user=who, reason=reason)
    return Recorded(event_id=event.event_id, offset=event.offset)


async def session_context(
    ctx: GatewayContext,
    session: Session,
    user: User = None,
    budget: Annotated[int, Field(ge=1, le=200_000, description="Token budget for summary and turns.")] = 2000,
) -> ContextOut:
    """Working memory of one conversation, for resuming it: a rolling summary of earlier
    turns plus the newest turns that fit the token budget, oldest first. omitted_turns is
    true when older turns did not fit (they are covered by the summary when one exists).
    """
    gw = _gateway(ctx)
    who = gw.user(user)
    with gateway_errors():
        c = await gw.client.session_context(session, user=who, budget=budget)
    turns = [TurnOut(speaker=t.speaker, role=t.role, content=t.content, occurred_at=t.occurred_at.isoformat())
             for t in c.turns]
    return ContextOut(session=c.session, summary=c.summary, turns=turns, tokens=c.tokens, budget=c.budget,
                      omitted_turns=c.omitted_turns)


async def list_memories(
    ctx: GatewayContext,
    user: User = None,
    session: OptSession = None,
    types: Annotated[list[Literal["episodic", "semantic", "summary"]] | None, Field(
        description="Which memories: semantic (default), episodic (raw turns), summary.")] = None,
    kinds: Annotated[list[str] | None, Field(
        description="Only these kinds: fact, preference, event, lesson, error.")] = None,
    keys: Annotated[list[str] | None, Field(description="Only these keys, e.g. preference.language.")] = None,
    tags: Annotated[list[str] | None, Field(description="Only memories with these tags.")] = None,
    limit: Annotated[int, Field(ge=1, le=500, description="Page size.")] = 20,
    offset: Annotated[int, Field(ge=0, description="Pass next_offset from the previous page.")] = 0,
) -> MemoryList:
    """Browse what Hindsight has learned, newest first: semantic memories by default (facts,
    preferences, events, lessons, errors, each with a key such as preference.language), or
    raw turns with types=["episodic"]. Filter by user, session, kind, key or tag; page with
    limit and offset (next_offset is null on the last page). Use recall to search by meaning.
    """
    gw = _gateway(ctx)
    with gateway_errors():
        page = await gw.client.list_memories(
            user=user or gw.default_user, session=session, types=types, kinds=kinds, keys=keys, tags=tags,
            limit=limit, offset=offset)
    return MemoryList(items=[_memory(m) for m in page.items], next_offset=page.next_offset)


async def memory_history(
    ctx: GatewayContext,
    memory_id: Annotated[str, Field(description="The memory's id, as returned by recall or list_memories.")],
) -> HistoryOut:
    """How a memory changed over time: the older values it replaced (type "superseded") and
    the repeats merged into it (type "merged"), oldest first; live names the current value.
    Use it when the user asks what they used to prefer or when something changed. Recall
    and list_memories already return only current values.
    """
    gw = _gateway(ctx)
    with gateway_errors():
        h = await gw.client.memory_history(memory_id)
    return HistoryOut(memory_id=h.memory_id, live=h.live, versions=[_memory(m) for m in h.versions])
