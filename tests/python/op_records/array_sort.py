"""Records of the ordering ops: Sort, TopK, Unique (multi-output: gradients in test_indexing.py), SearchSorted."""
import numpy as np

import sprout as ms
from sprout import ops
from sprout.ops.function._prims import prim
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


def _search_sorted_ref(seq, values, right=False):
    side = "right" if right else "left"
    seq = np.sort(seq, -1)
    if seq.ndim == 1:
        return np.searchsorted(seq, values, side)
    rows = int(np.prod(seq.shape[:-1]))
    return np.stack([np.searchsorted(r, v, side) for r, v in zip(seq.reshape(rows, seq.shape[-1]),
                                                                 values.reshape(rows, values.shape[-1]))]).reshape(values.shape)


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
    # The sequence is sorted first (the samples are random); values drawn from the same few integers land on
    # ties, where left and right differ.
    OpRecord("SearchSorted", lambda s, v: ops.searchsorted(ops.sort(s)[0], v), _search_sorted_ref,
             [((9,), (4, 5)), ((3, 8), (3, 6)), ((5,), ()), ((0,), (3,)), ((2, 0), (2, 4))], NUMERIC_DTYPES,
             exact=True, low=-3, high=3,
             bad=[(lambda: ops.searchsorted(_ones(2, 3), _ones(3, 3)), ValueError,
                   "searchsorted: 'sorted_sequence' \\(2, 3\\) and 'values' \\(3, 3\\) must match"),
                  (lambda: prim("SearchSorted")(_ones(2, 3), _ones(3, 3)), ValueError,
                   "SearchSorted: 'sorted_sequence' of shape \\(2, 3\\) and 'values' of shape \\(3, 3\\) must match"),
                  (lambda: prim("SearchSorted")(ms.Tensor(1.0), _ones(2)), ValueError,
                   "SearchSorted: 'sorted_sequence' must have rank >= 1"),
                  (lambda: prim("SearchSorted", dtype=ms.float32)(_ones(2), _ones(2)), TypeError,
                   "SearchSorted: 'dtype' must be Int32 or Int64, but got Float32")]),
    OpRecord("SearchSorted", lambda s, v: ops.SearchSorted(ms.int32, right=True)(ops.sort(s)[0], v),
             lambda s, v: _search_sorted_ref(s, v, right=True).astype(np.int32), [((3, 8), (3, 6))],
             (ms.float32, ms.int32), exact=True),
]
