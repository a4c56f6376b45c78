"""Records of Argmax/Argmin and the scans CumSum/CumProd/Cummax/Cummin."""
import numpy as np

import sprout as ms
from sprout import _C, ops
from op_records.record import FLOAT_DTYPES, NUMERIC_DTYPES, OpRecord


def _ones(*shape):
    return ms.Tensor(np.ones(shape, np.float32))


def _cumsum_rev_excl(x):
    return (np.flip(np.cumsum(np.flip(x, 1), 1), 1) - x).astype(x.dtype)


def _cum_extreme_ref(x, axis, largest, index_dtype):
    """Running extreme and its position (the latest among equal values) along `axis`."""
    if x.ndim == 0:
        return [x, np.zeros((), index_dtype)]
    moved = np.moveaxis(x, axis, 0)
    values, indices = np.empty_like(moved), np.zeros(moved.shape, index_dtype)
    for j in range(moved.shape[0]):
        if j == 0:
            values[0] = moved[0]
            continue
        take = moved[j] >= values[j - 1] if largest else moved[j] <= values[j - 1]
        values[j] = np.where(take, moved[j], values[j - 1])
        indices[j] = np.where(take, j, indices[j - 1])
    return [np.moveaxis(values, 0, axis), np.moveaxis(indices, 0, axis)]


RECORDS = [
    OpRecord("Argmax", lambda x: ops.Argmax(axis=1)(x), lambda x: np.argmax(x, 1).astype(np.int32),
             [((3, 4),), ((2, 5, 3),), ((4, 1),)], NUMERIC_DTYPES, exact=True,
             prim=lambda: _C.Primitive("Argmax", {"axis": 1}),
             bad=[(lambda: ops.Argmax(axis=2)(_ones(2, 3)), ValueError, "Argmax: 'axis' must be in"),
                  (lambda: ops.Argmax()(_ones(2, 0)), ValueError, "Argmax: cannot search axis -1 of size 0"),
                  (lambda: ops.Argmax(output_type=ms.float32)(_ones(2)), TypeError, "Argmax: 'output_type' must be"),
                  (lambda: ops.Argmax()(ms.Tensor([True])), TypeError, "Argmax: 'input_x' must be a numeric")]),
    OpRecord("Argmax", lambda x: ops.argmax(x), lambda x: np.argmax(x), [((3, 4),), ((),)], (ms.float32, ms.int8),
             exact=True),
    OpRecord("Argmin", lambda x: ops.argmin(x, -1, keepdims=True), lambda x: np.argmin(x, -1, keepdims=True),
             [((3, 4),), ((6,),)], NUMERIC_DTYPES, exact=True, prim=lambda: _C.Primitive("Argmin", {"axis": -1}),
             bad=[(lambda: ops.Argmin(axis=-3)(_ones(2, 3)), ValueError, "Argmin: 'axis' must be in")]),
    OpRecord("CumSum", lambda x: ops.CumSum()(x, 0), lambda x: np.cumsum(x, 0).astype(x.dtype).reshape(x.shape),
             [((3, 4),), ((5,),), ((0, 2),), ((),)], NUMERIC_DTYPES, prim=lambda: _C.Primitive("CumSum", {"axis": 0}),
             tol={ms.float16: (4e-3, 4e-3), ms.bfloat16: (3e-2, 3e-2)},
             bad=[(lambda: ops.CumSum()(_ones(2), 1), ValueError, "CumSum: 'axis' must be in"),
                  (lambda: ops.CumSum()(ms.Tensor([True]), 0), TypeError, "CumSum: 'input' must be a numeric")]),
    OpRecord("CumSum", lambda x: ops.CumSum(exclusive=True, reverse=True)(x, 1), _cumsum_rev_excl,
             [((3, 4),), ((2, 5, 2),)], (ms.float32, ms.float64, ms.int32),
             prim=lambda: _C.Primitive("CumSum", {"axis": 1, "exclusive": True, "reverse": True})),
    OpRecord("Cummax", lambda x: ops.Cummax(1)(x), lambda x: _cum_extreme_ref(x, 1, True, np.int64),
             [((3, 5),), ((2, 4, 3),), ((0, 2),)], NUMERIC_DTYPES, exact=True, grad_outputs=(0,),
             prim=lambda: _C.Primitive("Cummax", {"axis": 1}),
             bad=[(lambda: ops.Cummax(2)(_ones(2, 3)), ValueError, "Cummax: 'axis' must be in"),
                  (lambda: ops.Cummax("1"), TypeError, "Cummax: 'axis' must be an int")]),
    OpRecord("Cummin", lambda x: ops.Cummin(0)(x), lambda x: _cum_extreme_ref(x, 0, False, np.int32),
             [((4, 3),), ((6,),), ((),)], NUMERIC_DTYPES, exact=True, grad_outputs=(0,),
             prim=lambda: _C.Primitive("Cummin", {"axis": 0}),
             bad=[(lambda: ops.Cummin(-2)(_ones(3)), ValueError, "Cummin: 'axis' must be in")]),
    OpRecord("CumProd", lambda x: ops.cumprod(x, 0), lambda x: np.cumprod(x, 0).astype(x.dtype),
             [((3, 4),), ((5,),), ((0,),)], NUMERIC_DTYPES, low=0.5, high=2.0,
             tol={ms.float16: (4e-3, 4e-3), ms.bfloat16: (3e-2, 3e-2)}, prim=lambda: _C.Primitive("CumProd", {"axis": 0}),
             bad=[(lambda: ops.cumprod(_ones(2), 3), ValueError, "CumProd: 'axis' must be in")]),
    OpRecord("CumProd", lambda x: ops.CumProd(exclusive=True, reverse=True)(x, -1),
             lambda x: np.flip(np.cumprod(np.concatenate([np.ones_like(x[..., :1]), np.flip(x, -1)[..., :-1]], -1), -1), -1),
             [((3, 4),)], FLOAT_DTYPES, low=0.5, high=2.0, tol={ms.float16: (4e-3, 4e-3), ms.bfloat16: (3e-2, 3e-2)},
             prim=lambda: _C.Primitive("CumProd", {"axis": -1, "exclusive": True, "reverse": True})),
]
