"""The activations of ops/function/nn_activation_more_func.py and nn/layer/activation_more.py against NumPy
(float64), with gradients against finite differences, under ms.jit, and with bad arguments."""
import numpy as np
import pytest

import sprout as ms
from sprout import ops
from sprout.nn import (CELU, GLU, HShrink, Hardtanh, LogSigmoid, SELU, SoftShrink, Softmin, Softsign, Tanhshrink,
                       Threshold)

from finite_differences import numeric_grad

T = ms.Tensor
RNG = np.random.default_rng(3)
X = RNG.standard_normal((3, 4, 6)) * 2


def check(got, expected):
    np.testing.assert_allclose(got.asnumpy(), expected, rtol=1e-12, atol=1e-14)


def np_softmin(x, axis):
    e = np.exp(-x - (-x).max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def np_softshrink(x, lambd):
    return np.where(x > lambd, x - lambd, np.where(x < -lambd, x + lambd, 0.0))


def np_celu(x, alpha):
    return np.where(x > 0, x, alpha * np.expm1(x / alpha))


SELU_ALPHA, SELU_SCALE = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946


# Functional forms.

@pytest.mark.parametrize("axis", [-1, 0, 1, (0, 2), (1,), (-1, -2, 0)])
def test_softmin(axis):
    check(ops.softmin(T(X), axis), np_softmin(X, axis))
    got = ops.softmin(T(X, ms.float32), axis, dtype=ms.float64)
    assert got.dtype == ms.float64
    check(got, np_softmin(X.astype(np.float32).astype(np.float64), axis))
    assert ops.softmin(T(X, ms.float32), axis).dtype == ms.float32


@pytest.mark.parametrize("lambd", [0.5, 0.0, 1.7, 2])
def test_softshrink_and_hardshrink(lambd):
    check(ops.softshrink(T(X), lambd), np_softshrink(X, lambd))
    check(ops.hardshrink(T(X), lambd), np.where(np.abs(X) > lambd, X, 0.0))
    check(ops.softshrink(T(X)), np_softshrink(X, 0.5))
    check(ops.hardshrink(T(X)), np.where(np.abs(X) > 0.5, X, 0.0))


def test_tanhshrink_and_threshold():
    check(ops.tanhshrink(T(X)), X - np.tanh(X))
    check(ops.threshold(T(X), 0.3, -7), np.where(X > 0.3, X, -7.0))
    check(ops.threshold(T(X), -1, 2.5), np.where(X > -1, X, 2.5))
    assert ops.threshold(T([0.0, 2, 3]), 1, 100).asnumpy().tolist() == [100.0, 2.0, 3.0]  # MindSpore's example


# The cells, against NumPy.

@pytest.mark.parametrize("alpha", [1.0, 0.5, 3])
def test_activation_cells_match_numpy(alpha):
    x = T(X)
    a, b = X[..., :3], X[..., 3:]
    cases = [
        (SELU()(x), SELU_SCALE * np.where(X > 0, X, SELU_ALPHA * np.expm1(X))),
        (CELU(alpha)(x), np_celu(X, alpha)),
        (Softsign()(x), X / (1 + np.abs(X))),
        (Hardtanh()(x), np.clip(X, -1.0, 1.0)),
        (Hardtanh(-alpha, alpha / 2)(x), np.clip(X, -alpha, alpha / 2)),
        (LogSigmoid()(x), -np.logaddexp(0.0, -X)),
        (GLU()(x), a / (1 + np.exp(-b))),
        (GLU(axis=1)(x), X[:, :2] / (1 + np.exp(-X[:, 2:]))),
        (Softmin()(x), np_softmin(X, -1)),
        (Softmin(axis=(0, 1))(x), np_softmin(X, (0, 1))),
        (Tanhshrink()(x), X - np.tanh(X)),
        (SoftShrink(alpha)(x), np_softshrink(X, alpha)),
        (SoftShrink()(x), np_softshrink(X, 0.5)),
        (HShrink(alpha)(x), np.where(np.abs(X) > alpha, X, 0.0)),
        (HShrink()(x), np.where(np.abs(X) > 0.5, X, 0.0)),
        (Threshold(alpha, -alpha)(x), np.where(X > alpha, X, -alpha)),
    ]
    for got, expected in cases:
        assert got.dtype == ms.float64
        check(got, expected)


def test_mindspore_doc_examples():
    x16 = T([[0.5297, 0.7871, 1.1754], [0.7836, 0.6218, -1.1542]], ms.float32)
    np.testing.assert_allclose(SoftShrink()(x16).asnumpy(), [[0.0297, 0.2871, 0.6754], [0.2836, 0.1218, -0.6542]],
                               atol=1e-6)
    np.testing.assert_allclose(Softmin()(T([-1., -2, 0, 2, 1], ms.float32)).asnumpy(),
                               [0.2341, 0.636, 0.0862, 0.01165, 0.03168], rtol=2e-3)
    np.testing.assert_allclose(Tanhshrink()(T([1., 2, 3, 2, 1], ms.float32)).asnumpy(),
                               [0.2383, 1.036, 2.004, 1.036, 0.2383], rtol=2e-3)
    np.testing.assert_allclose(Threshold(0.1, 20)(T([0.1, 0.2, 0.3], ms.float32)).asnumpy(), [20, 0.2, 0.3],
                               rtol=1e-6)


# Gradients against central finite differences (inputs kept off the kinks of the shrinks and threshold).

@pytest.mark.parametrize("name,fn", [
    ("softmin", lambda x: ops.softmin(x, 1)),
    ("softmin_tuple", lambda x: ops.softmin(x, (0, 2))),
    ("softshrink", lambda x: ops.softshrink(x, 0.5)),
    ("hardshrink", lambda x: ops.hardshrink(x, 0.5)),
    ("tanhshrink", ops.tanhshrink),
    ("threshold", lambda x: ops.threshold(x, 0.25, 3.0)),
    ("SELU", SELU()),
    ("CELU", CELU(0.7)),
    ("Softsign", Softsign()),
    ("LogSigmoid", LogSigmoid()),
    ("GLU", GLU(axis=1)),
    ("Hardtanh", Hardtanh(-0.5, 2.0)),
])
def test_gradients_match_finite_differences(name, fn):
    x0 = X[:, :, :4].copy()
    for kink in (0.5, -0.5, 0.25, 0.0, 2.0):  # move points within 1e-3 of a kink away from it
        near = np.abs(x0 - kink) < 1e-3
        x0[near] += 0.01
    weights = RNG.standard_normal(fn(T(x0)).shape)  # a weighted sum: softmin's rows sum to a constant
    loss = lambda x: (fn(x) * T(weights)).sum()  # noqa: E731
    got = ms.grad(loss, grad_position=0)(T(x0))
    np.testing.assert_allclose(got.asnumpy(), numeric_grad(lambda v: loss(T(v)).item(), x0), rtol=1e-6, atol=1e-8,
                               err_msg=name)


# Graph mode.

def test_activations_under_jit_match_eager():
    cells = [SELU(), CELU(0.5), Softsign(), Hardtanh(-0.7, 0.9), LogSigmoid(), GLU(axis=1), Softmin(axis=(0, 2)),
             Tanhshrink(), SoftShrink(0.3), HShrink(0.4), Threshold(0.1, -2)]

    def run(x):
        out = ops.softmin(x, 0) + ops.threshold(x, 0.2, 1.0)
        for cell in cells:
            y = cell(x)
            out = out + (y if y.shape == x.shape else ops.tile(y, (1, 2, 1)))
        return out

    x = T(X)
    np.testing.assert_allclose(ms.jit(run)(x).asnumpy(), run(x).asnumpy(), rtol=1e-12, atol=1e-14)
    grad_fn = ms.grad(lambda v: (run(v) * v).sum())
    np.testing.assert_allclose(ms.jit(lambda v: grad_fn(v))(x).asnumpy(), grad_fn(x).asnumpy(), rtol=1e-12,
                               atol=1e-14)


# Bad arguments: the named exception, with the API and the argument in the message.

def test_bad_arguments_raise_named_errors():
    x = T(X)
    cases = [
        (lambda: ops.softmin(X), TypeError, "softmin: 'x' must be a Tensor"),
        (lambda: ops.softmin(T(np.ones(3), ms.int32)), TypeError, "softmin: 'x' must be a floating-point tensor"),
        (lambda: ops.softmin(x, 1.0), TypeError, "softmin: 'axis' must be an int"),
        (lambda: ops.softmin(x, 3), ValueError, r"softmin: 'axis' must be in \[-3, 3\)"),
        (lambda: ops.softmin(x, (0, -4)), ValueError, "softmin: 'axis' must be in"),
        (lambda: ops.softmin(x, ()), ValueError, "softmin: a tuple 'axis' must not be empty"),
        (lambda: ops.softshrink(x, -0.1), ValueError, "softshrink: 'lambd' must be >= 0"),
        (lambda: ops.softshrink(x, "0.5"), TypeError, "softshrink: 'lambd' must be a float"),
        (lambda: ops.softshrink([1.0]), TypeError, "softshrink: 'x' must be a Tensor"),
        (lambda: ops.hardshrink(x, None), TypeError, "hardshrink: 'lambd' must be a float"),
        (lambda: ops.tanhshrink(T(np.ones(2), ms.int64)), TypeError,
         "tanhshrink: 'input' must be a floating-point tensor"),
        (lambda: ops.threshold(x, "1", 0), TypeError, "threshold: 'thr' must be an int or a float"),
        (lambda: ops.threshold(x, 1, True), TypeError, "threshold: 'value' must be an int or a float"),
        (lambda: ops.threshold(1.0, 1, 0), TypeError, "threshold: 'input' must be a Tensor"),
        (lambda: CELU(0), ValueError, "CELU: 'alpha' must not be 0"),
        (lambda: CELU("1"), TypeError, "CELU: 'alpha' must be an int or a float"),
        (lambda: Hardtanh(1.0, -1.0), ValueError, "Hardtanh: 'min_val' must not exceed 'max_val'"),
        (lambda: Hardtanh(max_val=None), TypeError, "Hardtanh: 'max_val' must be an int or a float"),
        (lambda: GLU(axis=0.5), TypeError, "GLU: 'axis' must be an int"),
        (lambda: GLU(axis=1)(T(np.ones((2, 3)))), ValueError, "glu: dimension 1 of 'x' must be even"),
        (lambda: Softmin(axis=5)(x), ValueError, "softmin: 'axis' must be in"),
        (lambda: SoftShrink(-1), ValueError, "SoftShrink: 'lambd' must be >= 0"),
        (lambda: HShrink([0.5]), TypeError, "HShrink: 'lambd' must be an int or a float"),
        (lambda: Threshold(0.1, "x"), TypeError, "Threshold: 'value' must be an int or a float"),
        (lambda: SELU()(X), TypeError, "selu: 'input_x' must be a Tensor"),
    ]
    for fn, exc, match in cases:
        with pytest.raises(exc, match=match):
            fn()
