"""consolidate's wiring: consumer group ``consolidate`` on the memories and control streams."""

from __future__ import annotations

from hindsight_common.consolidation.clusters import ClusterPolicy
from hindsight_common.consolidation.forgetting import ForgetPolicy
from hindsight_common.consumer import Consumer
from hindsight_common.erasure import erasing
from hindsight_common.factory import make_llm
from hindsight_common.ports.access import AccessCounts
from hindsight_common.ports.embedder import Embedder
from hindsight_common.ports.embedding_cache import EmbeddingCache
from hindsight_common.ports.llm import LLM
from hindsight_common.ports.log import EventLog
from hindsight_common.security.signing_keys import keyring_from_settings
from hindsight_common.settings import Settings
from hindsight_common.streams import CONTROL, MEMORIES
from hindsight_services.consolidate.handler import Consolidate

GROUP = "consolidate"
STREAMS = (MEMORIES, CONTROL)  # control: SubjectErased


def handler(
    log: EventLog, settings: Settings, accesses: AccessCounts, embedder: Embedder | None = None,
    cache: EmbeddingCache | None = None, llm: LLM | None = None,
) -> Consolidate:
    """The handler the settings ask for. ``embedder`` (the one embed uses) finds
    near-duplicates, reading the vectors embed stored in ``cache`` (the embedding cache)
    before it runs the model. Every ``forget_interval_s`` it runs a forgetting pass and,
    with ``cluster_consolidation``, a cluster pass (the LLM of ``HINDSIGHT_LLM_*`` writes
    the statements when set; they are signed with the process's keyring). With
    ``consolidation`` off it only adds up access counts (no fold, no decisions, no passes).
    With ``forget_summarise`` a periodic pass summarises what it forgets, per subject.
    ``llm``: the process's chat model, closed by its owner (else one from the settings)."""
    on = settings.consolidation
    clusters = ClusterPolicy.from_settings(settings) if on and settings.cluster_consolidation else None
    writes = clusters is not None or (on and settings.forget_summarise)  # statements of its own
    return Consolidate(accesses, log if on else None, embedder, similarity=settings.consolidate_similarity,
                       policy=ForgetPolicy.from_settings(settings), forget_interval_s=settings.forget_interval_s,
                       cache=cache, clusters=clusters, llm=(llm or make_llm(settings)) if writes else None,
                       keyring=keyring_from_settings(settings) if writes else None,
                       summarise=on and settings.forget_summarise)


def consumer(
    log: EventLog, settings: Settings, accesses: AccessCounts, embedder: Embedder | None = None,
    cache: EmbeddingCache | None = None, llm: LLM | None = None,
) -> Consumer:
    """Resumes where the access store stands, so a new (or deleted) store is rebuilt
    from the log's ``MemoryAccessed`` events; consolidation's fold is rebuilt from the
    log up to there first (``Consolidate.resume``). Its decisions go onto the memories
    stream (see :func:`handler`). An erased user (``SubjectErased``) is purged from its
    fold and access counts."""
    consolidate = handler(log, settings, accesses, embedder, cache, llm)
    return Consumer(
        log,
        GROUP,
        STREAMS,
        erasing(consolidate.handle, consolidate.purge, what=GROUP),
        resume_from=consolidate.resume,
        on_idle=consolidate.on_idle,
        batch_size=settings.consumer_batch,
        poll_timeout_s=settings.poll_timeout_s,
    )
