"""Metric base class and the input conversion every metric shares."""
import numpy as np

from sprout.common.tensor import Tensor


def _to_numpy(x, api, arg):
    if isinstance(x, Tensor):
        return x.asnumpy()
    if isinstance(x, (np.ndarray, list, tuple, int, float)):
        return np.asarray(x)
    raise TypeError(f"{api}.update: '{arg}' must be a Tensor, NumPy array or list, but got {type(x).__name__}")


class Metric:
    """``clear()`` resets, ``update(*inputs)`` accumulates a batch, ``eval()`` returns the value."""

    def __init__(self):
        self._indexes = None
        self.clear()

    def clear(self):
        raise NotImplementedError(f"{type(self).__name__} must define clear()")

    def update(self, *inputs):
        raise NotImplementedError(f"{type(self).__name__} must define update(*inputs)")

    def eval(self):
        raise NotImplementedError(f"{type(self).__name__} must define eval()")

    def __call__(self, *inputs):
        """The metric of these inputs alone: clear(), update(*inputs), eval() (MindSpore's Metric.__call__)."""
        self.clear()
        self.update(*inputs)
        return self.eval()

    def set_indexes(self, indexes):
        """Which of the evaluation network's outputs this metric takes (MindSpore's eval_indexes)."""
        self._indexes = list(indexes)
        return self

    @property
    def indexes(self):
        return self._indexes

    def _check_batches(self, count):
        if count == 0:
            raise RuntimeError(f"{type(self).__name__}.eval: no batch has been given to update() since clear()")
