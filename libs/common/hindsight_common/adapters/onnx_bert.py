"""A BERT-style ONNX model with its WordPiece tokenizer: what the embedder and the
cross-encoder share (onnxruntime on the CPU, Hugging Face ``tokenizers``; no PyTorch).

The session is built lazily (first use, or :meth:`OnnxBert.load` at start-up) from
checksummed files (``model_files``). ONNX Runtime sessions are safe to run from
several threads at once, so a recall's query never waits behind an indexing batch.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from hindsight_common.adapters.model_files import ModelFiles, model_dir
from hindsight_common.errors import HindsightError, ProviderError

log = logging.getLogger(__name__)

Batch = dict[str, "np.ndarray[Any, np.dtype[np.int64]]"]


class OnnxBert:
    """Tokenizes (single texts or pairs), pads per batch, and runs the graph."""

    def __init__(self, files: ModelFiles, *, max_tokens: int, threads: int | None = None,
                 root: Path | None = None, spin: bool = True, unfused: tuple[str, ...] = ()) -> None:
        """``threads``: intra-op threads (default: all cores). ``spin``: whether idle
        intra-op threads spin waiting for work (lower latency for one big run; on a
        small shared CPU, spinning after many small runs burns the cores the rest of
        the process needs). ``unfused``: ONNX Runtime graph optimizers to leave out
        (by name), where the fused kernel is slower than the nodes it replaces."""
        self._files = files
        self._max_tokens = max_tokens
        self._threads = threads
        self._spin = spin
        self._unfused = unfused
        self._root = root
        self._session: Any = None
        self._tokenizer: Any = None
        self._inputs: tuple[str, ...] = ()
        self._lock = threading.Lock()

    @property
    def name(self) -> str:
        return self._files.name

    def load(self) -> None:
        """Verify the files and build the session now. Raises ConfigurationError (files
        missing or altered) or ProviderError (the runtime cannot load them)."""
        with self._lock:
            if self._session is not None:
                return
            directory = model_dir(self._files, self._root)
            try:
                import onnxruntime as ort
                from tokenizers import Tokenizer

                options = ort.SessionOptions()
                options.intra_op_num_threads = self._threads or max(1, os.cpu_count() or 1)
                options.inter_op_num_threads = 1
                options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
                options.add_session_config_entry("session.intra_op.allow_spinning", "1" if self._spin else "0")
                session = ort.InferenceSession(
                    str(directory / "model.onnx"), options, providers=["CPUExecutionProvider"],
                    disabled_optimizers=list(self._unfused))
                tokenizer = Tokenizer.from_file(str(directory / "tokenizer.json"))
                tokenizer.enable_truncation(self._max_tokens)
                tokenizer.no_padding()
            except HindsightError:
                raise
            except Exception as e:  # a third-party runtime failing to load the files
                raise ProviderError(f"cannot load the ONNX model {self._files.name!r}: {e}") from e
            self._inputs = tuple(i.name for i in session.get_inputs())
            self._tokenizer = tokenizer
            self._session = session
            log.info("ONNX model loaded: %s (%s threads)", self._files.name, options.intra_op_num_threads)

    def encode(self, texts: Sequence[str] | Sequence[tuple[str, str]]) -> Batch:
        """Token ids, attention mask and token types, padded to the batch's longest."""
        return self.pad(self.tokenize(texts))

    def tokenize(self, texts: Sequence[str] | Sequence[tuple[str, str]]) -> list[Any]:
        """Each text's (or pair's) encoding, truncated to ``max_tokens`` (its ``ids``)."""
        self.load()
        return list(self._tokenizer.encode_batch(list(texts)))

    @staticmethod
    def pad(encodings: Sequence[Any]) -> Batch:
        """``tokenize``'s encodings as one batch, padded to the longest."""
        width = max(len(e.ids) for e in encodings)
        ids = np.zeros((len(encodings), width), dtype=np.int64)
        mask = np.zeros_like(ids)
        types = np.zeros_like(ids)
        for row, e in enumerate(encodings):
            n = len(e.ids)
            ids[row, :n] = e.ids
            mask[row, :n] = e.attention_mask
            types[row, :n] = e.type_ids
        return {"input_ids": ids, "attention_mask": mask, "token_type_ids": types}

    def run(self, batch: Batch) -> Any:
        """The graph's first output for ``batch``. Raises ProviderError."""
        self.load()
        feed = {name: batch[name] for name in self._inputs}
        try:
            return self._session.run(None, feed)[0]
        except Exception as e:  # onnxruntime raises its own types
            raise ProviderError(f"{self._files.name}: inference failed: {e}") from e

