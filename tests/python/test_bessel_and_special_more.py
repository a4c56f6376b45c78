"""The Bessel functions (ops.bessel_*), ops.zeta, nextafter, population_count, truncate_div/truncate_mod,
Betainc and the math Primitive classes over functional ops: values against float64 references computed here
(the Bessel functions and the incomplete beta by numerical integration of their integral representations,
zeta by its series), MindSpore 2.10's values at the edges, gradients, bad inputs and compiled code."""
import math

import numpy as np
import pytest

import sprout as ms
from sprout import ops
from finite_differences import check_grad


def t(values, dtype=np.float32):
    return ms.Tensor(np.asarray(values, dtype))


# ---- float64 references ---------------------------------------------------------------------------------

def _trapezoid_periodic(f, n=4000):
    """(1/pi) integral over [0, pi] of f(tau), f smooth and even-periodic: the trapezoid rule is exact to
    rounding once n exceeds the integrand's bandwidth."""
    tau = np.linspace(0, np.pi, n + 1)
    w = np.full(n + 1, 1.0)
    w[0] = w[-1] = 0.5
    return (f(tau[:, None]) * w[:, None]).sum(0) / n


def _simpson(f, upper, n=200000):
    s = np.linspace(0, upper, n + 1)
    w = np.ones(n + 1)
    w[1:-1:2], w[2:-1:2] = 4, 2
    return (f(s[:, None]) * w[:, None]).sum(0) * (upper / n) / 3


def reference(name, x):
    x = np.asarray(x, np.float64)
    order = int(name[1])
    kind = name[0]
    scaled = name.endswith("e")
    if kind == "j":
        return _trapezoid_periodic(lambda tau: np.cos(order * tau - x * np.sin(tau)))
    if kind == "i":
        value = _trapezoid_periodic(lambda tau: np.exp(np.abs(x) * (np.cos(tau) - 1)) * np.cos(order * tau))
        value = value * np.sign(x) ** order
        return value if scaled else value * np.exp(np.abs(x))
    if kind == "k":
        # K_n(x) = integral over [0, inf) of e^(-x cosh s) cosh(n s) ds: even in s, decaying doubly
        # exponentially, so the trapezoid rule with half a weight at 0 converges exponentially.
        h, s = 1e-3, np.arange(0, 12, 1e-3)
        w = np.full(s.shape, h)
        w[0] = h / 2
        value = (np.exp(-x * (np.cosh(s[:, None]) - 1)) * np.cosh(order * s[:, None]) * w[:, None]).sum(0)
        return value if scaled else value * np.exp(-x)
    if kind == "y":
        first = _simpson(lambda tau: np.sin(x * np.sin(tau) - order * tau), np.pi, n=20000) / np.pi
        second = _simpson(lambda s: (np.exp(order * s) + (-1) ** order * np.exp(-order * s)) * np.exp(-x * np.sinh(s)),
                          12.0) / np.pi
        return first - second
    raise AssertionError(name)


BESSEL = ["i0", "i0e", "i1", "i1e", "j0", "j1", "k0", "k0e", "k1", "k1e", "y0", "y1"]
POINTS = np.array([0.05, 0.7, 1.9999, 2.0001, 3.3, 7.9999, 8.0001, 12.5, 29.0])


@pytest.mark.parametrize("name", BESSEL)
def test_bessel_matches_integral_representation(name):
    x = POINTS if name[0] in "jky" or name == "i0" else np.concatenate([POINTS, -POINTS])
    if name[0] in "ky":
        x = POINTS[POINTS > 0.1] if name[0] == "y" else POINTS
    ref = reference(name, x)
    fn = getattr(ops, "bessel_" + name)
    got64 = fn(t(x, np.float64)).asnumpy()
    # oscillating J and Y: absolute error relative to the envelope, others relative
    scale = np.maximum(np.abs(ref), 0.2 / np.sqrt(np.abs(x))) if name[0] in "jy" else np.abs(ref)
    assert np.max(np.abs(got64 - ref) / scale) < 1e-10, name
    got32 = fn(t(x)).asnumpy()
    assert got32.dtype == np.float32
    ref32 = reference(name, x.astype(np.float32))
    assert np.max(np.abs(got32 - ref32) / scale) < 2e-7, name


def test_bessel_identities_at_large_arguments():
    x = np.array([40.0, 150.0, 600.0, 1e4])
    # Wronskian J1 Y0 - J0 Y1 = 2 / (pi x): exercises Hankel's form far out
    j0, j1 = ops.bessel_j0(t(x, np.float64)).asnumpy(), ops.bessel_j1(t(x, np.float64)).asnumpy()
    y0, y1 = ops.bessel_y0(t(x, np.float64)).asnumpy(), ops.bessel_y1(t(x, np.float64)).asnumpy()
    np.testing.assert_allclose(j1 * y0 - j0 * y1, 2 / (np.pi * x), rtol=1e-12)
    # I0 K1 + I1 K0 = 1 / x, in the scaled forms (the unscaled ones under- and overflow)
    i0e, i1e = ops.bessel_i0e(t(x, np.float64)).asnumpy(), ops.bessel_i1e(t(x, np.float64)).asnumpy()
    k0e, k1e = ops.bessel_k0e(t(x, np.float64)).asnumpy(), ops.bessel_k1e(t(x, np.float64)).asnumpy()
    np.testing.assert_allclose(i0e * k1e + i1e * k0e, 1 / x, rtol=1e-13)
    # I1 near float64's overflow: e^(a/2) twice, no rounded exponent
    np.testing.assert_allclose(ops.bessel_i1(t([700.0], np.float64)).asnumpy(),
                               ops.bessel_i1e(t([700.0], np.float64)).asnumpy() * np.exp(700.0), rtol=1e-14)


def test_bessel_edges_are_mindspore_values():
    x = t([0.0, -0.0, -1.5, np.inf, -np.inf, np.nan])
    expected = {  # MindSpore 2.10, CPU
        "i0e": [1, 1, 0.36743364, 0, 0, np.nan], "i1": [0, 0, -0.98166639, np.nan, np.nan, np.nan],
        "i1e": [0, 0, -0.21903938, 0, 0, np.nan], "j0": [1, 1, 0.5118277, np.nan, np.nan, np.nan],
        "j1": [0, 0, -0.55793655, np.nan, np.nan, np.nan], "k0": [np.inf, np.inf, np.inf, 0, np.inf, np.nan],
        "k0e": [np.inf, np.inf, np.inf, 0, np.inf, np.nan], "k1": [np.inf, np.inf, np.inf, 0, np.inf, np.nan],
        "k1e": [np.inf, np.inf, np.inf, 0, np.inf, np.nan], "y0": [-np.inf, -np.inf, -np.inf, np.nan, -np.inf, np.nan],
        "y1": [np.nan, np.nan, -np.inf, np.nan, -np.inf, np.nan],
    }
    for name, values in expected.items():
        np.testing.assert_allclose(getattr(ops, "bessel_" + name)(x).asnumpy(), values, rtol=1e-6, err_msg=name)
    assert np.signbit(ops.bessel_j1(t([-0.0])).asnumpy()[0])
    # K underflows gracefully to float32 subnormals, as MindSpore: k0(100) = 4.66e-45 -> 3 * 2^-149
    np.testing.assert_array_equal(ops.bessel_k0(t([100.0])).asnumpy(), np.float32(4.203895392974451e-45))


def test_bessel_dtypes_and_bad_input():
    for dtype in (ms.float16, ms.bfloat16, ms.float64):
        assert ops.bessel_j0(ms.Tensor([0.5, 2.0], dtype)).dtype == dtype
    np.testing.assert_allclose(ops.bessel_k1e(ms.Tensor([0.5, 12.0], ms.float16)).asnumpy(), [2.731, 0.3728], rtol=1e-3)
    with pytest.raises(TypeError, match="bessel_y1: 'x' must be a float16, bfloat16, float32 or float64 tensor"):
        ops.bessel_y1(ms.Tensor([1, 2], ms.int32))
    with pytest.raises(TypeError, match="bessel_k0: 'x' must be a Tensor"):
        ops.bessel_k0(1.0)


@pytest.mark.parametrize("name, derivative", [
    ("j0", lambda x: -ops.bessel_j1(x)), ("j1", lambda x: ops.bessel_j0(x) - ops.bessel_j1(x) / x),
    ("y0", lambda x: -ops.bessel_y1(x)), ("y1", lambda x: ops.bessel_y0(x) - ops.bessel_y1(x) / x),
    ("i1", lambda x: ops.bessel_i0(x) - ops.bessel_i1(x) / x),
    ("i0e", lambda x: ops.bessel_i1e(x) - ops.sign(x) * ops.bessel_i0e(x)),
    ("k0", lambda x: -ops.bessel_k1(x)), ("k1e", lambda x: ops.bessel_k1e(x) * (1 - 1 / x) - ops.bessel_k0e(x)),
])
def test_bessel_gradients_are_the_derivatives(name, derivative):
    x = t([0.3, 1.7, 2.5, 7.0, 9.0, 20.0], np.float64)
    if name[0] in "ji":
        x = ms.Tensor(np.concatenate([x.asnumpy(), -x.asnumpy()]))
    grad = ms.grad(lambda v: getattr(ops, "bessel_" + name)(v).sum())(x).asnumpy()
    np.testing.assert_allclose(grad, derivative(x).asnumpy(), rtol=1e-9, atol=1e-12)


def test_bessel_gradient_against_finite_differences():
    check_grad(lambda v: ops.bessel_k1(v) + ops.bessel_y0(v) + ops.bessel_i1e(v), np.array([0.4, 1.9, 2.1, 9.5]),
               rtol=1e-6)


# ---- zeta, nextafter, population_count, truncating division, betainc ---------------------------------------

def _zeta_reference(x, q, terms=200000):
    k = np.arange(terms, dtype=np.float64)
    out = []
    for xi, qi in zip(x, q):
        y = qi + terms
        out.append(np.sum((qi + k) ** -xi) + y ** (1 - xi) / (xi - 1) + 0.5 * y ** -xi)
    return np.array(out)


def test_zeta_values_edges_and_gradient():
    x, q = np.array([2.0, 3.0, 1.5, 6.0, 2.0, 30.0]), np.array([1.0, 0.25, 2.0, 11.0, 1e3, 0.9])
    np.testing.assert_allclose(ops.zeta(t(x, np.float64), t(q, np.float64)).asnumpy(), _zeta_reference(x, q),
                               rtol=1e-11)
    # a negative q with an integer x: the terms of the sum, negative ones included
    k = np.arange(400000.0)
    for xi, qi in ((2.0, -20.5), (3.0, -7.25), (4.0, -0.5), (3.0, -50.5)):
        ref = np.sum((qi + k) ** -xi) + (qi + 400000) ** (1 - xi) / (xi - 1)
        np.testing.assert_allclose(ops.zeta(t([xi], np.float64), t([qi], np.float64)).asnumpy(), [ref], rtol=1e-9)
    edges = ops.zeta(t([1.0, 0.5, 2.0, 2.0, 1.5, np.inf, np.inf, 2.0, np.nan]),
                     t([1.0, 1.0, 0.0, -1.0, -0.5, 1.0, 2.0, np.inf, 1.0])).asnumpy()
    np.testing.assert_array_equal(edges, [np.inf, np.nan, np.inf, np.inf, np.nan, 1.0, 0.0, 0.0, np.nan])
    dx, dq = ms.grad(lambda a, b: ops.zeta(a, b).sum(), (0, 1))(t([2.0, 3.0]), t([1.0, 2.5]))
    np.testing.assert_array_equal(dx.asnumpy(), [0, 0])  # MindSpore's: no gradient for x
    np.testing.assert_allclose(dq.asnumpy(), -np.array([2, 3]) * _zeta_reference([3.0, 4.0], [1.0, 2.5]), rtol=1e-6)
    assert ops.Zeta()(t([2.0]), t([1.0])).dtype == ms.float32
    with pytest.raises(TypeError, match="zeta: 'input', 'other' must have the same dtype"):
        ops.zeta(t([2.0]), t([1.0], np.float64))
    with pytest.raises(TypeError, match="zeta: 'input' must be a Float32 or Float64 tensor, but got Float16"):
        ops.zeta(ms.Tensor([2.0], ms.float16), ms.Tensor([1.0], ms.float16))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_nextafter_matches_numpy_bit_for_bit(dtype):
    rng = np.random.default_rng(0)
    info = np.finfo(dtype)
    a = np.concatenate([(rng.standard_normal(500) * 10.0 ** rng.integers(-40, 38, 500)),
                        [0, -0.0, 1, 2, -2, info.tiny, -info.tiny, info.max, -info.max, np.inf, -np.inf, np.nan,
                         info.smallest_subnormal, 2.0 ** -20]]).astype(dtype)
    b = np.concatenate([rng.standard_normal(500) * 1e30,
                        [1, -1, 2, 1, -3, 0, 0, np.inf, -np.inf, 0, 1, 1, -1, 2.0 ** -20]]).astype(dtype)
    with np.errstate(over="ignore"):
        expected = np.nextafter(a, b)
    got = ops.nextafter(ms.Tensor(a), ms.Tensor(b)).asnumpy()
    np.testing.assert_array_equal(got.view(np.uint8), expected.view(np.uint8))
    np.testing.assert_array_equal(ms.Tensor(a).nextafter(ms.Tensor(b)).asnumpy(), got)
    np.testing.assert_array_equal(ops.NextAfter()(ms.Tensor(a), ms.Tensor(b)).asnumpy(), got)


def test_nextafter_gradient_and_bad_input():
    dx, dy = ms.grad(lambda a, b: ops.nextafter(a, b).sum(), (0, 1))(t([2.0, 3.0]), t([1.0, 4.0]))
    np.testing.assert_array_equal(dx.asnumpy(), [1, 1])
    np.testing.assert_array_equal(dy.asnumpy(), [0, 0])
    with pytest.raises(TypeError, match="nextafter: 'input' must be a Float32 or Float64 tensor, but got Int32"):
        ops.nextafter(ms.Tensor([1], ms.int32), ms.Tensor([2], ms.int32))


def test_population_count():
    rng = np.random.default_rng(1)
    for np_dtype, ms_dtype in ((np.int8, ms.int8), (np.int16, ms.int16), (np.int32, ms.int32),
                               (np.int64, ms.int64), (np.uint8, ms.uint8)):
        info = np.iinfo(np_dtype)
        v = rng.integers(info.min, info.max, 64, dtype=np_dtype, endpoint=True)
        v[:2] = info.min, info.max
        got = ops.population_count(ms.Tensor(v, ms_dtype)).asnumpy()
        assert got.dtype == np.uint8
        bits = np.iinfo(np_dtype).bits
        np.testing.assert_array_equal(got, [bin(int(e) & ((1 << bits) - 1)).count("1") for e in v])
    np.testing.assert_array_equal(ops.PopulationCount()(ms.Tensor([0, 1, 7, -1], ms.int16)).asnumpy(), [0, 1, 3, 16])
    with pytest.raises(TypeError, match="population_count: 'input_x' must be an int8, int16, int32, int64 or uint8"):
        ops.population_count(t([1.0]))


def test_truncate_div_and_mod():
    x, y = np.array([7, -7, 7, -7, 0, 9, -9]), np.array([2, 2, -2, -2, 3, 4, 4])
    for np_dtype, ms_dtype in ((np.int8, ms.int8), (np.int32, ms.int32), (np.int64, ms.int64),
                               (np.float32, ms.float32), (np.float64, ms.float64)):
        a, b = ms.Tensor(x.astype(np_dtype), ms_dtype), ms.Tensor(y.astype(np_dtype), ms_dtype)
        np.testing.assert_array_equal(ops.truncate_div(a, b).asnumpy(), np.trunc(x / y).astype(np_dtype))
        np.testing.assert_array_equal(ops.truncate_mod(a, b).asnumpy(), np.fmod(x, y).astype(np_dtype))
        assert ops.TruncateDiv()(a, b).dtype == ms_dtype
    # division by zero, as MindSpore: the dtype's extremes for integers, inf/NaN for floats
    np.testing.assert_array_equal(ops.truncate_div(ms.Tensor([5, -5, 0], ms.int32), ms.Tensor([0, 0, 0], ms.int32))
                                  .asnumpy(), [2 ** 31 - 1, -2 ** 31, 0])
    np.testing.assert_array_equal(ops.truncate_div(t([1.0, -1.0, 0.0]), t([0.0, 0.0, 0.0])).asnumpy(),
                                  [np.inf, -np.inf, np.nan])
    np.testing.assert_array_equal(ops.truncate_mod(t([7.5, -7.5]), 2.0).asnumpy(), [1.5, -1.5])
    np.testing.assert_array_equal(ops.truncate_div(ms.Tensor([7, -7], ms.int32), 2).asnumpy(), [3, -3])
    assert ops.truncate_div(ms.Tensor([7], ms.int32), t([2.0])).dtype == ms.float32
    dx, dy = ms.grad(lambda a, b: ops.truncate_mod(a, b).sum(), (0, 1))(t([2.0, 3.0]), t([1.0, 2.5]))
    np.testing.assert_array_equal(dx.asnumpy(), [1, 1])
    np.testing.assert_array_equal(dy.asnumpy(), [-2, -1])
    dx, dy = ms.grad(lambda a, b: ops.truncate_div(a, b).sum(), (0, 1))(t([2.0, 3.0]), t([1.0, 2.5]))
    np.testing.assert_array_equal(dx.asnumpy(), [0, 0])
    with pytest.raises(TypeError, match="truncate_div: 'x' must be a number or a numeric Tensor, but got a bool"):
        ops.truncate_div(ms.Tensor([True]), 2)


def _betainc_reference(a, b, x):
    value = _simpson(lambda s: (x * s) ** (a - 1) * (1 - x * s) ** (b - 1) * x, 1.0, n=20000)
    return value * math.gamma(a + b) / (math.gamma(a) * math.gamma(b))


def test_betainc():
    # a >= 2: the integrand is smooth enough at 0 for Simpson's rule
    a, b, x = np.array([2.0, 2.0, 3.0, 7.5]), np.array([2.5, 3.0, 0.5, 20.0]), np.array([0.3, 0.8, 0.5, 0.3])
    ref = np.array([_betainc_reference(*v)[0] for v in zip(a, b, x)])
    got = ops.Betainc()(t(a, np.float64), t(b, np.float64), t(x, np.float64)).asnumpy()
    np.testing.assert_allclose(got, ref, rtol=1e-10)
    edges = ops.Betainc()(t([1.0, 0.0, -1.0, 1.0, 2.0, 2.0]), t([1.0, 1.0, 1.0, 1.0, 3.0, 3.0]),
                          t([0.0, 0.5, 0.5, 1.5, 1.0, np.nan])).asnumpy()
    np.testing.assert_array_equal(edges, [0.0, np.nan, np.nan, np.nan, 1.0, np.nan])
    da, db, dx = ms.grad(lambda p, q, v: ops.Betainc()(p, q, v).sum(), (0, 1, 2))(t([0.5, 2.0]), t([1.5, 3.0]),
                                                                                  t([0.3, 0.4]))
    np.testing.assert_array_equal(da.asnumpy(), [0, 0])
    density = lambda p, q, v: v ** (p - 1) * (1 - v) ** (q - 1) * math.gamma(p + q) / (math.gamma(p) * math.gamma(q))
    np.testing.assert_allclose(dx.asnumpy(), [density(0.5, 1.5, 0.3), density(2.0, 3.0, 0.4)], rtol=1e-5)
    with pytest.raises(TypeError, match="Betainc: 'a', 'b', 'x' must have the same dtype"):
        ops.Betainc()(t([1.0]), t([1.0]), t([0.5], np.float64))


# ---- Primitive classes over functional ops -------------------------------------------------------------------

def test_primitives_without_functions_of_their_own():
    np.testing.assert_array_equal(ops.DivNoNan()(t([1.0, 0.0, -2.0, np.nan]), t([0.0, 0.0, 4.0, 0.0])).asnumpy(),
                                  [0, 0, -0.5, 0])
    dx, dy = ms.grad(lambda a, b: ops.DivNoNan()(a, b).sum(), (0, 1))(t([1.0, 2.0]), t([0.0, 4.0]))
    np.testing.assert_array_equal(dx.asnumpy(), [0, 0.25])
    np.testing.assert_array_equal(dy.asnumpy(), [0, -0.125])
    np.testing.assert_array_equal(ops.MulNoNan()(t([np.inf, np.nan, 2.0]), t([0.0, 0.0, 3.0])).asnumpy(), [0, 0, 6])
    np.testing.assert_array_equal(ops.Rint()(t([-1.5, -0.5, 0.5, 1.5, 2.5, 2.7])).asnumpy(),
                                  np.rint([-1.5, -0.5, 0.5, 1.5, 2.5, 2.7]))
    np.testing.assert_array_equal(ops.SquaredDifference()(ms.Tensor([1, 2], ms.int32), ms.Tensor([3, 5], ms.int32))
                                  .asnumpy(), [4, 9])
    np.testing.assert_allclose(ops.Logit(eps=1e-3)(t([0.1, 0.0, 1.0])).asnumpy(),
                               np.log(np.array([0.1, 1e-3, 0.999]) / (1 - np.array([0.1, 1e-3, 0.999]))), rtol=1e-5)
    assert np.isinf(ops.Logit()(t([0.0])).asnumpy()[0])
    with pytest.raises(TypeError, match="Rint: 'x' must be a float16, float32 or float64 tensor"):
        ops.Rint()(ms.Tensor([1], ms.int32))
    with pytest.raises(TypeError, match="Logit: 'eps' must be a float, but got 2"):
        ops.Logit(eps=2)
    with pytest.raises(ValueError, match="Mvlgamma: 'p' must be at least 1"):
        ops.Mvlgamma(p=0)
    with pytest.raises(TypeError, match=r"BesselJ0: takes 1 input\(s\) \(x\), but got 2"):
        ops.BesselJ0()(t([1.0]), t([1.0]))


def test_primitives_call_their_functions():
    x, y = t([0.3, 0.6]), t([1.5, 2.5])
    n = ms.Tensor(1, ms.int64)
    pairs = [
        (ops.Igamma()(y, x), ops.igamma(y, x)), (ops.Igammac()(y, x), ops.igammac(y, x)),
        (ops.Digamma()(y), ops.digamma(y)), (ops.Polygamma()(n, y), ops.polygamma(n, y)),
        (ops.Lgamma()(y), ops.lgamma(y)), (ops.Mvlgamma(p=2)(y), ops.mvlgamma(y, 2)), (ops.Erfinv()(x), ops.erfinv(x)),
        (ops.Hypot()(x, y), ops.hypot(x, y)), (ops.Heaviside()(x - 0.3, y), ops.heaviside(x - 0.3, y)),
        (ops.Xdivy()(x, y), ops.xdivy(x, y)), (ops.Xlogy()(x, y), ops.xlogy(x, y)), (ops.Inv()(y), ops.inv(y)),
        (ops.Sinc()(x), ops.sinc(x)), (ops.Trunc()(y), ops.trunc(y)), (ops.Fmax()(x, y), ops.fmax(x, y)),
        (ops.Acosh()(y), ops.acosh(y)), (ops.Asinh()(y), ops.asinh(y)), (ops.Atanh()(x), ops.atanh(x)),
        (ops.IsClose(rtol=0.5)(x, y), ops.isclose(x, y, rtol=0.5)), (ops.BesselI0()(y), ops.bessel_i0(y)),
        (ops.BesselK1e()(y), ops.bessel_k1e(y)), (ops.Zeta()(y, x), ops.zeta(y, x)),
    ]
    for got, expected in pairs:
        np.testing.assert_array_equal(got.asnumpy(), expected.asnumpy())
    a, b = t([[1.0, 2, 3], [4, 5, 6]]), t([[4.0, 5, 6], [1, 2, 3]])
    np.testing.assert_array_equal(ops.Cross()(a, b).asnumpy(), np.cross(a.asnumpy(), b.asnumpy()))
    np.testing.assert_array_equal(ops.Cross(dim=0)(a.T, b.T).asnumpy(), np.cross(a.asnumpy(), b.asnumpy()).T)
    assert ops.BesselJ0().input_names == ["x"] and ops.Cross().dim == -65530


def test_compiled_matches_eager():
    def body(x, q, i):
        return (ops.bessel_j1(x) + ops.bessel_k0e(x) + ops.bessel_y1(x) + ops.zeta(x + 1, q)
                + ops.nextafter(x, q) + ops.Betainc()(q, x, q / (q + 1)) + ops.truncate_div(x, q)
                + ops.BesselI1()(x) + ops.SquaredDifference()(x, q) + ops.DivNoNan()(x, q - 1)
                + ops.cast(ops.population_count(i), ms.float32))

    x, q, i = t([0.5, 2.5, 9.0]), t([1.0, 0.3, 4.0]), ms.Tensor([3, -1, 255], ms.int32)
    np.testing.assert_allclose(ms.jit(body)(x, q, i).asnumpy(), body(x, q, i).asnumpy(), rtol=1e-6)
    grad = ms.grad(lambda v: (ops.bessel_j0(v) * ops.bessel_k1(v)).sum())
    np.testing.assert_allclose(ms.jit(grad)(x).asnumpy(), grad(x).asnumpy(), rtol=1e-6)
