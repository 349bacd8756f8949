"""A cluster process follows the embedder of the live vector version.

In the cluster a re-embedding rebuild (``hindsight replay --projection vector --embedder
NAME``) fills a new index or collection made for the new model and moves the alias
onto it; the embed and query services are other processes and are not restarted. Each
index records the model it was made for when it is created (Elasticsearch mapping
``_meta``, Qdrant collection metadata: ``VectorIndex.live_model``). A process that
writes or searches vectors asks for it and, when it changed, loads the embedder that
makes it and swaps it in (``LiveEmbedder``):

- embed asks before every batch, so a batch read after the swap is embedded with the
  new model; a batch embedded just before it is refused by the new version (the
  adapters write to the version whose model they read, never the old model's vectors
  into the new one) and embedded again;
- the query gateway asks at most once a second (``FOLLOW_S``): for up to that long
  after a swap a query can be embedded with the old model and compared with the new
  model's vectors, and is answered (with worse ranking) rather than failed; when the
  model cannot be read, the query is embedded with the current one.

An index that records no model (made before models were recorded) is never followed:
the process keeps its configured embedder, as before.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence

from hindsight_common.errors import HindsightError, ProjectionError
from hindsight_common.ports.embedder import Embedder
from hindsight_common.ports.projection import VectorIndex
from hindsight_services.rebuild.live import LiveEmbedder

log = logging.getLogger(__name__)

FOLLOW_S = 1.0  # how stale the query gateway's idea of the live model may be


class ModelFollower:
    """Keeps ``embedder`` on the model ``index`` (through its alias) was made for.
    ``make`` builds the embedder of a model id (``factory.make_embedder_for``)."""

    def __init__(self, index: VectorIndex, embedder: LiveEmbedder, make: Callable[[str], Embedder]) -> None:
        self.index = index
        self.embedder = embedder
        self._make = make
        self._checked = float("-inf")
        self._lock = asyncio.Lock()
        self.switches = 0

    async def follow(self, max_age_s: float = 0.0) -> None:
        """Read the live version's model (unless read less than ``max_age_s`` ago) and
        switch the embedder when it differs. Raises ProjectionError when the index
        cannot be read or the new model cannot be loaded (the caller retries)."""
        if time.monotonic() - self._checked < max_age_s:
            return
        async with self._lock:  # one reader, one load
            if time.monotonic() - self._checked < max_age_s:
                return
            model = await self.index.live_model()
            if model is not None and model != self.embedder.model_id:
                await self._switch(model)
            self._checked = time.monotonic()

    async def _switch(self, model: str) -> None:
        try:
            new = self._make(model)
            await new.embed(["warm up"])  # loaded (and checksummed) before it serves
        except HindsightError as e:
            raise ProjectionError(f"cannot follow the live vector version to {model!r}: {e}") from e
        old = self.embedder.ref.swap(new)
        self.switches += 1
        log.info("the live vector version was made with %s: embedding with it instead of %s", model, old.model_id)


class FollowingEmbedder(Embedder):
    """The query gateway's embedder: follows the live model (at most every ``FOLLOW_S``)
    before it embeds."""

    def __init__(self, follower: ModelFollower, max_age_s: float = FOLLOW_S) -> None:
        self.follower = follower
        self._max_age_s = max_age_s

    @property
    def model_id(self) -> str:
        return self.follower.embedder.model_id

    @property
    def dim(self) -> int:
        return self.follower.embedder.dim

    def load(self) -> None:
        self.follower.embedder.load()

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        await self._follow()
        return await self.follower.embedder.embed(texts)

    async def embed_queries(self, texts: Sequence[str]) -> list[list[float]]:
        await self._follow()
        return await self.follower.embedder.embed_queries(texts)

    async def _follow(self) -> None:
        # A recall is not failed for this: with the vector store unreachable its path
        # fails on its own (and recall answers degraded from the others).
        try:
            await self.follower.follow(self._max_age_s)
        except ProjectionError as e:
            log.warning("cannot read the live vector version's model; embedding with %s: %s",
                        self.model_id, e)
