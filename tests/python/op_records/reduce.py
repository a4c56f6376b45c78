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


def _lp_norm(axis, p, keep, epsilon=1e-12, shapes=SHAPES_3D, **kw):
    np_axis = None if axis == () else axis

    def reference(x):
        norm = np.sum(np.abs(x) ** p, axis=np_axis, keepdims=keep) ** (1.0 / p)
        return np.maximum(norm, epsilon)

    bad = [(lambda: ops.LpNorm(axis=0, p=0)(ms.Tensor(np.ones((2, 3)))), ValueError,
            r"LpNorm: 'p' must be an int >= 1, but got 0"),
           (lambda: ops.LpNorm(axis=2)(ms.Tensor(np.ones((2, 3)))), ValueError, r"LpNorm: 'axis' must be in"),
           (lambda: ops.LpNorm(axis=0, epsilon=-1.0)(ms.Tensor(np.ones((2, 3)))), ValueError,
            r"LpNorm: 'epsilon' must be >= 0, but got -1"),
           (lambda: ops.LpNorm(axis=0)(ms.Tensor(np.ones((2, 3), np.int32))), TypeError,
            r"LpNorm: 'input' must be a floating-point tensor")]
    attrs = {"axis": axis, "p": p, "keep_dims": keep, "epsilon": epsilon}
    return OpRecord("LpNorm", lambda x: ops.LpNorm(**attrs)(x), reference, shapes, FLOAT_DTYPES,
                    prim=lambda: _C.Primitive("LpNorm", attrs), grad_shapes=[((3, 4, 5),)], bad=bad, **kw)


RECORDS += [
    _lp_norm((1,), 2, True),
    _lp_norm((0, 2), 1, False),
    _lp_norm((), 3, False, shapes=[((3, 4, 5),), ((6,),), ((),)]),
    # A norm below epsilon is epsilon: the zero rows of these samples.
    _lp_norm((-1,), 2, False, epsilon=0.5, shapes=[((4, 3),), ((2, 0),)], low=-0.2, high=0.2),
]
