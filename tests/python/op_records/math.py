"""Records of the elementwise math ops."""
import numpy as np
import pytest

import sprout as ms
from sprout import _C, ops
from op_records.record import FLOAT_DTYPES, NUMERIC_DTYPES, OpRecord

BROADCAST = [((2, 3), (2, 3)), ((4, 1, 3), (5, 1)), ((), (3,)), ((0, 3), (3,)), ((2, 3), ())]


def _binary(op, call, ref, dtypes=NUMERIC_DTYPES, low=-3.0, high=3.0, **kw):
    bad = [(lambda: call(ms.Tensor(np.ones((2, 3))), ms.Tensor(np.ones(4))), ValueError,
            rf"{op}: shapes \(2, 3\) and \(4,\) cannot broadcast")]
    return OpRecord(op, call, ref, BROADCAST, dtypes, low, high, prim=lambda: _C.Primitive(op),
                    grad_shapes=[((2, 3), (2, 3)), ((4, 1, 3), (5, 1)), ((3,), ())], bad=bad, **kw)


def _unary(op, call, ref, low, high, dtypes=FLOAT_DTYPES, **kw):
    return OpRecord(op, call, ref, [((2, 3),), ((),), ((0, 4),), ((7, 33),)], dtypes, low, high,
                    prim=lambda: _C.Primitive(op), grad_shapes=[((2, 3),)], **kw)


def _compare(op, call, ref):
    return OpRecord(op, call, ref, BROADCAST, NUMERIC_DTYPES + (ms.bool_,), prim=lambda: _C.Primitive(op),
                    grad_shapes=[((2, 3), (3,))], exact=True)


RECORDS = [
    _binary("Add", ops.add, np.add),
    _binary("Sub", ops.sub, np.subtract, dtypes=(ms.int8, ms.int32, ms.int64) + FLOAT_DTYPES),
    _binary("Mul", ops.mul, np.multiply),
    _binary("RealDiv", lambda x, y: ops.RealDiv()(x, y), np.true_divide, dtypes=FLOAT_DTYPES, low=0.5),
    _binary("Div", ops.div, np.true_divide, dtypes=FLOAT_DTYPES, low=0.5),
    _binary("Maximum", ops.maximum, np.maximum),
    _binary("Minimum", ops.minimum, np.minimum),
    _binary("Pow", ops.pow, np.power, dtypes=FLOAT_DTYPES, low=0.5, high=2.0),
    _compare("Equal", ops.equal, np.equal),
    _compare("NotEqual", ops.not_equal, np.not_equal),
    _compare("Less", ops.less, np.less),
    _compare("LessEqual", ops.less_equal, np.less_equal),
    _compare("Greater", ops.greater, np.greater),
    _compare("GreaterEqual", ops.greater_equal, np.greater_equal),
    _unary("Neg", ops.neg, np.negative, -3, 3, dtypes=(ms.int8, ms.int32, ms.int64) + FLOAT_DTYPES,
           bad=[(lambda: ops.neg(ms.Tensor([True])), TypeError, "Neg: 'x' must be a numeric tensor")]),
    _unary("Exp", ops.exp, np.exp, -5, 5),
    _unary("Log", ops.log, np.log, 0.1, 5),
    _unary("Sqrt", ops.sqrt, np.sqrt, 0.1, 5),
]
