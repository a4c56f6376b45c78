"""More elementwise math (ldexp ... divide/subtract), NaN-aware reductions, quantiles, aminmax, cov, trapz,
msort, the window functions and logspace: values against NumPy, gradients against finite differences,
compiled against eager, and bad arguments."""
import warnings

import numpy as np
import pytest

import sprout as ms
from sprout import ops

from finite_differences import check_grad

RNG = np.random.default_rng(11)


def T(a, dtype=np.float32):
    return ms.Tensor(np.asarray(a, dtype))


# ---- elementwise ---------------------------------------------------------------------------------------

def test_elementwise_match_numpy():
    a, b = RNG.standard_normal((3, 4)).astype(np.float32), RNG.standard_normal(4).astype(np.float32)
    np.testing.assert_allclose(ops.ldexp(T(a), T([1, -2, 3, 0], np.int32)).asnumpy(), np.ldexp(a, [1, -2, 3, 0]))
    np.testing.assert_allclose(ops.ldexp(T([1.0]), T([1.5])).asnumpy(), [2 ** 1.5], rtol=1e-6)
    np.testing.assert_array_equal(ops.copysign(T(a), T(b)).asnumpy(), np.copysign(a, b))
    np.testing.assert_array_equal(T([1, -2], np.int32).copysign(-1).asnumpy(), [-1.0, -2.0])
    np.testing.assert_array_equal(ops.signbit(T([-0.0, 1.0, -2.0, np.nan])).asnumpy(), [False, False, True, False])
    x = np.array([0.0, 0.5, -2.5, 1e-3, 3.3], np.float32)
    np.testing.assert_allclose(ops.sinc(T(x)).asnumpy(), np.sinc(x), rtol=1e-6, atol=1e-7)
    assert ops.sinc(T([0, 1], np.int32)).dtype == ms.float32
    power = ops.float_power(T([2, 3], np.int32), 0.5)
    assert power.dtype == ms.float64
    np.testing.assert_allclose(power.asnumpy(), np.float_power([2, 3], 0.5), rtol=1e-15)
    np.testing.assert_allclose(ops.logaddexp2(T(a), T(b)).asnumpy(), np.logaddexp2(a, b), rtol=1e-6)
    np.testing.assert_allclose(ops.logaddexp2(T([1e4]), T([1e4])).asnumpy(), [1e4 + 1])  # no overflow
    edges = ops.logaddexp2(T([np.inf, -np.inf, np.inf, np.nan]), T([np.inf, -np.inf, -np.inf, 1.0])).asnumpy()
    np.testing.assert_array_equal(edges, [np.inf, -np.inf, np.inf, np.nan])
    ties = ms.grad(lambda u, v: ops.logaddexp2(u, v).sum(), grad_position=(0, 1))(T([2.0]), T([2.0]))
    np.testing.assert_allclose([t.asnumpy()[0] for t in ties], [0.5, 0.5])
    p, q = np.array([1.0, np.nan, np.nan, -0.5], np.float32), np.array([np.nan, 2.0, np.nan, 3.0], np.float32)
    np.testing.assert_array_equal(ops.fmax(T(p), T(q)).asnumpy(), np.fmax(p, q))
    np.testing.assert_array_equal(T(p).fmin(T(q)).asnumpy(), np.fmin(p, q))
    np.testing.assert_array_equal(ops.fmax(T([1, 5], np.int32), T([3, 2], np.int32)).asnumpy(), [3, 5])
    np.testing.assert_array_equal(ops.xdivy(T([0.0, 1.0, 0.0, 3.0]), T([0.0, 0.0, np.nan, 2.0])).asnumpy(),
                                  [0.0, np.inf, 0.0, 1.5])
    np.testing.assert_array_equal(ops.sgn(T([-2.0, 0.0, 3.0])).asnumpy(), [-1.0, 0.0, 1.0])
    np.testing.assert_array_equal(ops.positive(T([1.0, -2.0])).asnumpy(), [1.0, -2.0])
    inf = T([-np.inf, np.inf, np.nan, 1.0])
    np.testing.assert_array_equal(ops.isneginf(inf).asnumpy(), [True, False, False, False])
    np.testing.assert_array_equal(inf.isposinf().asnumpy(), [False, True, False, False])
    np.testing.assert_array_equal(ops.isposinf(T([1, 2], np.int64)).asnumpy(), [False, False])
    np.testing.assert_array_equal(ops.isreal(inf).asnumpy(), [True] * 4)


def test_division_and_subtraction_variants():
    a, b = np.array([-7, 7, -6, 5, 0], np.int64), np.array([2, -2, 3, 2, -3], np.int64)
    np.testing.assert_array_equal(ops.divide(T(a, np.int64), T(b, np.int64), rounding_mode="trunc").asnumpy(),
                                  np.trunc(a / b).astype(np.int64))
    np.testing.assert_array_equal(ops.divide(T(a, np.int64), T(b, np.int64), rounding_mode="floor").asnumpy(),
                                  a // b)
    big = 2 ** 60 + 1  # beyond float precision: the integer path must stay exact
    np.testing.assert_array_equal(ops.divide(T([-big], np.int64), 3, rounding_mode="trunc").asnumpy(), [-(big // 3)])
    x, y = np.array([-7.5, 7.0]), np.array([2.0, -2.0])
    np.testing.assert_array_equal(T(x).divide(T(y), rounding_mode="trunc").asnumpy(), np.trunc(x / y))
    np.testing.assert_allclose(ops.divide(T(x), T(y)).asnumpy(), x / y)
    np.testing.assert_array_equal(ops.subtract(T([1, 2], np.int64), T([1, 1], np.int64), alpha=2).asnumpy(), [-1, 0])
    np.testing.assert_array_equal(T([1.0, 2.0]).subtract(1.0, alpha=0.5).asnumpy(), [0.5, 1.5])
    np.testing.assert_array_equal(ops.multiply(T([2.0]), T([3.0])).asnumpy(), [6.0])
    np.testing.assert_array_equal(ops.floordiv(T([-7.0]), T([2.0])).asnumpy(), [-4.0])
    np.testing.assert_array_equal(ops.floormod(T([-7.0]), T([2.0])).asnumpy(), [1.0])


@pytest.mark.parametrize("name, fn, arrays", [
    ("ldexp", lambda x, e: ops.ldexp(x, e), ([0.3, -1.2, 2.0], [1.0, -0.5, 2.0])),
    ("copysign", lambda x: ops.copysign(x, ms.Tensor(np.array([-1.0, 2.0, -3.0]))), ([0.3, -1.2, 2.0],)),
    ("sinc", ops.sinc, ([0.0, 0.3, -1.7],)),
    ("float_power", ops.float_power, ([0.3, 1.2, 2.0], [1.0, -0.5, 2.5])),
    ("logaddexp2", ops.logaddexp2, ([0.3, -1.2, 2.0], [1.0, -0.5, 2.0])),
    ("fmax", ops.fmax, ([0.3, -1.2, 2.0], [1.0, -1.5, 2.5])),
    ("xdivy", ops.xdivy, ([0.3, -1.2, 2.0], [1.0, -0.5, 2.0])),
    ("subtract", lambda x, y: ops.subtract(x, y, alpha=2.5), ([0.3, -1.2], [1.0, -0.5])),
])
def test_elementwise_gradients_match_finite_differences(name, fn, arrays):
    check_grad(fn, *[np.array(a) for a in arrays])


def test_sinc_gradient_at_zero_is_zero():
    assert ms.grad(lambda v: ops.sinc(v).sum())(T([0.0], np.float64)).asnumpy()[0] == 0.0


# ---- reductions and statistics ---------------------------------------------------------------------------

def with_nans(*shape):
    x = RNG.standard_normal(shape)
    x[RNG.random(shape) < 0.3] = np.nan
    return x


def test_nansum_and_nanmean_match_numpy():
    x = with_nans(3, 5)
    np.testing.assert_allclose(ops.nansum(T(x, np.float64)).asnumpy(), np.nansum(x))
    np.testing.assert_allclose(T(x, np.float64).nansum(axis=1, keepdims=True).asnumpy(),
                               np.nansum(x, 1, keepdims=True))
    np.testing.assert_allclose(ops.nanmean(T(x, np.float64), axis=(0, 1)).asnumpy(), np.nanmean(x))
    np.testing.assert_allclose(ops.nanmean(T(x, np.float64), 0).asnumpy(), np.nanmean(x, 0))
    assert np.isnan(ops.nanmean(T([np.nan, np.nan])).asnumpy())
    assert ops.nansum(T([1, 2], np.int32)).asnumpy() == 3
    assert ops.nansum(T([1, 2], np.int32), dtype=ms.float64).dtype == ms.float64
    check_grad(lambda v: ops.nansum(v, 1), np.array([[1.0, 2.0], [3.0, -1.0]]))
    check_grad(lambda v: ops.nanmean(v, 0), np.array([[1.0, 2.0], [3.0, -1.0]]))


def test_nanmedian_picks_the_lower_middle_of_the_numbers():
    x = np.array([[9, 3, 7, np.nan], [5, 2, 7, 4], [np.nan] * 4, [8, 1, 3, 6]], np.float32)
    values, indices = ops.nanmedian(T(x), axis=1)
    np.testing.assert_array_equal(values.asnumpy(), [7, 4, np.nan, 3])
    np.testing.assert_array_equal(indices.asnumpy(), [2, 3, 0, 2])
    assert indices.dtype == ms.int64
    values, indices = T(x).nanmedian(0, keepdims=True)
    assert values.shape == (1, 4)
    np.testing.assert_array_equal(values.asnumpy()[0], [8, 2, 7, 4])  # the last column: the lower of 4 and 6
    ints = ops.nanmedian(T([[3, 1, 2, 4]], np.int32))[0]
    np.testing.assert_array_equal(ints.asnumpy(), [2])
    check_grad(lambda v: ops.nanmedian(v, 1)[0], np.array([[1.0, 5.0, 3.0], [2.0, 0.5, 4.0]]))


@pytest.mark.parametrize("axis, keepdims", [(None, False), (None, True), (1, False), (0, True), (-1, True)])
def test_quantile_and_nanquantile_match_numpy(axis, keepdims):
    x = RNG.standard_normal((4, 5))
    q = np.array([0.0, 0.25, 0.6, 1.0])
    got = ops.quantile(T(x, np.float64), T(q, np.float64), axis=axis, keepdims=keepdims).asnumpy()
    np.testing.assert_allclose(got, np.quantile(x, q, axis=axis, keepdims=keepdims), rtol=1e-12)
    got = T(x, np.float64).quantile(0.3, axis=axis, keepdims=keepdims).asnumpy()
    np.testing.assert_allclose(got, np.quantile(x, 0.3, axis=axis, keepdims=keepdims), rtol=1e-12)
    x = with_nans(4, 5)
    x[0] = np.nan  # an all-NaN row
    with warnings.catch_warnings():  # NumPy warns of the all-NaN row
        warnings.simplefilter("ignore", RuntimeWarning)
        want = np.nanquantile(x, q, axis=axis, keepdims=keepdims)
    got = ops.nanquantile(T(x, np.float64), T(q, np.float64), axis=axis, keepdims=keepdims).asnumpy()
    np.testing.assert_allclose(got, want, rtol=1e-12)
    got = ops.quantile(T(x, np.float64), T(q, np.float64), axis=axis, keepdims=keepdims).asnumpy()
    np.testing.assert_allclose(got, np.quantile(x, q, axis=axis, keepdims=keepdims), rtol=1e-12)


def test_quantile_gradient_and_float32():
    check_grad(lambda v: ops.quantile(v, 0.35, axis=1), RNG.standard_normal((2, 5)))
    check_grad(lambda v: ops.nanquantile(v, ms.Tensor(np.array([0.2, 0.9])), axis=0), RNG.standard_normal((4, 2)))
    x = RNG.standard_normal(7).astype(np.float32)
    np.testing.assert_allclose(ops.quantile(T(x), 0.4).asnumpy(), np.quantile(x, 0.4), rtol=1e-6)
    assert np.isnan(ops.quantile(T([1.0, 2.0]), T([1.5])).asnumpy()[0])  # out of [0, 1] in a tensor: NaN


def test_aminmax_msort_and_trapz():
    x = RNG.standard_normal((3, 4)).astype(np.float32)
    low, high = ops.aminmax(T(x))
    np.testing.assert_array_equal(low.asnumpy(), x.min(0))
    np.testing.assert_array_equal(high.asnumpy(), x.max(0))
    low, high = T(x).aminmax(axis=None, keepdims=True)
    assert low.shape == (1, 1) and low.asnumpy() == x.min() and high.asnumpy() == x.max()
    low, high = ops.aminmax(T(x), axis=-1, keepdims=True)
    np.testing.assert_array_equal(high.asnumpy(), x.max(-1, keepdims=True))
    np.testing.assert_array_equal(ops.msort(T(x)).asnumpy(), np.sort(x, 0))
    np.testing.assert_array_equal(T([[3, 1], [1, 2]], np.int64).msort().asnumpy(), [[1, 1], [3, 2]])
    y, pts = RNG.standard_normal((3, 4)), np.array([0.0, 0.5, 2.0, 2.5])
    np.testing.assert_allclose(ops.trapz(T(y, np.float64)).asnumpy(), np.trapezoid(y))
    np.testing.assert_allclose(ops.trapz(T(y, np.float64), dx=0.3, dim=0).asnumpy(), np.trapezoid(y, dx=0.3, axis=0))
    np.testing.assert_allclose(ops.trapz(T(y, np.float64), T(pts, np.float64)).asnumpy(), np.trapezoid(y, pts))
    full = RNG.random((3, 4)).cumsum(0)
    np.testing.assert_allclose(ops.trapz(T(y, np.float64), T(full, np.float64), dim=0).asnumpy(),
                               np.trapezoid(y, full, axis=0))
    check_grad(lambda v, p: ops.trapz(v, p), y[:2], pts)
    check_grad(lambda v: ops.aminmax(v, axis=1)[1], y)


def test_cov_matches_numpy():
    x = RNG.standard_normal((3, 6))
    f, a = np.array([1, 2, 1, 3, 1, 2]), RNG.random(6) + 0.1
    np.testing.assert_allclose(ops.cov(T(x, np.float64)).asnumpy(), np.cov(x))
    np.testing.assert_allclose(T(x, np.float64).cov(correction=0).asnumpy(), np.cov(x, ddof=0))
    np.testing.assert_allclose(ops.cov(T(x, np.float64), fweights=T(f, np.int64)).asnumpy(), np.cov(x, fweights=f))
    np.testing.assert_allclose(ops.cov(T(x, np.float64), aweights=T(a, np.float64)).asnumpy(), np.cov(x, aweights=a))
    np.testing.assert_allclose(ops.cov(T(x, np.float64), correction=2, fweights=T(f, np.int64),
                                       aweights=T(a, np.float64)).asnumpy(),
                               np.cov(x, ddof=2, fweights=f, aweights=a))
    one = ops.cov(T([1.0, 2.0, 4.0]))
    assert one.shape == () and abs(float(one.asnumpy()) - np.var([1, 2, 4], ddof=1)) < 1e-6
    check_grad(lambda v: ops.cov(v, aweights=ms.Tensor(a)), x)


# ---- windows and logspace ------------------------------------------------------------------------------

@pytest.mark.parametrize("name, reference", [
    ("hann_window", np.hanning), ("hamming_window", np.hamming), ("blackman_window", np.blackman),
    ("bartlett_window", np.bartlett), ("kaiser_window", lambda n: np.kaiser(n, 12.0))])
def test_windows_match_numpy(name, reference):
    window = getattr(ops, name)
    np.testing.assert_allclose(window(7, False, dtype=ms.float64).asnumpy(), reference(7), atol=1e-14)
    periodic = window(8)  # periodic: the first 8 samples of a symmetric window of 9
    assert periodic.dtype == ms.float32
    np.testing.assert_allclose(periodic.asnumpy(), reference(9)[:8], rtol=1e-6, atol=1e-7)
    np.testing.assert_array_equal(window(1).asnumpy(), [1.0])
    assert window(0).shape == (0,)
    assert window(ms.Tensor(4), dtype=ms.float16).dtype == ms.float16


def test_window_parameters():
    np.testing.assert_allclose(ops.hamming_window(6, False, alpha=0.5, beta=0.5, dtype=ms.float64).asnumpy(),
                               np.hanning(6), atol=1e-15)
    np.testing.assert_allclose(ops.kaiser_window(6, False, beta=3.5, dtype=ms.float64).asnumpy(), np.kaiser(6, 3.5),
                               rtol=1e-13)


def test_logspace_matches_numpy():
    np.testing.assert_allclose(ops.logspace(0, 2, 3).asnumpy(), [1, 10, 100], rtol=1e-6)
    got = ops.logspace(ms.Tensor(0.5), ms.Tensor(-1.5), 5, base=2, dtype=ms.float64)
    np.testing.assert_allclose(got.asnumpy(), np.logspace(0.5, -1.5, 5, base=2), rtol=1e-15)
    np.testing.assert_allclose(ops.logspace(1.0, 3.0, 1).asnumpy(), [10.0])
    assert ops.logspace(1.0, 3.0, 0).shape == (0,)


# ---- compiled --------------------------------------------------------------------------------------------

def test_compiled_match_eager():
    def body(x, y):
        low, high = ops.aminmax(x, axis=1)
        return (ops.fmax(x, y) * ops.sinc(x) + ops.ldexp(x, y) - ops.xdivy(x, y).sum()
                + ops.nansum(x, 0) + ops.quantile(x, 0.3, axis=0) + ops.nanmedian(x, 0)[0] + ops.trapz(x, dim=0)
                + ops.cov(x)[0, 0] + low.sum() + high.sum() + ops.divide(x, y, rounding_mode="trunc")
                + ops.hann_window(4) + ops.logspace(0, 1, 4))

    x, y = T(RNG.standard_normal((3, 4))), T(RNG.standard_normal((3, 4)) + 3)
    np.testing.assert_allclose(ms.jit(body)(x, y).asnumpy(), body(x, y).asnumpy(), rtol=1e-5, atol=1e-6)
    grad = ms.grad(lambda a, b: body(a, b).sum(), grad_position=(0, 1))
    for compiled, eager in zip(ms.jit(grad)(x, y), grad(x, y)):
        np.testing.assert_allclose(compiled.asnumpy(), eager.asnumpy(), rtol=1e-5, atol=1e-6)


# ---- bad arguments ---------------------------------------------------------------------------------------

def test_bad_arguments():
    x = T([[1.0, 2.0], [3.0, 4.0]])
    cases = [
        (TypeError, "ldexp: 'x' or 'other' must be a Tensor", lambda: ops.ldexp(1.0, 2)),
        (TypeError, "copysign: 'other' must be a Tensor or a number", lambda: ops.copysign(x, "a")),
        (TypeError, "sinc: 'input' must be a Tensor", lambda: ops.sinc([1.0])),
        (TypeError, "float_power: 'input' or 'exponent' must be a Tensor", lambda: ops.float_power(2, 3)),
        (ValueError, "divide: 'rounding_mode' must be None, 'floor' or 'trunc'",
         lambda: ops.divide(x, x, rounding_mode="round")),
        (TypeError, "subtract: 'alpha' must be a number", lambda: ops.subtract(x, x, alpha="2")),
        (TypeError, "nansum: 'axis' must be None, an int or a tuple of ints", lambda: ops.nansum(x, axis=1.0)),
        (ValueError, "nansum: 'axis' 2 is out of range", lambda: ops.nansum(x, axis=2)),
        (TypeError, "nansum: 'dtype' must be a sprout dtype", lambda: ops.nansum(x, dtype="f")),
        (TypeError, "nanmean: 'input' must be a floating-point tensor", lambda: ops.nanmean(T([1, 2], np.int32))),
        (ValueError, "nanmedian: 'axis' must be", lambda: ops.nanmedian(x, 3)),
        (TypeError, "nanmedian: 'input' must be a Tensor", lambda: ops.nanmedian([1.0])),
        (ValueError, "quantile: 'q' must be in \\[0, 1\\]", lambda: ops.quantile(x, 1.5)),
        (TypeError, "quantile: 'q' must have the dtype of 'input'", lambda: ops.quantile(x, T([0.5], np.float64))),
        (TypeError, "nanquantile: 'input' must be a float32 or float64 tensor",
         lambda: ops.nanquantile(T([1.0], np.float16), 0.5)),
        (TypeError, "quantile: 'q' must be a float or a Tensor", lambda: ops.quantile(x, "0.5")),
        (ValueError, "aminmax: 'axis' must be", lambda: ops.aminmax(x, axis=5)),
        (ValueError, "cov: 'input' must be 0-d, 1-d or 2-d", lambda: ops.cov(T(np.ones((2, 2, 2))))),
        (TypeError, "cov: 'fweights' must be an integer tensor", lambda: ops.cov(x, fweights=T([1.0, 2.0]))),
        (TypeError, "cov: 'aweights' must be a floating-point tensor",
         lambda: ops.cov(x, aweights=T([1, 2], np.int32))),
        (ValueError, "cov: 'aweights' must be a scalar or 1-d tensor of 2 elements",
         lambda: ops.cov(x, aweights=T([1.0, 2.0, 3.0]))),
        (ValueError, "trapz: a 1-d 'x' must have y.shape\\[dim\\] = 2 elements", lambda: ops.trapz(x, T([1.0]))),
        (ValueError, "trapz: 'dim' must be", lambda: ops.trapz(x, dim=2)),
        (TypeError, "trapz: 'dx' must be a number", lambda: ops.trapz(x, dx="1")),
        (TypeError, "msort: 'input' must be a Tensor", lambda: ops.msort([1, 2])),
        (TypeError, "hann_window: 'window_length' must be an int", lambda: ops.hann_window(4.0)),
        (ValueError, "hamming_window: 'window_length' must be >= 0", lambda: ops.hamming_window(-1)),
        (TypeError, "blackman_window: 'periodic' must be a bool", lambda: ops.blackman_window(4, 1)),
        (TypeError, "bartlett_window: 'dtype' must be a floating-point dtype",
         lambda: ops.bartlett_window(4, dtype=ms.int32)),
        (TypeError, "kaiser_window: 'beta' must be a number", lambda: ops.kaiser_window(4, beta=None)),
        (TypeError, "logspace: 'steps' must be an int", lambda: ops.logspace(0, 1, 2.0)),
        (TypeError, "logspace: 'dtype' must be a floating-point dtype", lambda: ops.logspace(0, 1, 2, dtype=ms.int32)),
        (ValueError, "logspace: 'start' must be a number or a Tensor of one element",
         lambda: ops.logspace(T([0.0, 1.0]), 1, 2)),
    ]
    for error, message, call in cases:
        with pytest.raises(error, match=message):
            call()
