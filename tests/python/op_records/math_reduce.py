"""Records of ReduceProd, ReduceAll and ReduceAny."""
import numpy as np

import sprout as ms
from sprout import _C, ops
from op_records.record import NUMERIC_DTYPES, OpRecord

SHAPES = [((3, 4, 5),), ((2, 0, 3),), ((1, 1, 1),), ((),)]


def _reduce(op, ref, axis, keep, dtypes, shapes=SHAPES, grad=True, **kw):
    np_axis = None if axis == () else axis

    def call(x):
        return getattr(ops, op)(keep_dims=keep)(x, axis)

    def reference(x):
        return ref(x, axis=np_axis, keepdims=keep)

    bad = [(lambda: getattr(ops, op)()(ms.Tensor(np.ones((2, 3), dtype=bool if not grad else float)), 5), ValueError,
            rf"{op}: 'axis' must be in")]
    return OpRecord(op, call, reference, shapes, dtypes,
                    prim=(lambda: _C.Primitive(op, {"axis": axis, "keep_dims": keep})) if grad else None,
                    grad_shapes=[((3, 4, 5),), ((2, 3, 2),)], bad=bad, **kw)


RECORDS = [
    _reduce("ReduceProd", np.prod, (0, 2), False, NUMERIC_DTYPES, shapes=SHAPES[:3], low=-1.5, high=1.5),
    _reduce("ReduceProd", np.prod, (), True, NUMERIC_DTYPES, low=-1.5, high=1.5),
    _reduce("ReduceAll", np.all, (1,), False, (ms.bool_,), shapes=SHAPES[:3], grad=False, exact=True),
    _reduce("ReduceAny", np.any, (), True, (ms.bool_,), grad=False, exact=True),
]
