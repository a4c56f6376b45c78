"""Records of Cdist: p-norm distances between rows, against the differences summed by NumPy."""
import numpy as np

import sprout as ms
from sprout import _C, ops
from op_records.record import FLOAT_DTYPES, OpRecord


def _cdist(p):
    def reference(x, y):
        size = np.abs(x[..., :, None, :] - y[..., None, :, :])
        if p == 0:
            return (size != 0).sum(-1).astype(x.dtype)
        if np.isinf(p):
            return size.max(-1)
        return (size ** p).sum(-1) ** (1 / p)
    return reference


def _record(p, shapes, **kw):
    return OpRecord("Cdist", lambda x, y: ops.Cdist(p=p)(x, y), _cdist(p), shapes, FLOAT_DTYPES,
                    prim=lambda: _C.Primitive("Cdist", {"p": p}), **kw)


_BAD = [(lambda: ops.Cdist(p=-1.0)(ms.Tensor(np.ones((2, 3))), ms.Tensor(np.ones((4, 3)))), ValueError,
         r"Cdist: 'p' must be a number >= 0, but got -1"),
        (lambda: ops.Cdist()(ms.Tensor(np.ones((2, 3))), ms.Tensor(np.ones((4, 2)))), ValueError,
         r"Cdist: 'input_x' and 'input_y' must be \(B, P, M\) and \(B, R, M\) or \(P, M\) and \(R, M\), but got "
         r"shapes \(2, 3\) and \(4, 2\)"),
        (lambda: ops.Cdist()(ms.Tensor(np.ones((2, 3), np.int32)), ms.Tensor(np.ones((4, 3), np.int32))),
         TypeError, r"Cdist: 'input_x' must be a floating-point tensor")]

RECORDS = [
    # Rows across the 8- and 4-row tiles and their remainder, columns across a 32-row panel and its padding.
    _record(2.0, [((13, 5), (37, 5)), ((2, 3, 4), (2, 6, 4)), ((0, 3), (4, 3))], bad=_BAD),
    _record(1.0, [((5, 3), (7, 3))], tol={ms.bfloat16: (3e-2, 3e-2)}),
    _record(3.0, [((2, 5, 3), (2, 7, 3))], tol={ms.float16: (4e-3, 4e-3), ms.bfloat16: (3e-2, 3e-2)}),
    _record(float("inf"), [((6, 4), (9, 4))]),
]
