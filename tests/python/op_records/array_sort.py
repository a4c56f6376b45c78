"""Records of the ordering ops: Sort, TopK, Unique (multi-output: gradients in test_indexing.py)."""
import numpy as np

import sprout as ms
from sprout import ops
from op_records.record import NUMERIC_DTYPES, OpRecord


def _ones(*shape):
    return ms.Tensor(np.ones(shape, np.float32))


def _sort_ref(x, axis=-1, descending=False):
    order = np.argsort(-x if descending else x, axis=axis, kind="stable")
    return [np.take_along_axis(x, order, axis), order.astype(np.int32)]


def _top_k_ref(x, k):
    order = np.argsort(-x.astype(np.float64), axis=-1, kind="stable")[..., :k]
    return [np.take_along_axis(x, order, -1), order.astype(np.int32)]


def _unique_ref(x):
    values, inverse = np.unique(x, return_inverse=True)
    return [values, inverse.reshape(x.shape).astype(np.int32)]


RECORDS = [
    OpRecord("Sort", lambda x: ops.sort(x), _sort_ref, [((3, 5),), ((7,),), ((0, 2),)], NUMERIC_DTYPES,
             exact=True, bad=[(lambda: ops.sort(_ones(2), 1), ValueError, "Sort: 'axis' must be in"),
                              (lambda: ops.sort(ms.Tensor([True])), TypeError, "Sort: 'x' must be a numeric")]),
    OpRecord("Sort", lambda x: ops.Sort(axis=0, descending=True)(x), lambda x: _sort_ref(x, 0, True),
             [((4, 3),)], (ms.float32, ms.int16), exact=True),
    OpRecord("TopK", lambda x: ops.TopK()(x, 2), lambda x: _top_k_ref(x, 2), [((3, 5),), ((4,),), ((2, 2, 3),)],
             NUMERIC_DTYPES, exact=True,
             bad=[(lambda: ops.TopK()(_ones(3), 4), ValueError, r"TopK: 'k' must be in \[0, 3\]"),
                  (lambda: ops.TopK()(ms.Tensor(1.0), 1), ValueError, "TopK: 'input_x' must have rank >= 1")]),
    OpRecord("TopK", lambda x: ops.topk(x, 2, dim=0), lambda x: [np.swapaxes(a, 0, 1) for a in _top_k_ref(x.T, 2)],
             [((4, 3),)], (ms.float32,), exact=True),
    OpRecord("Unique", lambda x: ops.unique(x), _unique_ref, [((7,),), ((2, 3),), ((0,),)], NUMERIC_DTYPES,
             exact=True, bad=[(lambda: ops.Unique()(_ones(2, 2)), ValueError, "Unique: 'input_x' must be 1-d")]),
]
