"""Elementwise ops against NumPy: broadcasting, dtypes, MindSpore's implicit promotion, bad input."""
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import sprout as ms
from sprout import ops

FLOATS = [ms.float16, ms.bfloat16, ms.float32, ms.float64]
INTS = [ms.int8, ms.int16, ms.int32, ms.int64, ms.uint8]
ALL = [ms.bool_] + INTS + FLOATS
RTOL = {ms.float16: 2e-3, ms.bfloat16: 2e-2, ms.float32: 1e-6, ms.float64: 1e-12}


def np_of(t):
    return t.asnumpy()


def rand(shape, dtype, rng, low=-3, high=3):
    if dtype == ms.bool_:
        return ms.Tensor(rng.random(shape) > 0.5)
    if dtype in INTS:
        lo = 0 if dtype == ms.uint8 else low
        return ms.Tensor(rng.integers(lo, high + 1, size=shape), dtype)
    return ms.Tensor(rng.uniform(low, high, size=shape), dtype)


def expected_promotion(a, b):
    """MindSpore's tensor-tensor promotion, written out from its documented rules."""
    kind = {ms.bool_: 0, **{t: 1 for t in INTS}, **{t: 2 for t in FLOATS}}
    size = {ms.bool_: 1, ms.int8: 1, ms.uint8: 1, ms.int16: 2, ms.int32: 4, ms.int64: 8,
            ms.float16: 2, ms.bfloat16: 2, ms.float32: 4, ms.float64: 8}
    if a == b:
        return a
    if kind[a] != kind[b]:
        return a if kind[a] > kind[b] else b
    if {a, b} == {ms.float16, ms.bfloat16}:
        return ms.float32
    if ms.uint8 in (a, b) and kind[a] == 1:
        other = b if a == ms.uint8 else a
        return ms.int16 if other == ms.int8 else other
    return a if size[a] >= size[b] else b


@pytest.mark.parametrize("a", ALL)
@pytest.mark.parametrize("b", ALL)
def test_tensor_tensor_promotion(a, b):
    x, y = ms.Tensor([1], a), ms.Tensor([1], b)
    assert (x + y).dtype == expected_promotion(a, b)
    assert (x * y).dtype == expected_promotion(a, b)
    assert ops.maximum(x, y).dtype == expected_promotion(a, b)
    assert (x == y).dtype == ms.bool_
    div = expected_promotion(a, b)
    assert (x / y).dtype == (div if div in FLOATS else ms.float32)


@pytest.mark.parametrize("dtype", ALL)
def test_python_scalars_are_weak(dtype):
    x = ms.Tensor([1], dtype)
    int_result = ms.int64 if dtype == ms.bool_ else dtype
    assert (x + 2).dtype == int_result and (2 + x).dtype == int_result
    assert (x * 2.5).dtype == (dtype if dtype in FLOATS else ms.float32)
    assert (x + True).dtype == dtype
    assert (x < 2).dtype == ms.bool_


def test_scalar_values_are_exact():
    big = 2 ** 53 + 1
    assert (ms.Tensor([0], ms.int64) + big).item() == big
    assert (ms.Tensor([1.0], ms.float64) * 0.1).item() == 0.1
    assert (10 - ms.Tensor([3])).item() == 7
    assert (1 / ms.Tensor([4.0])).item() == 0.25
    assert (2 ** ms.Tensor([3])).item() == 8


BINARY = {
    "add": (ops.add, np.add), "sub": (ops.sub, np.subtract), "mul": (ops.mul, np.multiply),
    "div": (ops.div, np.true_divide), "maximum": (ops.maximum, np.maximum),
    "minimum": (ops.minimum, np.minimum), "pow": (ops.pow, np.power),
}


@pytest.mark.parametrize("name", sorted(BINARY))
@pytest.mark.parametrize("dtype", INTS + FLOATS)
def test_binary_matches_numpy(name, dtype):
    rng = np.random.default_rng(0)
    ours, ref = BINARY[name]
    a = rand((4, 1, 5), dtype, rng, 1 if name == "pow" else -3)
    b = rand((3, 1), dtype, rng, 0 if name == "pow" else 1, 3)
    if name == "sub" and dtype == ms.uint8:
        a, b = a + 5, b  # stay non-negative
    out = ours(a, b)
    expect = ref(np_of(a).astype(np.float64), np_of(b).astype(np.float64))
    if dtype in INTS and name != "div":
        expect = expect.astype(np_of(out).dtype)
        np.testing.assert_array_equal(np_of(out), expect)
    else:
        np.testing.assert_allclose(np_of(out), expect, rtol=RTOL.get(out.dtype, 1e-6) * 4)


@given(st.data())
def test_broadcasting_matches_numpy(data):
    shapes = data.draw(hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=4, max_side=4))
    a = data.draw(hnp.arrays(np.float32, shapes.input_shapes[0], elements=st.floats(-100, 100, width=32)))
    b = data.draw(hnp.arrays(np.float32, shapes.input_shapes[1], elements=st.floats(-100, 100, width=32)))
    ta, tb = ms.Tensor(a), ms.Tensor(b)
    np.testing.assert_array_equal((ta + tb).asnumpy(), a + b)
    np.testing.assert_array_equal((ta * tb).asnumpy(), a * b)
    np.testing.assert_array_equal((ta > tb).asnumpy(), a > b)
    assert (ta - tb).shape == shapes.result_shape


@pytest.mark.parametrize("full, row", [((4096, 16), (16,)), ((300, 7), (1, 7)), ((5, 40, 3), (40, 3)),
                                       ((64, 512), (512,)), ((9, 2048), (2048,)), ((2, 3, 4), (1, 1, 4))])
@pytest.mark.parametrize("dtype", [ms.float32, ms.float64, ms.int64, ms.uint8])
def test_rows_broadcast_against_a_full_operand_in_either_order(full, row, dtype):
    # Note [Short broadcast rows]: the repeated block is tiled, several rows to a kernel call; the
    # shapes cover one and many tiles per thread, partial tiles and blocks too long to tile.
    rng = np.random.default_rng(len(full) * 31 + row[-1])
    x, b = rand(full, dtype, rng, 1, 9), rand(row, dtype, rng, 1, 9)
    nx, nb = np_of(x), np_of(b)
    with np.errstate(divide="ignore", invalid="ignore"):  # uint8 draws include 0
        cases = [(x - b, nx - nb), (b - x, nb - nx), (x * b, nx * nb), (b / x, nb / nx),
                 (ops.maximum(b, x), np.maximum(nb, nx)), (x > b, nx > nb), (b >= x, nb >= nx)]
    for got, want in cases:
        if dtype == ms.uint8 and want.dtype.kind in "iu":
            want = want.astype(np.uint8)
        np.testing.assert_allclose(np_of(got), want, rtol=1e-6)


@given(st.data())
def test_strided_views_as_inputs(data):
    a = data.draw(hnp.arrays(np.float64, (6, 5), elements=st.floats(-10, 10)))
    t = ms.Tensor(a)
    np.testing.assert_array_equal((t.T * 2).asnumpy(), a.T * 2)
    np.testing.assert_array_equal((t[::2, 1:] + t[1::2, :4]).asnumpy(), a[::2, 1:] + a[1::2, :4])
    np.testing.assert_allclose(ops.exp(t[:, ::-1]).asnumpy(), np.exp(a[:, ::-1]), rtol=1e-14)


@given(hnp.arrays(np.float32, hnp.array_shapes(min_dims=0, max_dims=3, max_side=70),
                  elements=st.floats(-80, 80, width=32)))
def test_unary_float32(a):
    t = ms.Tensor(a)
    np.testing.assert_allclose(ops.exp(t).asnumpy(), np.exp(a), rtol=2e-6)
    pos = np.abs(a) + 1e-3
    np.testing.assert_allclose(ops.log(ms.Tensor(pos)).asnumpy(), np.log(pos), rtol=2e-6, atol=1e-7)
    np.testing.assert_allclose(ops.sqrt(ms.Tensor(pos)).asnumpy(), np.sqrt(pos), rtol=1e-6)
    np.testing.assert_array_equal((-t).asnumpy(), -a)


@pytest.mark.parametrize("dtype", FLOATS)
def test_unary_all_float_dtypes(dtype):
    x = ms.Tensor([0.5, 1.0, 2.0, 10.0], dtype)
    ref = np.array([0.5, 1.0, 2.0, 10.0])
    for fn, np_fn in [(ops.exp, np.exp), (ops.log, np.log), (ops.sqrt, np.sqrt)]:
        out = fn(x)
        assert out.dtype == dtype
        np.testing.assert_allclose(out.asnumpy().astype(np.float64), np_fn(ref), rtol=RTOL[dtype] * 2)


def test_unary_on_integers_gives_float32():
    out = ops.sqrt(ms.Tensor([4, 9]))
    assert out.dtype == ms.float32 and out.tolist() == [2.0, 3.0]
    assert ops.neg(ms.Tensor([1, -2], ms.int8)).tolist() == [-1, 2]


def test_large_tensors_use_threads_and_agree():
    rng = np.random.default_rng(1)
    a = rng.standard_normal((300, 700)).astype(np.float32)
    b = rng.standard_normal((700,)).astype(np.float32)
    ms.set_context(runtime_num_threads=2)
    try:
        np.testing.assert_array_equal((ms.Tensor(a) * ms.Tensor(b)).asnumpy(), a * b)
        np.testing.assert_allclose(ops.exp(ms.Tensor(a)).asnumpy(), np.exp(a), rtol=2e-6)
    finally:
        ms.set_context(runtime_num_threads=1)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_outputs_past_the_last_level_cache_agree(dtype):
    # Ops touching more than a 32 MB L3 write their outputs with streaming stores (Note [Streaming
    # stores]); an odd length puts the threads' split and the tail off vector boundaries.
    n = (4 << 20) + 13
    rng = np.random.default_rng(2)
    a, b = (rng.standard_normal(n).astype(dtype) for _ in range(2))
    x, y = ms.Tensor(a), ms.Tensor(b)
    ms.set_context(runtime_num_threads=2)
    try:
        for got, want in [(x * y, a * b), (x + y, a + b), (x - y, a - b), (x / y, a / b),
                          (ops.maximum(x, y), np.maximum(a, b)), (-x, -a), (x * 2.5, a * dtype(2.5))]:
            np.testing.assert_array_equal(got.asnumpy(), want)
        np.testing.assert_allclose(ops.exp(x).asnumpy(), np.exp(a), rtol=2e-6)
        np.testing.assert_allclose(ops.sqrt(ops.abs(x)).asnumpy(), np.sqrt(np.abs(a)), rtol=1e-6)
    finally:
        ms.set_context(runtime_num_threads=1)


def test_nan_propagation_and_comparisons():
    x = ms.Tensor([1.0, float("nan"), 3.0])
    y = ms.Tensor([2.0, 0.0, float("nan")])
    assert np.isnan(ops.maximum(x, y).asnumpy()[1:]).all()
    assert np.isnan(ops.minimum(x, y).asnumpy()[1:]).all()
    assert (x == x).tolist() == [True, False, True]
    assert (x != x).tolist() == [False, True, False]
    for fn, np_fn in [(ops.less, np.less), (ops.less_equal, np.less_equal), (ops.greater, np.greater),
                      (ops.greater_equal, np.greater_equal), (ops.equal, np.equal), (ops.not_equal, np.not_equal)]:
        np.testing.assert_array_equal(fn(x, y).asnumpy(), np_fn(x.asnumpy(), y.asnumpy()))


def test_integer_pow_and_bool_arithmetic():
    assert ops.pow(ms.Tensor([2, 3, -2]), ms.Tensor([10, 0, 3])).tolist() == [1024, 1, -8]
    t, f = ms.Tensor([True, False]), ms.Tensor([True, True])
    assert (t + f).tolist() == [True, True] and (t * f).tolist() == [True, False]


def test_empty_and_zero_dim():
    e = ms.Tensor(np.zeros((0, 3), np.float32))
    assert (e + 1).shape == (0, 3)
    assert (e - ms.Tensor(np.ones(3, np.float32))).shape == (0, 3)  # a row broadcast over no rows
    assert ops.exp(ms.Tensor(1.0)).shape == ()


def test_bad_inputs_name_the_op():
    with pytest.raises(ValueError, match=r"Mul: shapes \(2, 3\) and \(4,\) cannot broadcast"):
        ops.mul(ms.Tensor(np.ones((2, 3))), ms.Tensor(np.ones(4)))
    with pytest.raises(TypeError, match="Sub: 'x' must be a numeric tensor, but got Bool"):
        ms.Tensor([True]) - ms.Tensor([False])
    with pytest.raises(TypeError, match="Neg"):
        -ms.Tensor([True])
    with pytest.raises(TypeError, match="Add: expects 2 tensor inputs"):
        ops.Add()(ms.Tensor([1.0]))
    with pytest.raises(TypeError, match="must hold numbers"):
        ops.add(ms.Tensor([1.0]), np.array(["a"]))
    with pytest.raises(TypeError):
        ms.Tensor([1.0]) + "a"
    with pytest.raises(ValueError, match="does not fit in Int64"):
        ms.Tensor([1]) + 2 ** 70


def test_python_floats_follow_floating_tensors_in_exact_ops():
    v = ms.Parameter(ms.Tensor(np.array([1.0], np.float64)), name="v")
    ops.ApplyGradientDescent()(v, 0.1, ms.Tensor(np.array([0.3], np.float64)))
    assert v.dtype == ms.float64 and v.item() == 1.0 - 0.1 * 0.3  # lr kept in double precision


EDGES = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -3.0, 1e-40, -1e-40, 1e30, -1e30, 3e38, np.inf, -np.inf, np.nan]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("exponent", [0, 1, 2, 3, -1, -2, 0.5, -0.5, 1.7, -2.5, 4.0, 1e-3, 40.0])
def test_pow_by_a_scalar_matches_numpy_at_every_edge(dtype, exponent):
    # Note [Powers by a scalar]: vector formulas per exponent, IEEE's pow at the edges (signed zeros,
    # infinities, NaN, negatives, subnormals), on runs longer than a vector and a tail.
    rng = np.random.default_rng(0)
    body = rng.uniform(-4, 4, 45).astype(dtype)
    x = np.concatenate([np.array(EDGES, dtype), body, np.abs(body) * 50, np.array(EDGES, dtype)[::-1]])
    with np.errstate(all="ignore"):  # the Python float becomes x's dtype first (a weak scalar, NumPy 2's rule)
        want = np.power(x.astype(np.float64), np.float64(dtype(exponent))).astype(dtype)
    got = (ms.Tensor(x) ** exponent).asnumpy()
    assert got.dtype == dtype
    same_class = (np.isnan(got) == np.isnan(want)) & (np.isinf(got) == np.isinf(want))
    assert same_class.all(), f"x={x[~same_class]} got {got[~same_class]} want {want[~same_class]}"
    finite = np.isfinite(want)
    np.testing.assert_array_equal(np.signbit(got[want == 0]), np.signbit(want[want == 0]))
    np.testing.assert_array_equal(got[np.isinf(want)], want[np.isinf(want)])
    # Within two ulp of the float64 result rounded (one rounding for 2 and -1, two for 3 and -2; float32
    # through double exp(e log x)); float64 other than the vector exponents is std::pow itself.
    ulp = np.spacing(np.abs(want[finite]).astype(dtype))
    assert (np.abs(got[finite].astype(np.float64) - want[finite].astype(np.float64)) <= 2 * ulp).all()


def test_pow_by_a_scalar_in_half_precision_and_against_tensors():
    x = np.array([0.0, -0.0, 1.5, -2.0, 3.0, np.inf, -np.inf, np.nan] * 5, np.float16)
    with np.errstate(all="ignore"):
        for e in (2, 0.5, 1.7):
            np.testing.assert_array_equal((ms.Tensor(x) ** e).asnumpy(), np.power(x.astype(np.float32), e).astype(np.float16))
    # A tensor exponent (not one scalar) keeps the element-wise pow.
    b = np.array([2.0, 0.5, 3.0, -1.0] * 10, np.float32)
    a = np.linspace(0.5, 4.0, 40).astype(np.float32)
    np.testing.assert_allclose((ms.Tensor(a) ** ms.Tensor(b)).asnumpy(), np.power(a, b), rtol=1e-6)


def test_float32_pow_by_a_tensor_is_the_rounded_double_result_at_every_edge():
    # simd_pow: exp(e log x) in double for every lane with x > 0 finite, std::pow for the others (zeros,
    # negatives, infinities, NaN, results beyond exp's range), each element its own exponent; also a
    # broadcast base (2 ** y) and a broadcast exponent through the same loop.
    rng = np.random.default_rng(2)
    x = np.concatenate([rng.uniform(0, 10, 501), np.array(EDGES * 3)]).astype(np.float32)
    e = np.concatenate([rng.standard_normal(501) * 3, np.resize([2, -1, 0.5, 3, -2, 200, -200, np.nan, 0], 48)])
    e = e.astype(np.float32)
    with np.errstate(all="ignore"):
        want = np.power(x.astype(np.float64), e.astype(np.float64)).astype(np.float32)
        np.testing.assert_array_equal((ms.Tensor(x) ** ms.Tensor(e)).asnumpy(), want)
        two = np.power(2.0, e.astype(np.float64)).astype(np.float32)
        np.testing.assert_array_equal((ms.Tensor(np.float32(2.0)) ** ms.Tensor(e)).asnumpy(), two)


def test_neg_wraps_integer_minimum_and_keeps_signed_zeros_in_every_layout():
    # Integer Neg runs with its strides as constants (vectorized); -MIN wraps to MIN as in NumPy, and floats
    # negate zeros' signs on the strided path too.
    for dtype in (np.int8, np.int16, np.int32, np.int64):
        x = np.array([np.iinfo(dtype).min, -1, 0, 5, np.iinfo(dtype).max] * 40, dtype)
        with np.errstate(over="ignore"):
            for v in (x, x[::3]):
                np.testing.assert_array_equal((-ms.Tensor(v)).asnumpy(), -v)
    for dtype in (np.float16, np.float32, np.float64):
        x = np.array([0.0, -0.0, 1.5, np.inf, np.nan] * 40, dtype)
        for v in (x, x[::3]):
            got = (-ms.Tensor(v)).asnumpy()
            np.testing.assert_array_equal(got, -v)
            np.testing.assert_array_equal(np.signbit(got), np.signbit(-v))
