"""Math ops beyond the op records: IEEE edge values of the vector math, strided and threaded runs,
integer division corner cases, operators, the zero-safe product gradient, and the composite
functions (logsumexp, var, std, norm, dense, einsum)."""
import math
import os
import subprocess
import sys
import warnings

import numpy as np
import pytest

import sprout as ms
from sprout import _C, ops

SPECIAL = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1e-30, -1e-30, 1e-8, 88.0, 89.0, -89.0, 100.0, -100.0, 700.0, 710.0,
           -710.0, 1e5, -1e5, 1e30, 3e38, -3e38, 39000.0, 40000.0, -0.999999, -1.0000001, -2.0, 1.0000001, math.inf,
           -math.inf, math.nan]

UNARY = [("sin", np.sin), ("cos", np.cos), ("tan", np.tan), ("asin", np.arcsin), ("acos", np.arccos),
         ("atan", np.arctan), ("sinh", np.sinh), ("cosh", np.cosh), ("tanh", np.tanh), ("expm1", np.expm1),
         ("log1p", np.log1p), ("rsqrt", lambda x: 1 / np.sqrt(x)), ("reciprocal", np.reciprocal),
         ("square", np.square), ("abs", np.abs), ("sign", np.sign), ("floor", np.floor), ("ceil", np.ceil),
         ("round", np.round), ("erf", np.vectorize(math.erf, otypes=[float])),
         ("erfc", np.vectorize(math.erfc, otypes=[float]))]


@pytest.mark.parametrize("name,ref", UNARY, ids=[u[0] for u in UNARY])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_edge_values_match_numpy(name, ref, dtype):
    x = np.array(SPECIAL, dtype=dtype)
    x = x[np.isfinite(x.astype(np.float64)) | ~np.isfinite(np.array(SPECIAL))]  # drop values dtype can't hold
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        expected = ref(x.astype(np.float64)).astype(dtype)
    got = getattr(ops, name)(ms.Tensor(x)).asnumpy()
    np.testing.assert_array_equal(np.isnan(got), np.isnan(expected), err_msg=f"{name} NaN pattern on {x}")
    np.testing.assert_array_equal(np.isinf(got), np.isinf(expected), err_msg=f"{name} inf pattern on {x}")
    finite = np.isfinite(expected)
    rtol = 4e-6 if dtype == np.float32 else 1e-13
    np.testing.assert_allclose(got[finite], expected[finite], rtol=rtol, atol=1e-37, err_msg=name)


@pytest.mark.parametrize("dtype", [ms.float16, ms.bfloat16, ms.float32, ms.float64])
def test_strided_and_long_inputs(dtype):
    rng = np.random.default_rng(0)
    x = rng.uniform(-2, 2, (67, 301))
    t = ms.Tensor(x, dtype)
    exact = t.asnumpy().astype(np.float64)
    rtol = {ms.float16: 2e-3, ms.bfloat16: 1.6e-2, ms.float32: 4e-6, ms.float64: 1e-13}[dtype]
    np.testing.assert_allclose(ops.sin(t.T).asnumpy().astype(np.float64), np.sin(exact.T), rtol=rtol, atol=rtol)
    np.testing.assert_allclose(ops.tanh(t[:, ::3]).asnumpy().astype(np.float64), np.tanh(exact[:, ::3]), rtol=rtol,
                               atol=rtol)
    y = ms.Tensor(rng.uniform(0.5, 2, (301,)), dtype)
    np.testing.assert_allclose(ops.atan2(t, y).asnumpy().astype(np.float64),
                               np.arctan2(exact, y.asnumpy().astype(np.float64)), rtol=rtol, atol=rtol)


def test_threads_give_the_same_answer():
    x = ms.Tensor(np.random.default_rng(1).uniform(-3, 3, 300_001).astype(np.float32))
    one = [ops.erf(x).asnumpy(), ops.cos(x).asnumpy(), ops.prod(x[:1000]).asnumpy(), ops.clamp(x, -1.0, 1.0).asnumpy()]
    ms.set_context(runtime_num_threads=2)
    try:
        two = [ops.erf(x).asnumpy(), ops.cos(x).asnumpy(), ops.prod(x[:1000]).asnumpy(),
               ops.clamp(x, -1.0, 1.0).asnumpy()]
    finally:
        ms.set_context(runtime_num_threads=1)
    for a, b in zip(one, two):
        np.testing.assert_allclose(a, b, rtol=1e-6)


def test_atan2_on_the_axes_and_at_infinity():
    y = np.array([0.0, -0.0, 0.0, -0.0, 1.0, -1.0, math.inf, -math.inf, math.inf, 1.0, math.nan], np.float32)
    x = np.array([1.0, 1.0, -1.0, -1.0, 0.0, 0.0, math.inf, -math.inf, 1.0, -math.inf, 1.0], np.float32)
    got = ops.atan2(ms.Tensor(y), ms.Tensor(x)).asnumpy()
    np.testing.assert_array_equal(np.signbit(got), np.signbit(np.arctan2(y, x)))
    np.testing.assert_allclose(got, np.arctan2(y, x), rtol=1e-6)


def test_integer_division_never_traps():
    x = ms.Tensor(np.array([7, -7, 5, -128, 0], np.int8))
    y = ms.Tensor(np.array([0, 0, -1, -1, 0], np.int8))
    assert ops.floor_divide(x, y).asnumpy().tolist() == [0, 0, -5, -128, 0]
    assert ops.floor_mod(x, y).asnumpy().tolist() == [0, 0, 0, 0, 0]
    assert ops.fmod(x, y).asnumpy().tolist() == [0, 0, 0, 0, 0]


def test_float_division_matches_python():
    a = [7.5, -7.5, 7.5, -7.5, 1.0, -0.0]
    b = [2.0, 2.0, -2.0, -2.0, 0.1, 3.0]
    x, y = ms.Tensor(a, ms.float64), ms.Tensor(b, ms.float64)
    assert (x // y).asnumpy().tolist() == [p // q for p, q in zip(a, b)]
    assert (x % y).asnumpy().tolist() == [p % q for p, q in zip(a, b)]
    assert ops.fmod(x, y).asnumpy().tolist() == [math.fmod(p, q) for p, q in zip(a, b)]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_vector_float_division_matches_numpy_bit_for_bit(dtype):
    # Note [Vector fmod]: a - trunc(a / b) * b by one FMA, stepped back into range, is exact where |a / b| is
    # below 2^mantissa; quotients next to an integer (a one ulp off k * b), huge quotients, zeros, infinities
    # and NaN (the scalar definition's lanes) must all agree with NumPy, signs of zeros included, in whole
    # and partial vectors and against a broadcast divisor.
    rng = np.random.default_rng(5)
    n = 20011
    b = (rng.standard_normal(n) * 10.0 ** rng.uniform(-3, 3, n)).astype(dtype)
    spread = (rng.standard_normal(n) * 10.0 ** rng.uniform(-3, 12, n)).astype(dtype)
    toward = rng.choice([-np.inf, np.inf], n).astype(dtype)
    near = np.nextafter((rng.integers(-1000, 1000, n) * b).astype(dtype), toward)
    edges = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -5.0, 1e30, 1e-30], dtype)
    a = np.concatenate([spread, near, np.repeat(edges, edges.size), b * dtype(0.99999994)])
    b = np.concatenate([b, b, np.tile(edges, edges.size), b])
    with np.errstate(all="ignore"):
        for ours, numpy_fn in ((ops.fmod, np.fmod), (ops.remainder, np.remainder), (ops.floor_divide, np.floor_divide)):
            for x, y in ((a, b), (a[:1001], b[7])):
                got, want = ours(ms.Tensor(x), ms.Tensor(y)).asnumpy(), numpy_fn(x, y)
                np.testing.assert_array_equal(got, want, err_msg=numpy_fn.__name__)
                numbers = ~np.isnan(want)
                assert np.array_equal(np.signbit(got[numbers]), np.signbit(want[numbers])), numpy_fn.__name__


def test_operators():
    x = ms.Tensor([7, -7, 5])
    assert (x // 2).asnumpy().tolist() == [3, -4, 2]
    assert (10 // x).asnumpy().tolist() == [1, -2, 2]
    assert (x % 3).asnumpy().tolist() == [1, 2, 2]
    assert (10 % x).asnumpy().tolist() == [3, -4, 0]
    assert abs(x).asnumpy().tolist() == [7, 7, 5]
    assert (ms.Tensor([2.5]) // 1).dtype == ms.float32


def test_operators_stay_right_after_every_other_operator_first_ran():
    # Each operator builds its Primitive on its first call and keeps it; once a reference into a shared
    # container that reallocated as later operators were added made `x * 0.5` read freed memory. A fresh
    # process, so that these are the first calls.
    code = """
import numpy as np, sprout as ms
x = ms.Tensor(np.arange(1.0, 4.0, dtype=np.float32))
first = (x * 0.5).asnumpy().tolist()
for f in (lambda: x - 1, lambda: x / 2, lambda: x // 2, lambda: x % 2, lambda: x ** 2, lambda: -x, lambda: abs(x),
          lambda: x == x, lambda: x != x, lambda: x < x, lambda: x <= x, lambda: x > x, lambda: x >= x, lambda: x + 1):
    f()
assert (x * 0.5).asnumpy().tolist() == first == [0.5, 1.0, 1.5], first
g = ms.grad(lambda s: (s * 0.5 + ms.Tensor(np.zeros((1, 3), np.float32))).sum())(ms.Tensor(np.ones((64, 3), np.float32)))
assert np.all(g.asnumpy() == 0.5)
"""
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(ms.__file__)))
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert result.returncode == 0, result.stderr


def test_arithmetic_operators_in_both_orders_and_their_errors():
    # The operators are the type's number slots (Note [Operators as type slots]): one function sees
    # (a, b) in source order, the Tensor on either side, and raises Python errors itself.
    x, p = ms.Tensor([1.0, 2.0]), ms.Parameter(ms.Tensor([3.0, 4.0]), name="p")
    for got, want in [(x + 1, [2, 3]), (1 + x, [2, 3]), (x - 1, [0, 1]), (1 - x, [0, -1]), (3 * x, [3, 6]),
                      (x / 2, [0.5, 1]), (2 / x, [2, 1]), (x ** 2, [1, 4]), (2 ** x, [2, 4]), (p - x, [2, 2]),
                      (x - p, [-2, -2]), (x + np.array([1.0, 1.0], np.float32), [2, 3])]:
        assert got.asnumpy().tolist() == want
    assert type(p + x) is ms.Tensor and ms.Tensor.__radd__(x, 1).asnumpy().tolist() == [2, 3]
    with pytest.raises(ValueError, match=r"Add: shapes \(2,\) and \(3,\) cannot broadcast"):
        x + ms.Tensor([1.0, 2.0, 3.0])
    with pytest.raises(TypeError, match=r"unsupported operand type\(s\) for \+: 'Tensor' and 'str'"):
        x + "a"
    with pytest.raises(TypeError, match=r"unsupported operand type\(s\) for \*\* or pow\(\)"):
        pow(x, 2, 3)


def test_transcendentals_promote_integers_to_float32():
    out = ops.sin(ms.Tensor([0, 1, 2]))
    assert out.dtype == ms.float32
    np.testing.assert_allclose(out.asnumpy(), np.sin([0, 1, 2]), rtol=1e-6)
    assert ops.abs(ms.Tensor([-3], ms.int16)).dtype == ms.int16


def test_predicates_on_integers():
    x = ms.Tensor([1, 2], ms.int32)
    assert ops.isnan(x).asnumpy().tolist() == [False, False]
    assert ops.isinf(x).asnumpy().tolist() == [False, False]
    assert ops.isfinite(x).asnumpy().tolist() == [True, True]


def test_logical_functions_accept_numbers():
    assert ops.logical_and(ms.Tensor([0, 1, 2]), ms.Tensor([1.0, 1.0, 0.0])).asnumpy().tolist() == [False, True, False]
    assert ms.Tensor([0, 3]).logical_not().asnumpy().tolist() == [True, False]


def test_prod_gradient_with_zeros():
    prim = _C.Primitive("ReduceProd", {"axis": (1,), "keep_dims": False})
    x = np.array([[2.0, 0.0, 3.0], [0.0, 0.0, 5.0], [1.0, 2.0, 4.0]])
    out = prim(ms.Tensor(x))
    (grad,) = _C.run_bprop(prim, [ms.Tensor(x)], [out], [ms.Tensor(np.ones(3))])
    np.testing.assert_array_equal(grad.asnumpy(), [[0.0, 6.0, 0.0], [0.0, 0.0, 0.0], [8.0, 4.0, 2.0]])


def test_clamp_with_one_bound():
    x = ms.Tensor([-2.0, 0.5, 2.0])
    assert ops.clamp(x, min=0.0).asnumpy().tolist() == [0.0, 0.5, 2.0]
    assert ops.clip_by_value(x, clip_value_max=1.0).asnumpy().tolist() == [-2.0, 0.5, 1.0]
    assert x.clamp(-1, 1).asnumpy().tolist() == [-1.0, 0.5, 1.0]


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.int16, np.int8, np.uint8])
def test_integer_clamp_by_numbers_matches_numpy(dtype):
    """Integer clamps by two numbers run in vectors (simd_clamp.h): the type's extremes, a length with a
    tail past the last vector, and lo > hi (every value hi, as PyTorch)."""
    info = np.iinfo(dtype)
    rng = np.random.default_rng(5)
    x = np.concatenate([np.array([info.min, info.max, 0, 1], dtype),
                        rng.integers(info.min, info.max, 100_003, dtype=dtype, endpoint=True)])
    lo, hi = (3, 100) if info.min == 0 else (-50, 60)
    np.testing.assert_array_equal(ops.clamp(ms.Tensor(x), lo, hi).asnumpy(), np.clip(x, lo, hi))
    np.testing.assert_array_equal(ops.clamp(ms.Tensor(x[:37]), hi, lo).asnumpy(), np.full(37, lo, dtype))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_float_clamp_by_numbers_keeps_nan_and_signed_zeros(dtype):
    # simd_clamp.h: x86's min and max would return a bound for NaN; NaN stays NaN at every lane position.
    edges = np.array([np.nan, -np.inf, np.inf, -0.0, 0.0, -1.0, 0.25, 2.0], dtype)
    x = np.concatenate([np.tile(edges, 9), np.random.default_rng(6).standard_normal(1001).astype(dtype)])
    got = ops.clamp(ms.Tensor(x), -0.5, 0.5).asnumpy()
    want = np.clip(x, dtype(-0.5), dtype(0.5))
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(np.signbit(got), np.signbit(want))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_lerp_and_addcmul_round_alike_in_vector_and_strided_rows(dtype):
    # simd_nary.h: the vector rows take the scalar loops' operations in their order (built without fused
    # multiply-adds), so contiguous, broadcast and strided layouts give NumPy's float results bit for bit.
    rng = np.random.default_rng(7)
    a, b, w = (rng.standard_normal((37, 66)).astype(dtype) for _ in range(3))
    half = dtype(0.5)
    for x, y, z in ((a, b, w), (a[:, ::2], b[:, ::2], w[:, ::2])):
        np.testing.assert_array_equal(ops.lerp(ms.Tensor(x), ms.Tensor(y), ms.Tensor(z)).asnumpy(), x + z * (y - x))
        np.testing.assert_array_equal(ops.lerp(ms.Tensor(x), ms.Tensor(y), 0.3).asnumpy(), x + dtype(0.3) * (y - x))
        got = ops.addcmul(ms.Tensor(x), ms.Tensor(y), ms.Tensor(z), ms.Tensor(half)).asnumpy()
        np.testing.assert_array_equal(got, x + (half * y) * z)


def test_unary_ops_of_a_permuted_view_copy_it_in_tiles_first():
    # transposed_operands.h: an NCHW tensor viewed as NHWC goes to the math and activation kernels as a tiled
    # contiguous copy; the values are those of the same op on the permuted array.
    x = np.random.default_rng(8).standard_normal((4, 48, 16, 24)).astype(np.float32)
    view, want = ops.permute(ms.Tensor(x), (0, 2, 3, 1)), x.transpose(0, 2, 3, 1)
    np.testing.assert_array_equal(ops.relu(view).asnumpy(), np.maximum(want, 0))
    np.testing.assert_array_equal(ops.abs(view).asnumpy(), np.abs(want))
    np.testing.assert_allclose(ops.sin(view).asnumpy(), np.sin(want), rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(ops.atan2(view, view + 1).asnumpy(), np.arctan2(want, want + 1), rtol=1e-6, atol=1e-6)


def test_int64_sums_wrap_as_numpy_in_vectors_and_tails():
    # simd_sum: four vector accumulators, then the lanes and the tail in unsigned arithmetic; overflowing
    # sums wrap as NumPy's do, for every length around the vector width and for row sums.
    x = np.random.default_rng(11).integers(-2**62, 2**62, 4099)
    for n in (1, 7, 8, 31, 33, 4099):
        assert ms.Tensor(x[:n]).sum().asnumpy() == x[:n].sum()
    np.testing.assert_array_equal(ms.Tensor(x[:4096].reshape(64, 64)).sum(1).asnumpy(), x[:4096].reshape(64, 64).sum(1))


def test_running_extremes_match_numpy_with_ties_nan_and_column_blocks():
    """Cummax / Cummin (array_scan.cc): ties move the index to the latest position, NaN takes over and stays
    (each later NaN moves the index), bool inputs, and axes with 1, 5 and 700 columns per step (the kernel
    carries blocks of 256 columns)."""
    rng = np.random.default_rng(6)
    for shape, axis in (((300, 40), 1), ((30, 40, 5), 1), ((50, 700), 0)):
        x = rng.integers(0, 4, shape).astype(np.float32)  # few values: many ties
        values, indices = ops.cummax(ms.Tensor(x), axis)
        np.testing.assert_array_equal(values.asnumpy(), np.maximum.accumulate(x, axis))
        positions = np.indices(x.shape)[axis]
        latest = np.maximum.accumulate(np.where(x == np.maximum.accumulate(x, axis), positions, 0), axis)
        np.testing.assert_array_equal(indices.asnumpy(), latest)
        values, _ = ops.cummin(ms.Tensor(x), axis)
        np.testing.assert_array_equal(values.asnumpy(), np.minimum.accumulate(x, axis))
    x = ms.Tensor(np.array([2.0, np.nan, 5.0, np.nan, 1.0], np.float32))
    for fn in (ops.cummax, ops.cummin):
        values, indices = fn(x, 0)
        np.testing.assert_array_equal(values.asnumpy(), [2.0, np.nan, np.nan, np.nan, np.nan])
        assert indices.asnumpy().tolist() == [0, 1, 1, 3, 3]
    values, indices = ops.cummax(ms.Tensor(np.array([False, True, False, True])), 0)
    assert values.asnumpy().tolist() == [False, True, True, True] and indices.asnumpy().tolist() == [0, 1, 1, 3]


def test_diag_and_trace_keep_infinities_to_their_elements():
    # diag pads each value with zeros (x times an identity made inf * 0 = NaN beside an inf); trace sums
    # the gathered diagonal, of non-square matrices too.
    x = np.array([1.0, np.inf, -2.0], np.float32)
    np.testing.assert_array_equal(ops.diag(ms.Tensor(x)).asnumpy(), np.diag(x))
    np.testing.assert_array_equal(ops.diag(ms.Tensor(np.array([[1, 2], [3, 4]]))).asnumpy(),
                                  np.diag([1, 2, 3, 4]).reshape(2, 2, 2, 2))
    m = np.arange(12.0).reshape(3, 4)
    m[0, 1] = np.inf
    assert float(ops.trace(ms.Tensor(m))) == np.trace(m) and float(ops.trace(ms.Tensor(m.T))) == np.trace(m.T)


def test_segment_sums_skip_ids_out_of_range_and_split_wide_slices():
    # UnsortedSegmentSum (array_index.cc): one-element slices added in id order (bincount's case), wide
    # slices split by columns across threads; ids below 0 or past num_segments are dropped.
    rng = np.random.default_rng(8)
    ids = rng.integers(-2, 12, 300)
    x = rng.standard_normal((300, 900))
    got = ops.unsorted_segment_sum(ms.Tensor(x), ms.Tensor(ids.astype(np.int32)), 10).asnumpy()
    want = np.zeros((10, 900))
    for r, i in enumerate(ids):
        if 0 <= i < 10:
            want[i] += x[r]
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
    counts = rng.integers(0, 100, 200_000)
    np.testing.assert_array_equal(ops.bincount(ms.Tensor(counts)).asnumpy(), np.bincount(counts))
    stacked = ops.stack((ms.Tensor(x[:, :7]), ms.Tensor(x[:, 7:14]), ms.Tensor(x[:, 14:21])), 2).asnumpy()
    np.testing.assert_array_equal(stacked, np.stack((x[:, :7], x[:, 7:14], x[:, 14:21]), 2))


def test_round_decimals():
    np.testing.assert_allclose(ops.round(ms.Tensor([1.234, -5.678]), decimals=2).asnumpy(), [1.23, -5.68], rtol=1e-6)


def test_reduce_functions():
    x = np.random.default_rng(2).uniform(-1, 1, (3, 4))
    t = ms.Tensor(x)
    np.testing.assert_allclose(ops.prod(t, 1).asnumpy(), x.prod(1))
    np.testing.assert_allclose(t.prod(keep_dims=True).asnumpy(), x.prod(keepdims=True))
    assert ops.all(t > -2).asnumpy() and not ops.any(t > 2).asnumpy()
    assert ops.any(ms.Tensor([[0, 0], [0, 3]]), axis=1).asnumpy().tolist() == [False, True]


@pytest.mark.parametrize("axis,keep", [(1, False), ((0, 2), True), (-1, True)])
def test_logsumexp_var_std(axis, keep):
    x = np.random.default_rng(3).standard_normal((3, 4, 5)) * 30
    t = ms.Tensor(x)
    m = x.max(axis=axis, keepdims=True)
    ref = np.log(np.exp(x - m).sum(axis=axis, keepdims=True)) + m
    ref = ref if keep else np.squeeze(ref, axis)
    np.testing.assert_allclose(ops.logsumexp(t, axis, keep).asnumpy(), ref, rtol=1e-12)
    np.testing.assert_allclose(ops.var(t, axis, 1, keep).asnumpy(), x.var(axis=axis, ddof=1, keepdims=keep))
    np.testing.assert_allclose(t.std(axis, keepdims=keep).asnumpy(), x.std(axis=axis, keepdims=keep))
    v, mean = ops.var_mean(t, axis, keepdims=keep)
    np.testing.assert_allclose(mean.asnumpy(), x.mean(axis=axis, keepdims=keep))


def test_var_with_too_few_elements_and_reductions_of_0d_inputs():
    # N - ddof is clamped at 0, as NumPy and PyTorch: 0 / 0 = NaN for an empty input, x / 0 = inf otherwise.
    empty = ms.Tensor(np.zeros((0,), np.float32))
    assert np.isnan(ops.var(empty, ddof=1).item()) and np.isnan(ops.std(empty, ddof=1).item())
    assert np.isnan(ops.var(ms.Tensor(np.zeros((2, 0), np.float32)), axis=1, ddof=1).asnumpy()).all()
    assert np.isnan(ops.var(ms.Tensor([1.0]), ddof=1).item())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        assert ops.var(ms.Tensor([1.0, 2.0]), ddof=2).item() == np.var([1.0, 2.0], ddof=2) == math.inf
    # A 0-d input reduces over axis 0 or -1 to itself, as the reduction primitives (and PyTorch) allow.
    s = ms.Tensor(np.array(1.5, np.float32))
    assert ops.var(s, axis=0).item() == 0.0 and np.isnan(ops.var(s, axis=0, ddof=1).item())
    assert ops.std(s, axis=-1, keepdims=True).shape == () and ops.logsumexp(s, 0).item() == 1.5
    assert ops.logsumexp(s, -1, keep_dims=True).shape == ()
    with pytest.raises(ValueError, match="norm: 'dim' must name two different axes"):
        ops.norm(s, dim=(0, 0))


def test_logsumexp_infinities_and_floats():
    x = ms.Tensor([[math.inf, 1.0], [-math.inf, -math.inf], [1000.0, 1000.0]], ms.float32)
    got = ops.logsumexp(x, 1).asnumpy()
    assert got[0] == math.inf and got[1] == -math.inf
    np.testing.assert_allclose(got[2], 1000 + math.log(2), rtol=1e-6)
    with pytest.raises(TypeError, match="var: 'input' must be a floating-point tensor"):
        ops.var(ms.Tensor([1, 2]))


@pytest.mark.parametrize("ord,dim", [(None, None), (None, 1), (1, 1), (3, 0), (0, -1), (math.inf, 1),
                                     (-math.inf, 1), ("fro", (0, 1)), (1, (0, 1)), (-1, (1, 0)), (math.inf, (0, 1)),
                                     (-math.inf, (0, 1))])
def test_norm(ord, dim):
    x = np.random.default_rng(4).standard_normal((4, 5))
    expected = np.linalg.norm(x.ravel() if dim is None else x, ord, axis=dim)
    np.testing.assert_allclose(ops.norm(ms.Tensor(x), ord, dim).asnumpy(), expected, rtol=1e-12)


def test_norm_gradient_of_a_zero_vector_is_zero_and_second_order_matches_finite_differences():
    x = ms.Tensor(np.array([[3.0, 4.0], [0.0, 0.0]]))
    np.testing.assert_array_equal(ms.grad(lambda t: ops.norm(t, dim=1).sum())(x).asnumpy(), [[0.6, 0.8], [0, 0]])
    np.testing.assert_array_equal(ms.grad(lambda t: ops.norm(t, 1, dim=1).sum())(x).asnumpy(), [[1, 1], [0, 0]])
    # d2/dx2 of |x|_2 summed over a row: (|x|^2 - x_i^2) / |x|^3 per element, along the diagonal.
    second = ms.grad(ms.grad(lambda t: ops.norm(t, dim=1).sum()))(x).asnumpy()
    np.testing.assert_allclose(second[0], [(25 - 9 - 12) / 125, (25 - 16 - 12) / 125])
    y = np.random.default_rng(3).standard_normal((3, 4))
    third_power = ms.grad(lambda t: (ops.norm(t, 3, dim=1) ** 2).sum())(ms.Tensor(y)).asnumpy()
    step, expected = 1e-6, np.zeros_like(y)
    for i in np.ndindex(y.shape):
        e = np.zeros_like(y)
        e[i] = step
        f = lambda a: (np.sum(np.abs(a) ** 3, axis=1) ** (2 / 3)).sum()
        expected[i] = (f(y + e) - f(y - e)) / (2 * step)
    np.testing.assert_allclose(third_power, expected, rtol=1e-6)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape,axis", [((37, 301), (0,)), ((5, 33, 70), (1,)), ((3, 100001), (1,)), ((2, 50000), ()),
                                        ((40, 30), (1, 0))])
def test_lp_norm_in_every_reduction_layout_matches_numpy(dtype, shape, axis):
    # Columns (a 4-vector block, one vector, a scalar tail), middle slabs, long rows split across threads,
    # both axes named in reverse.
    x = np.random.default_rng(7).standard_normal(shape).astype(dtype)
    for p in (1, 2):
        expected = np.sum(np.abs(x.astype(np.float64)) ** p, axis=axis or None) ** (1 / p)
        got = ops.LpNorm(axis=axis, p=p, epsilon=0.0)(ms.Tensor(x)).asnumpy()
        np.testing.assert_allclose(got, expected, rtol=1e-5 if dtype == np.float32 else 1e-12)


def test_norm_of_float16_sums_in_float32():
    x = np.full((4, 1000), 100.0, np.float16)  # squares sum to 1e7, far past float16's 65504
    got = ops.norm(ms.Tensor(x), dim=1)
    assert got.dtype == ms.float16
    np.testing.assert_allclose(got.asnumpy().astype(np.float64), np.full(4, 100 * math.sqrt(1000)), rtol=1e-3)


def test_norm_errors():
    x = ms.Tensor(np.ones((2, 3)))
    with pytest.raises(ValueError, match="norm: matrix 'ord' must be one of"):
        ops.norm(x, 3)
    with pytest.raises(ValueError, match="is a matrix norm"):
        ops.norm(x, "fro", 1)
    with pytest.raises(TypeError, match="norm: 'A' must be a floating-point tensor"):
        ops.norm(ms.Tensor([1, 2]))


def test_dense():
    rng = np.random.default_rng(5)
    x, w, b = rng.standard_normal((2, 3, 4)), rng.standard_normal((6, 4)), rng.standard_normal(6)
    np.testing.assert_allclose(ops.dense(ms.Tensor(x), ms.Tensor(w), ms.Tensor(b)).asnumpy(), x @ w.T + b)
    np.testing.assert_allclose(ops.dense(ms.Tensor(x[0, 0]), ms.Tensor(w)).asnumpy(), x[0, 0] @ w.T)
    np.testing.assert_allclose(ops.dense(ms.Tensor(x), ms.Tensor(w[0]), ms.Tensor(1.5)).asnumpy(), x @ w[0] + 1.5)
    with pytest.raises(ValueError, match=r"dense: 'weight' must have shape \(out_channels, 4\)"):
        ops.dense(ms.Tensor(x), ms.Tensor(w.T))


EINSUM = ["bij,bjk->bik", "bij,bjk", "ii->i", "ii", "ij->ji", "ij->", "i,i->", "i,j->ij", "...ij,...jk->...ik",
          "ij,jk,kl->il", "bij->j", "...j,j", "bij,k->bijk", "iij->j", "bi,bi->b"]


@pytest.mark.parametrize("equation", EINSUM)
def test_einsum_matches_numpy(equation):
    rng = np.random.default_rng(6)
    shapes = {"bij,bjk->bik": [(2, 3, 4), (2, 4, 5)], "bij,bjk": [(2, 3, 4), (2, 4, 5)], "ii->i": [(4, 4)],
              "ii": [(4, 4)], "ij->ji": [(3, 4)], "ij->": [(3, 4)], "i,i->": [(4,), (4,)], "i,j->ij": [(3,), (4,)],
              "...ij,...jk->...ik": [(2, 3, 4), (1, 4, 5)], "ij,jk,kl->il": [(2, 3), (3, 4), (4, 5)],
              "bij->j": [(2, 3, 4)], "...j,j": [(2, 3, 4), (4,)], "bij,k->bijk": [(2, 3, 4), (2,)],
              "iij->j": [(3, 3, 2)], "bi,bi->b": [(5, 3), (5, 3)]}[equation]
    xs = [rng.standard_normal(s) for s in shapes]
    np.testing.assert_allclose(ops.einsum(equation, *[ms.Tensor(x) for x in xs]).asnumpy(), np.einsum(equation, *xs),
                               rtol=1e-12, atol=1e-12)


def test_einsum_forms():
    x = ms.Tensor(np.arange(6.0).reshape(2, 3))
    np.testing.assert_array_equal(ops.einsum("ij->ji", [x]).asnumpy(), np.arange(6.0).reshape(2, 3).T)
    np.testing.assert_array_equal(ops.Einsum("ij,ij->i")((x, x)).asnumpy(), (np.arange(6.0).reshape(2, 3) ** 2).sum(1))


def test_edge_values_on_staged_paths():
    """Half types and strided rows compute in a staging block in place; the libm fix-ups must still see
    the inputs, not the partial results."""
    x = ms.Tensor([100.0, -100.0, 1.0, 3e4], ms.bfloat16)
    got = ops.expm1(x).asnumpy()
    assert got[0] == np.inf and got[1] == -1.0
    np.testing.assert_allclose(got[2], np.expm1(1.0), rtol=1e-2)
    strided = ms.Tensor(np.array([1e5, 0.0, -1e6, 0.0, 2.0, 0.0], np.float32))[::2]
    np.testing.assert_allclose(ops.sin(strided).asnumpy(), np.sin(np.array([1e5, -1e6, 2.0], np.float32)), rtol=1e-6)
    y = ms.Tensor([0.0, 1.0, -0.0, 1.0], ms.float16)[::2]
    x2 = ms.Tensor([-1.0, 0.0, -1.0, 0.0], ms.float16)[::2]
    np.testing.assert_allclose(ops.atan2(y, x2).asnumpy().astype(np.float64), [np.pi, -np.pi], rtol=1e-3)


def test_float32_exp_is_within_two_ulp_over_its_whole_range():
    """Note [Float32 exp] and [Float32 exp by VSCALEFPS]: the vector path against float64 exp, every
    float32 in a dense sweep from where exp underflows to 0 to past overflow (subnormal results
    included), plus random values; edge values exactly."""
    x = np.concatenate([np.linspace(-105, 89, 2_000_001),
                        np.random.default_rng(0).uniform(-20, 20, 200_000)]).astype(np.float32)
    got = ms.ops.exp(ms.Tensor(x)).asnumpy().astype(np.float64)
    with np.errstate(over="ignore"):
        want32 = np.exp(x.astype(np.float64)).astype(np.float32)
    finite = np.isfinite(want32)
    np.testing.assert_array_equal(got[~finite], want32[~finite])  # overflow to inf
    want = np.exp(x[finite].astype(np.float64))
    ulp = np.spacing(want32[finite]).astype(np.float64)  # the subnormals' spacing below 2^-126
    assert np.max(np.abs(got[finite] - want) / ulp) <= 2
    assert np.count_nonzero((got > 0) & (got < np.finfo(np.float32).tiny)) > 1000  # subnormals were swept
    edge = np.array([-np.inf, -1000, -104, -88, -87.4, -0.0, 88.8, np.inf, np.nan], np.float32)
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(ms.ops.exp(ms.Tensor(edge)).asnumpy(), np.exp(edge))


def test_float32_tanh_is_within_three_ulp_and_exact_at_the_edges():
    """Note [Float32 tanh]: y / (y + 2) with y = expm1(2|x|), against float64 tanh on a dense sweep, tiny
    and subnormal inputs included; infinities give +-1, NaN stays NaN, -0 stays -0. The fused LSTM/GRU
    cells use the same tanh."""
    rng = np.random.default_rng(0)
    x = np.concatenate([np.linspace(-10, 10, 2_000_001), rng.uniform(-1e-3, 1e-3, 100_000),
                        np.geomspace(1e-44, 1, 100_000), -np.geomspace(1e-44, 1, 100_000)]).astype(np.float32)
    got = ms.ops.tanh(ms.Tensor(x)).asnumpy().astype(np.float64)
    want = np.tanh(x.astype(np.float64))
    ulp = np.spacing(np.abs(want).astype(np.float32)).astype(np.float64)
    assert np.max(np.abs(got - want) / ulp) <= 3
    edge = np.array([np.inf, -np.inf, np.nan, -0.0, 0.0, 9.2, -20.0, 3.4e38], np.float32)
    out = ms.ops.tanh(ms.Tensor(edge)).asnumpy()
    np.testing.assert_array_equal(out, [1, -1, np.nan, -0.0, 0.0, 1, -1, 1])
    assert np.signbit(out[3]) and not np.signbit(out[4])


def test_float32_log_is_within_one_ulp_and_exact_at_the_edges():
    """Note [Float32 log]: Cephes' logf on the vector path for normal positive floats, against float64
    log over the whole range; zero, negatives, subnormals, inf and NaN go through libm exactly."""
    rng = np.random.default_rng(0)
    x = np.concatenate([np.geomspace(1.2e-38, 3.4e38, 1_000_000), rng.uniform(0.5, 2, 500_000),
                        np.linspace(0.9, 1.1, 500_001)]).astype(np.float32)
    got = ms.ops.log(ms.Tensor(x)).asnumpy().astype(np.float64)
    want = np.log(x.astype(np.float64))
    ulp = np.spacing(np.abs(want).astype(np.float32)).astype(np.float64)
    assert np.max(np.abs(got - want) / ulp) <= 1
    edge = np.array([0.0, -0.0, -1.0, np.inf, np.nan, 1e-40, 1.0, 1.17549435e-38, -np.inf], np.float32)
    with np.errstate(divide="ignore", invalid="ignore"):
        np.testing.assert_array_equal(ms.ops.log(ms.Tensor(edge)).asnumpy(), np.log(edge))


def test_float32_erf_is_within_two_and_a_half_ulp_and_exact_at_the_edges():
    """Note [Float32 erf]: x G(x^2) below 1, 1 - exp(log-erfc polynomial) from 1 to 4, against Python's
    float64 erf on a dense sweep (every float checked once when the pieces were fitted: 2.08 ulp at most);
    -0 stays -0, infinities give +-1, NaN stays NaN."""
    rng = np.random.default_rng(0)
    x = np.concatenate([np.linspace(-5, 5, 1_000_001), rng.uniform(0.9, 1.1, 200_000),
                        np.geomspace(1e-40, 1, 100_000), -np.geomspace(1e-40, 1, 100_000)]).astype(np.float32)
    got = ms.ops.erf(ms.Tensor(x)).asnumpy().astype(np.float64)
    want = np.vectorize(math.erf, otypes=[float])(x.astype(np.float64))
    ulp = np.spacing(np.abs(want).astype(np.float32)).astype(np.float64)
    assert np.max(np.abs(got - want) / ulp) <= 2.5
    edge = np.array([-0.0, 0.0, np.inf, -np.inf, np.nan, 4.0, -9.5, 3e38], np.float32)
    out = ms.ops.erf(ms.Tensor(edge)).asnumpy()
    np.testing.assert_array_equal(out, [-0.0, 0.0, 1, -1, np.nan, 1, -1, 1])
    assert np.signbit(out[0]) and not np.signbit(out[1])


def test_operators_on_a_tensor_never_initialized_raise_type_error():
    """Note [Tensor objects without type lookups]: the operator slots find the Tensor by type pointer; one
    made by Tensor.__new__ alone is refused with a TypeError, not read."""
    hollow = ms.Tensor.__new__(ms.Tensor)
    x = ms.Tensor(np.ones(2, np.float32))
    for use in (lambda: -hollow, lambda: abs(hollow), lambda: x + hollow, lambda: hollow * x,
                lambda: hollow == x, lambda: ops.add(x, hollow)):
        with pytest.raises(TypeError, match="__init__ never ran"):
            use()
    p = ms.Parameter(ms.Tensor(np.array([1.0, -2.0], np.float32)), name="w")  # a subclass takes the same path
    np.testing.assert_array_equal((-p).asnumpy(), [-1, 2])
    np.testing.assert_array_equal(abs(p).asnumpy(), [1, 2])
    np.testing.assert_array_equal((p + x).asnumpy(), [2, -1])


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_binary_ops_at_every_length_around_the_vector_width(dtype):
    """The vector loop's tail (on AVX-512 a masked load and store, elsewhere a copy through stack
    buffers) at each length up to a few vectors, with tensor and scalar operands on either side."""
    rng = np.random.default_rng(0)
    for n in range(0, 40):
        a, b = rng.standard_normal(n).astype(dtype), rng.standard_normal(n).astype(dtype)
        x, y = ms.Tensor(a), ms.Tensor(b)
        np.testing.assert_array_equal((x + y).asnumpy(), a + b)
        np.testing.assert_array_equal((x / y).asnumpy(), a / b)
        np.testing.assert_array_equal((x * 2.5).asnumpy(), a * dtype(2.5))
        np.testing.assert_array_equal((3.0 - x).asnumpy(), dtype(3) - a)
        np.testing.assert_array_equal(ops.maximum(x, y).asnumpy(), np.maximum(a, b))
