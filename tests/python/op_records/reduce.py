"""Records of the reductions."""
import numpy as np

import sprout as ms
from sprout import _C, ops
from op_records.record import FLOAT_DTYPES, NUMERIC_DTYPES, OpRecord

SHAPES_3D = [((3, 4, 5),), ((2, 0, 3),), ((1, 1, 1),)]


def _reduce(op, ref, axis, keep, dtypes=NUMERIC_DTYPES, shapes=SHAPES_3D, **kw):
    np_axis = None if axis == () else axis

    def call(x):
        return getattr(ops, op)(keep_dims=keep)(x, axis)

    def reference(x):
        return ref(x, axis=np_axis, keepdims=keep)

    bad = [(lambda: getattr(ops, op)()(ms.Tensor(np.ones((2, 3))), 5), ValueError, rf"{op}: 'axis' must be in")]
    return OpRecord(op, call, reference, shapes, dtypes,
                    prim=lambda: _C.Primitive(op, {"axis": axis, "keep_dims": keep}),
                    grad_shapes=[((3, 4, 5),)], bad=bad, **kw)


RECORDS = [
    _reduce("ReduceSum", np.sum, (0, 2), False),
    _reduce("ReduceSum", np.sum, (), True, shapes=[((3, 4),), ((6,),), ((),), ((0, 2),)]),
    _reduce("ReduceMean", np.mean, (1,), True, dtypes=FLOAT_DTYPES),
    _reduce("ReduceMax", np.max, (-1,), False, shapes=[((3, 4, 5),), ((6,),), ((1, 1),)]),
    _reduce("ReduceMin", np.min, (0, 1), True, shapes=[((3, 4, 5),), ((2, 3),)]),
]
