"""CosineSimilarity (``mindspore.train.CosineSimilarity``): the pairwise similarity matrix of the rows of
the last input."""
import numpy as np

from sprout.train.metrics.metric import Metric, _to_numpy
from sprout.train.metrics.rearrange import rearrange_inputs


class CosineSimilarity(Metric):
    """update(x) with x (N, D); eval() -> the (N, N) cosine (or, similarity='dot', dot-product) matrix, its
    diagonal zeroed with zero_diagonal, reduced along the last axis by 'sum' or 'mean' ('none': the matrix)."""

    def __init__(self, similarity="cosine", reduction="none", zero_diagonal=True):
        if similarity not in ("cosine", "dot"):
            raise ValueError(f"CosineSimilarity: 'similarity' must be 'cosine' or 'dot', but got {similarity!r}")
        if reduction not in ("none", "sum", "mean"):
            raise ValueError(f"CosineSimilarity: 'reduction' must be 'none', 'sum' or 'mean', but got {reduction!r}")
        if not isinstance(zero_diagonal, bool):
            raise TypeError(f"CosineSimilarity: 'zero_diagonal' must be a bool, but got {type(zero_diagonal).__name__}")
        self.similarity, self.reduction, self.zero_diagonal = similarity, reduction, zero_diagonal
        super().__init__()

    def clear(self):
        self.sqr_mtx_res, self._is_update = 0, False

    @rearrange_inputs
    def update(self, inputs):
        x = _to_numpy(inputs, "CosineSimilarity", "inputs")
        if x.ndim != 2:
            raise ValueError(f"CosineSimilarity.update: the input must be (N, D), but has shape {x.shape}")
        if self.similarity == "cosine":
            x = x / np.linalg.norm(x, ord=2, axis=1, keepdims=True)
        self.sqr_mtx_res = x @ x.T
        self._is_update = True

    def eval(self):
        if not self._is_update:
            raise RuntimeError("CosineSimilarity.eval: call update() before eval()")
        result = np.array(self.sqr_mtx_res, copy=True)
        if self.zero_diagonal:
            np.fill_diagonal(result, 0)
        if self.reduction == "mean":
            return result.mean(axis=-1)
        if self.reduction == "sum":
            return result.sum(axis=-1)
        return result
