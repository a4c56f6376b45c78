"""lgamma, digamma, polygamma, mvlgamma, erfinv, i0/bessel_i0: values against the math module, NumPy and
series summed in Python floats (float64 and float32 inputs), gradients against finite differences, compiled
against eager, and bad arguments."""
import math

import numpy as np
import pytest

import sprout as ms
from sprout import ops

from finite_differences import check_grad
from op_records.math_special import digamma_ref, polygamma_ref


def T(a, dtype=np.float64):
    return ms.Tensor(np.asarray(a, dtype))


POINTS = [0.5, 1.0, 1.5, 2.0, 3.7, 10.0, 25.3, 170.0, 1e-8, -0.5, -2.5, -7.3, -100.7, 0.25, 4e3]


def test_lgamma_matches_math_in_float64_and_float32():
    x = np.array(POINTS)
    want = np.array([math.lgamma(v) for v in x])
    np.testing.assert_allclose(ops.lgamma(T(x)).asnumpy(), want, rtol=1e-13, atol=1e-14)
    x32 = x.astype(np.float32)
    want32 = np.array([math.lgamma(float(v)) for v in x32])
    got = T(x32, np.float32).lgamma()
    assert got.dtype == ms.float32
    np.testing.assert_allclose(got.asnumpy(), want32, rtol=1e-6, atol=1e-7)
    edges = ops.lgamma(T([0.0, -1.0, -2.0, np.inf, -np.inf, np.nan])).asnumpy()
    np.testing.assert_array_equal(edges[:5], np.inf)
    assert np.isnan(edges[5])
    assert ops.lgamma(T([1, 2, 3], np.int32)).dtype == ms.float32  # integers compute as float32


def test_digamma_and_polygamma_match_series():
    x = np.array([v for v in POINTS if v < 1e3])
    np.testing.assert_allclose(ops.digamma(T(x)).asnumpy(), [digamma_ref(v) for v in x], rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(ops.polygamma(0, T(x)).asnumpy(), [digamma_ref(v) for v in x], rtol=1e-12,
                               atol=1e-12)
    for n in (1, 2, 3):
        got = ops.polygamma(ms.Tensor(n), T(x)).asnumpy()  # n as a 0-d Tensor, as MindSpore passes it
        np.testing.assert_allclose(got, [polygamma_ref(n, v) for v in x], rtol=1e-10, err_msg=f"n={n}")
    got32 = ops.digamma(T(x, np.float32)).asnumpy()
    np.testing.assert_allclose(got32, [digamma_ref(float(v)) for v in x.astype(np.float32)], rtol=2e-6, atol=1e-6)
    # The poles, as MindSpore gives them.
    np.testing.assert_array_equal(ops.digamma(T([0.0, -1.0, -3.0])).asnumpy(), [-np.inf, np.nan, np.nan])
    np.testing.assert_array_equal(ops.polygamma(1, T([0.0, -2.0])).asnumpy(), [np.inf, np.inf])
    np.testing.assert_array_equal(ops.polygamma(2, T([0.0, -2.0])).asnumpy(), [-np.inf, -np.inf])


def test_mvlgamma_is_a_sum_of_lgammas():
    x = np.array([1.6, 2.5, 3.0, 7.25])
    for p in (1, 3):
        want = [math.log(math.pi) * p * (p - 1) / 4 + sum(math.lgamma(v - i / 2) for i in range(p)) for v in x]
        np.testing.assert_allclose(ops.mvlgamma(T(x), p).asnumpy(), want, rtol=1e-13)
    assert np.isnan(T([0.9]).mvlgamma(3).asnumpy()[0])  # outside x > (p - 1) / 2


def test_erfinv_inverts_erf():
    y = np.array([0.0, 1e-10, 0.3, -0.5, 0.5000001, -0.9, 0.999999, -0.99999999999, 0.9999999999999998])
    got = ops.erfinv(T(y)).asnumpy()
    # erf is correctly rounded in math: erf(got) must give y back to an ulp or two, and the Newton correction
    # from there must be negligible.
    np.testing.assert_allclose([math.erf(v) for v in got], y, rtol=0, atol=3e-16)
    correction = [(math.erf(v) - t) * math.sqrt(math.pi) / 2 * math.exp(v * v) for v, t in zip(got, y)]
    assert np.all(np.abs(correction) <= 1e-13 * np.maximum(np.abs(got), 1)), correction
    edges = ops.erfinv(T([1.0, -1.0, 1.5, -2.0, np.nan])).asnumpy()
    np.testing.assert_array_equal(edges[:2], [np.inf, -np.inf])
    assert np.isnan(edges[2:]).all()
    y32 = np.array([0.1, -0.7, 0.99, 0.999999], np.float32)
    want32 = ops.erfinv(T(y32.astype(np.float64))).asnumpy()  # the float64 result of the same float32 values
    np.testing.assert_allclose(T(y32, np.float32).erfinv().asnumpy(), want32, rtol=1e-7)


def test_vector_series_over_every_lane_and_layout():
    # Note [Special functions by series]: one vector formula with its branches as selects, so every lane
    # position must see each branch (reflection, shift, tail), in long rows with a ragged end, strided rows and
    # float16 / float32 rows computed in double.
    rng = np.random.default_rng(3)
    x = np.concatenate([rng.uniform(-30, 30, 4099), rng.uniform(0, 3, 1000), 10.0 ** rng.uniform(-8, 6, 500)])
    x = x[np.abs(x - np.round(x)) > 1e-9]  # off the poles
    want = np.array([math.lgamma(v) for v in x])
    np.testing.assert_allclose(ops.lgamma(T(x)).asnumpy(), want, rtol=1e-13, atol=1e-13)
    x32 = x.astype(np.float32)
    rounded = np.array([math.lgamma(float(v)) for v in x32]).astype(np.float32)
    got32 = ops.lgamma(T(x32, np.float32)).asnumpy()
    np.testing.assert_allclose(got32, rounded, rtol=2e-7, atol=1e-7)  # float32 rounding of a double result
    grid = T(x.reshape(-1, 1).repeat(3, axis=1))[:, 1]  # a strided column
    np.testing.assert_allclose(ops.lgamma(grid).asnumpy(), want, rtol=1e-13, atol=1e-13)
    few = x[:50]
    np.testing.assert_allclose(ops.digamma(T(few)).asnumpy(), [digamma_ref(v) for v in few], rtol=1e-11, atol=1e-11)
    np.testing.assert_allclose(ops.polygamma(3, T(few)).asnumpy(), [polygamma_ref(3, v) for v in few], rtol=1e-9)
    half = ops.lgamma(T([0.5, 3.0, -2.5], np.float16))
    assert half.dtype == ms.float16
    np.testing.assert_allclose(half.asnumpy(), [math.lgamma(v) for v in (0.5, 3.0, -2.5)], rtol=1e-3)
    y = rng.uniform(-1, 1, 3001)
    got = ops.erfinv(T(y)).asnumpy()
    np.testing.assert_allclose([math.erf(v) for v in got], y, rtol=0, atol=4e-16)


def test_derivatives_of_every_order_are_the_next_function():
    # The second and third derivatives of lgamma are polygamma(1) and polygamma(2): each derivative is an op
    # of the family.
    x = T([0.7, 2.5, -1.3, 12.0])
    second = ms.grad(ms.grad(lambda v: ops.lgamma(v).sum()))
    np.testing.assert_allclose(second(x).asnumpy(), ops.polygamma(1, x).asnumpy(), rtol=1e-12)
    third = ms.grad(ms.grad(ms.grad(lambda v: ops.lgamma(v).sum())))
    np.testing.assert_allclose(third(x).asnumpy(), ops.polygamma(2, x).asnumpy(), rtol=1e-12)
    y = T([-0.9, 0.0, 0.5])
    e = ops.erfinv(y).asnumpy()
    # The second derivative of erfinv, from its first, sqrt(pi)/2 exp(erfinv^2): 2 erfinv erfinv'^2.
    want = 2 * e * (math.sqrt(math.pi) / 2 * np.exp(e ** 2)) ** 2
    np.testing.assert_allclose(ms.grad(ms.grad(lambda v: ops.erfinv(v).sum()))(y).asnumpy(), want, rtol=1e-12)


def test_polygamma_primitive_takes_mindspore_arguments():
    x = T([0.7, 2.5])
    np.testing.assert_allclose(ops.Polygamma()(ms.Tensor(2, ms.int64), x).asnumpy(),
                               [polygamma_ref(2, 0.7), polygamma_ref(2, 2.5)], rtol=1e-10)
    np.testing.assert_allclose(ops.Polygamma()(0, x).asnumpy(), ops.Digamma()(x).asnumpy())
    np.testing.assert_allclose(ops.Lgamma()(x).asnumpy(), [math.lgamma(0.7), math.lgamma(2.5)], rtol=1e-13)


def test_i0_matches_numpy():
    x = np.array([0.0, 1e-3, 1.0, -3.0, 10.0, 19.99, 20.01, 35.0, 100.0, -300.0])
    np.testing.assert_allclose(ops.i0(T(x)).asnumpy(), np.i0(x), rtol=2e-14)
    small = x[np.abs(x) < 80].astype(np.float32)  # float32 holds i0 up to |x| ~ 90
    np.testing.assert_allclose(ops.bessel_i0(T(small, np.float32)).asnumpy(), np.i0(small.astype(np.float64)),
                               rtol=1e-6)
    assert T([1.0], np.float32).i0().dtype == ms.float32


@pytest.mark.parametrize("name, fn, x", [
    ("lgamma", ops.lgamma, [0.7, 2.5, -1.3, 12.0]),
    ("digamma", ops.digamma, [0.7, 2.5, -1.3, 12.0]),
    ("polygamma1", lambda v: ops.polygamma(1, v), [0.7, 2.5, -1.3, 12.0]),
    ("polygamma2", lambda v: ops.polygamma(2, v), [0.7, 2.5, 12.0]),
    ("mvlgamma", lambda v: ops.mvlgamma(v, 2), [0.7, 2.5, 12.0]),
    ("erfinv", ops.erfinv, [-0.9, -0.2, 0.0, 0.6, 0.99]),
    ("i0", ops.i0, [-2.0, 0.3, 5.0]),
])
def test_special_function_gradients_match_finite_differences(name, fn, x):
    check_grad(fn, np.array(x), rtol=1e-6, atol=1e-8)


def test_known_derivatives():
    """lgamma' = digamma, digamma' = polygamma(1), erfinv' = sqrt(pi)/2 exp(erfinv^2), i0' = i1."""
    x = T([0.7, 2.5, -1.3])
    np.testing.assert_allclose(ms.grad(lambda v: ops.lgamma(v).sum())(x).asnumpy(), ops.digamma(x).asnumpy(),
                               rtol=1e-12)
    np.testing.assert_allclose(ms.grad(lambda v: ops.digamma(v).sum())(x).asnumpy(),
                               ops.polygamma(1, x).asnumpy(), rtol=1e-10)
    y = T([-0.9, 0.0, 0.5])
    want = math.sqrt(math.pi) / 2 * np.exp(ops.erfinv(y).asnumpy() ** 2)
    np.testing.assert_allclose(ms.grad(lambda v: ops.erfinv(v).sum())(y).asnumpy(), want, rtol=1e-12)
    # i1(x) = sum (x/2)^(2k+1) / (k! (k+1)!), both sides of i0's split at |x| = 20 (large values, where finite
    # differences lose their digits).
    x = np.array([-3.0, 19.5, 20.5, -25.0, 60.0])
    i1 = []
    for v in x:
        terms = [v / 2]
        for k in range(150):
            terms.append(terms[-1] * (v / 2) ** 2 / ((k + 1) * (k + 2)))
        i1.append(math.fsum(terms))
    np.testing.assert_allclose(ms.grad(lambda v: ops.i0(v).sum())(T(x)).asnumpy(), i1, rtol=1e-13)


def test_special_functions_compiled_match_eager():
    def body(x, y):
        return ops.lgamma(x) + ops.digamma(x) * ops.polygamma(1, x) + ops.erfinv(y) + ops.i0(x) + ops.mvlgamma(x, 2)

    x, y = T([0.7, 2.5, 3.2], np.float32), T([-0.5, 0.1, 0.9], np.float32)
    np.testing.assert_allclose(ms.jit(body)(x, y).asnumpy(), body(x, y).asnumpy(), rtol=1e-6)
    grad = ms.grad(lambda a, b: body(a, b).sum(), grad_position=(0, 1))
    for compiled, eager in zip(ms.jit(grad)(x, y), grad(x, y)):
        np.testing.assert_allclose(compiled.asnumpy(), eager.asnumpy(), rtol=1e-5)


def test_special_function_bad_arguments():
    with pytest.raises(TypeError, match="lgamma: 'input' must be a Tensor"):
        ops.lgamma([1.0, 2.0])
    with pytest.raises(TypeError, match="erfinv: 'input' must be a Tensor"):
        ops.erfinv(0.5)
    with pytest.raises(ValueError, match="polygamma: 'n' must be >= 0"):
        ops.polygamma(-1, T([1.0]))
    with pytest.raises(TypeError, match="polygamma: 'n' must be an int or a 0-d integer Tensor"):
        ops.polygamma(1.5, T([1.0]))
    with pytest.raises(TypeError, match="polygamma: 'n' must be an int or a 0-d integer Tensor"):
        ops.polygamma(T([1.0]), T([1.0]))
    with pytest.raises(ValueError, match="mvlgamma: 'p' must be >= 1"):
        ops.mvlgamma(T([3.0]), 0)
    with pytest.raises(TypeError, match="mvlgamma: 'p' must be an int"):
        ops.mvlgamma(T([3.0]), 2.0)
    with pytest.raises(TypeError, match="bessel_i0: 'input' must be a Tensor"):
        ops.bessel_i0("x")
