"""embed's wiring: consumer group ``embed`` on the interactions (and memories) streams."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from hindsight_common.consumer import Consumer
from hindsight_common.embedding_cache import CachedEmbedder
from hindsight_common.ports.effects import EffectAudit
from hindsight_common.ports.embedder import Embedder
from hindsight_common.ports.embedding_cache import EmbeddingCache
from hindsight_common.ports.log import EventLog
from hindsight_common.ports.projection import VectorIndex
from hindsight_common.settings import Settings
from hindsight_common.erasure import erasing
from hindsight_common.streams import CONTROL, INTERACTIONS, MEMORIES
from hindsight_services.embed.handler import Embed

GROUP = "embed"
STREAMS = (INTERACTIONS, MEMORIES, CONTROL)  # control: SubjectErased


def consumer(
    log: EventLog, embedder: Embedder, index: VectorIndex, settings: Settings,
    cache: EmbeddingCache | None = None, audit: EffectAudit | None = None,
    follow: Callable[[], Awaitable[None]] | None = None,
) -> Consumer:
    """With ``cache``, documents embedded before (same text, same model) are not embedded
    again; with ``audit``, each applied record is noted (``ports/effects.py``); ``follow``
    runs before each batch (the cluster's ``ModelFollower.follow``)."""
    embed = Embed(CachedEmbedder(embedder, cache) if cache is not None else embedder, index, audit, follow)
    return Consumer(
        log,
        GROUP,
        STREAMS,
        erasing(embed.handle, embed.purge, what=GROUP),
        resume_from=index.position,
        not_past_commit=True,  # a kill after the vector write but before the audit: again
        batch_size=settings.consumer_batch,
        poll_timeout_s=settings.poll_timeout_s,
    )
