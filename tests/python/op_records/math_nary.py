"""Records of AddN, ClipByValue, Lerp and Addcmul."""
import numpy as np

import sprout as ms
from sprout import _C, ops
from op_records.record import FLOAT_DTYPES, NUMERIC_DTYPES, OpRecord

TERNARY = [((2, 3), (2, 3), (2, 3)), ((4, 1, 3), (3,), ()), ((), (), ()), ((0, 3), (1,), (3,)),
           ((7, 33), (33,), (7, 1))]
TERNARY_GRAD = [((2, 3), (2, 3), (2, 3)), ((4, 1, 3), (3,), ()), ((2, 1), (1, 3), (2, 3))]


def _mismatch(op, call, n):
    # Tensors are built inside the lambda: records keep no tensors alive between tests.
    return [(lambda: call(*([ms.Tensor(np.ones((2, 3)))] * (n - 1) + [ms.Tensor(np.ones(4))])), ValueError,
             rf"{op}: shapes \(2, 3\) and \(4,\) cannot broadcast")]


def _add_n(*xs):
    return ops.addn(xs)


RECORDS = [
    OpRecord("AddN", _add_n, lambda *xs: sum(xs), [((2, 3), (2, 3), (2, 3)), ((),), ((0, 4), (0, 4)),
                                                   ((7, 33), (7, 33))], NUMERIC_DTYPES,
             prim=lambda: _C.Primitive("AddN"), grad_shapes=[((2, 3), (2, 3), (2, 3))],
             bad=[(lambda: ops.addn([ms.Tensor([1.0, 2.0]), ms.Tensor([1.0])]), ValueError,
                   r"AddN: every tensor in 'x' must have the shape of the first, \(2,\), "
                   r"but tensor 1 has shape \(1,\)"),
                  (lambda: ops.addn([ms.Tensor([1.0]), ms.Tensor([1])]), TypeError,
                   "AddN: every tensor in 'x' must have the dtype of the first, Float32, but tensor 1 is Int64"),
                  (lambda: ops.AddN()(()), ValueError, "AddN: 'x' must hold at least one tensor"),
                  (lambda: ops.addn(ms.Tensor([1.0])), TypeError, "addn: 'x' must be a tuple or list")]),
    OpRecord("ClipByValue", ops.clamp, lambda x, lo, hi: np.minimum(np.maximum(x, lo), hi), TERNARY, NUMERIC_DTYPES,
             prim=lambda: _C.Primitive("ClipByValue"), grad_shapes=TERNARY_GRAD,
             bad=_mismatch("ClipByValue", ops.clamp, 3) + [
                 (lambda: ops.clamp(ms.Tensor([1.0])), ValueError, "clamp: at least one of 'min' and 'max'")]),
    OpRecord("Lerp", ops.lerp, lambda s, e, w: s + w * (e - s), TERNARY, FLOAT_DTYPES,
             prim=lambda: _C.Primitive("Lerp"), grad_shapes=TERNARY_GRAD,
             bad=_mismatch("Lerp", ops.lerp, 3) + [
                 (lambda: ops.lerp(ms.Tensor([1]), ms.Tensor([2]), ms.Tensor([0])), TypeError,
                  "Lerp: 'start' must be a floating-point tensor")]),
    OpRecord("Addcmul", ops.addcmul, lambda a, x1, x2, v: a + v * x1 * x2,
             [s + ((),) for s in TERNARY] + [((2, 3), (2, 3), (2, 3), (2, 3))], NUMERIC_DTYPES,
             prim=lambda: _C.Primitive("Addcmul"),
             grad_shapes=[s + ((),) for s in TERNARY_GRAD] + [((2, 3), (3,), (2, 1), (2, 3))],
             bad=_mismatch("Addcmul", ops.addcmul, 4)),
]
