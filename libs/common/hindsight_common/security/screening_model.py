"""The learned half of screening: a logistic regression over word and character n-grams
that says how much a text reads like an instruction aimed at the agent (pure, numpy only).

Why beside the rules: the rules name the wording they were written for, and blind corpus
parts showed they miss paraphrases they have not seen. N-grams of characters carry over
to wording that shares pieces ("disregard", "guidelines", "assistant reading") without
matching a whole phrase. The model is small and explainable: its evidence is the n-grams
that pushed the score up, reported as the reason.

Features: the text normalised as the rules see it (``screening_decode.normalise``),
lower-cased, without long base64 or hex runs (the rules decode those; text with nothing
else left reads as benign); word unigrams and bigrams, and character 3- to 5-grams inside
words padded with spaces; counted, and divided by the square root of their number. Long
texts are read in windows (an injection buried in a long page is not diluted by it), the
most suspicious window counting. Training (:func:`train`) is full-batch gradient descent with Nesterov momentum,
a fixed number of steps, balanced class weights and an L2 penalty: the same corpus
always gives the same weights (no randomness, no download). The shipped model is trained
from the shipped corpus, plus ``corpus/ordinary.jsonl`` (ordinary chat, answers and tool
results, so that a chatty "you" is not taken for an order), the first time a process
needs it (about 3 s of CPU; :func:`shipped`), so it can never drift from
the corpus it claims to come from.
"""

from __future__ import annotations

import functools
import math
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from hindsight_common.security.screening_decode import normalise
from hindsight_common.security.screening_samples import ORDINARY, load_corpus

NGRAMS = (3, 5)
WINDOW = 320  # characters read at once in a long text
STEP = 200
MAX_WINDOWS = 64
STEPS = 200
PENALTY = 1e-4
_WORD_CACHE = 50_000
MIN_SAMPLES = 2  # an n-gram must occur in this many training texts to get a weight
_WORD = re.compile(r"[^\W_]+|[^\w\s]")
# Long runs of base64 or hex: the rules decode and screen those; to the model they are noise.
_BLOB = re.compile(r"[A-Za-z0-9+/=_-]{24,}")


def _word_grams(word: str) -> list[str]:
    padded = " " + word + " "
    n = len(padded)
    lo, hi = NGRAMS
    return ["w " + word] + [padded[i:i + k] for k in range(lo, hi + 1) for i in range(n - k + 1)]


def _words(text: str) -> list[str]:
    return _WORD.findall(text)


def _pairs(words: Sequence[str]) -> list[str]:
    return ["b " + a + " " + b for a, b in zip(words, words[1:])]


def grams(text: str) -> list[str]:
    """The features of one (already normalised, lower-cased) text, each as often as it occurs."""
    words = _words(text)
    return [g for w in words for g in _word_grams(w)] + _pairs(words)


def _plain(text: str) -> str:
    return _BLOB.sub(" ", normalise(text)).lower()


def windows(text: str) -> list[str]:
    """The text as the model reads it, in overlapping windows when it is long."""
    plain = _plain(text)
    if len(plain) <= WINDOW:
        return [plain]
    return [plain[i:i + WINDOW] for i in range(0, len(plain) - STEP, STEP)][:MAX_WINDOWS]


@dataclass(frozen=True)
class Reading:
    """The model's view of a text: its probability of being an attack and the n-grams
    that pushed it up most (in the most suspicious window)."""

    probability: float
    evidence: tuple[str, ...]


class Classifier:
    """A trained model: a weight per n-gram and a bias."""

    def __init__(self, weights: Mapping[str, float], bias: float) -> None:
        self.weights = dict(weights)
        self.bias = bias
        # Per word: the sum of its n-grams' weights and how many it has. Words repeat far
        # more than texts do, so reading a turn is mostly dictionary look-ups.
        self._per_word: dict[str, tuple[float, int]] = {}

    def _word(self, word: str) -> tuple[float, int]:
        known = self._per_word.get(word)
        if known is None:
            w = self.weights
            feats = _word_grams(word)
            known = (sum(w.get(g, 0.0) for g in feats), len(feats))
            if len(self._per_word) >= _WORD_CACHE:
                self._per_word.clear()
            self._per_word[word] = known
        return known

    def _logit(self, window: str) -> float | None:
        words = _words(window)
        if not words:
            return None
        w = self.weights
        pairs = _pairs(words)
        total, count = sum(w.get(g, 0.0) for g in pairs), len(pairs)
        for word in words:
            weight, n = self._word(word)
            total += weight
            count += n
        return self.bias + total / math.sqrt(count)

    def read(self, text: str, explain: int = 3) -> Reading:
        """How much ``text`` reads like an attack, with the ``explain`` strongest n-grams."""
        best: tuple[float, str] | None = None
        for window in windows(text):
            logit = self._logit(window)
            if logit is not None and (best is None or logit > best[0]):
                best = (logit, window)
        if best is None:
            return Reading(0.0, ())
        logit, window = best
        probability = 1.0 / (1.0 + math.exp(-logit))
        if not explain:
            return Reading(probability, ())
        w = self.weights
        # Words and word pairs explain better than pieces of words: they come first.
        top = sorted((g for g in set(grams(window)) if w.get(g, 0.0) > 0), key=lambda g: (g[1] != " ", -w[g]))
        return Reading(probability, tuple(_shown(g) for g in top[:explain]))

    def probability(self, text: str) -> float:
        return self.read(text, explain=0).probability


def _shown(gram: str) -> str:
    return gram[2:] if gram[1] == " " and gram[0] in "wb" else gram.strip()


def train(texts: Sequence[str], attacks: Sequence[bool]) -> Classifier:
    """A classifier fitted to ``texts`` labelled attack (True) or benign (False)."""
    if len(texts) != len(attacks) or not texts:
        raise ValueError("train needs as many labels as texts, and at least one text")
    # A text with no words left (only an encoded run) says nothing the model can learn.
    kept = [(feats, attack) for feats, attack in zip((grams(_plain(t)) for t in texts), attacks) if feats]
    if not kept:
        raise ValueError("train needs at least one text with words in it")
    rows = [feats for feats, _ in kept]
    counts: dict[str, int] = {}
    for feats in rows:
        for g in set(feats):
            counts[g] = counts.get(g, 0) + 1
    vocab = sorted(g for g, c in counts.items() if c >= MIN_SAMPLES)
    column = {g: i for i, g in enumerate(vocab)}
    indices: list[int] = []
    indptr = [0]
    data: list[float] = []
    squares: list[float] = []  # each row's squared length
    for feats in rows:
        mine = [column[g] for g in feats if g in column]
        scale = 1.0 / math.sqrt(len(feats))  # over all its n-grams, as at reading time
        indices += mine
        data += [scale] * len(mine)
        indptr.append(len(indices))
        squares.append(scale * scale * sum(c * c for c in Counter(mine).values()))
    y = np.array([attack for _, attack in kept], dtype=np.float64)
    pos = max(1.0, float(y.sum()))
    neg = max(1.0, float(len(y) - y.sum()))
    sample_w = np.where(y > 0, len(y) / (2 * pos), len(y) / (2 * neg)) / len(y)
    weights = _fit(np.array(indices, dtype=np.int64), np.array(indptr, dtype=np.int64),
                   np.array(data, dtype=np.float64), np.array(squares), y, sample_w, len(vocab))
    bias = float(weights[-1])
    return Classifier({g: float(v) for g, v in zip(vocab, weights[:-1]) if v != 0.0}, bias)


def _fit(indices: np.ndarray, indptr: np.ndarray, data: np.ndarray, squares: np.ndarray, y: np.ndarray,
         sample_w: np.ndarray, n_features: int) -> np.ndarray:
    """Weighted, L2-penalised logistic regression (the last weight is the bias, unpenalised)."""
    lengths = np.diff(indptr)
    row_of = np.repeat(np.arange(len(lengths)), lengths)

    def gradient(w: np.ndarray) -> np.ndarray:
        z = np.bincount(row_of, weights=data * w[indices], minlength=len(lengths)) + w[-1]
        g = sample_w * (1.0 / (1.0 + np.exp(-z)) - y)
        out = np.empty_like(w)
        out[:-1] = np.bincount(indices, weights=data * g[row_of], minlength=n_features) + PENALTY * w[:-1]
        out[-1] = g.sum()
        return out

    # 1/L: the logistic curvature is at most 1/4 and the Hessian's largest eigenvalue at
    # most its trace, the weighted squared lengths of the rows (bias included).
    curvature = 0.25 * float((sample_w * (squares + 1.0)).sum()) + PENALTY
    step = 1.0 / curvature
    w = np.zeros(n_features + 1)
    previous = w
    for t in range(1, STEPS + 1):
        ahead = w + (t - 1) / (t + 2) * (w - previous)
        previous = w
        w = ahead - step * gradient(ahead)
    return w


@functools.cache
def shipped() -> Classifier:
    """The model trained on the corpus shipped with the package (once per process)."""
    samples = load_corpus() + load_corpus(shipped=ORDINARY)
    return train([s.text for s in samples], [s.label == "attack" for s in samples])
