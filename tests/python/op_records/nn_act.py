"""Records of the activations, Softmax and LogSoftmax."""
import math

import numpy as np

import sprout as ms
from sprout import _C, ops
from op_records.record import FLOAT_DTYPES, OpRecord

SHAPES = [((2, 3),), ((),), ((0, 4),), ((7, 33),), ((3, 1, 5),)]
_erf = np.vectorize(math.erf, otypes=[np.float64])


def _sigmoid(x):
    return 0.5 * (1 + np.tanh(0.5 * x))


def _softplus(x):
    return np.maximum(x, 0) + np.log1p(np.exp(-np.abs(x)))


def _gelu_tanh(x):
    return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))


def _not_float(op, call):
    return (lambda: call(ms.Tensor([1, 2], ms.int32)), TypeError, rf"(?i){op}: '\w+' must be a floating-point tensor")


def _act(op, call, ref, dtypes=FLOAT_DTYPES, attrs=None, low=-4.0, high=4.0, bad=(), **kw):
    return OpRecord(op, call, ref, SHAPES, dtypes, low, high, prim=lambda: _C.Primitive(op, attrs or {}),
                    grad_shapes=[((2, 3),), ((4,),)], bad=[_not_float(op, call)] + list(bad), **kw)


_INTS = (ms.int8, ms.int32, ms.int64, ms.uint8)

RECORDS = [
    OpRecord("ReLU", ops.relu, lambda x: np.maximum(x, 0), SHAPES, FLOAT_DTYPES + _INTS, prim=lambda: _C.Primitive("ReLU"),
             grad_shapes=[((2, 3),)],
             bad=[(lambda: ops.relu(ms.Tensor([True])), TypeError, r"ReLU: 'input_x' must have dtype in"),
                  (lambda: ops.relu([1.0]), TypeError, r"relu: 'input' must be a Tensor")]),
    OpRecord("ReLU6", ops.relu6, lambda x: np.clip(x, 0, 6), SHAPES, FLOAT_DTYPES + _INTS, low=-3, high=9,
             prim=lambda: _C.Primitive("ReLU6"), grad_shapes=[((3, 4),)],
             bad=[(lambda: ops.relu6(ms.Tensor([True])), TypeError, r"ReLU6: 'x' must have dtype in")]),
    _act("LeakyReLU", lambda x: ops.leaky_relu(x, 0.1), lambda x: np.where(x > 0, x, 0.1 * x), attrs={"alpha": 0.1},
         bad=[(lambda: ops.leaky_relu(ms.Tensor([1.0]), "a"), TypeError, r"leaky_relu: 'alpha' must be a float")]),
    _act("LeakyReLU", ops.leaky_relu, lambda x: np.where(x > 0, x, 0.2 * x)),
    _act("Elu", ops.elu, lambda x: np.where(x > 0, x, np.expm1(x))),
    _act("Elu", lambda x: ops.elu(x, 0.5), lambda x: np.where(x > 0, x, 0.5 * np.expm1(x)), attrs={"alpha": 0.5}),
    _act("GeLU", ops.gelu, lambda x: 0.5 * x * (1 + _erf(x / math.sqrt(2))), attrs={"approximate": "none"},
         bad=[(lambda: ops.gelu(ms.Tensor([1.0]), "fast"), ValueError, r"gelu: 'approximate' must be 'none' or 'tanh'"),
              (lambda: ops.GeLU(approximate="fast")(ms.Tensor([1.0])), ValueError,
               r"GeLU: 'approximate' must be 'none' or 'tanh', but got 'fast'")]),
    _act("GeLU", lambda x: ops.gelu(x, approximate="tanh"), _gelu_tanh, tol={ms.float32: (4e-6, 2e-6)}),
    _act("GeLU", lambda x: ops.GeLU()(x), _gelu_tanh, tol={ms.float32: (4e-6, 2e-6)}),
    _act("SiLU", ops.silu, lambda x: x * _sigmoid(x)),
    _act("Mish", ops.mish, lambda x: x * np.tanh(_softplus(x)), tol={ms.float32: (4e-6, 2e-6)}),
    _act("HSwish", ops.hardswish, lambda x: x * np.clip(x + 3, 0, 6) / 6),
    _act("HSigmoid", ops.hardsigmoid, lambda x: np.clip(x + 3, 0, 6) / 6),
    _act("Sigmoid", ops.sigmoid, _sigmoid, low=-10, high=10),
    _act("Softplus", ops.softplus, _softplus, low=-10, high=10),
    _act("Softplus", lambda x: ops.softplus(x, beta=2, threshold=3),
         lambda x: np.where(2 * x > 3, x, _softplus(2 * x) / 2), attrs={}, tol={ms.float16: (4e-3, 4e-3)}),
]


def _softmax_ref(axis):
    def ref(x):
        if x.ndim == 0:
            return np.ones_like(x)
        e = np.exp(x - x.max(axis=axis, keepdims=True)) if x.size else x
        return e / e.sum(axis=axis, keepdims=True) if x.size else x
    return ref


def _log_softmax_ref(axis):
    def ref(x):
        if x.ndim == 0:
            return np.zeros_like(x)
        if not x.size:
            return x
        m = x.max(axis=axis, keepdims=True)
        return x - m - np.log(np.exp(x - m).sum(axis=axis, keepdims=True))
    return ref


SOFTMAX_SHAPES = [((2, 5),), ((),), ((0, 3),), ((3, 700),), ((2, 3, 600),), ((4, 1),), ((500, 7),)]
SOFTMAX_BAD = [
    (lambda: ops.Softmax(axis=(0, 1))(ms.Tensor(np.ones((2, 3)))), ValueError, r"Softmax: 'axis' must name exactly one axis"),
    (lambda: ops.softmax(ms.Tensor(np.ones((2, 3))), 2), ValueError, r"Softmax: 'axis' must be in \[-2, 1\]"),
    (lambda: ops.softmax(ms.Tensor([1, 2])), TypeError, r"Softmax: 'logits' must be a floating-point tensor"),
    (lambda: ops.log_softmax(ms.Tensor(np.ones((2, 3))), -3), ValueError, r"LogSoftmax: 'axis' must be in \[-2, 1\]"),
]

for _axis in (-1, 0, 1):
    RECORDS.append(OpRecord("Softmax", lambda x, a=_axis: ops.softmax(x, a) if x.ndim > abs(a) or a == -1 else ops.softmax(x),
                            _softmax_ref(_axis), SOFTMAX_SHAPES if _axis == -1 else [((3, 4, 5),), ((2, 700, 3),)],
                            low=-30, high=30, prim=lambda a=_axis: _C.Primitive("Softmax", {"axis": (a,)}),
                            grad_shapes=[((3, 4, 2),)], bad=SOFTMAX_BAD, tol={ms.float32: (1e-5, 1e-7)}))
    RECORDS.append(OpRecord("LogSoftmax", lambda x, a=_axis: ops.log_softmax(x, a) if x.ndim > abs(a) or a == -1
                            else ops.log_softmax(x), _log_softmax_ref(_axis),
                            SOFTMAX_SHAPES if _axis == -1 else [((3, 4, 5),), ((2, 700, 3),)],
                            low=-30, high=30, prim=lambda a=_axis: _C.Primitive("LogSoftmax", {"axis": a}),
                            grad_shapes=[((3, 4, 2),)], tol={ms.float32: (1e-5, 1e-5), ms.float16: (4e-3, 2e-2),
                                                             ms.bfloat16: (2e-2, 0.25)}))


def _gelu_prime(x):
    return 0.5 * (1 + _erf(x / math.sqrt(2))) + x * np.exp(-0.5 * x * x) / math.sqrt(2 * math.pi)


def _gelu_tanh_prime(x):
    k, c = 2 * math.sqrt(2 / math.pi), 0.044715
    s = _sigmoid(k * (x + c * x ** 3))
    return s + x * s * (1 - s) * k * (1 + 3 * c * x * x)


def _silu_prime(x):
    s = _sigmoid(x)
    return s * (1 + x * (1 - s))


_GRAD_SHAPES = [((2, 3), (2, 3)), ((), ()), ((0, 4), (0, 4)), ((7, 33), (7, 33))]
_GRAD_BAD = [(lambda: ops.ReluGrad()(ms.Tensor(np.ones(3)), ms.Tensor(np.ones(4))), ValueError,
              r"ReluGrad: 'y_backprop' and 'x' must have the same dtype and shape"),
             (lambda: ops.SiLUGrad()(ms.Tensor([1, 2]), ms.Tensor([1, 2])), TypeError,
              r"SiLUGrad: 'dout' must be a floating-point tensor"),
             (lambda: ops.GeLUGrad(approximate="x")(ms.Tensor([1.0]), ms.Tensor([1.0])), ValueError,
              r"GeLUGrad: 'approximate' must be 'none' or 'tanh'")]
for _op, _ref, _attrs in [("ReluGrad", lambda d, x: d * (x > 0), {}),
                          ("GeLUGrad", lambda d, x: d * _gelu_prime(x), {"approximate": "none"}),
                          ("GeLUGrad", lambda d, x: d * _gelu_tanh_prime(x), {"approximate": "tanh"}),
                          ("SiLUGrad", lambda d, x: d * _silu_prime(x), {}),
                          ("SigmoidGrad", lambda y, d: d * y * (1 - y), {})]:
    RECORDS.append(OpRecord(_op, lambda d, x, o=_op, a=_attrs: getattr(ops, o)(**a)(d, x), _ref, _GRAD_SHAPES,
                            low=-4, high=4, prim=lambda o=_op, a=_attrs: _C.Primitive(o, a),
                            grad_shapes=[((2, 3), (2, 3))], bad=_GRAD_BAD, tol={ms.float32: (1e-5, 2e-6)}))


# The softmax gradients as ops of their own (their forward ops' rules emit them); y and dy need not come from
# a forward call: the formulas hold for any values, and the gradient check runs their second-order rules.
SOFTMAX_GRAD_SHAPES = [((2, 5), (2, 5)), ((0, 3), (0, 3)), ((3, 700), (3, 700)), ((500, 7), (500, 7))]
SOFTMAX_GRAD_BAD = [
    (lambda: ops.SoftmaxGrad(axis=(-1,))(ms.Tensor(np.ones((2, 3))), ms.Tensor(np.ones((2, 4)))), ValueError,
     r"SoftmaxGrad: 'dy' must have the shape and dtype of 'y' \(2, 3\) Float64, but got \(2, 4\) Float64"),
    (lambda: ops.LogSoftmaxGrad(axis=2)(ms.Tensor(np.ones((2, 3))), ms.Tensor(np.ones((2, 3)))), ValueError,
     r"LogSoftmaxGrad: 'axis' must be in \[-2, 1\]"),
]
for _axis in (-1, 1):
    _shapes = SOFTMAX_GRAD_SHAPES if _axis == -1 else [((3, 4, 5), (3, 4, 5)), ((2, 700, 3), (2, 700, 3))]
    RECORDS.append(OpRecord("SoftmaxGrad", lambda y, d, a=_axis: ops.SoftmaxGrad(axis=(a,))(y, d),
                            lambda y, d, a=_axis: (d - (d * y).sum(a, keepdims=True)) * y, _shapes,
                            prim=lambda a=_axis: _C.Primitive("SoftmaxGrad", {"axis": (a,)}),
                            grad_shapes=[((3, 4, 2), (3, 4, 2))], bad=SOFTMAX_GRAD_BAD,
                            tol={ms.float32: (1e-5, 1e-5), ms.float16: (4e-3, 2e-2), ms.bfloat16: (2e-2, 0.25)}))
    RECORDS.append(OpRecord("LogSoftmaxGrad", lambda y, d, a=_axis: ops.LogSoftmaxGrad(axis=a)(y, d),
                            lambda y, d, a=_axis: d - np.exp(y) * d.sum(a, keepdims=True), _shapes,
                            prim=lambda a=_axis: _C.Primitive("LogSoftmaxGrad", {"axis": a}),
                            grad_shapes=[((3, 4, 2), (3, 4, 2))], bad=SOFTMAX_GRAD_BAD,
                            tol={ms.float32: (1e-5, 1e-4), ms.float16: (4e-3, 5e-2), ms.bfloat16: (2e-2, 0.5)}))
