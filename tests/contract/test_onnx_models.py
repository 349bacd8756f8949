"""The ONNX embedder and cross-encoder against the real model files: a tiny ranking
that must come out right, unit vectors, and the checksum guard on the files."""

from __future__ import annotations

import asyncio
import math
import shutil
import sys
from pathlib import Path

import pytest

from hindsight_common.adapters import model_files
from hindsight_common.adapters.model_files import BGE_SMALL_EN, MS_MARCO_MINILM_L12, model_dir
from hindsight_common.adapters.onnx_embedder import BgeSmallEmbedder
from hindsight_common.adapters.onnx_reranker import MiniLMCrossEncoder
from hindsight_common.errors import ConfigurationError
from hindsight_common.ports.embedder import Embedder
from hindsight_common.ports.reranker import Reranker

PASSAGES = [
    "Ann: I adopted a greyhound called Pixel last week.",
    "Bob: The quarterly budget meeting moved to Thursday afternoon.",
    "Ann: My sister is learning to play the cello in Lisbon.",
]


def _dot(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


async def test_the_embedder_ranks_the_passage_that_answers_first(embedder: Embedder) -> None:
    docs = await embedder.embed(PASSAGES)
    queries = await embedder.embed_queries(["What is the name of Ann's dog?", "When is the budget meeting?",
                                            "Which instrument is Ann's sister learning?"])
    for expected, q in enumerate(queries):
        scores = [_dot(q, d) for d in docs]
        assert max(range(len(scores)), key=scores.__getitem__) == expected, scores
    for v in docs + queries:
        assert len(v) == embedder.dim == 384
        assert math.isclose(math.sqrt(_dot(v, v)), 1.0, abs_tol=1e-4)


async def test_a_vector_depends_only_on_its_text(embedder: Embedder) -> None:
    # What a text is embedded with must not change its vector (a rebuild must reproduce
    # the index), so the int8 graph's per-tensor activation scale must not mix texts.
    texts = PASSAGES + [f"filler sentence number {i} about nothing much, rather longer" for i in range(40)]
    batched = await embedder.embed(texts)
    for i in (0, 1, 2, 41):
        (single,) = await embedder.embed([texts[i]])
        assert single == batched[i]
    # A query is embedded with bge's instruction, so it differs from the same text as a passage.
    (as_query,) = await embedder.embed_queries([PASSAGES[0]])
    assert 0.5 < _dot(as_query, batched[0]) < 0.999
    assert await embedder.embed([]) == [] and await embedder.embed_queries([]) == []


def test_texts_run_side_by_side_give_the_bits_of_one_thread_or_several() -> None:
    # Stored texts run on one intra-op thread, several at once (workers); queries on the
    # same session unless given threads of their own. The thread count must not change a
    # vector: the same text on both sessions, and a batch spread over 3 workers against
    # the same texts one after another.
    default = BgeSmallEmbedder()
    assert default._queries is default._texts  # one session, one thread: no second copy
    model = BgeSmallEmbedder(threads=2, workers=3)
    texts = PASSAGES + ["a longer turn that goes on about the weather, the lake and the boat " * 8]
    for text in texts:
        assert model._one(model._queries, text) == model._one(model._texts, text)
    assert model._encode_texts(texts) == [model._encode_texts([t])[0] for t in texts]


async def test_the_cross_encoder_scores_the_answer_highest(reranker: Reranker) -> None:
    scores = await reranker.score("What is the name of Ann's dog?", PASSAGES)
    assert scores[0] == max(scores) and scores[0] - max(scores[1:]) > 3.0, scores
    scores = await reranker.score("When is the budget meeting?", PASSAGES)
    assert scores[1] == max(scores), scores
    assert await reranker.score("anything", []) == []


async def test_batches_side_by_side_give_the_scores_of_one_run_after_another() -> None:
    # A call's pairs are cut into batches by length (part of what a score is: the int8
    # graph scales each batch as a whole); the batches run on one thread each, side by
    # side, across concurrent calls too. Neither the thread count nor running calls at
    # once may change a score.
    query = "What is the name of Ann's dog?"
    passages = PASSAGES + [f"{p} And then some more words about the weather, {i} times over." * (i % 3 + 1)
                           for i, p in enumerate(PASSAGES * 3)]
    one_at_a_time = MiniLMCrossEncoder(batch_size=4, threads=2, workers=1)
    side_by_side = MiniLMCrossEncoder(batch_size=4, workers=3)
    expected = await one_at_a_time.score(query, passages)
    first, second = await asyncio.gather(side_by_side.score(query, passages),
                                         side_by_side.score(query, passages[:5]))
    assert first == expected and second == await one_at_a_time.score(query, passages[:5])


def test_the_cross_encoder_runs_without_the_fused_skip_layer_norm(monkeypatch: pytest.MonkeyPatch) -> None:
    # ONNX Runtime's fused SkipLayerNormalization was the slowest kernel of the int8
    # cross-encoder's short batches (adapters/onnx_reranker.py): its session leaves that
    # fusion out; the embedder's keeps every fusion (its vectors stay as stored).
    import onnxruntime as ort

    built: dict[str, list[str]] = {}
    real = ort.InferenceSession

    def recording(path: str, *args: object, **kwargs: object) -> object:
        built[Path(path).parent.name] = list(kwargs.get("disabled_optimizers") or [])  # type: ignore[call-overload]
        return real(path, *args, **kwargs)

    monkeypatch.setattr(ort, "InferenceSession", recording)
    MiniLMCrossEncoder().load()
    BgeSmallEmbedder().load()
    assert built == {MS_MARCO_MINILM_L12.name: ["SkipLayerNormFusion"], BGE_SMALL_EN.name: []}


def test_no_pytorch_is_loaded(embedder: Embedder, reranker: Reranker) -> None:
    assert "torch" not in sys.modules and "sentence_transformers" not in sys.modules


def _copy(model: model_files.ModelFiles, root: Path) -> Path:
    source = model_dir(model)
    target = root / model.name
    target.mkdir(parents=True)
    for name in model.files:
        shutil.copyfile(source / name, target / name)
    return target


def test_an_altered_model_file_fails_with_its_name(tmp_path: Path) -> None:
    copy = _copy(MS_MARCO_MINILM_L12, tmp_path)
    model_dir(MS_MARCO_MINILM_L12, tmp_path)  # an intact copy passes
    data = bytearray((copy / "model.onnx").read_bytes())
    data[len(data) // 2] ^= 0xFF
    (copy / "model.onnx").write_bytes(bytes(data))
    model_files._verified.clear()
    with pytest.raises(ConfigurationError, match=r"model file altered: .*reranker_en/model.onnx.*reinstall"):
        MiniLMCrossEncoder(root=tmp_path).load()


def test_a_missing_model_file_fails_with_its_name(tmp_path: Path) -> None:
    copy = _copy(BGE_SMALL_EN, tmp_path)
    (copy / "tokenizer.json").unlink()
    with pytest.raises(ConfigurationError, match=r"model file missing: .*bge_small_en/tokenizer.json"):
        BgeSmallEmbedder(root=tmp_path).load()
