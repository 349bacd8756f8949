"""Token counts for budgets, with a real tokenizer.

Uses the WordPiece tokenizer of the embedding model (bge-small-en, offline and
checksummed, see ``adapters.model_files``). Chat models tokenize differently, so counts
are a close estimate of theirs, not exact; they are exact for the embedder.
Falls back to ~4 characters per token if the tokenizer cannot be loaded.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

log = logging.getLogger(__name__)

_lock = threading.Lock()
_tokenizer: Any = None
_failed = False


def _load() -> Any:
    global _tokenizer, _failed
    with _lock:
        if _tokenizer is None and not _failed:
            try:
                from tokenizers import Tokenizer

                from hindsight_common.adapters.model_files import BGE_SMALL_EN, model_dir

                path = model_dir(BGE_SMALL_EN) / "tokenizer.json"
                tok = Tokenizer.from_file(str(path))
                tok.no_truncation()
                tok.no_padding()
                _tokenizer = tok
            except Exception as e:  # optional dependency; fall back to the estimate
                _failed = True
                log.warning("tokenizer unavailable, estimating tokens: %s", e)
        return _tokenizer


def count_tokens(text: str) -> int:
    """Tokens in ``text`` (without special tokens)."""
    tok = _load()
    if tok is None:
        return max(1, (len(text) + 3) // 4)
    return len(tok.encode(text, add_special_tokens=False).ids)


def truncate_to_tokens(text: str, limit: int, marker: str = " …") -> str:
    """``text`` cut to at most ``limit`` tokens (marker included), at a token boundary."""
    if count_tokens(text) <= limit:
        return text
    room = max(0, limit - count_tokens(marker))
    tok = _load()
    if tok is None:
        return text[: room * 4].rstrip() + marker
    encoding = tok.encode(text, add_special_tokens=False)
    if room == 0:
        return marker.strip()
    end = encoding.offsets[room - 1][1]
    return text[:end].rstrip() + marker
