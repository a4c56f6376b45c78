"""Records of the binary math ops and the logical ops."""
import numpy as np

import sprout as ms
from sprout import _C, ops
from op_records.record import FLOAT_DTYPES, NUMERIC_DTYPES, OpRecord

BROADCAST = [((2, 3), (2, 3)), ((4, 1, 3), (5, 1)), ((), (3,)), ((0, 3), (3,)), ((2, 3), ()), ((7, 33), (7, 33))]
GRAD_SHAPES = [((2, 3), (2, 3)), ((4, 1, 3), (5, 1)), ((3,), ())]


def _binary(op, call, ref, dtypes=NUMERIC_DTYPES, low=-3.0, high=3.0, **kw):
    bad = [(lambda: call(ms.Tensor(np.ones((2, 3))), ms.Tensor(np.ones(4))), ValueError,
            rf"{op}: shapes \(2, 3\) and \(4,\) cannot broadcast")]
    return OpRecord(op, call, ref, BROADCAST, dtypes, low, high, prim=lambda: _C.Primitive(op),
                    grad_shapes=GRAD_SHAPES, bad=bad + kw.pop("bad", []), **kw)


def _logical(op, call, ref):
    bad = [(lambda: getattr(ops, op)()(ms.Tensor([1.0]), ms.Tensor([True])), TypeError,
            rf"{op}: 'x' must have dtype in \[Bool\], but got Float32")]
    return OpRecord(op, call, ref, BROADCAST, (ms.bool_,), exact=True, bad=bad)


_bool_bad = [(lambda: ops.floor_divide(ms.Tensor([True]), ms.Tensor([True])), TypeError,
              "FloorDiv: 'x' must be a numeric tensor, but got Bool")]

RECORDS = [
    _binary("FloorDiv", ops.floor_divide, np.floor_divide, bad=_bool_bad),
    _binary("FloorMod", ops.floor_mod, np.mod),
    _binary("Mod", ops.fmod, np.fmod),
    _binary("Atan2", ops.atan2, np.arctan2, dtypes=FLOAT_DTYPES),
    _binary("Hypot", ops.hypot, np.hypot, dtypes=FLOAT_DTYPES),
    _logical("LogicalAnd", ops.logical_and, np.logical_and),
    _logical("LogicalOr", ops.logical_or, np.logical_or),
    _logical("LogicalXor", ops.logical_xor, np.logical_xor),
]
