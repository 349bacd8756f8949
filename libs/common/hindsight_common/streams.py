"""Stream (topic) names. Topics are ``hindsight.<stream>.v<N>``."""

from __future__ import annotations

INTERACTIONS = "hindsight.interactions.v1"
MEMORIES = "hindsight.memories.v1"
CONTROL = "hindsight.control.v1"
EMBEDDINGS = "hindsight.embeddings.v1"
AUDIT = "hindsight.audit.v1"


def dead_letter_stream(group: str) -> str:
    """The dead-letter stream of one consumer group (the service name)."""
    return f"hindsight.deadletter.{group}.v1"


def partition_key(tenant: str, user: str) -> str:
    """Key that keeps one user's events in order on one partition."""
    return f"{tenant}/{user}"
