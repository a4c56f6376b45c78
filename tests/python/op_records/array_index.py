"""Records of the array ops that select or place elements by index or mask.

Their index and mask inputs are not floating-point samples, so the records fix them inside `call`, and
the gradient checks (which perturb every input) live in tests/python/test_indexing.py.
"""
import numpy as np

import sprout as ms
from sprout import ops
from op_records.record import FLOAT_DTYPES, NUMERIC_DTYPES, OpRecord

ALL_DTYPES = NUMERIC_DTYPES + (ms.bool_,)
GATHER_INDEX = np.array([[2, 0], [1, -1]])
ND_INDEX = np.array([[1, 0], [0, 2], [1, 2]])
SCATTER_INDEX = np.array([[1], [3], [1]])
SEGMENT_IDS = np.array([0, 2, 0, 5])


def _ones(*shape):
    return ms.Tensor(np.ones(shape, np.float32))


def _scatter_nd_ref(updates):
    out = np.zeros((4,) + updates.shape[1:], updates.dtype)
    np.add.at(out, SCATTER_INDEX[:, 0], updates)
    return out


def _tensor_scatter_update_ref(x, updates):
    out = x.copy()
    out[[1, 3]] = updates
    return out


def _segment_sum_ref(x):
    out = np.zeros((3,) + x.shape[1:], x.dtype)
    for i, s in enumerate(SEGMENT_IDS):
        if 0 <= s < 3:
            out[s] += x[i]
    return out


RECORDS = [
    OpRecord("Select", lambda x, y: ops.select(x > 0, x, y), lambda x, y: np.where(x > 0, x, y),
             [((2, 3), (2, 3)), ((2, 3), (3,)), ((), (2,)), ((0, 2), (1, 2))], NUMERIC_DTYPES, exact=True,
             bad=[(lambda: ops.Select()(_ones(2), _ones(2), _ones(2)), TypeError, "Select: 'cond' must have dtype in"),
                  (lambda: ops.Select()(ms.Tensor([True]), _ones(2), ms.Tensor([1, 2])), TypeError,
                   "Select: 'x' and 'y' must have the same dtype"),
                  (lambda: ops.where(ms.Tensor([True, False, True]), _ones(2), _ones(2)), ValueError, "Select")]),
    OpRecord("MaskedFill", lambda x: ops.masked_fill(x, x > 0, 2), lambda x: np.where(x > 0, 2, x).astype(x.dtype),
             [((2, 3),), ((),), ((0,),)], NUMERIC_DTYPES, exact=True,
             bad=[(lambda: ops.MaskedFill()(_ones(2), _ones(2), ms.Tensor(1.0)), TypeError, "MaskedFill: 'mask' must"),
                  (lambda: ops.MaskedFill()(_ones(2), ms.Tensor([True, False]), _ones(2)), ValueError,
                   "MaskedFill: 'value' must be a 0-d tensor")]),
    OpRecord("MaskedFill", lambda x, y: ops.masked_fill(x, y > 0, ms.Tensor(-1.0, x.dtype)),
             lambda x, y: np.where(y > 0, -1.0, x), [((2, 3), (3,))], FLOAT_DTYPES, exact=True),
    OpRecord("MaskedSelect", lambda x: ops.masked_select(x, x > 0), lambda x: x[x > 0],
             [((2, 3),), ((),), ((0, 3),), ((4,),)], NUMERIC_DTYPES, exact=True,
             bad=[(lambda: ops.masked_select(_ones(2), _ones(2)), TypeError, "MaskedSelect: 'mask' must"),
                  (lambda: ops.masked_select(_ones(2), ms.Tensor([True, False, True])), ValueError, "MaskedSelect")]),
    OpRecord("MaskedSelect", lambda x, y: ops.masked_select(x, y > 0),
             lambda x, y: np.broadcast_arrays(x, y)[0][np.broadcast_arrays(x, y)[1] > 0],
             [((2, 3), (3,)), ((3, 1), (1, 2))], (ms.float32, ms.int32), exact=True),
    OpRecord("NonZero", lambda x: ops.nonzero(x > 0), lambda x: np.argwhere(x > 0).astype(np.int64),
             [((2, 3),), ((),), ((0, 3),), ((4,),)], NUMERIC_DTYPES, exact=True),
    OpRecord("NonZero", ops.nonzero, lambda x: np.argwhere(x).astype(np.int64), [((3, 2, 2),)], ALL_DTYPES,
             exact=True),
    OpRecord("Gather", lambda x: ops.gather(x, ms.Tensor(GATHER_INDEX, ms.int32), 1),
             lambda x: np.take(x, GATHER_INDEX, axis=1), [((3, 4),), ((2, 3, 5),), ((0, 3),)], ALL_DTYPES, exact=True,
             bad=[(lambda: ops.gather(_ones(2, 3), ms.Tensor([3]), 1), ValueError,
                   r"Gather: index 3 in 'input_indices' is out of range for an axis of size 3"),
                  (lambda: ops.gather(_ones(2, 3), ms.Tensor([1.0]), 1), TypeError, "Gather: 'input_indices' must have dtype"),
                  (lambda: ops.gather(ms.Tensor(1.0), ms.Tensor([0]), 0), ValueError, "Gather: 'input_params' must have rank")]),
    OpRecord("Gather", lambda x: ops.index_select(x, 0, ms.Tensor([1, 1, 0])), lambda x: x[[1, 1, 0]],
             [((2, 3),), ((2,),)], (ms.float32, ms.int8), exact=True),
    OpRecord("GatherNd", lambda x: ops.gather_nd(x, ms.Tensor(ND_INDEX)), lambda x: x[ND_INDEX[:, 0], ND_INDEX[:, 1]],
             [((2, 3),), ((2, 3, 4),)], ALL_DTYPES, exact=True,
             bad=[(lambda: ops.gather_nd(_ones(2, 3), ms.Tensor([[2, 0]])), ValueError,
                   "GatherNd: index 2 in 'indices' is out of range for axis 0 of size 2"),
                  (lambda: ops.gather_nd(_ones(2), ms.Tensor([[0, 0]])), ValueError, "GatherNd: 'indices' of shape")]),
    OpRecord("ScatterNd", lambda u: ops.scatter_nd(ms.Tensor(SCATTER_INDEX), u, (4,) + u.shape[1:]), _scatter_nd_ref,
             [((3, 2),), ((3,),)], NUMERIC_DTYPES,
             bad=[(lambda: ops.scatter_nd(ms.Tensor([[0]]), _ones(2), (3,)), ValueError, "ScatterNd: 'updates' must have shape"),
                  (lambda: ops.scatter_nd(ms.Tensor([[4]]), _ones(1), (3,)), ValueError, "ScatterNd: index 4")]),
    OpRecord("TensorScatterUpdate", lambda x, u: ops.tensor_scatter_update(x, ms.Tensor([[1], [3]]), u),
             _tensor_scatter_update_ref, [((4, 3), (2, 3)), ((5,), (2,))], ALL_DTYPES, exact=True,
             bad=[(lambda: ops.tensor_scatter_update(_ones(4), ms.Tensor([[1]]), ms.Tensor([1])), TypeError,
                   "TensorScatterUpdate: 'updates' must have the dtype")]),
    OpRecord("UnsortedSegmentSum", lambda x: ops.unsorted_segment_sum(x, ms.Tensor(SEGMENT_IDS), 3), _segment_sum_ref,
             [((4, 3),), ((4,),)], NUMERIC_DTYPES,
             bad=[(lambda: ops.unsorted_segment_sum(_ones(3, 2), ms.Tensor([0, 1]), 2), ValueError,
                   "UnsortedSegmentSum: the shape of 'segment_ids'")]),
    OpRecord("OneHot", lambda i: ops.one_hot(i, 4, 1.0, 0.0), lambda i: (i[..., None] == np.arange(4)).astype(np.float32),
             [((5,),), ((2, 3),), ((),)], (ms.int32, ms.int64), low=-1, high=4, exact=True,
             bad=[(lambda: ops.one_hot(ms.Tensor([1.0]), 3), TypeError, "OneHot: 'indices' must have dtype"),
                  (lambda: ops.one_hot(ms.Tensor([1]), 3, axis=3), ValueError, r"OneHot: 'axis' must be in \[-1, 1\]")]),
    OpRecord("OneHot", lambda i: ops.one_hot(i, 3, ms.Tensor(5, ms.int32), ms.Tensor(-1, ms.int32), axis=0),
             lambda i: np.where(i[None] == np.arange(3).reshape(3, 1, 1), 5, -1).astype(np.int32), [((2, 4),)],
             (ms.int64,), low=0, high=3, exact=True),
]
