"""Start-up check: the vector index holds vectors of the configured embedder only.

Vectors of two models live in different spaces: a query embedded by bge-small-en
compared with MiniLM vectors ranks by noise, and nothing in the answer says so. So a
process that would serve or extend such an index refuses to start (exit code 2 from the
``hindsight`` command) and says what to run; a warning in a log nobody reads, with
recall quietly wrong, is the failure this prevents. Every vector records its model
(payload ``embedding_model``), which is what the index is asked about.
"""

from __future__ import annotations

from collections.abc import Sequence

from hindsight_common.errors import ConfigurationError, ProjectionError
from hindsight_common.ports.projection import Embedded, VectorIndex

# The key under which a cluster index records the model it was created for (Elasticsearch
# mapping ``_meta``, Qdrant collection metadata): ``VectorIndex.live_model``.
MODEL_META = "embedding_model"


class EmbedderMismatch(ConfigurationError):
    """The vector index was built with another embedder than the configured one."""


async def check_vectors_model(index: VectorIndex, model: str, *, where: str, remedy: str) -> None:
    """Raise EmbedderMismatch when ``index`` holds vectors not made by ``model``.
    ``where`` names the index for the operator, ``remedy`` what to run. Raises
    ProjectionError when the index cannot be read."""
    n, names = await index.other_models(model)
    if not n:
        return
    found = ", ".join(repr(m) if m else "(no model recorded)" for m in names)
    raise EmbedderMismatch(
        f"{where} holds {n} vectors made with another embedder ({found}) than the configured "
        f"one ({model!r}); recall would compare vectors of different models. {remedy}"
    )


def embedded_remedy(data_dir: str) -> str:
    return (
        f"Re-embed them with the configured embedder: stop the server, then run "
        f"`hindsight replay --data-dir {data_dir}` (drops the projections and rebuilds them from "
        f"the log), or set HINDSIGHT_EMBEDDER back to the embedder that made them."
    )


CLUSTER_REMEDY = (
    "Rebuild the vector projection from the log with the configured embedder (the "
    "hindsight-rebuild-embed Job, deploy/k8s/README.md \"Rebuild a projection\"), or set "
    "HINDSIGHT_EMBEDDER back to the embedder that made them."
)


def refuse_other_models(items: Sequence[Embedded], recorded: str, where: str) -> None:
    """Raise ProjectionError when ``items`` hold vectors of another model than the one the
    index ``where`` records (a re-embedding swapped it; the consumer embeds them again)."""
    if stale := sorted({item.model for item in items} - {recorded}):
        raise ProjectionError(f"vectors of {stale} offered to {where}, which holds {recorded!r} vectors "
                              "(a re-embedding swapped it): embed them again")
