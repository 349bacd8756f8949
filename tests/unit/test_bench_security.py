"""``hindsight bench security`` on the shipped PII corpus: the corpus is well formed and
large enough, and the detectors meet the targets on it (this fails if they regress)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from hindsight_common.security.pii_corpus import load_corpus, score
from hindsight_common.security.pii_detect import find_pii
from hindsight_common.security.pii_types import PII_TYPES
from hindsight_services.bench_security import (
    NEGATIVES_TOUCHED_TARGET,
    REDACTION_RECALL_TARGET,
    crafted_inputs,
)
from hindsight_services.cli import main


def test_corpus_is_large_covers_every_type_and_its_spans_are_sane() -> None:
    samples = load_corpus()
    positives = [s for s in samples if s.spans]
    assert len(positives) >= 200 and len(samples) - len(positives) >= 200
    per_type = Counter(span.type for s in positives for span in s.spans)
    assert set(per_type) == set(PII_TYPES) and min(per_type.values()) >= 25, per_type
    assert len({s.id for s in samples}) == len(samples)
    for s in positives:
        ends = [0]
        for span in s.spans:
            assert span.start >= ends[-1] and span.end > span.start and span.end <= len(s.text), s.id
            assert s.text[span.start : span.end].strip() == s.text[span.start : span.end], s.id
            ends.append(span.end)


def test_detectors_meet_the_targets_on_the_corpus() -> None:
    result = score(load_corpus())
    assert result.recall >= REDACTION_RECALL_TARGET, result.misses
    assert result.negatives_touched_share <= NEGATIVES_TOUCHED_TARGET, result.touched
    for name, per in result.per_type.items():
        assert per.recall >= 0.95 and per.precision >= 0.95, (name, per)


def test_scoring_counts_a_half_redacted_value_as_missed(tmp_path: Path) -> None:
    corpus = tmp_path / "c.jsonl"
    text = "card 4111 1111 1111 1111 and order 12"
    rows = [
        {"id": "a", "text": text, "spans": [{"type": "card", "start": 5, "end": 35}]},  # wider than the card
        {"id": "b", "text": "mail ann@example.org", "spans": []},  # a "negative" that is touched
    ]
    corpus.write_text("\n".join(json.dumps(r) for r in rows))
    result = score(load_corpus(corpus))
    assert result.recall == 0.0 and result.misses == ["a"]
    assert result.per_type["card"].precision == 1.0  # the finding does overlap the card span
    assert result.negatives_touched == 1 and result.touched == ["b"]
    assert result.per_type["email"].precision == 0.0


def test_bench_command_prints_sections_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "security", "--repeat", "1", "--json"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "== redaction"
    assert any(line.startswith("targets") and line.endswith("met") and "NOT" not in line for line in out)
    figures = json.loads(out[-1])["redaction"]
    assert figures["targets_met"] is True and figures["positives"] >= 200 and figures["negatives"] >= 200
    assert set(figures["per_type"]) == set(PII_TYPES) and figures["chars_per_s"] > 0


def test_bench_command_with_a_missing_corpus_file_says_so(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="no corpus file"):
        main(["bench", "security", "--pii-corpus", str(tmp_path / "nope.jsonl")])


def test_crafted_backtracking_inputs_finish_and_find_nothing() -> None:
    # Before every repetition was bounded, "1." * 16,000 took minutes in the secret
    # detector's pattern; this would hang, not just run slow, if one came back.
    for name, text in crafted_inputs().items():
        found = find_pii(text)
        if name == "BEGIN lines":
            assert [f.type for f in found] == ["secret"]  # an unterminated key block
        elif name == "many e-mail addresses":
            assert len(found) == text.count("@") and {f.type for f in found} == {"email"}
        else:
            assert found == [], name
