"""The cross-encoder stage of recall: the fused top N turns read with the query and
reordered by the model's score (``balanced``; see ``presets.py`` for its settings)."""

from __future__ import annotations

from collections.abc import Sequence

from hindsight_common.errors import ProjectionError
from hindsight_common.ports.projection import Document, TextIndex
from hindsight_common.ports.reranker import Reranker
from hindsight_common.recall.presets import Preset

Ranked = list[tuple[Document, float]]


async def cross_encode(reranker: Reranker, text: TextIndex, query: str, tenant: str, p: Preset,
                       candidates: Ranked) -> tuple[Ranked, dict[str, tuple[int, float]]]:
    """The fused top N reordered by the cross-encoder, the rest after them (N turns,
    with the memories fused among them: ``pool_size``), and each reordered document's
    CE rank and score (for explain).

    Each turn is read alone and, when the preset weighs it, once more after the turn
    before it (its neighbourhood from the text index); the score is the first plus
    ``cross_encoder_context`` × the second (without ``cross_encoder_alone``, an
    ablation, each turn is read once, after the turn before it). The fused scores stay
    with the positions (the best CE score gets the best fused score), so the rerank
    factors that follow act on the same scale as without the cross-encoder.
    """
    cut = pool_size(candidates, p)
    head, tail = candidates[:cut], candidates[cut:]
    if len(head) < 2:
        return candidates, {}
    passages = [d.search_text for d, _ in head]
    with_prev = await _with_previous(text, tenant, p, head)
    if p.cross_encoder_context and not p.cross_encoder_alone:
        # One reading a turn, on the scale of two (each turn alone while the text index is down).
        read = await reranker.score(query, with_prev or passages)
        scores = [(1.0 + p.cross_encoder_context) * s for s in read]
    elif with_prev is None:  # the preset does not weigh the second reading, or the text index is down
        scores = await reranker.score(query, passages)
    else:
        # Both readings in one call: its pairs are cut into runs of equal tokens,
        # which keeps the cores equally busy (two calls made four uneven runs).
        differ = [i for i, passage in enumerate(with_prev) if passage != passages[i]]
        read = await reranker.score(query, passages + [with_prev[i] for i in differ])
        scores, again = read[:len(passages)], read[:len(passages)]
        for i, a in zip(differ, read[len(passages):], strict=True):
            again[i] = a  # a turn with nothing before it (or a memory) reads the same
        scores = [s + p.cross_encoder_context * a for s, a in zip(scores, again, strict=True)]
    order = sorted(range(len(head)), key=lambda i: -scores[i])  # stable on ties
    ranks = {head[i][0].id: (rank, scores[i]) for rank, i in enumerate(order, start=1)}
    return [(head[i][0], head[pos][1]) for pos, i in enumerate(order)] + tail, ranks


async def _with_previous(text: TextIndex, tenant: str, p: Preset, head: Ranked) -> list[str] | None:
    """Each of ``head`` after the turn before it (itself when it has none); None when
    the preset does not weigh that reading or the text index is down (the cross-encoder
    then reads each turn alone)."""
    if not p.cross_encoder_context:
        return None
    try:  # the text index's copy of each document, with its neighbourhood
        indexed = {d.id: d for d in await text.get(tenant, [d.id for d, _ in head])}
    except ProjectionError:
        return None
    return [after_previous(indexed.get(d.id, d), p.cross_encoder_context_chars) for d, _ in head]


def after_previous(doc: Document, chars: int = 0) -> str:
    """The turn before ``doc`` in its session (its last ``chars`` characters, when set)
    and ``doc`` itself, from its neighbourhood (``Document.context``: the window's texts
    one per line); just ``doc`` without one."""
    own = doc.search_text
    at = doc.context.rfind(own)
    before = doc.context[:at].rstrip("\n") if at > 0 else ""
    if not before:
        return own
    previous = before.rsplit(chr(10), 1)[-1]
    if chars and len(previous) > chars:
        previous = previous[-chars:]
    return f"{previous}\n{own}"


def pool_size(candidates: Sequence[tuple[Document, float]], p: Preset) -> int:
    """How many of the fused candidates the cross-encoder reads: the first
    ``cross_encoder_top`` turns and every memory or summary fused among them, at most
    twice that many items. A memory is a second key to the turns it came from, so it
    must not push a turn out of the reranker's reach (on LoCoMo with reflection, memories
    taking turns' places cost more recall than they added); each is read once (it has no
    turn before it), so its cost is one pair."""
    if not p.cross_encoder_counts_turns:
        return p.cross_encoder_top
    cut = turns = 0
    while cut < len(candidates) and turns < p.cross_encoder_top and cut < 2 * p.cross_encoder_top:
        turns += candidates[cut][0].type == "episodic"
        cut += 1
    return cut
