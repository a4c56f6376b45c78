"""BleuScore (``mindspore.train.BleuScore``): BLEU of candidate sentences against reference sentences."""
from collections import Counter

import numpy as np

from sprout.train.metrics.metric import Metric
from sprout.train.metrics.rearrange import rearrange_inputs


def _ngrams(tokens, n_gram):
    counts = Counter()
    for n in range(1, n_gram + 1):
        for j in range(len(tokens) - n + 1):
            counts[tuple(tokens[j:j + n])] += 1
    return counts


class BleuScore(Metric):
    """Corpus BLEU up to n_gram-grams (1..4): the geometric mean of the clipped n-gram precisions times the
    brevity penalty exp(1 - r / c) when the candidates are not longer than the closest references; with smooth,
    each precision is (matches + 1) / (total + 1). update(candidates, references): lists of token lists, and
    for each candidate a list of references."""

    def __init__(self, n_gram=4, smooth=False):
        if not isinstance(n_gram, int) or isinstance(n_gram, bool):
            raise TypeError(f"BleuScore: 'n_gram' must be an int, but got {type(n_gram).__name__}")
        if not 1 <= n_gram <= 4:
            raise ValueError(f"BleuScore: 'n_gram' must be in [1, 4], but got {n_gram}")
        if not isinstance(smooth, bool):
            raise TypeError(f"BleuScore: 'smooth' must be a bool, but got {type(smooth).__name__}")
        self.n_gram, self.smooth = n_gram, smooth
        super().__init__()

    def clear(self):
        self._numerator = np.zeros(self.n_gram)
        self._denominator = np.zeros(self.n_gram)
        self._c, self._r = 0.0, 0.0
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs):
        if len(inputs) != 2:
            raise ValueError(f"BleuScore.update: expects (candidate_corpus, reference_corpus), but got {len(inputs)} "
                             f"inputs")
        candidates, references = inputs
        if len(candidates) != len(references):
            raise ValueError(f"BleuScore.update: {len(candidates)} candidates but {len(references)} reference lists")
        for candidate, refs in zip(candidates, references):
            self._c += len(candidate)
            ref_lens = [len(ref) for ref in refs]
            diffs = [abs(len(candidate) - n) for n in ref_lens]
            self._r += ref_lens[diffs.index(min(diffs))]
            counts = _ngrams(candidate, self.n_gram)
            ref_counts = Counter()
            for ref in refs:
                ref_counts |= _ngrams(ref, self.n_gram)
            for gram, k in (counts & ref_counts).items():
                self._numerator[len(gram) - 1] += k
            for gram, k in counts.items():
                self._denominator[len(gram) - 1] += k
        self._is_update = True

    def eval(self):
        if not self._is_update:
            raise RuntimeError("BleuScore.eval: call update() before eval()")
        if min(self._numerator) == 0.0:
            return np.array(0.0)
        if self.smooth:
            precisions = (self._numerator + 1.0) / (self._denominator + 1.0)
        else:
            precisions = self._numerator / self._denominator
        geometric_mean = np.exp(np.sum(np.log(precisions) / self.n_gram))
        brevity = np.array(1.0) if self._c > self._r else np.exp(1 - self._r / self._c)
        return brevity * geometric_mean
