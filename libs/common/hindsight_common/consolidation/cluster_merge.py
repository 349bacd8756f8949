"""Writing one statement for a cluster of memories: through the LLM port, or deterministically.

The prompt and its reply schema are pure (:func:`messages`, :data:`SCHEMA`); the reply is
never trusted: a statement that is missing, empty, too long, or that drops the subject
falls back to the deterministic join (``clusters.joined_statement``), and so does any
``ProviderError`` (logged without content), so a pass never stops on the model. Whatever
is chosen is recorded on the log with the reflector that wrote it, and a replay reads it.
"""

from __future__ import annotations

import logging

from hindsight_common.consolidation.clusters import MAX_STATEMENT, Cluster, joined_statement, reflector_info
from hindsight_common.errors import ProviderError
from hindsight_common.events import ReflectorInfo
from hindsight_common.ports.llm import LLM, ChatMessage

log = logging.getLogger(__name__)

SYSTEM = """You merge several memories about one subject, kept by an AI agent, into ONE \
short self-contained statement in the third person that names the subject and keeps \
every fact, preference, date and name they hold. Add nothing they do not say, and do not \
choose between them when they differ: keep both. Answer with JSON only: \
{"statement": "..."}."""

SCHEMA: dict[str, object] = {
    "type": "object",
    "properties": {"statement": {"type": "string", "maxLength": MAX_STATEMENT}},
    "required": ["statement"],
    "additionalProperties": False,
}


def messages(cluster: Cluster) -> list[ChatMessage]:
    """The request: the subject and the members' statements, oldest first."""
    listed = "\n".join(f"- {m.content}" for m in cluster.members)
    return [ChatMessage("system", SYSTEM), ChatMessage("user", f"Subject: {cluster.subject}\nMemories:\n{listed}")]


def usable(statement: object, cluster: Cluster) -> str | None:
    """The reply's statement when it can be kept, else None."""
    if not isinstance(statement, str):
        return None
    text = " ".join(statement.split())
    if not text or len(text) > MAX_STATEMENT:
        return None
    subject = cluster.subject.lower()
    if subject and subject not in text.lower():
        return None  # a statement that no longer names its subject cannot stand alone
    return text


async def merged_statement(cluster: Cluster, llm: LLM | None) -> tuple[str, ReflectorInfo]:
    """The cluster's statement and who wrote it: the LLM when given and its reply is
    usable, else the deterministic join."""
    if llm is not None:
        try:
            reply = await llm.complete_json(messages(cluster), schema=SCHEMA, schema_name="cluster_statement",
                                            max_output_tokens=600)
        except ProviderError as e:
            log.warning("cluster merge: the LLM failed (%s); joining the statements instead", type(e).__name__)
        else:
            data = reply.data
            text = usable(data.get("statement") if isinstance(data, dict) else None, cluster)
            if text is not None:
                u = reply.usage
                return text, reflector_info(reply.model or llm.model_name, u.prompt_tokens, u.completion_tokens,
                                            u.cost_usd)
            log.warning("cluster merge: the LLM's reply held no usable statement; joining the statements instead")
    return joined_statement(cluster), reflector_info()
