"""Records of the unary math ops and the elementwise predicates."""
import math

import numpy as np

import sprout as ms
from sprout import _C, ops
from op_records.record import FLOAT_DTYPES, OpRecord

def _erf(x):
    return np.array([math.erf(v) for v in np.ravel(x)]).reshape(np.shape(x))


def _erfc(x):
    return np.array([math.erfc(v) for v in np.ravel(x)]).reshape(np.shape(x))
SHAPES = [((2, 3),), ((),), ((0, 4),), ((7, 33),)]


def _with_nonfinite(rng, shapes, dtype):
    """Uniform values in [-3, 3] with every seventh element NaN, +inf or -inf in turn."""
    x = rng.uniform(-3, 3, size=shapes[0])
    flat = x.reshape(-1)
    flat[::7] = np.resize([np.nan, np.inf, -np.inf], flat[::7].size)
    return [x]
SIGNED = (ms.int8, ms.int32, ms.int64) + FLOAT_DTYPES


def _unary(op, call, ref, low, high, dtypes=FLOAT_DTYPES, **kw):
    return OpRecord(op, call, ref, SHAPES, dtypes, low, high, prim=lambda: _C.Primitive(op), grad_shapes=[((2, 3),)],
                    **kw)


def _floats_only(op):
    return [(lambda: getattr(ops, op)()(ms.Tensor([1, 2])), TypeError,
             rf"{op}: 'x' must be a floating-point tensor .* but got Int64")]


def _not_bool(op):
    return [(lambda: getattr(ops, op)()(ms.Tensor([True])), TypeError,
             rf"{op}: 'x' must be a numeric tensor, but got Bool")]


RECORDS = [
    _unary("Abs", ops.abs, np.abs, -3, 3, SIGNED, bad=_not_bool("Abs")),
    _unary("Sign", ops.sign, np.sign, -3, 3, SIGNED, bad=_not_bool("Sign")),
    _unary("Square", ops.square, np.square, -3, 3, SIGNED),
    _unary("Reciprocal", ops.reciprocal, np.reciprocal, 0.5, 3),
    _unary("Rsqrt", ops.rsqrt, lambda x: 1 / np.sqrt(x), 0.5, 3),
    _unary("Floor", ops.floor, np.floor, -3, 3, exact=True, bad=_floats_only("Floor")),
    _unary("Ceil", ops.ceil, np.ceil, -3, 3, exact=True, bad=_floats_only("Ceil")),
    _unary("Trunc", ops.trunc, np.trunc, -3, 3, exact=True, bad=_floats_only("Trunc")),
    _unary("Round", ops.round, np.round, -3, 3, SIGNED, exact=True),
    _unary("Expm1", ops.expm1, np.expm1, -3, 3),
    _unary("Log1p", ops.log1p, np.log1p, -0.9, 3),
    _unary("Sin", ops.sin, np.sin, -6, 6),
    _unary("Cos", ops.cos, np.cos, -6, 6),
    _unary("Tan", ops.tan, np.tan, -1.2, 1.2, tol={ms.float16: (4e-3, 4e-3)}),
    _unary("Asin", ops.asin, np.arcsin, -0.95, 0.95),
    _unary("ACos", ops.acos, np.arccos, -0.95, 0.95),
    _unary("Atan", ops.atan, np.arctan, -5, 5),
    _unary("Sinh", ops.sinh, np.sinh, -3, 3),
    _unary("Cosh", ops.cosh, np.cosh, -3, 3),
    _unary("Tanh", ops.tanh, np.tanh, -3, 3),
    _unary("Erf", ops.erf, _erf, -3, 3),
    _unary("Erfc", ops.erfc, _erfc, -3, 3),
    # The predicates see real NaN and inf: sqrt of negatives, 1 / floor(x) at floor(x) == 0.
    _unary("IsNan", lambda x: ops.isnan(ops.sqrt(x)), lambda x: np.isnan(np.sqrt(x)), -3, 3, exact=True),
    _unary("IsInf", lambda x: ops.isinf(ops.reciprocal(ops.floor(x))), lambda x: np.isinf(1 / np.floor(x)), -2, 2,
           exact=True),
    _unary("IsFinite", lambda x: ops.isfinite(ops.log(x)), lambda x: np.isfinite(np.log(x)), -1, 3, exact=True),
    # NanToNum sees NaN and infinities at every lane position (a few elements of each sample replaced).
    OpRecord("NanToNum", lambda x: ops.nan_to_num(x, 1.5, 7.0, -7.0),
             lambda x: np.nan_to_num(x, nan=1.5, posinf=7.0, neginf=-7.0), SHAPES, FLOAT_DTYPES, -3, 3,
             sampler=_with_nonfinite, grad_shapes=[((2, 3),)],
             prim=lambda: _C.Primitive("NanToNum", {"nan": 1.5, "posinf": 7.0, "neginf": -7.0}),
             bad=[(lambda: _C.Primitive("NanToNum", {})(ms.Tensor([1, 2])), TypeError,
                   r"NanToNum: 'x' must be a floating-point")]),
    OpRecord("LogicalNot", ops.logical_not, np.logical_not, SHAPES, (ms.bool_,), exact=True,
             bad=[(lambda: ops.LogicalNot()(ms.Tensor([1.0])), TypeError,
                   r"LogicalNot: 'x' must have dtype in \[Bool\], but got Float32")]),
]
